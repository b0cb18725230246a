package linksign

import (
	"crypto/rand"
	"errors"
	"net/url"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestVerify: a link verifies for exactly what it was signed for, until
// its expiry; anything changed in it fails as a forgery, checked before
// the expiry so a forger learns nothing from the time.
func TestVerify(t *testing.T) {
	ring, err := LoadKeyRing(t.TempDir(), rand.Reader, t0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := &Signer{Ring: ring}
	exp := t0.Add(time.Hour)
	signed := s.Sign("job-1", "bundle.tar.gz", exp)
	with := func(k, v string) url.Values {
		q := url.Values{}
		for name, vs := range signed {
			q[name] = append([]string(nil), vs...)
		}
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
		return q
	}
	for _, tc := range []struct {
		name      string
		job, file string
		q         url.Values
		now       time.Time
		want      error
	}{
		{"as signed", "job-1", "bundle.tar.gz", signed, t0, nil},
		{"a second before expiry", "job-1", "bundle.tar.gz", signed, exp.Add(-time.Second), nil},
		{"at expiry", "job-1", "bundle.tar.gz", signed, exp, ErrLinkExpired},
		{"another job", "job-2", "bundle.tar.gz", signed, t0, ErrLinkSignature},
		{"another file", "job-1", "other.tar.gz", signed, t0, ErrLinkSignature},
		{"a later expiry", "job-1", "bundle.tar.gz", with(paramExpires, "9999999999"), t0, ErrLinkSignature},
		{"expired and altered", "job-1", "bundle.tar.gz", with(paramSignature, "00"), exp.Add(time.Hour), ErrLinkSignature},
		{"no signature", "job-1", "bundle.tar.gz", with(paramSignature, ""), t0, ErrLinkSignature},
		{"a signature not in hex", "job-1", "bundle.tar.gz", with(paramSignature, "zz"), t0, ErrLinkSignature},
		{"an expiry not a number", "job-1", "bundle.tar.gz", with(paramExpires, "soon"), t0, ErrLinkSignature},
		{"an unknown key", "job-1", "bundle.tar.gz", with(paramKeyID, "nokey"), t0, ErrLinkSignature},
	} {
		if got := s.Verify(tc.job, tc.file, tc.q, tc.now); !errors.Is(got, tc.want) || (tc.want == nil && got != nil) {
			t.Errorf("%s: Verify = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRotateKeyRing: after a rotation the new key signs and the old one
// still verifies until its links have expired (the next load after
// linkTTL drops it), unless the rotation dropped it at once.
func TestRotateKeyRing(t *testing.T) {
	for _, tc := range []struct {
		name          string
		drop          bool
		load          time.Time // when the ring is loaded again
		oldLinkPasses bool
	}{
		{"retired, within the link lifetime", false, t0.Add(30 * time.Minute), true},
		{"retired, past the link lifetime", false, t0.Add(2 * time.Hour), false},
		{"dropped", true, t0.Add(time.Minute), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, _, err := RotateKeyRing(dir, rand.Reader, t0, false); !errors.Is(err, ErrNoKeyRing) {
				t.Fatalf("rotating an empty data dir: %v, want ErrNoKeyRing", err)
			}
			ring, err := LoadKeyRing(dir, rand.Reader, t0, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			oldLink := (&Signer{Ring: ring}).Sign("job", "f", t0.Add(10*time.Hour))
			old, next, err := RotateKeyRing(dir, rand.Reader, t0, tc.drop)
			if err != nil || len(old) != 1 || next == "" || next == old[0] {
				t.Fatalf("RotateKeyRing = %v, %q, %v; want the one old key and a new one", old, next, err)
			}
			ring, err = LoadKeyRing(dir, rand.Reader, tc.load, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			s := &Signer{Ring: ring}
			if got := s.Sign("job", "f", t0.Add(time.Hour)).Get(paramKeyID); got != next {
				t.Errorf("the ring signs with key %q, want the new %q", got, next)
			}
			err = s.Verify("job", "f", oldLink, tc.load)
			if tc.oldLinkPasses && err != nil || !tc.oldLinkPasses && !errors.Is(err, ErrLinkSignature) {
				t.Errorf("a link of the old key: %v, want it to pass: %v", err, tc.oldLinkPasses)
			}
		})
	}
}

// TestHasKeyRing: only a data dir a server signed from has a key.
func TestHasKeyRing(t *testing.T) {
	dir := t.TempDir()
	if ok, err := HasKeyRing(dir); ok || err != nil {
		t.Fatalf("empty data dir: %v, %v; want false", ok, err)
	}
	if _, err := LoadKeyRing(dir, rand.Reader, t0, time.Hour); err != nil {
		t.Fatal(err)
	}
	if ok, err := HasKeyRing(dir); !ok || err != nil {
		t.Fatalf("after the first load: %v, %v; want true", ok, err)
	}
}
