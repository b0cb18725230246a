const options = {
  method: "PATCH",
  headers: {
    "Content-Type": "text/plain"
  },
  body: "it's \"done\" \\ $HOME #{x}\nline 2"
};

fetch("https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E", options)
  .then(response => response.text())
  .then(text => console.log(text))
  .catch(err => {
    console.error(err);
    process.exitCode = 1;
  });
