package s3test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Every test gets a bucket of its own on the one shared server, and what
// one test stores is invisible to the next.
func TestStart_freshBuckets(t *testing.T) {
	a := Start(t)
	b := Start(t)
	if a.Server != b.Server {
		t.Error("two Start calls in one binary started two servers")
	}
	if a.Name == b.Name {
		t.Fatalf("both buckets are called %s", a.Name)
	}
	if !strings.HasPrefix(a.Endpoint, "http://127.0.0.1:") {
		t.Errorf("endpoint %s is not on 127.0.0.1", a.Endpoint)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	key := "k"
	if _, err := a.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: &a.Name, Key: &key, Body: strings.NewReader("x")}); err != nil {
		t.Fatal(err)
	}
	out, err := b.Client().ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &b.Name})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Contents) != 0 {
		t.Errorf("bucket %s sees %d objects of bucket %s", b.Name, len(out.Contents), a.Name)
	}
	want := "s3://" + a.Name + "?endpoint=" + strings.ReplaceAll(a.Endpoint, ":", "%3A")
	if !strings.HasPrefix(strings.ReplaceAll(a.URL(), "%2F", "/"), want) || !strings.Contains(a.URL(), "path-style=true") {
		t.Errorf("URL() = %s; want it to start with %s and set path-style", a.URL(), want)
	}
	t.Logf("MinIO started in %s", a.StartupTime.Round(time.Millisecond))
}

// The server answers anonymous requests with an error, not with data: the
// random root credentials are what protects the shared server.
func TestStart_rejectsAnonymous(t *testing.T) {
	b := Start(t)
	resp, err := http.Get(b.Endpoint + "/" + b.Name + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("anonymous listing answered %s; want 403", resp.Status)
	}
}

// A binary that dies at once fails the start with its log, instead of a
// wait for the readiness timeout.
func TestStartServer_exitReportsLog(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "minio")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'FATAL unable to use the drive' >&2\nexit 3\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvBin, fake)
	began := time.Now()
	_, err := StartServer()
	if err == nil || !strings.Contains(err.Error(), "exited while starting") ||
		!strings.Contains(err.Error(), "FATAL unable to use the drive") {
		t.Errorf("StartServer = %v; want the exit and the log's last lines", err)
	}
	if d := time.Since(began); d > 30*time.Second {
		t.Errorf("StartServer took %s to notice the exit", d)
	}
}

func TestStartServer_notBuilt(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "minio")
	if err := os.WriteFile(notExec, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "missing"): "not found",
		notExec:                       "not an executable file",
		dir:                           "not an executable file",
	} {
		t.Setenv(EnvBin, path)
		_, err := StartServer()
		if !errors.Is(err, ErrNotBuilt) || !strings.Contains(err.Error(), want) {
			t.Errorf("StartServer with %s = %v; want ErrNotBuilt saying %q", path, err, want)
		}
	}
}
