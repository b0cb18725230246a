require "uri"
require "net/http"

url = URI('https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E')

http = Net::HTTP.new(url.host, url.port)
http.use_ssl = url.scheme == "https"

request = Net::HTTP::Patch.new(url)
request['Content-Type'] = 'text/plain'
request.body = 'it\'s "done" \\ $HOME #{x}
line 2'

response = http.request(request)
puts response.read_body
