curl --request PUT \
  --url 'https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true' \
  --header 'X-Request-Id: req-7' \
  --header 'Authorization: Bearer <token>' \
  --header 'Content-Type: application/json' \
  --cookie 'session=s1' \
  --data '{
  "name": "Shoe",
  "price": 12.5,
  "tags": [
    "red",
    "it'\''s"
  ],
  "stock": null,
  "active": false
}'
