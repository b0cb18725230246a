const form = new URLSearchParams();
form.append("username", "ada");
form.append("scope", "read write");

const options = {
  method: "POST",
  headers: {
    "Authorization": "Basic <credentials>"
  },
  body: form
};

fetch("https://echo.invalid/v2/login", options)
  .then(response => response.json())
  .then(response => console.log(response))
  .catch(err => console.error(err));
