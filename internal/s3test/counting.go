package s3test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// Requests counts the S3 requests that passed a counting proxy, by
// method (GET, PUT, HEAD, POST, DELETE).
type Requests struct {
	mu       sync.Mutex
	byMethod map[string]int
}

// Counts returns a copy of the counts so far.
func (r *Requests) Counts() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.byMethod))
	for k, v := range r.byMethod {
		out[k] = v
	}
	return out
}

// Total is the number of requests so far.
func (r *Requests) Total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, v := range r.byMethod {
		n += v
	}
	return n
}

// Counting returns b reached through a proxy on 127.0.0.1 that counts
// every request, so a benchmark can say how many round trips an
// operation costs. The proxy keeps the Host header the client signed,
// so SigV4 signatures (presigned links included) still verify. It stops
// when the test ends.
func Counting(t testing.TB, b *Bucket) (*Bucket, *Requests) {
	t.Helper()
	target, err := url.Parse(b.Endpoint)
	if err != nil {
		t.Fatalf("s3test: endpoint %q: %v", b.Endpoint, err)
	}
	reqs := &Requests{byMethod: map[string]int{}}
	proxy := httputil.NewSingleHostReverseProxy(target)
	// Many small requests at once: keep connections to MinIO alive.
	proxy.Transport = &http.Transport{MaxIdleConnsPerHost: 64}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqs.mu.Lock()
		reqs.byMethod[r.Method]++
		reqs.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	srvCopy := *b.Server
	srvCopy.Endpoint = srv.URL
	return &Bucket{Server: &srvCopy, Name: b.Name}, reqs
}
