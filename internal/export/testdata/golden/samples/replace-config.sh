curl --request PUT \
  --url 'https://echo.invalid/v2/config' \
  --header 'Content-Type: application/yaml' \
  --data '{
  "name": "web",
  "replicas": 2
}'
