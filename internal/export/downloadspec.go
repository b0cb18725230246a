package export

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// specArchive is the bundle file holding every spec of a site that has
// more than one, as the platform names its download.
const specArchive = "api-specs.zip"

// planSpecDownload decides, when docs.json's contextual options hold
// "download-spec", what the "Download API spec" link of every page
// offers: the site's one spec file, copied as it is, or all of them in
// api-specs.zip. The platform serves the file unfiltered (x-excluded and
// x-hidden operations included) and so does the bundle; without the
// option no spec file is copied for it. named are the specs docs.json
// names; the pages add those their frontmatter names.
func (j *pipeline) planSpecDownload(named []*openapi.Spec) {
	if !j.cfg.DownloadSpec() {
		return
	}
	var files []string
	for _, s := range named {
		files = append(files, s.File)
	}
	for _, p := range j.pages {
		if p.API != nil {
			files = append(files, p.API.Spec.File)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	switch len(files) {
	case 0:
		j.warnings.add(WarnConfig, "docs.json: contextual option \"download-spec\": the site has no OpenAPI spec file in its source; no download offered")
	case 1:
		j.link.mu.Lock()
		j.link.assets[files[0]] = true
		j.link.mu.Unlock()
		j.frame.SpecDownload = markup.Path("", files[0], "")
	default:
		j.specFiles = files
		j.frame.SpecDownload = markup.Path("", specArchive, "")
	}
}

// specZip is api-specs.zip: each spec file at its path in the source.
// Entries carry no time, so the same specs make the same bytes.
func (j *pipeline) specZip() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range j.specFiles {
		in, err := j.src.Open(f)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		lim := j.e.limits.MaxAssetBytes
		data, err := io.ReadAll(io.LimitReader(in, lim+1))
		_ = in.Close() // read-only
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		if int64(len(data)) > lim {
			return nil, source.TooLarge(f, "the file", int64(len(data)), lim)
		}
		if err := j.budget.Take(f, int64(len(data))); err != nil {
			return nil, err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f, Method: zip.Deflate})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
