curl --request POST \
  --url 'https://echo.invalid/v2/login' \
  --header 'Authorization: Basic <credentials>' \
  --data-urlencode 'username=ada' \
  --data-urlencode 'scope=read write'
