package export

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden from the current output")

// TestGolden pins the HTML of the fixture site, which uses every supported
// component and navigation level. Review a diff of testdata/golden after
// `go test ./internal/export -run TestGolden -args -update` like any code change.
func TestGolden(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: fixture(), Kind: KindAirGapped, Label: "golden"})
	for _, page := range []string{"components.html", "index.html", "nested/child.html", "reference/endpoint.html", "v1/old.html", "hidden-page.html"} {
		t.Run(page, func(t *testing.T) {
			got := readOut(t, dir, page)
			// One element per line keeps golden diffs readable.
			got = strings.ReplaceAll(got, "><", ">\n<")
			compareGolden(t, filepath.Join("testdata", "golden", strings.ReplaceAll(page, "/", "__")), got)
		})
	}
}

// compareGolden compares got with the golden file, or writes it there
// under -update.
func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -args -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs; first difference:\n%s", golden, firstDiff(string(want), got))
	}
}

// firstDiff shows the first differing line with a little context.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n- " + w + "\n+ " + g
		}
	}
	return "(no line differs)"
}
