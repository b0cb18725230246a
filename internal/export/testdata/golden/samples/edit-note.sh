curl --request PATCH \
  --url 'https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E' \
  --header 'Content-Type: text/plain' \
  --data 'it'\''s "done" \ $HOME #{x}
line 2'
