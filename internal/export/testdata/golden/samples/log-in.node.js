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
  .then(response => response.text())
  .then(text => console.log(text))
  .catch(err => {
    console.error(err);
    process.exitCode = 1;
  });
