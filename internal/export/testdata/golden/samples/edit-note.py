import requests

url = "https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E"
payload = "it's \"done\" \\ $HOME #{x}\nline 2"
headers = {"Content-Type": "text/plain"}

response = requests.request("PATCH", url, data=payload, headers=headers)

print(response.text)
