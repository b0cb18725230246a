package export

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// renderRecord is what an export keeps beside its archive (the bundle's
// sidecar, never inside the archive) for a later export of the same
// deployment to reuse its pages: each reusable page's input key and
// trace, the archive's file list, and the files read through parts
// shared by every page, which every page's key holds.
type renderRecord struct {
	Format int
	// Files are the archive's manifest entries: which of a later
	// archive's groups are copied from this one (bundle.CopiedGroups).
	Files []bundle.File
	// Pages are the reusable pages' traces by page key.
	Pages map[string]*pageTrace
	// Shared are the files read for every page alike (the components'),
	// Specs the files the specs' loader read, with their content hashes.
	Shared, Specs map[string]string
}

// recordFormat changes whenever renderRecord or pageTrace does; a record
// of another format is not read.
const recordFormat = 1

// maxRecordBytes bounds a record as decompressed: a larger one is not
// read (the export then renders every page).
const maxRecordBytes = 1 << 30

// encodeRecord is r as a bundle sidecar: gob, gzip-compressed.
func encodeRecord(r *renderRecord) ([]byte, error) {
	var buf bytes.Buffer
	z, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(z).Encode(r); err != nil {
		return nil, fmt.Errorf("encode render record: %w", err)
	}
	if err := z.Close(); err != nil {
		return nil, fmt.Errorf("encode render record: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeRecord reads a sidecar encodeRecord made.
func decodeRecord(data []byte) (*renderRecord, error) {
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("render record: %w", err)
	}
	var r renderRecord
	if err := gob.NewDecoder(io.LimitReader(z, maxRecordBytes)).Decode(&r); err != nil {
		return nil, fmt.Errorf("render record: %w", err)
	}
	if r.Format != recordFormat {
		return nil, errors.New("render record: another format")
	}
	return &r, nil
}

// Sidecarer is an Output that keeps what an export records for a later
// export of the same site beside the bundle (bundle.Spool): the export
// hands it the record with SetSidecar, after the manifest.
type Sidecarer interface {
	SetSidecar(data []byte)
}

// carrier is an Output that can take a file from the earlier archive
// without its content (bundle.Spool.Carry); an export reuses pages only
// into one.
type carrier interface {
	Carry(f bundle.File) error
}
