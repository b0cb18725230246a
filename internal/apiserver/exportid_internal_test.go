package apiserver

import (
	"crypto/rand"
	"regexp"
	"testing"
)

// validExportID accepts exactly what the pattern of issued ids does, and
// every id newID issues.
func TestValidExportID(t *testing.T) {
	pattern := regexp.MustCompile(`^se_[0-9a-f]{16}$`)
	for _, id := range []string{
		"se_0123456789abcdef", "se_ffffffffffffffff", "se_0000000000000000",
		"", "se_", "se_0123456789abcde", "se_0123456789abcdef0", "se_0123456789ABCDEF",
		"ae_0123456789abcdef", "se-0123456789abcdef", "se_0123456789abcdeg", "se_../../../etc/pa",
		"se_0123456789abcde\x00", "se_0123456789abcdé", "SE_0123456789abcdef",
	} {
		if got, want := validExportID(id), pattern.MatchString(id); got != want {
			t.Errorf("validExportID(%q) = %v, want %v", id, got, want)
		}
	}
	s := &Server{random: rand.Reader}
	for range 100 {
		id, err := s.newID("se_")
		if err != nil {
			t.Fatal(err)
		}
		if !validExportID(id) {
			t.Fatalf("issued id %q is not valid", id)
		}
	}
}
