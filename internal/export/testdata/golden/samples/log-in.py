import requests

url = "https://echo.invalid/v2/login"
data = {"username": "ada", "scope": "read write"}
headers = {"Authorization": "Basic <credentials>"}

response = requests.request("POST", url, data=data, headers=headers)

print(response.text)
