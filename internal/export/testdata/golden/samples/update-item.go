package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

func main() {
	payload := strings.NewReader(`{
  "name": "Shoe",
  "price": 12.5,
  "tags": [
    "red",
    "it's"
  ],
  "stock": null,
  "active": false
}`)

	req, err := http.NewRequest("PUT", "https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true", payload)
	if err != nil {
		panic(err)
	}
	req.Header.Set("X-Request-Id", "req-7")
	req.Header.Set("Authorization", "Bearer <token>")
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: "session", Value: "s1"})

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
