import requests

url = "https://echo.invalid/v2/config"
payload = "{\n  \"name\": \"web\",\n  \"replicas\": 2\n}"
headers = {"Content-Type": "application/yaml"}

response = requests.request("PUT", url, data=payload, headers=headers)

print(response.text)
