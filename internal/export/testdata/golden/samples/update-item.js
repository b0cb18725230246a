// The browser sends the cookie session=s1 it holds for the API; fetch cannot set it.
const options = {
  method: "PUT",
  headers: {
    "X-Request-Id": "req-7",
    "Authorization": "Bearer <token>",
    "Content-Type": "application/json"
  },
  body: JSON.stringify({
    "name": "Shoe",
    "price": 12.5,
    "tags": [
      "red",
      "it's"
    ],
    "stock": null,
    "active": false
  }),
  credentials: "include"
};

fetch("https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true", options)
  .then(response => response.json())
  .then(response => console.log(response))
  .catch(err => console.error(err));
