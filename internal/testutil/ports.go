package testutil

import (
	"fmt"
	"net"
	"strconv"
	"testing"
)

// FreePorts asks the kernel for n unused ports on 127.0.0.1, held open
// together so they differ, then released for the caller's servers to
// bind. Another process may take one in between; the server then fails
// to start and its log says so, which on a test machine is rare enough
// to accept.
func FreePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// FreeAddr is one free 127.0.0.1:port for a server a test starts, or the
// test fails.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ports, err := FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))
}
