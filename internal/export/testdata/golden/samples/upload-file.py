import requests

url = "https://echo.invalid/v2/uploads"
data = {"title": "report"}
files = {"file": open("file.bin", "rb")}
headers = {"X-API-Key": "<api-key>"}

response = requests.request("POST", url, data=data, files=files, headers=headers)

print(response.text)
