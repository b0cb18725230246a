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

// bundleDir is the directory an export writes its bundle into: it
// creates directories once and records every file it writes, with its
// hash, for the manifest.
type bundleDir struct {
	dir  string
	dirs sync.Map // directories already created

	mu    sync.Mutex
	files []bundle.File
}

// writeFile writes one bundle file and records it for the manifest.
func (d *bundleDir) write(rel string, data []byte) error {
	if err := d.mkdirFor(rel); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(d.dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	sum := sha256.Sum256(data)
	d.record(bundle.File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])})
	return nil
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
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, lim+1))
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
func (d *bundleDir) record(f bundle.File) {
	d.mu.Lock()
	d.files = append(d.files, f)
	d.mu.Unlock()
}

// create opens a new file of the bundle for writing; the caller closes it
// and records it.
func (d *bundleDir) create(rel string) (*os.File, error) {
	if err := d.mkdirFor(rel); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(d.dir, filepath.FromSlash(rel)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

func (d *bundleDir) mkdirFor(rel string) error {
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
