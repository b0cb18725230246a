const fs = require("node:fs");

const form = new FormData();
form.append("title", "report");
form.append("file", new Blob([fs.readFileSync("file.bin")]), "file.bin");

const options = {
  method: "POST",
  headers: {
    "X-API-Key": "<api-key>"
  },
  body: form
};

fetch("https://echo.invalid/v2/uploads", options)
  .then(response => response.text())
  .then(text => console.log(text))
  .catch(err => {
    console.error(err);
    process.exitCode = 1;
  });
