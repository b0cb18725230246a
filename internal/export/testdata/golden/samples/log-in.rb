require "uri"
require "net/http"

url = URI('https://echo.invalid/v2/login')

http = Net::HTTP.new(url.host, url.port)
http.use_ssl = url.scheme == "https"

request = Net::HTTP::Post.new(url)
request['Authorization'] = 'Basic <credentials>'
request.set_form([
  ['username', 'ada'],
  ['scope', 'read write']
], 'application/x-www-form-urlencoded')

response = http.request(request)
puts response.read_body
