package apiservercmd_test

import (
	"os"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// TestMain stops the PostgreSQL cluster and the MinIO server the
// command's storage tests start, and removes their data.
func TestMain(m *testing.M) {
	os.Exit(s3test.Wrap(func() int { return pgtest.Main(m) }))
}
