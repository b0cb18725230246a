import requests

url = "https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true"
payload = {
    "name": "Shoe",
    "price": 12.5,
    "tags": ["red", "it's"],
    "stock": None,
    "active": False
}
cookies = {"session": "s1"}
headers = {"X-Request-Id": "req-7", "Authorization": "Bearer <token>", "Content-Type": "application/json"}

response = requests.request("PUT", url, json=payload, cookies=cookies, headers=headers)

print(response.text)
