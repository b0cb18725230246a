package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// signatureParts are the pieces of a presigned link that must never reach
// state: every 12-character window of its signature, so that no part of
// it, quoted or truncated, could slip past.
func signatureParts(t *testing.T, link string) []string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	sig := u.Query().Get("signature")
	if len(sig) < 32 {
		t.Fatalf("link has no signature to look for (query %d bytes)", len(u.RawQuery))
	}
	var parts []string
	for i := 0; i+12 <= len(sig); i++ {
		parts = append(parts, sig[i:i+12])
	}
	return parts
}

// leaks reports the first part found in text, without quoting it.
func leaks(text string, parts []string) error {
	for i, p := range parts {
		if strings.Contains(text, p) {
			return fmt.Errorf("window %d of the link's signature found", i)
		}
	}
	return nil
}

var privatePattern = regexp.MustCompile(`"private":\s*"([A-Za-z0-9+/=]+)"`)

// stateFiles collects every file under dir that Terraform wrote as state
// (terraform.tfstate and its backups), with plugin-testing's working
// directories kept under dir (the TestCase's WorkingDir, see stateDir).
func stateFiles(t *testing.T, dir string) string {
	t.Helper()
	var all strings.Builder
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".tfstate") {
			return err
		}
		b, err := os.ReadFile(p)
		n++
		all.Write(b)
		// Private state is base64 in the file, of a JSON object whose
		// values are base64 again (the framework's keys): decode both.
		for _, m := range privatePattern.FindAllSubmatch(b, -1) {
			dec, _ := base64.StdEncoding.DecodeString(string(m[1]))
			all.Write(dec)
			var keys map[string][]byte
			_ = json.Unmarshal(dec, &keys)
			for _, v := range keys {
				all.Write(v)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no state file under %s", dir)
	}
	return all.String()
}

// noLinkInState checks `terraform show -json` (what plugin-testing hands a
// state check) and the raw state files for the release's current link.
type noLinkInState struct {
	e      *rolloutEnv
	t      *testing.T
	tmpDir string
}

func (c noLinkInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	link := c.e.current(c.t).BundleURL
	if err := downloads(link); err != nil {
		resp.Error = fmt.Errorf("the release's link does not download: %w", err)
		return
	}
	parts := signatureParts(c.t, link)
	shown, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if err := leaks(string(shown), parts); err != nil {
		resp.Error = fmt.Errorf("terraform show -json: %w", err)
		return
	}
	if err := leaks(stateFiles(c.t, c.tmpDir), parts); err != nil {
		resp.Error = fmt.Errorf("raw state file: %w", err)
	}
}

// stateDir is a directory for the TestCase's WorkingDir: plugin-testing
// creates its working directories, and so the state files, under it, where
// the test can search them. (TF_ACC_TEMP_DIR would do the same for the
// whole process, and so keep the test from running in parallel.)
func stateDir(t *testing.T) string {
	return t.TempDir()
}

// deploymentGeneration is the pod template fingerprint of the chart's Deployment, which
// moves only when its pod template (or spec) changes, that is when pods
// would roll.
func (e *rolloutEnv) deploymentGeneration(t *testing.T) string {
	t.Helper()
	list, err := e.cs.AppsV1().Deployments(e.ns).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var d *appsv1.Deployment
	for i := range list.Items {
		d = &list.Items[i]
	}
	if len(list.Items) != 1 {
		t.Fatalf("want the chart's one Deployment, have %d", len(list.Items))
	}
	return kubetest.TemplateFingerprint(d)
}
