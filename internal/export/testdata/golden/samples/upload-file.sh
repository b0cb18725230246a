curl --request POST \
  --url 'https://echo.invalid/v2/uploads' \
  --header 'X-API-Key: <api-key>' \
  --form 'title=report' \
  --form 'file=@file.bin'
