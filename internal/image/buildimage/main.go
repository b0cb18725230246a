// Command buildimage builds the release's container image from the linux
// zips of a release directory (make release-snapshot's output) into an OCI
// image layout, with each platform's SBOM from the release attached as an
// OCI 1.1 referrer, and prints the index's digest. It needs no Docker: the
// image is assembled by go-containerregistry (internal/image).
//
//	go run ./internal/image/buildimage -release dist -out dist/image \
//	    -revision $(git rev-parse HEAD) -created $(git log -1 --format=%ct)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/image"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("buildimage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	release := fs.String("release", "dist", "directory holding the release's zips")
	out := fs.String("out", "", "OCI image layout to write (default: <release>/image)")
	revision := fs.String("revision", "", "commit the release was built from (required)")
	created := fs.Int64("created", 0, "the commit's time, Unix seconds (required): the image's creation and file times")
	source := fs.String("source", image.DefaultSource, "source repository URL (label)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *revision == "" || *created <= 0 {
		_, _ = fmt.Fprintln(stderr, "buildimage: -revision and -created are required, and no arguments are taken")
		fs.Usage()
		return 2
	}
	if *out == "" {
		*out = filepath.Join(*release, "image")
	}
	digest, err := build(*release, *out, image.Options{
		Revision: *revision,
		Created:  time.Unix(*created, 0),
		Source:   *source,
	})
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "buildimage:", err)
		return 1
	}
	if _, err := fmt.Fprintln(stdout, digest); err != nil {
		return 1
	}
	return 0
}

func build(release, out string, opts image.Options) (string, error) {
	idx, version, err := image.FromRelease(release, opts)
	if err != nil {
		return "", err
	}
	refs, err := image.SBOMReferrers(release, version, idx, opts.Created)
	if err != nil {
		return "", err
	}
	if err := image.WriteLayout(out, idx, version, refs...); err != nil {
		return "", err
	}
	d, err := idx.Digest()
	if err != nil {
		return "", fmt.Errorf("digest: %w", err)
	}
	return d.String(), nil
}
