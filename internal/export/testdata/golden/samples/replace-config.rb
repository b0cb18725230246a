require "uri"
require "net/http"

url = URI('https://echo.invalid/v2/config')

http = Net::HTTP.new(url.host, url.port)
http.use_ssl = url.scheme == "https"

request = Net::HTTP::Put.new(url)
request['Content-Type'] = 'application/yaml'
request.body = '{
  "name": "web",
  "replicas": 2
}'

response = http.request(request)
puts response.read_body
