// Package release holds the tests of what a user installs: the release
// snapshot's provider packages, installed by terraform and tofu from a
// filesystem mirror, a network mirror and a registry, all on loopback
// (install_test.go). The image's tests are in internal/image. There is no
// code here: the release is built by goreleaser (.goreleaser.yml,
// scripts/release-snapshot.sh) and reached through internal/releasetest.
package release
