package bucket

import (
	"os"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// TestMain stops the MinIO server the publisher's tests start, and
// removes its data.
func TestMain(m *testing.M) {
	os.Exit(s3test.Main(m))
}
