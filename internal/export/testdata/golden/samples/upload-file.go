package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
)

func main() {
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	if err := form.WriteField("title", "report"); err != nil {
		panic(err)
	}
	var file *os.File
	var part io.Writer
	var err error
	if file, err = os.Open("file.bin"); err != nil {
		panic(err)
	}
	if part, err = form.CreateFormFile("file", "file.bin"); err != nil {
		panic(err)
	}
	if _, err = io.Copy(part, file); err != nil {
		panic(err)
	}
	file.Close()
	if err := form.Close(); err != nil {
		panic(err)
	}

	req, err := http.NewRequest("POST", "https://echo.invalid/v2/uploads", &body)
	if err != nil {
		panic(err)
	}
	req.Header.Set("X-API-Key", "<api-key>")
	req.Header.Set("Content-Type", form.FormDataContentType())

	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, string(answer))
}
