package objstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// CheckTimeout bounds Check when the caller's context has no deadline of
// its own: a readiness probe must answer, not hang on a silent store.
const CheckTimeout = 10 * time.Second

// ProbePrefix is where Check writes its probe objects; each is removed
// again, but a replica killed mid-check can leave one behind.
const ProbePrefix = ".docsadmin-probe/"

// Check proves that the bucket is reachable, readable and writable: it
// lists it, writes a small probe object, reads it back, compares and
// deletes it. The error names the step that failed and the likely cause
// (unreachable endpoint, unknown access key, wrong secret, missing bucket,
// missing permission), which is what /readyz reports.
func (s *Store) Check(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, CheckTimeout)
		defer cancel()
	}
	if _, err := s.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &s.cfg.Bucket, MaxKeys: aws.Int32(1)}); err != nil {
		return s.checkErr("list", err)
	}
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return fmt.Errorf("object store check: %w", err)
	}
	key := ProbePrefix + hex.EncodeToString(nonce[:])
	want := []byte("docsadmin readiness probe " + key)
	if _, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: &s.cfg.Bucket, Key: &key, Body: bytes.NewReader(want), ContentLength: aws.Int64(int64(len(want))),
	}); err != nil {
		return s.checkErr("write", err)
	}
	got, err := s.readAll(ctx, key)
	if err != nil {
		return s.checkErr("read back", err)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("object store check: bucket %s returned %d bytes for the %d-byte probe object it was just given", s.cfg.Bucket, len(got), len(want))
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.cfg.Bucket, Key: &key}); err != nil {
		return s.checkErr("delete", err)
	}
	return nil
}

func (s *Store) readAll(ctx context.Context, key string) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.cfg.Bucket, Key: &key})
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(io.LimitReader(out.Body, 1<<20))
}

func (s *Store) checkErr(step string, err error) error {
	return fmt.Errorf("object store check: cannot %s bucket %s: %w", step, s.cfg.Bucket, redact.Error(describe(s.cfg, err)))
}

// Causes that describe adds to an error, for errors.Is.
var (
	// ErrUnreachable: the endpoint could not be reached or did not answer.
	ErrUnreachable = errors.New("object store unreachable")
	// ErrCredentials: the store refused the access key or the signature.
	ErrCredentials = errors.New("object store refused the credentials")
	// ErrNoBucket: the bucket does not exist.
	ErrNoBucket = errors.New("bucket does not exist")
	// ErrDenied: the credentials are valid but lack a permission.
	ErrDenied = errors.New("access denied")
)

// describe puts a plain cause in front of the SDK's error, whose own text
// ("operation error S3: PutObject, https response error StatusCode: 403,
// RequestID: …") buries it. The result wraps both the cause and err.
func describe(cfg Config, err error) error {
	var api smithy.APIError
	var netErr net.Error
	var opErr *net.OpError
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = "the AWS endpoint of region " + cfg.Region
	}
	switch {
	case errors.As(err, &api):
		switch api.ErrorCode() {
		case "InvalidAccessKeyId":
			return fmt.Errorf("%w: the access key is unknown to the store (check AWS_ACCESS_KEY_ID): %w", ErrCredentials, err)
		case "SignatureDoesNotMatch":
			return fmt.Errorf("%w: the signature does not match (check AWS_SECRET_ACCESS_KEY): %w", ErrCredentials, err)
		case "ExpiredToken", "InvalidToken":
			return fmt.Errorf("%w: the session token is invalid or expired: %w", ErrCredentials, err)
		case "NoSuchBucket":
			return fmt.Errorf("%w: %s at %s (create it first): %w", ErrNoBucket, cfg.Bucket, endpoint, err)
		case "AccessDenied", "Forbidden":
			return fmt.Errorf("%w: the credentials lack permission on bucket %s: %w", ErrDenied, cfg.Bucket, err)
		}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("%w: %s did not answer in time: %w", ErrUnreachable, endpoint, err)
	case errors.As(err, &opErr):
		return fmt.Errorf("%w: cannot connect to %s (is the endpoint right and the store running?): %w", ErrUnreachable, endpoint, err)
	}
	return err
}
