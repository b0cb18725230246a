package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
)

// memSite is a bundle held in memory: its files and their manifest.
type memSite map[string][]byte

func (s memSite) manifest(t *testing.T) []byte {
	t.Helper()
	m := &Manifest{Domain: "docs.example.com", Kind: "cloud", PageCount: len(s)}
	for name, body := range s {
		sum := sha256.Sum256(body)
		m.Files = append(m.Files, File{Path: name, Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:])})
	}
	raw, err := EncodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// archive writes s's archive, copying from prev when it is not nil, and
// returns it with how many files were opened (compressed again).
func (s memSite) archive(t *testing.T, prev []byte, workers int) ([]byte, int, *Reuse) {
	t.Helper()
	var u *Reuse
	if prev != nil {
		u = NewReuse(bytes.NewReader(prev))
	}
	opened := 0
	var out bytes.Buffer
	err := WriteReusing(context.Background(), &out, workers, s.manifest(t), func(f File) (io.ReadCloser, error) {
		opened++
		return io.NopCloser(bytes.NewReader(s[f.Path])), nil
	}, u)
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), opened, u
}

func testSite() memSite {
	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // test content, not a secret
	s := memSite{}
	for i := range 40 {
		var b strings.Builder
		for range 200 + rng.IntN(4000) {
			b.WriteString([]string{"<p>", "docs ", "</p>\n", "<a href=\"/x\">", "</a>"}[rng.IntN(5)])
		}
		s["guides/page-"+string(rune('a'+i%26))+hex.EncodeToString([]byte{byte(i)})+".html"] = []byte(b.String())
	}
	// A long path takes a PAX header; a file of more than one member.
	s[strings.Repeat("deep/", 30)+"long.html"] = []byte("<p>long</p>")
	big := make([]byte, 2*gzipBlock+999)
	for i := range big {
		big[i] = byte(rng.IntN(7)) + 'a'
	}
	s["_static/big.js"] = big
	s["empty.txt"] = nil
	return s
}

// TestWriteReusing_byteIdentical: whatever changed between two archives,
// the one made by copying from the earlier archive is byte for byte the
// one made from scratch, and compresses again only the groups of the
// files that changed.
func TestWriteReusing_byteIdentical(t *testing.T) {
	base := testSite()
	prev, _, _ := base.archive(t, nil, 2)
	if _, err := VerifyArchive(bytes.NewReader(prev)); err != nil {
		t.Fatalf("the archive does not verify: %v", err)
	}
	changes := map[string]func(memSite){
		"unchanged": func(memSite) {},
		"onePage": func(s memSite) {
			s["guides/page-c02.html"] = append([]byte("<p>new</p>"), s["guides/page-c02.html"]...)
		},
		"bigFile":    func(s memSite) { s["_static/big.js"] = append([]byte("x"), s["_static/big.js"]...) },
		"added":      func(s memSite) { s["guides/aaa.html"] = []byte("first"); s["zzz.html"] = []byte("last") },
		"removed":    func(s memSite) { delete(s, "guides/page-a00.html"); delete(s, "empty.txt") },
		"sameLength": func(s memSite) { b := bytes.Clone(s["guides/page-e04.html"]); b[3] ^= 1; s["guides/page-e04.html"] = b },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			next := maps.Clone(base)
			change(next)
			full, _, _ := next.archive(t, nil, 1)
			incr, opened, u := next.archive(t, prev, 3)
			if !bytes.Equal(full, incr) {
				t.Fatal("the archive made reusing the earlier one differs from the full archive")
			}
			changed := 0
			for p, b := range next {
				if old, ok := base[p]; !ok || !bytes.Equal(old, b) {
					changed++
				}
			}
			for p := range base {
				if _, ok := next[p]; !ok {
					changed++ // a removed file changes its group too
				}
			}
			manifest := 0
			if bytes.Equal(next.manifest(t), base.manifest(t)) {
				manifest = 1 // the manifest is an entry too
			}
			// A changed file's group is compressed again, and only its.
			if u.Copied+opened != len(next)+manifest || opened > changed*maxGroupFiles {
				t.Fatalf("copied %d entries and compressed %d files, with %d of %d files changed", u.Copied, opened, changed, len(next))
			}
			if changed < 3 && u.Copied == 0 {
				t.Fatal("nothing copied")
			}
		})
	}
}

// TestWriteReusing_badEarlierArchive: an earlier archive that is not of
// this layout, is cut short or lies in its headers is only not copied
// from; the archive is still the full one.
func TestWriteReusing_badEarlierArchive(t *testing.T) {
	site := testSite()
	full, _, _ := site.archive(t, nil, 2)
	lying := bytes.Clone(full)
	// The second member's SHA-256 is wrong: its file looks changed.
	u := NewReuse(bytes.NewReader(lying))
	h, _ := u.readHead()
	off := h.memberLen + len(h.raw) - len(h.path) - sha256.Size
	lying[off] ^= 0xff
	// An archive of the old layout (one gzip stream) for the same site.
	for name, prev := range map[string][]byte{
		"cutShort":  full[:len(full)/2],
		"lying":     lying,
		"oldLayout": oldLayout(t, site),
		"notGzip":   []byte("not an archive at all"),
		"empty":     {},
	} {
		t.Run(name, func(t *testing.T) {
			got, _, _ := site.archive(t, prev, 2)
			if !bytes.Equal(got, full) {
				t.Fatal("a bad earlier archive changed the archive")
			}
		})
	}
}

// oldLayout is a tar.gz of the site as one gzip stream, as archives were
// made before each entry had members of its own.
func oldLayout(t *testing.T, s memSite) []byte {
	t.Helper()
	manifest := s.manifest(t)
	var m Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		t.Fatal(err)
	}
	entries := []tarEntry{{*entryHeader(ManifestName, int64(len(manifest))), manifest}}
	for _, f := range m.Files {
		entries = append(entries, tarEntry{*entryHeader(f.Path, f.Size), s[f.Path]})
	}
	return writeArchive(t, entries)
}
