package image

import (
	"bytes"
	"encoding/pem"
	"errors"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// RootsPEM is the image's CA bundle: the Mozilla NSS roots as
// golang.org/x/crypto/x509roots packages them, pinned by go.mod, so the
// image does not depend on the build machine's ca-certificates package.
// Roots that NSS trusts only for certificates issued before a date are left
// out: a PEM file cannot say so, and trusting them fully would be more than
// NSS does.
func RootsPEM() ([]byte, error) {
	var buf bytes.Buffer
	for r := range bundle.Roots() {
		if r.Constraint != nil {
			continue
		}
		if err := pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: r.Certificate}); err != nil {
			return nil, err
		}
	}
	if buf.Len() == 0 {
		return nil, errors.New("image: the root bundle is empty")
	}
	return buf.Bytes(), nil
}
