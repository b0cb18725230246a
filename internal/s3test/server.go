package s3test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// Deadlines for the MinIO process. It is live in about a second on a quiet
// machine; the margin is for two shared cores under load.
const (
	readyTimeout = 60 * time.Second
	stopTimeout  = 10 * time.Second
	pollInterval = 50 * time.Millisecond
)

// Server is a running MinIO server.
type Server struct {
	// Endpoint is the S3 API's base URL, http://127.0.0.1:PORT.
	Endpoint string
	// AccessKey and SecretKey are the root credentials, random per start.
	AccessKey, SecretKey string
	// Region is the region MinIO signs with.
	Region string
	// StartupTime is how long the server took from exec to live.
	StartupTime time.Duration

	dir    string
	log    string
	cmd    *exec.Cmd
	exited chan struct{}
	err    error // Wait's result, valid once exited is closed
}

// ErrNotBuilt is wrapped by StartServer's error when the binary is missing.
var ErrNotBuilt = errors.New("the MinIO test binary is not built")

// StartServer starts MinIO in a fresh temporary directory on free
// 127.0.0.1 ports and waits until it is live. Stop ends it and removes the
// directory. Most tests want Start, which shares one server per test
// binary.
func StartServer() (*Server, error) {
	bin, err := binary()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotBuilt, err)
	}
	dir, err := os.MkdirTemp("", "s3test-")
	if err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	s := &Server{Region: "us-east-1", dir: dir, log: filepath.Join(dir, "minio.log"), exited: make(chan struct{})}
	if err := s.start(bin); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start(bin string) error {
	var err error
	if s.AccessKey, err = randomHex(10); err != nil {
		return err
	}
	if s.SecretKey, err = randomHex(20); err != nil {
		return err
	}
	ports, err := testutil.FreePorts(2)
	if err != nil {
		return err
	}
	addr := "127.0.0.1:" + strconv.Itoa(ports[0])
	s.Endpoint = "http://" + addr
	logFile, err := os.Create(s.log)
	if err != nil {
		return fmt.Errorf("create minio.log: %w", err)
	}
	//nolint:gosec // bin is the MinIO build this package looks for (or EnvBin); running it is the point
	s.cmd = exec.Command(bin, "server", filepath.Join(s.dir, "data"),
		"--address", addr,
		"--console-address", "127.0.0.1:"+strconv.Itoa(ports[1]),
		"--certs-dir", filepath.Join(s.dir, "certs"),
		"--quiet")
	// Only what MinIO needs, so nothing from the developer's environment
	// (an MINIO_* override, say) changes the server under test.
	s.cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.dir,
		"MINIO_ROOT_USER=" + s.AccessKey,
		"MINIO_ROOT_PASSWORD=" + s.SecretKey,
		"MINIO_REGION=" + s.Region,
		"MINIO_BROWSER=off",
		"MINIO_UPDATE=off",
	}
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.SysProcAttr = testutil.ServerProcAttr()
	began := time.Now()
	if err := s.cmd.Start(); err != nil {
		_ = logFile.Close()
		s.cmd = nil
		return fmt.Errorf("start minio: %w", err)
	}
	go func() {
		s.err = s.cmd.Wait()
		_ = logFile.Close()
		close(s.exited)
	}()
	if err := s.waitLive(); err != nil {
		return err
	}
	s.StartupTime = time.Since(began)
	return nil
}

// waitLive polls /minio/health/live until it answers 200, failing at once
// with the log if the process exits (a port taken in the meantime, say).
func (s *Server) waitLive() error {
	client := &http.Client{Timeout: 2 * time.Second}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	last := "no answer yet"
	for {
		select {
		case <-s.exited:
			return fmt.Errorf("minio exited while starting (%w); last lines of its log:\n%s", s.exitErr(), s.Tail())
		default:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.Endpoint+"/minio/health/live", nil)
		if err != nil {
			return fmt.Errorf("build health request: %w", err)
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			// Live is not enough: on a loaded machine MinIO answers it
			// before its object layer is up, and the first CreateBucket
			// gets 503 XMinioServerNotInitialized. An S3 call that
			// succeeds is the proof.
			if resp.StatusCode == http.StatusOK {
				if _, err := s.Client().ListBuckets(ctx, &s3.ListBucketsInput{}); err == nil {
					return nil
				} else if ctx.Err() == nil {
					last = "live, but S3 not answering yet: " + err.Error()
				}
			} else {
				last = resp.Status
			}
		} else if ctx.Err() == nil {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("timed out after %s waiting for minio to be live (last seen: %s); last lines of its log:\n%s",
				readyTimeout, last, s.Tail())
		case <-tick.C:
		}
	}
}

// exitErr is Wait's result, with a clean exit spelt out: MinIO should
// not exit at all while starting.
func (s *Server) exitErr() error {
	if s.err == nil {
		return errors.New("exit status 0")
	}
	return s.err
}

// Stop terminates the server (killing it if it does not exit within ten
// seconds) and removes its data. It is safe to call more than once.
func (s *Server) Stop() {
	if s.cmd != nil {
		select {
		case <-s.exited:
		default:
			_ = testutil.SignalGroup(s.cmd.Process, syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(stopTimeout):
				_ = testutil.SignalGroup(s.cmd.Process, syscall.SIGKILL)
				<-s.exited
			}
		}
	}
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
		s.dir = ""
	}
}

// Tail returns the last lines of the server's log, for failure messages.
func (s *Server) Tail() string {
	f, err := os.Open(s.log)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	defer f.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > 60 {
			lines = lines[30:]
		}
	}
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	if len(lines) == 0 {
		return "(empty log)"
	}
	return strings.Join(lines, "\n")
}

// binary finds the MinIO build: EnvBin if set, else the cache directory
// tools/minio/build.sh builds into, keyed by tools/minio/VERSION.
func binary() (string, error) {
	if p := os.Getenv(EnvBin); p != "" {
		return executable(p)
	}
	version, err := pinnedVersion()
	if err != nil {
		return "", err
	}
	cache := os.Getenv(EnvCache)
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("find the build cache: %w", err)
			}
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "docsadmin-minio")
	}
	return executable(filepath.Join(cache, version, "minio"))
}

func executable(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%s not found", p)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", p)
	}
	return p, nil
}

// pinnedVersion reads tools/minio/VERSION from the repository holding the
// current directory (go test runs in the package's directory).
func pinnedVersion() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find tools/minio/VERSION: %w", err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "tools", "minio", "VERSION"))
		if err == nil {
			v := strings.TrimSpace(string(data))
			if !strings.HasPrefix(v, "v") {
				return "", fmt.Errorf("tools/minio/VERSION holds %q, not a module version", v)
			}
			return v, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("tools/minio/VERSION not found above the working directory; set %s", EnvBin)
		}
		dir = parent
	}
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate credentials: %w", err)
	}
	return hex.EncodeToString(b), nil
}
