require "uri"
require "net/http"

url = URI('https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true')

http = Net::HTTP.new(url.host, url.port)
http.use_ssl = url.scheme == "https"

request = Net::HTTP::Put.new(url)
request['X-Request-Id'] = 'req-7'
request['Authorization'] = 'Bearer <token>'
request['Content-Type'] = 'application/json'
request['Cookie'] = 'session=s1'
request.body = '{
  "name": "Shoe",
  "price": 12.5,
  "tags": [
    "red",
    "it\'s"
  ],
  "stock": null,
  "active": false
}'

response = http.request(request)
puts response.read_body
