package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	payload := strings.NewReader(`{
  "name": "web",
  "replicas": 2
}`)

	req, err := http.NewRequest("PUT", "https://echo.invalid/v2/config", payload)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/yaml")

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
