//go:build ignore

// Command gen turns the SVG icons of the npm packages the platform's icon
// libraries come from into the compact data files internal/export/icons
// embeds: one gzip'd JSON file per library, holding each distinct drawing
// once as elements and attributes (no markup), the names and aliases that
// reach it in each style, and the package's licence text beside it.
//
// Run it with `go generate ./internal/export/icons` from the repository
// root; it needs npm on PATH and the network. The packages are pinned by
// version and by the sha512 of their tarball, and the output is written
// deterministically, so a second run rewrites the same bytes.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// pkg is one pinned npm package; integrity is npm's "sha512-<base64>".
type pkg struct {
	library, name, version, integrity string
	license                           string // the licence file inside the package
	build                             func(files map[string][]byte) (*dataFile, error)
}

var pkgs = []pkg{
	{"fontawesome", "@fortawesome/fontawesome-free", "7.3.1",
		"sha512-wmglKKPDIkgV3aWlZzWECCPoGIkYCulzBwxG9+w7rc5BGapZ6cPMpoPOT8k36J0Ni7PPX6c/rsoMWfS4d1MUMg==",
		"LICENSE.txt", fontAwesome},
	{"lucide", "lucide-static", "1.62.0",
		"sha512-WBZA/m2PvkFpMGHDtsBck5P2A9G4ehLlYu4GwwICcmEm1BvYVgj00lCDxKRWLlbMlOibLaiwdQ88G5pHkSWgwA==",
		"LICENSE", lucide},
	{"tabler", "@tabler/icons", "3.51.0",
		"sha512-0pinvPZz7YeX+OSfxuEAbnEPWbocVXW5iU8h5lh41pYG8sZuQfpWECC980lxOT0clGIcNGn8xsBr+zKaRGdA/g==",
		"LICENSE", tabler},
}

// dataFile is the embedded format; internal/export/icons reads the same
// shape (data.go there).
type dataFile struct {
	Package string            `json:"package"` // name@version
	Styles  map[string]*style `json:"styles"`
	Icons   []icon            `json:"icons"`
	index   map[string]int    // drawing -> position in Icons, for dedup
}

type style struct {
	// Paint is "fill" (shapes filled with currentColor) or "stroke"
	// (outlines 2 units wide, rounded), set on the <svg> element.
	Paint string         `json:"paint"`
	Names map[string]int `json:"names"`
}

type icon struct {
	Box [4]int     `json:"v"` // the viewBox: x, y, width, height
	El  [][]string `json:"e"` // [tag, name, value, name, value, ...]
}

func main() {
	log.SetFlags(0)
	tmp, err := os.MkdirTemp("", "icons-gen-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for _, p := range pkgs {
		if err := run(p, tmp); err != nil {
			log.Fatalf("%s@%s: %v", p.name, p.version, err)
		}
	}
}

func run(p pkg, tmp string) error {
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", tmp, p.name+"@"+p.version)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("npm pack: %w", err)
	}
	tgz := filepath.Join(tmp, strings.TrimSpace(string(out)))
	raw, err := os.ReadFile(tgz)
	if err != nil {
		return err
	}
	sum := sha512.Sum512(raw)
	got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if p.integrity != got {
		return fmt.Errorf("tarball integrity %s, pinned %s", got, p.integrity)
	}
	files, err := untar(raw)
	if err != nil {
		return err
	}
	d, err := p.build(files)
	if err != nil {
		return err
	}
	d.Package = p.name + "@" + p.version
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no time: reproducible
	zw.Write(js.Bytes())
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("data", p.library+".json.gz"), gz.Bytes(), 0o644); err != nil {
		return err
	}
	lic, ok := files[p.license]
	if !ok {
		return fmt.Errorf("no %s in the package", p.license)
	}
	if err := os.WriteFile(filepath.Join("data", "LICENSE-"+p.library+".txt"), lic, 0o644); err != nil {
		return err
	}
	n := 0
	for _, s := range d.Styles {
		n += len(s.Names)
	}
	log.Printf("%s: %d names, %d drawings, %d bytes JSON, %d gzip'd", d.Package, n, len(d.Icons), js.Len(), gz.Len())
	return nil
}

// untar reads the files of an npm tarball, without the "package/" prefix.
func untar(raw []byte) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[strings.TrimPrefix(h.Name, "package/")] = b
	}
}

// svgsIn returns name -> file content for the .svg files directly in dir.
func svgsIn(files map[string][]byte, dir string) map[string][]byte {
	out := map[string][]byte{}
	for p, b := range files {
		if path.Dir(p) == dir && path.Ext(p) == ".svg" {
			out[strings.TrimSuffix(path.Base(p), ".svg")] = b
		}
	}
	return out
}

func fontAwesome(files map[string][]byte) (*dataFile, error) {
	d := newData()
	for _, st := range []string{"solid", "regular", "brands"} {
		if err := d.addDir(files, "svgs/"+st, st, "fill", 640, nil); err != nil {
			return nil, err
		}
	}
	// Old names (fa-home for house, cog for gear) still appear in docs.
	var meta map[string]struct {
		Aliases struct {
			Names []string `json:"names"`
		} `json:"aliases"`
	}
	if err := json.Unmarshal(files["metadata/icon-families.json"], &meta); err != nil {
		return nil, fmt.Errorf("metadata/icon-families.json: %w", err)
	}
	for name, m := range meta {
		for _, s := range d.Styles {
			i, ok := s.Names[name]
			if !ok {
				continue
			}
			for _, a := range m.Aliases.Names {
				if _, taken := s.Names[a]; !taken {
					s.Names[a] = i
				}
			}
		}
	}
	return d, nil
}

// lucide's icons/ holds its aliases as files of their own; identical
// drawings are stored once.
func lucide(files map[string][]byte) (*dataFile, error) {
	d := newData()
	return d, d.addDir(files, "icons", "", "stroke", 0, nil)
}

func tabler(files map[string][]byte) (*dataFile, error) {
	d := newData()
	// Every tabler icon starts with a transparent 24×24 square that only
	// sizes it in design tools.
	skip := func(el []string) bool { return strings.Contains(strings.Join(el, " "), "d M0 0h24v24H0z") }
	if err := d.addDir(files, "icons/outline", "outline", "stroke", 0, skip); err != nil {
		return nil, err
	}
	return d, d.addDir(files, "icons/filled", "filled", "fill", 0, skip)
}

func newData() *dataFile {
	return &dataFile{Styles: map[string]*style{}, index: map[string]int{}}
}

// addDir adds the icons of dir as style styleName. A square > 0 centres
// each drawing in a square viewBox that size: Font Awesome's svgs/ are
// trimmed to the icon's width and 512 high, with shapes that may reach
// past that box, and its svgs-full/ are the same shapes moved into a
// 640 square. The trimmed shapes with the square's viewBox draw exactly
// svgs-full, every icon the same size, in shorter path data.
func (d *dataFile) addDir(files map[string][]byte, dir, styleName, paint string, square int, skip func([]string) bool) error {
	svgs := svgsIn(files, dir)
	if len(svgs) == 0 {
		return fmt.Errorf("no icons in %s", dir)
	}
	s := &style{Paint: paint, Names: map[string]int{}}
	d.Styles[styleName] = s
	names := make([]string, 0, len(svgs))
	for n := range svgs {
		names = append(names, n)
	}
	sort.Strings(names) // drawings are numbered in name order: reproducible
	for _, n := range names {
		ic, err := parseSVG(svgs[n], skip)
		if err != nil {
			return fmt.Errorf("%s/%s.svg: %w", dir, n, err)
		}
		if square > 0 {
			w, h := ic.Box[2], ic.Box[3]
			if w > square || h > square || (square-w)%2 != 0 || (square-h)%2 != 0 {
				return fmt.Errorf("%s/%s.svg: %d×%d does not centre in %d", dir, n, w, h, square)
			}
			ic.Box = [4]int{-(square - w) / 2, -(square - h) / 2, square, square}
		}
		key, _ := json.Marshal(ic)
		i, ok := d.index[string(key)]
		if !ok {
			i = len(d.Icons)
			d.index[string(key)] = i
			d.Icons = append(d.Icons, ic)
		}
		s.Names[n] = i
	}
	return nil
}

// shapes and shapeAttrs are what the embedded data may hold: the icons
// package writes exactly these, and a package version that draws with
// anything else (a gradient, a <use>, a style) fails the generator
// instead of being drawn wrong.
var (
	shapes     = map[string]bool{"path": true, "circle": true, "ellipse": true, "rect": true, "line": true, "polyline": true, "polygon": true}
	shapeAttrs = map[string]bool{"d": true, "cx": true, "cy": true, "r": true, "rx": true, "ry": true, "x": true, "y": true,
		"width": true, "height": true, "x1": true, "y1": true, "x2": true, "y2": true, "points": true,
		"fill": true, "stroke": true, "opacity": true, "fill-rule": true, "clip-rule": true}
)

func parseSVG(b []byte, skip func([]string) bool) (icon, error) {
	var ic icon
	dec := xml.NewDecoder(bytes.NewReader(b))
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return ic, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				if t.Name.Local != "svg" {
					return ic, fmt.Errorf("root element %s", t.Name.Local)
				}
				for _, a := range t.Attr {
					if a.Name.Local == "viewBox" {
						f := strings.Fields(a.Value)
						if len(f) != 4 || f[0] != "0" || f[1] != "0" {
							return ic, fmt.Errorf("viewBox %q", a.Value)
						}
						ic.Box[2], err = strconv.Atoi(f[2])
						if err == nil {
							ic.Box[3], err = strconv.Atoi(f[3])
						}
						if err != nil {
							return ic, fmt.Errorf("viewBox %q", a.Value)
						}
					}
				}
				continue
			}
			if depth > 2 || !shapes[t.Name.Local] {
				return ic, fmt.Errorf("element %s at depth %d", t.Name.Local, depth)
			}
			el := []string{t.Name.Local}
			for _, a := range t.Attr {
				if !shapeAttrs[a.Name.Local] {
					return ic, fmt.Errorf("attribute %s of %s", a.Name.Local, t.Name.Local)
				}
				// The <svg> element paints in currentColor already.
				if a.Name.Local == "fill" && a.Value == "currentColor" {
					continue
				}
				el = append(el, a.Name.Local, a.Value)
			}
			if skip == nil || !skip(el) {
				ic.El = append(ic.El, el)
			}
		case xml.EndElement:
			depth--
		}
	}
	if ic.Box[2] == 0 || len(ic.El) == 0 {
		return ic, errors.New("no viewBox or no shapes")
	}
	return ic, nil
}
