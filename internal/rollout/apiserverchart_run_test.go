package rollout

import (
	"context"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestAPIServerChart_serverRunsWhatTheChartMounts runs the real server with
// the container's rendered arguments and the configuration file from the
// rendered Secret (only the listen address and the two directories are
// moved onto this machine): it starts, the probes' paths answer 200, and
// the API key from the values is the one that opens the API. A flag the
// server does not know, or a config it refuses, fails here rather than in
// a crash-looping pod.
func TestAPIServerChart_serverRunsWhatTheChartMounts(t *testing.T) {
	docs := t.TempDir() // a deployment's source, at an absolute path as in the pod
	vals := apiServerEmbeddedValues(false)
	vals["config"] = map[string]interface{}{"values": apiServerConfigValues(docs)}
	objs, _, err := renderAPIServer(t, vals)
	if err != nil {
		t.Fatal(err)
	}
	c := apiServerContainer(t, objs)

	dir := t.TempDir()
	cfg, err := base64.StdEncoding.DecodeString(dig(t, objs["Secret/docs-docsadmin-apiserver-config"], "data", "config.yaml").(string))
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	args := toStrings(c["args"])
	if args[0] != "apiserver" {
		t.Fatalf("args %q do not run the apiserver subcommand", args)
	}
	local := map[string]string{"--addr": "127.0.0.1:0", "--config": cfgPath, "--data-dir": filepath.Join(dir, "data")}
	for i := 1; i < len(args)-1; i++ {
		if v, ok := local[args[i]]; ok {
			args[i+1] = v
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr testutil.SyncBuffer
	exit := make(chan int, 1)
	go func() { exit <- apiservercmd.Command(ctx, args[1:], &stdout, &stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-exit:
			if code != cli.ExitOK {
				t.Errorf("server exited %d after cancel: %s", code, stderr.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("server did not stop within 30s of cancel")
		}
	})
	listening := regexp.MustCompile(`listening on (http://\S+)`)
	var base string
	testutil.Eventually(t, 20*time.Second, "the server listening", func() bool {
		select {
		case code := <-exit:
			exit <- code
			t.Fatalf("server exited %d with the chart's arguments %q: %s", code, args, stderr.String())
		default:
		}
		m := listening.FindStringSubmatch(stdout.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})

	get := func(path, key string) int {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, probe := range []string{"readinessProbe", "livenessProbe"} {
		path := dig(t, c, probe, "httpGet", "path").(string)
		if code := get(path, ""); code != http.StatusOK {
			t.Errorf("%s %s answered %d, want 200", probe, path, code)
		}
	}
	const job = "/v1/static-export/jobs/se_0123456789abcdef"
	if code := get(job, ""); code != http.StatusUnauthorized {
		t.Errorf("without a key: %d, want 401", code)
	}
	if code := get(job, testAPIKey); code != http.StatusNotFound {
		t.Errorf("with the key from the values: %d, want 404 (authenticated, no such job)", code)
	}
	if strings.Contains(stdout.String()+stderr.String(), testAPIKey) {
		t.Error("the server logged the API key")
	}
}
