// Package objstore keeps the reference server's rendered sites and
// archives in an S3-compatible object store (MinIO in the tests, AWS S3 or
// any SigV4 store in production), so that replicas share them: a site is
// the objects under one key prefix, an archive is a single object, and a
// bundle link is a SigV4 presigned GET that the store itself checks for
// expiry and tampering.
//
// It uses the AWS SDK for Go v2 (service/s3): its presign client accepts
// our own signer, which is how the signing time comes from an injected
// clock, and its credential chain is the standard one (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, profiles, web identity). Multipart upload is done
// here rather than by the SDK's upload manager, which is deprecated and
// would buffer several parts at once.
//
// Credentials and presigned links never appear in errors: every error
// leaving the package goes through internal/redact.
package objstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Limits of the S3 protocol that the package checks before asking.
const (
	// MinPartSize is the smallest part S3 accepts in a multipart upload
	// (except the last).
	MinPartSize = 5 << 20
	// DefaultPartSize is what Put buffers before it switches to a
	// multipart upload, and the size of each part.
	DefaultPartSize = 8 << 20
	// MaxPresignExpiry is SigV4's longest presigned-URL lifetime.
	MaxPresignExpiry = 7 * 24 * time.Hour
	maxKeyBytes      = 1024
)

// ErrNotFound is wrapped by the errors of Get and Stat when the object
// does not exist.
var ErrNotFound = errors.New("object not found")

// Options tune New; the zero value is usable.
type Options struct {
	// Credentials overrides the standard AWS chain (the environment's
	// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY first).
	Credentials aws.CredentialsProvider
	// Clock supplies the signing time of presigned links; the wall clock
	// if nil.
	Clock clock.Clock
	// PartSize is the multipart part size, at least MinPartSize;
	// DefaultPartSize if zero.
	PartSize int64
	// DialTimeout bounds connecting to the endpoint, so an unreachable
	// store fails in seconds instead of the kernel's minutes; 5 s if zero.
	DialTimeout time.Duration
	// MaxAttempts is how often a failed request is tried in all (the SDK
	// retries throttling and connection errors); 3 if zero.
	MaxAttempts int
}

// Store is a bucket in an S3-compatible object store. It is safe for
// concurrent use.
type Store struct {
	cfg      Config
	client   *s3.Client
	presign  *s3.PresignClient
	clock    clock.Clock
	partSize int64
}

// Info describes a stored object.
type Info struct {
	Key          string
	Size         int64
	ETag         string // without the quotes S3 puts around it
	ContentType  string
	LastModified time.Time
	// Metadata is the object's user metadata (x-amz-meta-*), such as a
	// content version. S3 lower-cases the names.
	Metadata map[string]string
}

// New returns a Store for cfg. It does not contact the store: Check does.
func New(ctx context.Context, cfg Config, o Options) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("object store: no bucket configured")
	}
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.PartSize == 0 {
		o.PartSize = DefaultPartSize
	}
	if o.PartSize < MinPartSize {
		return nil, fmt.Errorf("object store: part size %d is below the S3 minimum of %d bytes", o.PartSize, MinPartSize)
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 3
	}
	loadOpts := []func(*config.LoadOptions) error{
		config.WithRegion(cfg.Region),
		config.WithHTTPClient(newHTTPClient(o.DialTimeout)),
		config.WithRetryMaxAttempts(o.MaxAttempts),
	}
	if o.Credentials != nil {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(o.Credentials))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("object store: load AWS configuration: %w", redact.Error(err))
	}
	client := s3.NewFromConfig(awsCfg, func(so *s3.Options) {
		if cfg.Endpoint != "" {
			so.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		so.UsePathStyle = cfg.PathStyle
		// Only send and verify checksums where the operation demands one:
		// the SDK's default CRC trailers are not understood by every
		// S3-compatible store, and SigV4 already covers each payload.
		so.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	s := &Store{cfg: cfg, client: client, clock: o.Clock, partSize: o.PartSize}
	s.presign = s3.NewPresignClient(client, func(po *s3.PresignOptions) {
		po.Presigner = clockSigner{
			signer: v4.NewSigner(func(so *v4.SignerOptions) { so.DisableURIPathEscaping = true }),
			clock:  o.Clock,
		}
	})
	return s, nil
}

// newHTTPClient bounds connecting and waiting for response headers, never
// a whole transfer: a large archive may stream for minutes. It is the
// SDK's buildable client so that the chain can still add a CA bundle
// (AWS_CA_BUNDLE) to it.
func newHTTPClient(dial time.Duration) *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = dial }).
		WithTransportOptions(func(t *http.Transport) {
			t.TLSHandshakeTimeout = dial
			t.ResponseHeaderTimeout = time.Minute
			t.MaxIdleConnsPerHost = 32
		})
}

// Config returns the configuration the store was made with.
func (s *Store) Config() Config { return s.cfg }

// PartSize is how much of an object Put buffers at a time: a larger
// object goes up in parts, two of them in memory at once.
func (s *Store) PartSize() int64 { return s.partSize }

// Stat returns the object's size, ETag and metadata without its content.
func (s *Store) Stat(ctx context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.cfg.Bucket, Key: &key})
	if err != nil {
		return Info{}, s.wrap("stat", key, err)
	}
	return objectInfo(key, out.ContentLength, out.ETag, out.ContentType, out.LastModified, out.Metadata), nil
}

// objectInfo is the Info of an object from the headers HEAD and GET
// answer alike.
func objectInfo(key string, size *int64, etag, contentType *string, modified *time.Time, meta map[string]string) Info {
	return Info{
		Key:          key,
		Size:         aws.ToInt64(size),
		ETag:         strings.Trim(aws.ToString(etag), `"`),
		ContentType:  aws.ToString(contentType),
		LastModified: aws.ToTime(modified),
		Metadata:     meta,
	}
}

// Delete removes an object; deleting one that does not exist is no error,
// as in S3 itself.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.cfg.Bucket, Key: &key}); err != nil {
		return s.wrap("delete", key, err)
	}
	return nil
}

// checkKey refuses keys S3 would reject or mangle, with a message that
// says which rule was broken.
func checkKey(key string) error {
	switch {
	case key == "":
		return errors.New("object store: empty object key")
	case len(key) > maxKeyBytes:
		return fmt.Errorf("object store: object key is %d bytes; the limit is %d", len(key), maxKeyBytes)
	case !utf8.ValidString(key):
		return errors.New("object store: object key is not valid UTF-8")
	case strings.HasPrefix(key, "/"):
		return fmt.Errorf("object store: object key %q starts with a slash", key)
	}
	return nil
}

// wrap names the operation and key and classifies the store's answer, so
// the caller can tell a missing object from a refused one. Everything is
// redacted: transport errors quote request URLs.
func (s *Store) wrap(op, key string, err error) error {
	if isNotFound(err) {
		return fmt.Errorf("object store: %s %s: %w", op, key, ErrNotFound)
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "PreconditionFailed" {
		return fmt.Errorf("object store: %s %s: %w", op, key, ErrExists)
	}
	return fmt.Errorf("object store: %s %s in bucket %s: %w", op, key, s.cfg.Bucket, redact.Error(describe(s.cfg, err)))
}

func isNotFound(err error) bool {
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NoSuchKey", "NotFound":
			return true
		}
	}
	return false
}

// clockSigner presigns with the time of an injected clock instead of the
// time the SDK passes in, so tests can mint a link that has already
// expired, and servers with a skewed clock stay testable.
type clockSigner struct {
	signer *v4.Signer
	clock  clock.Clock
}

func (c clockSigner) PresignHTTP(ctx context.Context, creds aws.Credentials, r *http.Request,
	payloadHash, service, region string, _ time.Time, optFns ...func(*v4.SignerOptions),
) (string, http.Header, error) {
	return c.signer.PresignHTTP(ctx, creds, r, payloadHash, service, region, c.clock.Now(), optFns...)
}

// PresignGet returns a SigV4 presigned GET URL for key, valid for expires
// from the clock's now. It is computed locally (the store is not asked),
// and the store checks the signature and expiry when it is used. The URL
// is a credential: never log it unredacted.
func (s *Store) PresignGet(ctx context.Context, key string, expires time.Duration) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	if expires < time.Second || expires > MaxPresignExpiry {
		return "", fmt.Errorf("object store: presigned link lifetime %s is outside 1s to %s", expires, MaxPresignExpiry)
	}
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: &s.cfg.Bucket, Key: &key},
		s3.WithPresignExpires(expires))
	if err != nil {
		return "", fmt.Errorf("object store: presign %s: %w", key, redact.Error(describe(s.cfg, err)))
	}
	return req.URL, nil
}
