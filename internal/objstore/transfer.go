package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// PutOptions are the optional attributes of a stored object.
type PutOptions struct {
	ContentType string
	// Metadata is stored as x-amz-meta-* user metadata, for example the
	// content version of an archive. Names must be lower-case letters,
	// digits and hyphens (S3 lower-cases them anyway); values printable
	// ASCII.
	Metadata map[string]string
	// IfAbsent stores the object only if none exists under the key yet
	// (If-None-Match: *, checked by the store when the upload completes),
	// and fails with ErrExists otherwise. Replicas racing to build the
	// same archive use it so that exactly one upload wins.
	IfAbsent bool
}

// ErrExists is wrapped by Put's error when PutOptions.IfAbsent is set and
// the key already holds an object.
var ErrExists = errors.New("object already exists")

// ifNoneMatch is the If-None-Match header for PutOptions.IfAbsent.
func (o PutOptions) ifNoneMatch() *string {
	if o.IfAbsent {
		return aws.String("*")
	}
	return nil
}

// Put stores everything r yields under key. The size need not be known:
// up to one part is buffered and sent in a single request; anything larger
// goes up as a multipart upload, each part uploaded while the next one is
// read, so at most two parts are in memory. The object appears only once
// complete: a failed or cancelled upload is aborted and leaves whatever
// was stored under key before untouched.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, o PutOptions) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, err
	}
	if err := checkMetadata(o.Metadata); err != nil {
		return Info{}, err
	}
	if br, ok := r.(*bytes.Reader); ok && int64(br.Len()) < s.partSize {
		// Already in memory: sent as it is, not copied first.
		return s.putSmall(ctx, key, br, int64(br.Len()), o)
	}
	buf, full, err := readPart(r, make([]byte, 0, firstBufSize(r, s.partSize)), s.partSize)
	if err != nil {
		return Info{}, fmt.Errorf("object store: put %s: read content: %w", key, err)
	}
	if full {
		return s.putMultipart(ctx, key, buf, r, o)
	}
	return s.putSmall(ctx, key, bytes.NewReader(buf), int64(len(buf)), o)
}

// putSmall stores an object of at most one part in one request.
func (s *Store) putSmall(ctx context.Context, key string, body io.ReadSeeker, size int64, o PutOptions) (Info, error) {
	in := &s3.PutObjectInput{
		Bucket: &s.cfg.Bucket, Key: &key, Body: body,
		ContentLength: aws.Int64(size), Metadata: o.Metadata, IfNoneMatch: o.ifNoneMatch(),
	}
	if o.ContentType != "" {
		in.ContentType = &o.ContentType
	}
	out, err := s.client.PutObject(ctx, in)
	if err != nil {
		return Info{}, s.wrap("put", key, err)
	}
	return Info{Key: key, Size: size, ETag: strings.Trim(aws.ToString(out.ETag), `"`),
		ContentType: o.ContentType, Metadata: o.Metadata}, nil
}

// firstBufSize is the capacity to start reading r with. A whole part
// per call would allocate (and zero) 8 MiB for every small file of a
// site; a reader that knows its size (a file, a bytes.Reader) gets what
// it needs, any other starts small and grows.
func firstBufSize(r io.Reader, partSize int64) int64 {
	var n int64 = 32 << 10
	switch v := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			n = st.Size() + 1 // +1: reading EOF needs no second allocation
		}
	case interface{ Len() int }:
		n = int64(v.Len()) + 1
	}
	return min(max(n, 512), partSize)
}

// readPart appends from r to buf[:0] until it holds max bytes (full) or r
// ends, growing buf as needed.
func readPart(r io.Reader, buf []byte, limit int64) (_ []byte, full bool, _ error) {
	buf = buf[:0]
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit-int64(len(buf)))))
		}
		n, err := r.Read(buf[len(buf):min(int64(cap(buf)), limit)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
	return buf, true, nil
}

// putMultipart uploads buf (one full part already read) and the rest of r
// part by part, reading the next part while the previous one uploads, and
// aborts the upload on any failure so that no invisible parts keep
// taking space in the bucket.
func (s *Store) putMultipart(ctx context.Context, key string, buf []byte, r io.Reader, o PutOptions) (info Info, err error) {
	in := &s3.CreateMultipartUploadInput{Bucket: &s.cfg.Bucket, Key: &key, Metadata: o.Metadata}
	if o.ContentType != "" {
		in.ContentType = &o.ContentType
	}
	up, err := s.client.CreateMultipartUpload(ctx, in)
	if err != nil {
		return Info{}, s.wrap("start multipart upload of", key, err)
	}
	defer func() {
		if err == nil {
			return
		}
		// The caller's context may be the reason for the failure; the
		// abort must still reach the store.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, aerr := s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{
			Bucket: &s.cfg.Bucket, Key: &key, UploadId: up.UploadId,
		}); aerr != nil {
			err = errors.Join(err, s.wrap("abort multipart upload of", key, aerr))
		}
	}()
	type sent struct {
		part types.CompletedPart
		err  error
	}
	upload := func(num int32, data []byte) <-chan sent {
		ch := make(chan sent, 1)
		go func() {
			part, err := s.client.UploadPart(ctx, &s3.UploadPartInput{
				Bucket: &s.cfg.Bucket, Key: &key, UploadId: up.UploadId, PartNumber: aws.Int32(num),
				Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data))),
			})
			if err != nil {
				ch <- sent{err: s.wrap(fmt.Sprintf("upload part %d of", num), key, err)}
				return
			}
			ch <- sent{part: types.CompletedPart{ETag: part.ETag, PartNumber: aws.Int32(num)}}
		}()
		return ch
	}
	var parts []types.CompletedPart
	var size int64
	spare := make([]byte, 0, s.partSize)
	for num := int32(1); len(buf) > 0; num++ {
		inFlight := upload(num, buf)
		size += int64(len(buf))
		next, _, rerr := readPart(r, spare, s.partSize)
		res := <-inFlight
		if res.err != nil {
			return Info{}, res.err
		}
		if rerr != nil {
			return Info{}, fmt.Errorf("object store: put %s: read content: %w", key, rerr)
		}
		parts = append(parts, res.part)
		buf, spare = next, buf
	}
	out, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &s.cfg.Bucket, Key: &key, UploadId: up.UploadId,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
		IfNoneMatch:     o.ifNoneMatch(),
	})
	if err != nil {
		return Info{}, s.wrap("complete multipart upload of", key, err)
	}
	return Info{Key: key, Size: size, ETag: strings.Trim(aws.ToString(out.ETag), `"`),
		ContentType: o.ContentType, Metadata: o.Metadata}, nil
}

func checkMetadata(m map[string]string) error {
	for k, v := range m {
		if k == "" {
			return errors.New("object store: empty metadata name")
		}
		for _, c := range k {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return fmt.Errorf("object store: metadata name %q: use lower-case letters, digits and hyphens", k)
			}
		}
		for _, c := range v {
			if c < ' ' || c > '~' {
				return fmt.Errorf("object store: metadata %q: the value must be printable ASCII", k)
			}
		}
	}
	return nil
}

// Get streams the object's content; the caller closes the reader.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	if err := checkKey(key); err != nil {
		return nil, Info{}, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.cfg.Bucket, Key: &key})
	if err != nil {
		return nil, Info{}, s.wrap("get", key, err)
	}
	return out.Body, objectInfo(key, out.ContentLength, out.ETag, out.ContentType, out.LastModified, out.Metadata), nil
}

// List yields the objects whose keys start with prefix, in key order,
// fetching pages as the loop goes. Size, ETag and LastModified are set;
// Metadata is not (S3 lists no user metadata: use Stat). An error ends
// the sequence.
func (s *Store) List(ctx context.Context, prefix string) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.cfg.Bucket, Prefix: &prefix})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				yield(Info{}, s.wrap("list", prefix+"*", err))
				return
			}
			for _, o := range page.Contents {
				if !yield(Info{
					Key:          aws.ToString(o.Key),
					Size:         aws.ToInt64(o.Size),
					ETag:         strings.Trim(aws.ToString(o.ETag), `"`),
					LastModified: aws.ToTime(o.LastModified),
				}, nil) {
					return
				}
			}
		}
	}
}

// deleteBatch is the most keys one DeleteObjects request may name.
const deleteBatch = 1000

// DeletePrefix removes every object whose key starts with prefix (a whole
// rendered site, say) and returns how many it removed. The prefix must not
// be empty: emptying the bucket is not something a typo should do.
func (s *Store) DeletePrefix(ctx context.Context, prefix string) (int, error) {
	if prefix == "" {
		return 0, errors.New("object store: refusing to delete with an empty prefix (the whole bucket)")
	}
	deleted := 0
	batch := make([]types.ObjectIdentifier, 0, deleteBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &s.cfg.Bucket,
			Delete: &types.Delete{Objects: batch, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return s.wrap("delete", prefix+"*", err)
		}
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return fmt.Errorf("object store: delete %s: %d of %d objects failed, the first %s: %s (%s)",
				prefix+"*", len(out.Errors), len(batch), aws.ToString(e.Key), aws.ToString(e.Message), aws.ToString(e.Code))
		}
		deleted += len(batch)
		batch = batch[:0]
		return nil
	}
	for o, err := range s.List(ctx, prefix) {
		if err != nil {
			return deleted, err
		}
		batch = append(batch, types.ObjectIdentifier{Key: aws.String(o.Key)})
		if len(batch) == deleteBatch {
			if err := flush(); err != nil {
				return deleted, err
			}
		}
	}
	return deleted, flush()
}
