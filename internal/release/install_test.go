package release_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/releasetest"
)

// cli is one command-line tool that installs providers.
type cli struct {
	name string
	path string
	host string // the registry host an unqualified "docsadmin/docsadmin" means
}

// clis are the machine's terraform, Terraform 1.14 and OpenTofu, the last
// two from tools/tfcli (a no-op once built; make tfcli builds them).
func clis(t *testing.T, r releasetest.Release) []cli {
	t.Helper()
	machine, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatal("terraform must be on PATH (make terraform-check)")
	}
	built := func(name string) string {
		out, err := exec.Command(filepath.Join(r.Root, "tools", "tfcli", "build.sh"), name).Output()
		if err != nil {
			t.Fatalf("tools/tfcli/build.sh %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	return []cli{
		{"terraform", machine, "registry.terraform.io"},
		{"terraform-1.14", built("terraform"), "registry.terraform.io"},
		{"tofu", built("tofu"), "registry.opentofu.org"},
	}
}

// TestRelease_checksumsSigned: SHA256SUMS names every package with its
// digest, its detached signature verifies with the release's key, the
// manifest says protocol 6, and each zip holds the versioned binary alone.
func TestRelease_checksumsSigned(t *testing.T) {
	r := releasetest.Snapshot(t)
	sums := r.Sums(t)
	for name, want := range sums {
		b, err := os.ReadFile(filepath.Join(r.Dir, name))
		if err != nil {
			t.Fatalf("SHA256SUMS names %s: %v", name, err)
		}
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != want {
			t.Errorf("%s: sha256 %x, SHA256SUMS says %s", name, got, want)
		}
	}
	manifest := "terraform-provider-docsadmin_" + r.Version + "_manifest.json"
	if sums[manifest] == "" {
		t.Errorf("SHA256SUMS does not list %s", manifest)
	}
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if b, err := os.ReadFile(filepath.Join(r.Dir, manifest)); err != nil {
		t.Error(err)
	} else if err := json.Unmarshal(b, &m); err != nil || !slices.Equal(m.Metadata.ProtocolVersions, []string{"6.0"}) {
		t.Errorf("manifest: %+v, %v; want protocol_versions [6.0]", m, err)
	}
	if sums[filepath.Base(r.Zip(r.Platform))] == "" {
		t.Errorf("SHA256SUMS has no package for this machine's %s", r.Platform)
	}

	keyring := readKeyring(t, r)
	signed, err := os.ReadFile(r.SumsFile())
	if err != nil {
		t.Fatal(err)
	}
	sig, err := os.ReadFile(r.SumsFile() + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(signed), bytes.NewReader(sig), nil); err != nil {
		t.Errorf("SHA256SUMS.sig does not verify with signing-key.asc: %v", err)
	}
	tampered := append(bytes.Clone(signed), '\n')
	if _, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(tampered), bytes.NewReader(sig), nil); err == nil {
		t.Error("the signature verifies a SHA256SUMS it was not made for")
	}

	bin := releaseBinary(t, r)
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != r.Version {
		t.Errorf("%s version: %q, %v; want %s", filepath.Base(bin), out, err, r.Version)
	}
}

func readKeyring(t *testing.T, r releasetest.Release) openpgp.EntityList {
	t.Helper()
	f, err := os.Open(filepath.Join(r.Dir, "signing-key.asc"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keyring, err := openpgp.ReadArmoredKeyRing(f)
	if err != nil || len(keyring) != 1 {
		t.Fatalf("signing-key.asc: %d keys, %v", len(keyring), err)
	}
	return keyring
}

// signingKeyID is the key's 16-digit ID, as the registry protocol gives it.
func signingKeyID(t *testing.T, armored []byte) string {
	t.Helper()
	keyring, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(armored))
	if err != nil || len(keyring) == 0 {
		t.Fatalf("signing key: %v", err)
	}
	return keyring[0].PrimaryKey.KeyIdString()
}

// TestRelease_install: each CLI installs the release from a filesystem
// mirror, from a network mirror over HTTPS and from a registry over HTTPS
// (the last two on loopback, trusted through a test CA in SSL_CERT_FILE),
// then plans and applies the quickstart as written against the release's
// own apiserver. The lock file's hashes are the release's: h1 of this
// platform's zip, and zh, SHA256SUMS' digest, where the source gives one.
func TestRelease_install(t *testing.T) {
	r := releasetest.Snapshot(t)
	tools := clis(t, r)
	srv, ca := serveRelease(t, r)
	apiURL, apiKey := startAPIServer(t, releaseBinary(t, r))
	sums := r.Sums(t)
	zip := r.Zip(r.Platform)
	h1, err := dirhash.HashZip(zip, dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	zh := "zh:" + sums[filepath.Base(zip)]
	registryHost := strings.TrimPrefix(srv.URL, "https://")

	quickstart, err := os.ReadFile(filepath.Join(r.Root, "examples", "quickstart", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tools {
		for _, source := range []struct {
			name   string
			config func(dir string) string // the CLI configuration
			addr   string                  // the provider's address in the configuration
			hashes []string                // what the lock file must hold
		}{
			{
				name: "filesystem_mirror",
				config: func(dir string) string {
					mirror := filepath.Join(dir, "mirror")
					pkgDir := filepath.Join(mirror, c.host, "docsadmin", "docsadmin")
					if err := os.MkdirAll(pkgDir, 0o755); err != nil {
						t.Fatal(err)
					}
					b, err := os.ReadFile(zip)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(pkgDir, filepath.Base(zip)), b, 0o644); err != nil {
						t.Fatal(err)
					}
					return `provider_installation {
  filesystem_mirror {
    path    = "` + mirror + `"
    include = ["` + c.host + `/docsadmin/docsadmin"]
  }
}
`
				},
				addr: c.host + "/docsadmin/docsadmin", hashes: []string{h1},
			},
			{
				name: "network_mirror",
				config: func(string) string {
					return `provider_installation {
  network_mirror {
    url     = "` + srv.URL + `/mirror/"
    include = ["` + c.host + `/docsadmin/docsadmin"]
  }
}
`
				},
				// Terraform records the h1 it computes from the package;
				// OpenTofu also the mirror's zh.
				addr: c.host + "/docsadmin/docsadmin", hashes: mirrorHashes(c, h1, zh),
			},
			{
				name:   "registry",
				config: func(string) string { return "" },
				addr:   registryHost + "/docsadmin/docsadmin", hashes: []string{h1, zh},
			},
		} {
			t.Run(c.name+"/"+source.name, func(t *testing.T) {
				dir := t.TempDir()
				work := filepath.Join(dir, "quickstart")
				if err := os.MkdirAll(work, 0o755); err != nil {
					t.Fatal(err)
				}
				tf := quickstart
				if source.name == "registry" {
					// The one change a user of another registry makes.
					tf = bytes.Replace(tf, []byte(`source = "docsadmin/docsadmin"`), []byte(`source = "`+source.addr+`"`), 1)
				}
				if err := os.WriteFile(filepath.Join(work, "main.tf"), tf, 0o644); err != nil {
					t.Fatal(err)
				}
				rc := filepath.Join(dir, "cli.tfrc")
				if err := os.WriteFile(rc, []byte(source.config(dir)), 0o644); err != nil {
					t.Fatal(err)
				}
				env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TOFU_CLI_CONFIG_FILE="+rc, "SSL_CERT_FILE="+ca,
					"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_PLUGIN_CACHE_DIR=",
					"DOCSADMIN_BASE_URL="+apiURL, "DOCSADMIN_API_KEY="+apiKey, "DOCSADMIN_PROJECT_ID=demo")
				run := func(args ...string) string {
					t.Helper()
					cmd := exec.Command(c.path, args...)
					cmd.Dir, cmd.Env = work, env
					timer := time.AfterFunc(5*time.Minute, func() { _ = cmd.Process.Kill() })
					defer timer.Stop()
					out, err := cmd.CombinedOutput()
					if err != nil {
						t.Fatalf("%s %s: %v\n%s", c.name, strings.Join(args, " "), err, out)
					}
					return string(out)
				}
				out := run("init", "-input=false", "-no-color")
				if !strings.Contains(out, "Installed "+source.addr+" v"+r.Version) &&
					!strings.Contains(out, "Installed "+strings.TrimPrefix(source.addr, c.host+"/")+" v"+r.Version) {
					t.Errorf("init did not say it installed %s v%s:\n%s", source.addr, r.Version, out)
				}
				if source.name == "registry" && !strings.Contains(out, signingKeyIDFromFile(t, r)) {
					t.Errorf("init did not name the release's signing key %s:\n%s", signingKeyIDFromFile(t, r), out)
				}
				checkLock(t, filepath.Join(work, ".terraform.lock.hcl"), source.addr, r.Version, source.hashes)
				run("plan", "-input=false", "-no-color", "-out=plan")
				run("apply", "-input=false", "-no-color", "plan")
				if id := strings.TrimSpace(run("output", "-raw", "job_id")); id == "" {
					t.Error("the quickstart's job_id output is empty after apply")
				}
			})
		}
	}
}

func mirrorHashes(c cli, h1, zh string) []string {
	if c.name == "tofu" {
		return []string{h1, zh}
	}
	return []string{h1}
}

func signingKeyIDFromFile(t *testing.T, r releasetest.Release) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.Dir, "signing-key.asc"))
	if err != nil {
		t.Fatal(err)
	}
	return signingKeyID(t, b)
}

var lockBlock = regexp.MustCompile(`(?s)provider "([^"]+)" \{\s*version\s*=\s*"([^"]+)"(.*?)\n\}`)

// checkLock: the lock file pins addr at version with every one of want
// among its hashes.
func checkLock(t *testing.T, path, addr, version string, want []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no lock file after init: %v", err)
	}
	for _, m := range lockBlock.FindAllStringSubmatch(string(b), -1) {
		if m[1] != addr {
			continue
		}
		if m[2] != version {
			t.Errorf("lock file: %s version %s, want %s", addr, m[2], version)
		}
		for _, h := range want {
			if !strings.Contains(m[3], `"`+h+`"`) {
				t.Errorf("lock file lacks the release's hash %s for %s:\n%s", h, addr, b)
			}
		}
		return
	}
	t.Errorf("lock file has no %s:\n%s", addr, b)
}
