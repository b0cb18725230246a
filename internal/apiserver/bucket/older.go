package bucket

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
)

// Servers before archives were built at publish time stored a rendered
// site in pieces under its attempt's prefix, and built the job's archive,
// exports/<jobId>/bundle.tar.gz, at the first bundle call. Their records
// are still served, by building that archive the same way:
//
//   - a<n>/packs/: plain tar files named 00001.tar, 00002.tar, … holding
//     manifest.json first, then the manifest's files in its order (then
//     files it does not list), so that they stream straight into the
//     archive;
//   - a<n>/site/: one object per file, earlier still.
//
// A record's SitePrefix says which: one ending in packs/ or site/ is such a
// site, any other holds the archive itself (publishedArchive).

// isPackPrefix reports whether a record's SitePrefix holds packs rather
// than one object per file.
func isPackPrefix(prefix string) bool { return strings.HasSuffix(prefix, "/packs/") }

// publishedArchive reports whether a record's SitePrefix holds the job's
// archive, uploaded when the job completed, rather than a site an older
// server stored in pieces (or none: a job rendered without the store).
func publishedArchive(prefix string) bool {
	return prefix != "" && !isPackPrefix(prefix) && !strings.HasSuffix(prefix, "/site/")
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
func (b *Store) openSite(ctx context.Context, prefix string) (*siteStream, []byte, error) {
	ss := &siteStream{ctx: ctx, store: b.objects, prefix: prefix, packs: isPackPrefix(prefix)}
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
