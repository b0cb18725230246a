package export

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// echoed is one request the echo server received.
type echoed struct {
	method, path string
	query        url.Values
	header       http.Header
	body         []byte
}

// echoRecorder is a 127.0.0.1 server that records every request and
// answers it with a small JSON object.
type echoRecorder struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []echoed
}

func newEchoRecorder(t *testing.T) *echoRecorder {
	e := &echoRecorder{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		e.mu.Lock()
		e.got = append(e.got, echoed{r.Method, r.URL.Path, r.URL.Query(), r.Header.Clone(), body})
		e.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok": true}`)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

// take returns the requests received since the last call.
func (e *echoRecorder) take() []echoed {
	e.mu.Lock()
	defer e.mu.Unlock()
	got := e.got
	e.got = nil
	return got
}

// sampleCode returns the plain code of the sample titled title on an
// exported endpoint page.
func sampleCode(t *testing.T, page, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<div class="code-block" data-title="`+title+`">`)
	if !ok {
		t.Fatalf("page has no %s sample", title)
	}
	i := strings.Index(rest, "<pre")
	end := strings.Index(rest, "</pre>")
	if i < 0 || end < i {
		t.Fatalf("%s sample has no code", title)
	}
	return strings.TrimSpace(pageText(rest[i:end]))
}

// sampleRunner runs the code of one language in dir, or says why it cannot.
type sampleRunner struct {
	title string
	// missing names what this machine lacks to run the samples, or "".
	missing func() string
	run     func(ctx context.Context, dir, code string) *exec.Cmd
	// noCookies: the language leaves cookies to its host (a browser).
	noCookies bool
}

func haveTool(name string) func() string {
	return func() string {
		if _, err := exec.LookPath(name); err != nil {
			return name + " is not on PATH"
		}
		return ""
	}
}

// writeRun writes code to dir/name and runs it with the command args.
func writeRun(ctx context.Context, dir, name, code string, args ...string) *exec.Cmd {
	if err := os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644); err != nil {
		panic(err)
	}
	cmd := exec.CommandContext(ctx, args[0], append(args[1:], name)...)
	return cmd
}

// nodePrelude stands in for the page's file input: fetch samples run in a
// browser, where the reader picks the file.
const nodePrelude = `const { File } = require("node:buffer");
const fileInput = { files: [new File([` + "`" + uploadContent + "`" + `], "file.bin")] };
`

// nodeMissing says why node cannot run fetch samples, or "".
func nodeMissing() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node is not on PATH"
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".")
	if n, _ := strconv.Atoi(major); n < 18 {
		return "node " + strings.TrimSpace(string(out)) + " has no fetch (18 or later needed)"
	}
	return ""
}

var sampleRunners = []sampleRunner{
	{title: "cURL", missing: haveTool("curl"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.sh", code, "sh")
	}},
	{title: "Python", missing: func() string {
		if _, err := exec.LookPath("python3"); err != nil {
			return "python3 is not on PATH"
		}
		if err := exec.Command("python3", "-c", "import requests").Run(); err != nil {
			return "python3 cannot import requests"
		}
		return ""
	}, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.py", code, "python3")
	}},
	{title: "JavaScript", noCookies: true, missing: nodeMissing, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.js", nodePrelude+code, "node")
	}},
	{title: "Node.js", missing: nodeMissing, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.js", code, "node")
	}},
	{title: "Go", missing: haveTool("go"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "main.go", code, "go", "run")
	}},
	{title: "Ruby", missing: haveTool("ruby"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.rb", code, "ruby")
	}},
	{title: "PHP", missing: func() string {
		if _, err := exec.LookPath("php"); err != nil {
			return "php is not on PATH"
		}
		if err := exec.Command("php", "-r", "exit(function_exists('curl_init') ? 0 : 1);").Run(); err != nil {
			return "php has no curl extension"
		}
		return ""
	}, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.php", code, "php")
	}},
	{title: "Java", missing: func() string {
		// java runs a single source file from Java 11, the first with
		// java.net.http.
		out, err := exec.Command("java", "-version").CombinedOutput()
		if err != nil {
			return "java is not on PATH"
		}
		_, v, _ := strings.Cut(string(out), `version "`)
		major, _, _ := strings.Cut(v, ".")
		if n, _ := strconv.Atoi(major); n < 11 {
			return "java " + major + " has no java.net.http (11 or later needed)"
		}
		return ""
	}, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "Main.java", code, "java")
	}},
	{title: "C#", missing: haveTool("dotnet"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		proj := `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>`
		if err := os.WriteFile(filepath.Join(dir, "sample.csproj"), []byte(proj), 0o644); err != nil {
			panic(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "Program.cs"), []byte(code), 0o644); err != nil {
			panic(err)
		}
		return exec.CommandContext(ctx, "dotnet", "run", "--project", "sample.csproj")
	}},
}

// TestSamples_echo runs the generated samples of the echo spec with the
// real tools against a 127.0.0.1 echo server and checks that each sends
// the request its operation describes.
func TestSamples_echo(t *testing.T) {
	testutil.SkipShort(t, testutil.NeedsSamples)
	langs := make([]string, len(sampleRunners))
	for i, r := range sampleRunners {
		langs[i] = `"` + strings.ToLower(r.title) + `"`
	}
	src := fstest.MapFS{"echo.json": {Data: []byte(echoSpec)}, "docs.json": {Data: []byte(`{"api": {"examples": {"languages": [` +
		strings.Join(langs, ", ") + `]}}, "navigation": {"groups": [{"group": "API", "openapi": "echo.json"}]}}`)}}
	out, _ := exportTo(t, Request{Source: src})
	echo := newEchoRecorder(t)
	for _, r := range sampleRunners {
		t.Run(r.title, func(t *testing.T) {
			if why := r.missing(); why != "" {
				t.Skipf("%s samples not run: %s", r.title, why)
			}
			for _, op := range echoOps {
				code := sampleCode(t, readOut(t, out, "api-reference/"+op.page+".html"), r.title)
				code = strings.ReplaceAll(code, echoBase, echo.srv.URL+"/v2")
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "file.bin"), []byte(uploadContent), 0o644); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				cmd := r.run(ctx, dir, code)
				cmd.Dir = dir
				outErr, err := cmd.CombinedOutput()
				cancel()
				if err != nil {
					t.Errorf("%s: %v\n%s\ncode:\n%s", op.page, err, outErr, code)
					continue
				}
				got := echo.take()
				if len(got) != 1 {
					t.Errorf("%s: echo received %d requests, want 1\noutput: %s\ncode:\n%s", op.page, len(got), outErr, code)
					continue
				}
				for _, problem := range op.check(got[0], r.noCookies) {
					t.Errorf("%s: %s\ncode:\n%s", op.page, problem, code)
				}
			}
		})
	}
}
