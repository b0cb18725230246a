const form = new FormData();
form.append("title", "report");
form.append("file", fileInput.files[0]); // file.bin

const options = {
  method: "POST",
  headers: {
    "X-API-Key": "<api-key>"
  },
  body: form
};

fetch("https://echo.invalid/v2/uploads", options)
  .then(response => response.json())
  .then(response => console.log(response))
  .catch(err => console.error(err));
