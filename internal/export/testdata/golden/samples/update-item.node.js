const options = {
  method: "PUT",
  headers: {
    "X-Request-Id": "req-7",
    "Authorization": "Bearer <token>",
    "Content-Type": "application/json",
    "Cookie": "session=s1"
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
  })
};

fetch("https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true", options)
  .then(response => response.text())
  .then(text => console.log(text))
  .catch(err => {
    console.error(err);
    process.exitCode = 1;
  });
