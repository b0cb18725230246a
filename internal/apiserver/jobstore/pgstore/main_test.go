package pgstore

import (
	"os"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// TestMain stops the PostgreSQL cluster the PostgreSQL store's tests
// start, and removes its data; without it the cluster outlived the test
// binary.
func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m))
}
