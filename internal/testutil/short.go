package testutil

import "testing"

// Things a test may need that the fast loop (make check, go test -short)
// goes without: each is built, installed or started by make test, and
// costs minutes or a package manager. SkipShort's needs names one.
const (
	NeedsKube      = "a Kubernetes control plane (make kube)"
	NeedsMinIO     = "MinIO (make minio)"
	NeedsPostgres  = "PostgreSQL 15 (make postgres)"
	NeedsChromium  = "Chromium (make browser)"
	NeedsTerraform = "the terraform CLI (TF_ACC=1, an acceptance test)"
	NeedsSamples   = "the request samples' tools (make sample-tools)"
)

// SkipShort skips t under go test -short, saying what it needs. It is the
// one place that decides what the fast loop leaves out: the helpers that
// start those things (kubetest, s3test, pgtest, the provider's acceptance
// environment) call it, so a test that uses them is skipped before
// anything starts.
func SkipShort(t testing.TB, needs string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("needs %s: skipped under -short (make check); make test runs it", needs)
	}
}
