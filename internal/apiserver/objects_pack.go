package apiserver

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
)

// A site goes to the object store as packs: plain tar files of about
// packSize each, named 00001.tar, 00002.tar, … under the attempt's
// prefix, holding manifest.json first, then the manifest's files in its
// order, then any file the manifest does not list. One object per file
// cost a request (and, on MinIO, a sync) per page; a 2,000-page site is a
// handful of packs instead. Being in manifest order, the packs stream
// straight into the archive without a local copy of the site.
//
// Records written before packs name an a<n>/site/ prefix holding one
// object per file; packPrefix tells the layouts apart.
//
// A pack stays below the smallest part size S3 allows, so that whatever
// the store's part size it goes up in one PUT: a pack just over the part
// size was a multipart upload of four requests.
const packSize = objstore.MinPartSize - packSlack

// packSlack is room for the last entry's tar header, padding and PAX
// records and the tar trailer, which a pack may add beyond the files'
// bytes counted when it is cut.
const packSlack = 64 << 10

// packConcurrency is how many packs are uploaded at once. Each is at
// most packSize in memory (a larger file streams as a pack of its own),
// so this bounds an upload's memory to a few tens of MiB whatever the
// size of the site.
const packConcurrency = 4

// packBuffers bounds the packs a server holds in memory over all its
// uploads. A worker may have uploadsPerWorker uploads in flight
// (lease.go), and each can fill one pack while packConcurrency of its
// others go up: without a bound of their own, a server whose bucket is
// slower than its renders would hold exportWorkers × uploadsPerWorker ×
// (packConcurrency+1) of them. Ten is what the default two workers held
// with one upload each.
const packBuffers = 2 * (packConcurrency + 1)

func packPrefix(id string, attempt int) string {
	return jobObjectPrefix(id) + fmt.Sprintf("a%d/packs/", attempt)
}

func packKey(prefix string, n int) string { return prefix + fmt.Sprintf("%05d.tar", n) }

// isPackPrefix reports whether a record's SitePrefix holds packs rather
// than one object per file.
func isPackPrefix(prefix string) bool { return strings.HasSuffix(prefix, "/packs/") }

// packOrder lists the regular files of dir (slash-separated, relative)
// in pack order: the manifest, its files, the rest sorted.
func packOrder(dir string) ([]string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, bundle.ManifestName))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m bundle.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}
	order := []string{bundle.ManifestName}
	listed := map[string]bool{bundle.ManifestName: true}
	for _, f := range m.Files {
		if !listed[f.Path] {
			order = append(order, f.Path)
			listed[f.Path] = true
		}
	}
	var rest []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err == nil && !listed[filepath.ToSlash(rel)] {
			rest = append(rest, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(rest)
	return append(order, rest...), nil
}

// uploadPacks puts the site in dir under prefix as packs and returns the
// bytes of the site's files.
func (sp *sitePublisher) uploadPacks(ctx context.Context, dir, prefix string) (int64, error) {
	s := sp.srv
	order, err := packOrder(dir)
	if err != nil {
		return 0, fmt.Errorf("upload site: %w", err)
	}
	var total atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(packConcurrency)
	put := func(n int, r io.Reader) error {
		_, err := s.objects.Put(gctx, packKey(prefix, n), r, objstore.PutOptions{ContentType: "application/x-tar"})
		return err
	}
	slots := sp.buffers
	// holding says this upload holds a slot for the pack it fills: from
	// its first entry until flush hands the slot to the pack's PUT.
	holding := false
	defer func() {
		if holding {
			<-slots
		}
	}()
	pack := new(bytes.Buffer)
	tw := tar.NewWriter(pack)
	packs, inPack := 0, 0
	flush := func() error {
		if inPack == 0 {
			return nil
		}
		if err := tw.Close(); err != nil {
			return err
		}
		packs++
		// The buffer goes to the upload as it is; the next pack starts
		// a new one rather than copy this.
		n, data := packs, pack
		holding = false
		g.Go(func() error {
			defer func() { <-slots }()
			return put(n, bytes.NewReader(data.Bytes()))
		})
		pack = new(bytes.Buffer)
		tw, inPack = tar.NewWriter(pack), 0
		return nil
	}
	for _, rel := range order {
		if gctx.Err() != nil {
			break
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return 0, fmt.Errorf("upload site: %w", err)
		}
		st, err := f.Stat()
		if err != nil {
			_ = f.Close()
			return 0, fmt.Errorf("upload site: %w", err)
		}
		total.Add(st.Size())
		if inPack > 0 && int64(pack.Len())+st.Size() > packSize {
			if err := flush(); err != nil {
				_ = f.Close()
				return 0, fmt.Errorf("upload site: %w", err)
			}
		}
		if st.Size() >= packSize {
			// A large file streams as a pack of its own, never whole
			// in memory.
			if err := flush(); err != nil {
				_ = f.Close()
				return 0, fmt.Errorf("upload site: %w", err)
			}
			packs++
			n := packs
			g.Go(func() error {
				defer f.Close() //nolint:errcheck // read-only
				pr, pw := io.Pipe()
				go func() { pw.CloseWithError(writePackEntry(tar.NewWriter(pw), rel, st.Size(), f, true)) }()
				err := put(n, pr)
				_ = pr.CloseWithError(errors.New("upload ended"))
				return err
			})
			continue
		}
		if !holding {
			select {
			case slots <- struct{}{}:
				holding = true
			case <-gctx.Done():
				_ = f.Close()
				return 0, fmt.Errorf("upload site: %w", gctx.Err())
			}
		}
		err = writePackEntry(tw, rel, st.Size(), f, false)
		_ = f.Close()
		if err != nil {
			return 0, fmt.Errorf("upload site: %w", err)
		}
		inPack++
	}
	if err := flush(); err != nil {
		return 0, fmt.Errorf("upload site: %w", err)
	}
	if err := g.Wait(); err != nil {
		return 0, fmt.Errorf("upload site: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("upload site: %w", err)
	}
	return total.Load(), nil
}

// writePackEntry adds one file to a pack; closing ends a pack of its own.
func writePackEntry(tw *tar.Writer, name string, size int64, r io.Reader, closing bool) error {
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o600, Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := io.CopyN(tw, r, size); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if closing {
		return tw.Close()
	}
	return nil
}

// siteStream reads a site stored under a record's SitePrefix in the order
// an archive needs it: the manifest first, then the manifest's files.
type siteStream struct {
	ctx    context.Context
	store  *objstore.Store
	prefix string
	packs  bool
	// With packs: the keys still to read, the open one and its reader.
	keys []string
	body io.ReadCloser
	tr   *tar.Reader
}

// openSite starts reading the site under prefix, and returns its raw
// manifest.
func (sp *sitePublisher) openSite(ctx context.Context, prefix string) (*siteStream, []byte, error) {
	ss := &siteStream{ctx: ctx, store: sp.srv.objects, prefix: prefix, packs: isPackPrefix(prefix)}
	if ss.packs {
		for o, err := range ss.store.List(ctx, prefix) {
			if err != nil {
				return nil, nil, fmt.Errorf("list site: %w", err)
			}
			ss.keys = append(ss.keys, o.Key)
		}
		slices.Sort(ss.keys) // zero-padded: key order is pack order
	}
	if ss.packs && len(ss.keys) == 0 {
		return nil, nil, fmt.Errorf("the rendered site of this job is gone from the object store (prefix %s)", prefix)
	}
	r, size, err := ss.next(bundle.ManifestName)
	if err != nil {
		ss.Close()
		return nil, nil, err
	}
	const maxManifest = 64 << 20 // as bundle reads it: far above any real site
	if size > maxManifest {
		ss.Close()
		return nil, nil, fmt.Errorf("site manifest is %d bytes; the limit is %d", size, maxManifest)
	}
	raw, err := io.ReadAll(r)
	_ = r.Close()
	if err != nil {
		ss.Close()
		return nil, nil, fmt.Errorf("read site manifest: %w", err)
	}
	return ss, raw, nil
}

// Open is a bundle.Opener over the stream.
func (ss *siteStream) Open(f bundle.File) (io.ReadCloser, error) {
	r, size, err := ss.next(f.Path)
	if err != nil {
		return nil, err
	}
	if size != f.Size {
		_ = r.Close()
		return nil, fmt.Errorf("%s does not match the manifest (size %d, want %d)", f.Path, size, f.Size)
	}
	return r, nil
}

// next returns the content of the site file name and its size; the
// caller closes it before asking for the next. In a pack it must come
// later than the last one asked for (files not listed in between are
// skipped); one object per file is simply fetched.
func (ss *siteStream) next(name string) (io.ReadCloser, int64, error) {
	if !ss.packs {
		body, info, err := ss.store.Get(ss.ctx, ss.prefix+name)
		if err != nil {
			return nil, 0, fmt.Errorf("fetch site file %s: %w", name, err)
		}
		return body, info.Size, nil
	}
	for {
		if ss.tr == nil {
			if len(ss.keys) == 0 {
				return nil, 0, fmt.Errorf("site file %s is missing from the packs under %s", name, ss.prefix)
			}
			body, _, err := ss.store.Get(ss.ctx, ss.keys[0])
			if err != nil {
				return nil, 0, fmt.Errorf("fetch site pack: %w", err)
			}
			ss.keys, ss.body, ss.tr = ss.keys[1:], body, tar.NewReader(body)
		}
		hdr, err := ss.tr.Next()
		if errors.Is(err, io.EOF) {
			_ = ss.body.Close()
			ss.body, ss.tr = nil, nil
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("read site pack: %w", err)
		}
		if hdr.Name == name {
			return io.NopCloser(ss.tr), hdr.Size, nil
		}
	}
}

// Close ends the stream, also when it was not read to the end.
func (ss *siteStream) Close() {
	if ss.body != nil {
		_ = ss.body.Close()
		ss.body, ss.tr = nil, nil
	}
}
