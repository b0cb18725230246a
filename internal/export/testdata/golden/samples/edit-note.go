package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	payload := strings.NewReader(`it's "done" \ $HOME #{x}
line 2`)

	req, err := http.NewRequest("PATCH", "https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E", payload)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "text/plain")

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
