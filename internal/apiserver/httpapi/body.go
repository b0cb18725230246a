package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
)

// DecodeJSON reads exactly one JSON object into v. Unknown fields are
// rejected so that a misspelt field is an error instead of being ignored,
// and so are repeated keys and keys that match a field only when case is
// ignored (encoding/json would take either silently, and another reader
// of the same body might take the other one).
func DecodeJSON(r *http.Request, v any) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return decodeError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return BadRequest("request body must hold a single JSON object")
	}
	return checkKeys(data, fieldNames(v))
}

func decodeError(err error) error {
	var (
		mbe *http.MaxBytesError
		se  *json.SyntaxError
		ute *json.UnmarshalTypeError
		ne  net.Error
	)
	switch {
	case errors.As(err, &mbe):
		return Errorf(http.StatusRequestEntityTooLarge, "request body exceeds %d bytes", mbe.Limit)
	case errors.As(err, &ne) && ne.Timeout():
		// The server's read deadline passed: the client announced a body
		// and did not send it in time.
		return Errorf(http.StatusRequestTimeout, "request body was not received in time")
	case errors.Is(err, io.EOF):
		return BadRequest("request body is empty: send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return BadRequest("request body is truncated JSON")
	case errors.As(err, &se):
		return BadRequest("request body is not valid JSON (offset %d): %s", se.Offset, se.Error())
	case errors.As(err, &ute):
		if ute.Field == "" {
			return BadRequest("request body must be a JSON object, not %s", ute.Value)
		}
		return BadRequest("field %q must be %s, not %s", ute.Field, ute.Type.String(), ute.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return BadRequest("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return BadRequest("request body is not valid JSON: %s", err.Error())
}

// DecodeOptional decodes a body that may be left out entirely.
func DecodeOptional(r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	return DecodeJSON(r, v)
}
