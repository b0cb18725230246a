require "uri"
require "net/http"

url = URI('https://echo.invalid/v2/uploads')

http = Net::HTTP.new(url.host, url.port)
http.use_ssl = url.scheme == "https"

request = Net::HTTP::Post.new(url)
request['X-API-Key'] = '<api-key>'
request.set_form([
  ['title', 'report'],
  ['file', File.open('file.bin')]
], 'multipart/form-data')

response = http.request(request)
puts response.read_body
