package release_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/releasetest"
)

// TestRelease_sbom: the release's SBOM of this platform's binary is a
// CycloneDX document (every field one the specification's Go model
// knows), names the binary it describes by its SHA-256, and lists exactly
// the modules that `go list -deps` says the binary links for that
// platform, each at the version the build list selects, plus the Go
// standard library at the toolchain's version. That it is the same for
// two builds of one commit is TestSnapshot_reproducible's (SHA256SUMS
// lists it).
func TestRelease_sbom(t *testing.T) {
	r := releasetest.Snapshot(t)
	b, err := os.ReadFile(r.SBOM(r.Platform))
	if err != nil {
		t.Fatalf("the release has no SBOM for %s: %v", r.Platform, err)
	}
	if sum := r.Sums(t)[filepath.Base(r.SBOM(r.Platform))]; sum == "" {
		t.Errorf("SHA256SUMS does not list %s", filepath.Base(r.SBOM(r.Platform)))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var bom cdx.BOM
	if err := dec.Decode(&bom); err != nil {
		t.Fatalf("the SBOM is not a CycloneDX JSON document: %v", err)
	}
	if bom.BOMFormat != cdx.BOMFormat || bom.SpecVersion < cdx.SpecVersion1_5 {
		t.Errorf("bomFormat %q, specVersion %s; want CycloneDX, 1.5 or later", bom.BOMFormat, bom.SpecVersion)
	}
	if bom.Metadata == nil || bom.Metadata.Component == nil || bom.Components == nil {
		t.Fatal("the SBOM has no metadata component or no components")
	}
	const module = "github.com/docsadmin/terraform-provider-docsadmin"
	if c := bom.Metadata.Component; c.Name != module || c.Version != "v"+r.Version {
		t.Errorf("the SBOM describes %s %s; want %s v%s", c.Name, c.Version, module, r.Version)
	}
	if got, want := property(bom.Metadata.Properties, "cdx:gomod:binary:hash:SHA-256"), binarySHA256(t, r); got != want {
		t.Errorf("the SBOM names a binary of SHA-256 %q; the release's binary is %s", got, want)
	}

	goos, goarch, _ := strings.Cut(r.Platform, "_")
	want := linkedModules(t, r.Root, goos, goarch)
	got := map[string]string{}
	for _, c := range *bom.Components {
		if c.Type == cdx.ComponentTypeLibrary && strings.HasPrefix(c.PackageURL, "pkg:golang/") {
			got[c.Name] = c.Version
		}
	}
	for path, v := range want {
		if got[path] != v {
			t.Errorf("module %s: the build links %s, the SBOM says %q", path, v, got[path])
		}
	}
	for path, v := range got {
		if _, ok := want[path]; !ok {
			t.Errorf("the SBOM lists %s %s, which the build does not link", path, v)
		}
	}
	t.Logf("%s lists %d components for %s", filepath.Base(r.SBOM(r.Platform)), len(got), r.Platform)
}

func property(props *[]cdx.Property, name string) string {
	if props == nil {
		return ""
	}
	for _, p := range *props {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// binarySHA256 is the hex SHA-256 of the binary in this platform's zip.
func binarySHA256(t *testing.T, r releasetest.Release) string {
	t.Helper()
	b, err := os.ReadFile(releaseBinary(t, r))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// linkedModules is what the Go toolchain says the main package links for
// goos/goarch without cgo: every module providing a package in its import
// graph, at its selected version (what `go list -m` reports), and "std"
// at the toolchain's version.
func linkedModules(t *testing.T, root, goos, goarch string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{with .Replace}} replaced{{end}}{{end}}{{end}}`, ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=-mod=readonly")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	mods := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case len(f) == 3:
			t.Fatalf("go.mod replaces %s: compare the SBOM with the replacement", f[0])
		default:
			mods[f[0]] = f[1]
		}
	}
	v, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	mods["std"] = strings.TrimSpace(string(v))
	return mods
}
