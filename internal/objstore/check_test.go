package objstore_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

func TestCheck_ok(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The probe object is gone again.
	for o, err := range s.List(context.Background(), "") {
		t.Errorf("bucket holds %q (%v) after Check; want it empty", o.Key, err)
	}
}

// The standard chain reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
func TestCheck_environmentCredentials(t *testing.T) {
	b := s3test.Start(t)
	b.SetEnv(t)
	cfg, err := objstore.ParseURL(b.URL())
	if err != nil {
		t.Fatal(err)
	}
	s, err := objstore.New(context.Background(), cfg, objstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// checkFails runs Check and fails the test if it succeeds, if its error
// does not match want, or if it quotes a secret. The error goes to the
// log: what it says is what an operator reads in /readyz.
func checkFails(t *testing.T, s *objstore.Store, want error, text string, secrets ...string) {
	t.Helper()
	err := s.Check(context.Background())
	if err == nil {
		t.Fatalf("Check succeeded; want %v", want)
	}
	if !errors.Is(err, want) || !strings.Contains(err.Error(), text) {
		t.Errorf("Check = %v; want %v and %q in the message", err, want, text)
	}
	for _, sec := range secrets {
		if strings.Contains(err.Error(), sec) {
			t.Errorf("Check's error quotes a secret: %v", err)
		}
	}
	t.Logf("Check: %v", err)
}

func TestCheck_wrongSecret(t *testing.T) {
	b := s3test.Start(t)
	bad := "wrong-" + b.SecretKey
	s := newStore(t, b, objstore.Options{Credentials: credentials.NewStaticCredentialsProvider(b.AccessKey, bad, "")})
	checkFails(t, s, objstore.ErrCredentials, "AWS_SECRET_ACCESS_KEY", bad, b.SecretKey)
}

func TestCheck_unknownAccessKey(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{Credentials: credentials.NewStaticCredentialsProvider("nobody", b.SecretKey, "")})
	checkFails(t, s, objstore.ErrCredentials, "AWS_ACCESS_KEY_ID", b.SecretKey)
}

func TestCheck_missingBucket(t *testing.T) {
	b := s3test.Start(t)
	cfg := objstore.Config{Bucket: b.Name + "-missing", Endpoint: b.Endpoint, Region: b.Region, PathStyle: true}
	s, err := objstore.New(context.Background(), cfg, objstore.Options{Credentials: b.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	checkFails(t, s, objstore.ErrNoBucket, b.Name+"-missing")
}

// Credentials that may read but not write (s3test.ReadOnlyCredentials):
// Check gets through the listing and fails at the write, saying so.
func TestCheck_readOnly(t *testing.T) {
	b := s3test.Start(t)
	ctx := ctxT(t)
	c := b.ReadOnlyCredentials(t)
	ro := credentials.NewStaticCredentialsProvider(c.AccessKeyID, c.SecretAccessKey, c.SessionToken)
	admin := newStore(t, b, objstore.Options{})
	putArchive(t, admin, "a.tar.gz", "archive bytes")

	s := newStore(t, b, objstore.Options{Credentials: ro})
	checkFails(t, s, objstore.ErrDenied, "cannot write bucket "+b.Name, c.SecretAccessKey, c.SessionToken)
	// Reading still works with them, so the refusal above is the policy's.
	if _, err := s.Stat(ctx, "a.tar.gz"); err != nil {
		t.Errorf("Stat with read-only credentials: %v", err)
	}
	if _, err := s.Put(ctx, "b", strings.NewReader("x"), objstore.PutOptions{}); !errors.Is(err, objstore.ErrDenied) {
		t.Errorf("Put with read-only credentials = %v; want ErrDenied", err)
	}
}

// Nothing listens: Check fails fast, naming the endpoint.
func TestCheck_connectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close()
	s := storeAt(t, endpoint)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	began := time.Now()
	err = s.Check(ctx)
	if !errors.Is(err, objstore.ErrUnreachable) || !strings.Contains(err.Error(), endpoint) {
		t.Errorf("Check = %v; want ErrUnreachable naming %s", err, endpoint)
	}
	t.Logf("unreachable store: %v", err)
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("Check took %s; want it bounded by the 3 s context", d)
	}
}

// Something accepts connections but never answers: Check gives up when
// its context ends instead of hanging the readiness probe.
func TestCheck_silentEndpoint(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	s := storeAt(t, "http://"+l.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	began := time.Now()
	err = s.Check(ctx)
	if !errors.Is(err, objstore.ErrUnreachable) || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("Check = %v; want ErrUnreachable saying the store did not answer", err)
	}
	t.Logf("silent store: %v", err)
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Check took %s; want it bounded by the 1 s context", d)
	}
}

func storeAt(t *testing.T, endpoint string) *objstore.Store {
	t.Helper()
	cfg := objstore.Config{Bucket: "docs", Endpoint: endpoint, Region: "us-east-1", PathStyle: true}
	s, err := objstore.New(context.Background(), cfg, objstore.Options{
		Credentials: credentials.NewStaticCredentialsProvider("key", "secret", ""),
		DialTimeout: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
