package export

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/airgap"
)

// Bounds of one FuzzSource input. The source's own limits (components,
// highlighting, docs.json) are tighter than a server's defaults so that
// an input costs seconds, not minutes; the bounds below are what the
// export must hold whatever the source: a slow input fails at
// fuzzInputTime (its context ends then; a hang is an export that has
// not returned fuzzHangGrace later), and a huge one at fuzzHeapBound of
// live heap in this process (components' own memory is their evaluator
// processes', bounded by ComponentMemory).
const (
	fuzzInputTime = 20 * time.Second
	fuzzHangGrace = 10 * time.Second
	fuzzHeapBound = 512 << 20
	// fuzzRefLevels is how many $ref files the ref part makes: each is
	// the ref part with NEXT naming the next one.
	fuzzRefLevels = 6
	// fuzzMaxBig bounds the size of big.bin, in KiB: 64 MiB, written
	// sparse, over the limits the fuzzer sets.
	fuzzMaxBig = 64 << 10
)

var fuzzLimits = Limits{
	MaxPageBytes:  1 << 20,
	MaxAssetBytes: 8 << 20,
	MaxTotalBytes: 32 << 20,
	ComponentTime: time.Second,
	HighlightTime: 2 * time.Second,
}

// FuzzSource exports whole docs sources written to disk: a docs.json and
// the chain of $ref files it may name (r1.json… from the ref part, each
// naming the next as NEXT, the last leaf.json), a page, a snippet it may include
// (/snippets/note.mdx), a component file it may import
// (/snippets/comp.jsx), an OpenAPI spec (o.json) and a file of a given
// size (big.bin, sparse), in the cloud and air-gapped kinds. Whatever
// the input, each export returns (a result or an input error) within
// fuzzInputTime, keeps the live heap under fuzzHeapBound, and never
// panics (a panic in a page is recovered into "render failed", a failure
// here). testdata/fuzz/FuzzSource holds every hostile source of issue 39,
// replayed by every `go test`.
func FuzzSource(f *testing.F) {
	f.Add(`{"navigation": {"pages": ["index"]}, "x": {"$ref": "r1.json"}}`, `{"group": "G", "pages": ["index"]}`,
		"---\ntitle: Home\n---\n\nimport { Hello } from \"/snippets/comp.jsx\";\n\n<Hello name=\"x\" />\n\n<Note />\n",
		"Shared **note**.\n", "export const Hello = ({ name }) => <p>Hello {name}</p>;\n",
		`{"openapi": "3.1.0", "paths": {"/a": {"get": {"summary": "A", "responses": {"200": {"description": "ok"}}}}}}`, uint16(1))
	f.Fuzz(func(t *testing.T, docsJSON, ref, page, snippet, component, spec string, bigKiB uint16) {
		for _, part := range []string{docsJSON, ref, page, snippet, component, spec} {
			if len(part) > 1<<20 {
				t.Skip()
			}
		}
		dir := t.TempDir()
		files := map[string]string{
			"docs.json": docsJSON, "index.mdx": page, "snippets/note.mdx": snippet,
			"snippets/comp.jsx": component, "o.json": spec,
			"op.mdx": "---\nopenapi: o.json GET /a\n---\n",
		}
		for i := 1; i <= fuzzRefLevels; i++ {
			next := fmt.Sprintf("r%d.json", i+1)
			if i == fuzzRefLevels {
				next = "leaf.json"
			}
			files[fmt.Sprintf("r%d.json", i)] = strings.ReplaceAll(ref, "NEXT", next)
		}
		files["leaf.json"] = `{"group": "Leaf", "pages": ["index"]}`
		writeFuzzSource(t, dir, files, int64(min(int(bigKiB), fuzzMaxBig))<<10)
		for _, kind := range []Kind{KindCloud, KindAirGapped} {
			out := exportBounded(t, os.DirFS(dir), kind)
			if kind == KindAirGapped && out != "" {
				checkStaysInside(t, out)
			}
		}
	})
}

// writeFuzzSource writes files under dir, and big.bin of size bytes
// (sparse).
func writeFuzzSource(t *testing.T, dir string, files map[string]string, size int64) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big, err := os.Create(filepath.Join(dir, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	if err := big.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

// exportBounded exports src within the fuzzer's bounds, failing the test
// on a panic, a hang, an export past its time or a heap past its bound.
// It returns the bundle's directory, or "" when the export failed (on
// the source: an input error).
func exportBounded(t *testing.T, src fs.FS, kind Kind) string {
	t.Helper()
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), fuzzInputTime)
	defer cancel()
	var peak atomic.Int64
	stopWatch := watchHeap(&peak, cancel)
	e := New(Options{Workers: 2, Limits: fuzzLimits})
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := e.Export(ctx, Request{Source: src, Kind: kind, Domain: "docs.example.com"}, out, nil)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(fuzzInputTime + fuzzHangGrace):
		t.Fatalf("%s export still running %v after it started: a hang", kind, fuzzInputTime+fuzzHangGrace)
	}
	e.Close() // no evaluator outlives its input
	stopWatch()
	if p := peak.Load(); p > fuzzHeapBound {
		t.Fatalf("%s export reached %d MiB of live heap, over the bound of %d MiB", kind, p>>20, fuzzHeapBound>>20)
	}
	if ctx.Err() == context.DeadlineExceeded {
		t.Fatalf("%s export did not finish within %v (it took %v)", kind, fuzzInputTime, time.Since(start).Round(time.Millisecond))
	}
	if err != nil && strings.Contains(err.Error(), "render failed") {
		t.Fatalf("%s export panicked: %v", kind, err)
	}
	if err != nil {
		return ""
	}
	return out
}

// checkStaysInside reads every page of an air-gapped bundle as the
// air-gap pass does and fails on anything it would still take out: a
// reference that survived the export would reach outside the bundle.
func checkStaysInside(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		page, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		prefix := strings.Repeat("../", strings.Count(filepath.ToSlash(rel), "/"))
		// The bundle's own inline scripts (the theme, search) are
		// written after the pass and allowed by hash in its CSP; every
		// other thing the pass names is an address.
		_, out := airgap.HTML(page, prefix, "")
		out = slices.DeleteFunc(out, func(s string) bool { return s == "an inline script" })
		if len(out) > 0 {
			t.Errorf("air-gapped %s still reaches outside the bundle: %q", rel, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// watchHeap samples the live heap every 10 ms into peak, and calls stop
// once it passes fuzzHeapBound, so that an export growing without end is
// cut off and reported rather than taking the machine's memory. The
// returned func ends the sampling.
func watchHeap(peak *atomic.Int64, stop func()) func() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	quit := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := int64(sample[0].Value.Uint64()); v > peak.Load() { //nolint:gosec // G115: heap bytes fit
				peak.Store(v)
				if v > fuzzHeapBound {
					stop()
				}
			}
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(quit); <-ended }
}
