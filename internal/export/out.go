package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// Output is where an export puts the files of its bundle: a directory
// (DirOutput), or a bundle.Spool when the files are only wanted as an archive.
// Its methods are called from many goroutines at once.
type Output interface {
	// WriteFile stores one whole file of the bundle. It keeps no
	// reference to data: the page workers reuse their buffers.
	WriteFile(rel string, data []byte) error
	// Create opens a new file of the bundle for writing, failing if it
	// exists; the export closes it.
	Create(rel string) (io.WriteCloser, error)
	// Open reads back a file the export wrote.
	Open(rel string) (io.ReadCloser, error)
	// WriteManifest sorts m.Files, stamps m.Version and stores m as
	// manifest.json, the export's last write.
	WriteManifest(m *bundle.Manifest) error
}

// The two Outputs there are.
var (
	_ Output = (*dirOutput)(nil)
	_ Output = (*bundle.Spool)(nil)
)

// DirOutput is the Output that writes the bundle into the directory dir, which
// must exist and be empty.
func DirOutput(dir string) Output { return &dirOutput{dir: dir} }

// dirOutput writes a bundle as a directory tree, creating each directory
// once.
type dirOutput struct {
	dir  string
	dirs sync.Map // directories already created
}

func (d *dirOutput) WriteFile(rel string, data []byte) error {
	if err := d.mkdirFor(rel); err != nil {
		return err
	}
	if err := os.WriteFile(d.path(rel), data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

func (d *dirOutput) Create(rel string) (io.WriteCloser, error) {
	if err := d.mkdirFor(rel); err != nil {
		return nil, err
	}
	return os.OpenFile(d.path(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

func (d *dirOutput) Open(rel string) (io.ReadCloser, error) { return os.Open(d.path(rel)) }

func (d *dirOutput) WriteManifest(m *bundle.Manifest) error { return bundle.WriteManifest(d.dir, m) }

func (d *dirOutput) path(rel string) string { return filepath.Join(d.dir, filepath.FromSlash(rel)) }

func (d *dirOutput) mkdirFor(rel string) error {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	if _, ok := d.dirs.Load(dir); ok {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(d.dir, filepath.FromSlash(dir)), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	d.dirs.Store(dir, true)
	return nil
}

// bundleOut is the export's side of its Output: it records every file
// written, with its hash, for the manifest.
type bundleOut struct {
	to Output

	mu    sync.Mutex
	files []bundle.File
}

// write writes one bundle file and records it for the manifest.
func (d *bundleOut) write(rel string, data []byte) error {
	if err := d.to.WriteFile(rel, data); err != nil {
		return err
	}
	d.record(fileOf(rel, data))
	return nil
}

// fileOf is the manifest entry of data at rel.
func fileOf(rel string, data []byte) bundle.File {
	sum := sha256.Sum256(data)
	return bundle.File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
}

// copyFile streams a source file into the bundle, hashing on the way.
func (j *pipeline) copyFile(rel string) error {
	in, err := j.src.Open(rel)
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	defer in.Close()
	lim := j.e.limits.MaxAssetBytes
	if st, err := in.Stat(); err == nil && st.Size() > lim {
		return source.TooLarge(rel, "the file", st.Size(), lim)
	}
	if j.kind == KindAirGapped && strings.EqualFold(path.Ext(rel), ".css") {
		return j.gap.copyOfflineCSS(rel, in, lim)
	}
	out, err := j.out.create(rel)
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	h := sha256.New()
	n, err := bundle.Copy(io.MultiWriter(out, h), io.LimitReader(in, lim+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	if n > lim {
		return source.TooLarge(rel, "the file", n, lim)
	}
	if err := j.budget.Take(rel, n); err != nil {
		return err
	}
	j.out.record(bundle.File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// record adds a written file to the manifest's list.
func (d *bundleOut) record(f bundle.File) {
	d.mu.Lock()
	d.files = append(d.files, f)
	d.mu.Unlock()
}

// create opens a new file of the bundle for writing; the caller closes it
// and records it.
func (d *bundleOut) create(rel string) (io.WriteCloser, error) { return d.to.Create(rel) }
