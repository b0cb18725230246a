//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package kubetest

import "errors"

// lockDir refuses: without flock there is no lock that a crash releases,
// and an unlocked state directory could be shared by two clusters.
func lockDir(string) (func(), error) {
	return nil, errors.New("a kept state directory needs flock, which this system lacks")
}
