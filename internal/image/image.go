// Package image builds the release's container image from the release's own
// packages: the static linux binaries in the zips that goreleaser made, on a
// base of CA certificates, time zone data and a non-root user, with no shell
// and no package manager. The result is an OCI image index (one image per
// linux architecture) whose digest is a function of its inputs alone: every
// file time is the commit's, every owner fixed, every list sorted, so one
// commit built twice gives one digest.
//
// The package knows the release's file names and the image's layout; it
// does not know the provider, the charts or any registry.
package image

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const (
	// Project is the release's project name: the prefix of its zips and
	// the name of the binary in the image.
	Project = "terraform-provider-docsadmin"
	// Repository is where a release publishes the image, and what both
	// charts name by default (image.repository).
	Repository = "ghcr.io/docsadmin/" + Project
	// DefaultSource is the source repository the image's label names.
	DefaultSource = "https://github.com/docsadmin/" + Project
	// Entrypoint is the binary's path in the image.
	Entrypoint = "/usr/local/bin/" + Project
	// UID is the image's user, "nonroot" (the number distroless images
	// use, so policies written for those fit this one).
	UID = 65532
	// GID is the user's group, also "nonroot".
	GID = 65532
	// User is the image's user as the config says it.
	User = "65532:65532"
	// CACertificates is where the image keeps its trusted roots: the path
	// Go (and OpenSSL on Debian) look at first.
	CACertificates = "/etc/ssl/certs/ca-certificates.crt"
	// Zoneinfo is the time zone database's directory in the image.
	Zoneinfo = "/usr/share/zoneinfo"
)

// Options are the image's inputs besides the binaries.
type Options struct {
	// Version of the release (the zips' version), the image's tag.
	Version string
	// Revision is the commit the release was built from.
	Revision string
	// Created is the commit's time: the image's creation time and every
	// file's modification time.
	Created time.Time
	// Source is the repository's URL, for the source label.
	Source string
	// ZoneinfoZip is Go's zoneinfo.zip ($GOROOT/lib/time/zoneinfo.zip).
	ZoneinfoZip string
	// CACerts is the PEM bundle to trust (see RootsPEM).
	CACerts []byte
}

// Platforms the image is built for, in index order.
var Platforms = []v1.Platform{{OS: "linux", Architecture: "amd64"}, {OS: "linux", Architecture: "arm64"}}

var zipName = regexp.MustCompile(`^` + regexp.QuoteMeta(Project) + `_(\d+\.\d+\.\d+[^_]*)_linux_(amd64|arm64)\.zip$`)

// ReleaseBinaries finds the linux zips of one version in dir and returns
// each architecture's binary (keyed by GOARCH) with the release's version.
// A release has both; a test build (DOCSADMIN_RELEASE_HOST_ONLY) has one.
func ReleaseBinaries(dir string) (version string, bins map[string][]byte, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, fmt.Errorf("read release directory: %w", err)
	}
	bins = map[string][]byte{}
	for _, e := range entries {
		m := zipName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if version != "" && m[1] != version {
			return "", nil, fmt.Errorf("release directory %s holds two versions, %s and %s", dir, version, m[1])
		}
		version = m[1]
		bin, err := binaryFromZip(filepath.Join(dir, e.Name()), Project+"_v"+version)
		if err != nil {
			return "", nil, err
		}
		bins[m[2]] = bin
	}
	if len(bins) == 0 {
		return "", nil, fmt.Errorf("release directory %s has no %s_<version>_linux_amd64.zip or _linux_arm64.zip", dir, Project)
	}
	return version, bins, nil
}

func binaryFromZip(path, name string) ([]byte, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer zr.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("open %s in %s: %w", name, path, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			return nil, fmt.Errorf("read %s in %s: %w", name, path, err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s holds no %s", path, name)
}

// Build makes the image index: for each of Platforms that bins has a
// binary for (keyed by GOARCH), the base layer and that binary.
func Build(opts Options, bins map[string][]byte) (v1.ImageIndex, error) {
	if opts.Version == "" || opts.Revision == "" || opts.Created.IsZero() {
		return nil, errors.New("image: version, revision and creation time are required")
	}
	base, err := baseLayer(opts)
	if err != nil {
		return nil, err
	}
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	if len(bins) == 0 {
		return nil, errors.New("image: no binaries")
	}
	for _, p := range Platforms {
		bin := bins[p.Architecture]
		if bin == nil {
			continue
		}
		img, err := platformImage(opts, p, base, bin)
		if err != nil {
			return nil, fmt.Errorf("image: linux/%s: %w", p.Architecture, err)
		}
		platform := p
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &platform},
		})
	}
	return idx, nil
}

func platformImage(opts Options, p v1.Platform, base v1.Layer, bin []byte) (v1.Image, error) {
	binLayer, err := layerOf(opts.Created, []file{{path: Entrypoint, mode: 0o755, data: bin}})
	if err != nil {
		return nil, err
	}
	created := v1.Time{Time: opts.Created.UTC()}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img,
		mutate.Addendum{Layer: base, MediaType: types.OCILayer, History: v1.History{
			Created: created, CreatedBy: "docsadmin base: CA certificates, time zone data, user nonroot",
		}},
		mutate.Addendum{Layer: binLayer, MediaType: types.OCILayer, History: v1.History{
			Created: created, CreatedBy: "docsadmin release binary " + opts.Version,
		}},
	)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = p.OS, p.Architecture
	cf.Created = created
	cf.Author = "docsadmin"
	cf.Config = v1.Config{
		User:       User,
		Entrypoint: []string{Entrypoint},
		// Without arguments the binary would serve the provider's plugin
		// protocol to nobody; the charts and `docker run` name a subcommand.
		Cmd:        []string{"version"},
		WorkingDir: "/home/nonroot",
		Env:        []string{"PATH=/usr/local/bin", "HOME=/home/nonroot", "SSL_CERT_FILE=" + CACertificates, "ZONEINFO=" + Zoneinfo},
		Labels:     Labels(opts),
	}
	return mutate.ConfigFile(img, cf)
}

// Labels are the OCI annotations the image's config carries.
func Labels(opts Options) map[string]string {
	return map[string]string{
		"org.opencontainers.image.title":    Project,
		"org.opencontainers.image.version":  opts.Version,
		"org.opencontainers.image.revision": opts.Revision,
		"org.opencontainers.image.source":   opts.Source,
		"org.opencontainers.image.created":  opts.Created.UTC().Format(time.RFC3339),
		"org.opencontainers.image.description": "docsadmin: Terraform provider, reference admin API server (apiserver), " +
			"Helm rollout (rollout) and bundle server (serve-bundle) in one static binary",
	}
}

// WriteLayout writes idx as an OCI image layout at dir (replacing what was
// there), its entry named by ref, and refs (SBOMReferrers) beside it.
func WriteLayout(dir string, idx v1.ImageIndex, ref string, refs ...Referrer) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return fmt.Errorf("image: create layout %s: %w", dir, err)
	}
	if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": ref,
	})); err != nil {
		return err
	}
	return appendReferrers(p, refs)
}

// file is one regular file or directory (data nil and mode with
// os.ModeDir) of a layer.
type file struct {
	path     string
	mode     os.FileMode
	uid, gid int
	data     []byte
}

func baseLayer(opts Options) (v1.Layer, error) {
	files := []file{
		{path: "/etc", mode: os.ModeDir | 0o755},
		{path: "/etc/passwd", mode: 0o644, data: []byte(
			"root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n")},
		{path: "/etc/group", mode: 0o644, data: []byte("root:x:0:\nnonroot:x:65532:\n")},
		{path: "/etc/nsswitch.conf", mode: 0o644, data: []byte("hosts: files dns\n")},
		{path: "/etc/ssl", mode: os.ModeDir | 0o755},
		{path: "/etc/ssl/certs", mode: os.ModeDir | 0o755},
		{path: CACertificates, mode: 0o644, data: opts.CACerts},
		{path: "/home", mode: os.ModeDir | 0o755},
		{path: "/home/nonroot", mode: os.ModeDir | 0o700, uid: UID, gid: GID},
		{path: "/root", mode: os.ModeDir | 0o700},
		{path: "/tmp", mode: os.ModeDir | os.ModeSticky | 0o777},
		{path: "/usr", mode: os.ModeDir | 0o755},
		{path: "/usr/local", mode: os.ModeDir | 0o755},
		{path: "/usr/local/bin", mode: os.ModeDir | 0o755},
		{path: "/usr/share", mode: os.ModeDir | 0o755},
		{path: Zoneinfo, mode: os.ModeDir | 0o755},
	}
	zones, err := zoneFiles(opts.ZoneinfoZip)
	if err != nil {
		return nil, err
	}
	return layerOf(opts.Created, append(files, zones...))
}

// zoneFiles unpacks Go's zoneinfo.zip (the toolchain's copy of the IANA
// database: pinned by the Go version, where the build machine's tzdata
// package is not) under Zoneinfo.
func zoneFiles(path string) ([]file, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("image: time zone data: %w", err)
	}
	defer zr.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	dirs := map[string]bool{}
	var files []file
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || strings.Contains(f.Name, "..") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("image: time zone %s: %w", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("image: time zone %s: %w", f.Name, err)
		}
		full := Zoneinfo + "/" + f.Name
		for d := filepath.Dir(full); d != Zoneinfo && !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
			files = append(files, file{path: d, mode: os.ModeDir | 0o755})
		}
		files = append(files, file{path: full, mode: 0o644, data: b})
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("image: %s holds no time zones", path)
	}
	return files, nil
}

// layerOf writes files, sorted by path, into an uncompressed tar with every
// time set to mtime, and makes a gzip-compressed layer of it.
func layerOf(mtime time.Time, files []file) (v1.Layer, error) {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		hdr := &tar.Header{
			Name:    strings.TrimPrefix(f.path, "/"),
			Mode:    int64(f.mode.Perm()),
			Uid:     f.uid,
			Gid:     f.gid,
			ModTime: mtime.UTC(),
			Format:  tar.FormatPAX,
		}
		if f.mode&os.ModeSticky != 0 {
			hdr.Mode |= 0o1000
		}
		if f.mode.IsDir() {
			hdr.Typeflag = tar.TypeDir
			hdr.Name += "/"
		} else {
			hdr.Typeflag = tar.TypeReg
			hdr.Size = int64(len(f.data))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}, tarball.WithMediaType(types.OCILayer))
}

// FromRelease builds the image of the release in dir (its linux zips):
// opts.Version is the zips' version, and where left empty the CA bundle is
// RootsPEM's and the time zones are ToolchainZoneinfo's.
func FromRelease(dir string, opts Options) (v1.ImageIndex, string, error) {
	version, bins, err := ReleaseBinaries(dir)
	if err != nil {
		return nil, "", err
	}
	opts.Version = version
	if opts.CACerts == nil {
		if opts.CACerts, err = RootsPEM(); err != nil {
			return nil, "", err
		}
	}
	if opts.ZoneinfoZip == "" {
		if opts.ZoneinfoZip, err = ToolchainZoneinfo(); err != nil {
			return nil, "", err
		}
	}
	if opts.Source == "" {
		opts.Source = DefaultSource
	}
	idx, err := Build(opts, bins)
	return idx, version, err
}

// ToolchainZoneinfo is the zoneinfo.zip of the Go toolchain on PATH: the
// IANA database as that Go release ships it, so the image's time zones
// change with the pinned toolchain and not with the build machine.
func ToolchainZoneinfo() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("image: go env GOROOT: %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "lib", "time", "zoneinfo.zip"), nil
}
