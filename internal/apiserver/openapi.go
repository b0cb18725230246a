package apiserver

import (
	_ "embed"
	"net/http"
	"strconv"
)

// openAPIDoc describes every operation of routes; a test keeps the two in
// step.
//
//go:embed openapi.json
var openAPIDoc []byte

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(openAPIDoc)))
	_, _ = w.Write(openAPIDoc)
	return nil
}
