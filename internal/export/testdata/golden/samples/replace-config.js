const options = {
  method: "PUT",
  headers: {
    "Content-Type": "application/yaml"
  },
  body: "{\n  \"name\": \"web\",\n  \"replicas\": 2\n}"
};

fetch("https://echo.invalid/v2/config", options)
  .then(response => response.json())
  .then(response => console.log(response))
  .catch(err => console.error(err));
