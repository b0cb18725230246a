package objstore

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Config says where the objects live. It is what ParseURL reads from an
// --object-store value; credentials are never part of it.
type Config struct {
	// Bucket holds every object.
	Bucket string
	// Endpoint is the S3 API's base URL (http or https, no path); empty
	// means AWS itself, found from Region.
	Endpoint string
	// Region is the signing region; S3-compatible stores mostly accept
	// any, MinIO defaults to us-east-1.
	Region string
	// PathStyle puts the bucket in the path (http://host/bucket/key)
	// instead of the host name, which MinIO and most self-hosted stores
	// need because nothing resolves bucket.host.
	PathStyle bool
}

// DefaultRegion is used when the URL names none: it is what MinIO and most
// S3-compatible stores sign with unless configured otherwise.
const DefaultRegion = "us-east-1"

// String renders c as the URL ParseURL reads, so a message can name the
// store exactly as it was configured.
func (c Config) String() string {
	q := url.Values{}
	if c.Endpoint != "" {
		q.Set("endpoint", c.Endpoint)
	}
	if c.Region != "" {
		q.Set("region", c.Region)
	}
	if c.PathStyle {
		q.Set("path-style", "true")
	}
	s := "s3://" + c.Bucket
	if len(q) > 0 {
		s += "?" + q.Encode()
	}
	return s
}

// bucketName is the S3 naming rule: 3-63 lower-case letters, digits, dots
// and hyphens, starting and ending with a letter or digit. Checked here so
// that a typo fails at start with a message, not later as a 400 from the
// store that names no parameter.
var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// ParseURL reads s3://BUCKET?endpoint=URL&region=REGION&path-style=BOOL.
// Every part is checked, and unknown or repeated parameters are refused:
// a misspelt "pathstyle" silently ignored would turn into baffling DNS
// errors much later. Errors never quote the raw value, which might carry
// credentials someone put in the wrong place.
func ParseURL(raw string) (Config, error) {
	var c Config
	if strings.TrimSpace(raw) == "" {
		return c, errors.New("object store URL is empty; want s3://BUCKET?endpoint=…")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return c, fmt.Errorf("object store URL %s does not parse; want s3://BUCKET?endpoint=…", redact.URL(raw))
	}
	if u.Scheme != "s3" {
		return c, fmt.Errorf("object store URL has scheme %q; only s3:// is supported", u.Scheme)
	}
	if u.User != nil {
		return c, errors.New("object store URL carries credentials; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead")
	}
	if u.Opaque != "" || u.Host == "" {
		return c, errors.New("object store URL names no bucket; want s3://BUCKET")
	}
	if u.Port() != "" || !bucketName.MatchString(u.Host) || strings.Contains(u.Host, "..") {
		return c, fmt.Errorf("object store bucket %q is not a valid bucket name "+
			"(3-63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit)", u.Host)
	}
	c.Bucket = u.Host
	if u.Path != "" && u.Path != "/" {
		return c, fmt.Errorf("object store URL has a path (%q); a key prefix is not supported, use a bucket of its own", u.Path)
	}
	if u.Fragment != "" {
		return c, errors.New("object store URL has a fragment (#…); remove it")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return c, errors.New("object store URL has a malformed query")
	}
	for name, vals := range q {
		if len(vals) > 1 {
			return c, fmt.Errorf("object store URL sets %q more than once", name)
		}
		v := vals[0]
		switch name {
		case "endpoint":
			if c.Endpoint, err = parseEndpoint(v); err != nil {
				return Config{}, err
			}
		case "region":
			if v == "" || strings.ContainsAny(v, " /?#") {
				return Config{}, fmt.Errorf("object store region %q is not a region name", v)
			}
			c.Region = v
		case "path-style":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return Config{}, fmt.Errorf("object store path-style is %q; want true or false", v)
			}
			c.PathStyle = b
		default:
			return Config{}, fmt.Errorf("object store URL has unknown parameter %q; known are endpoint, region and path-style", name)
		}
	}
	if c.Region == "" {
		c.Region = DefaultRegion
	}
	return c, nil
}

// parseEndpoint accepts an absolute http or https URL with a host and
// nothing after it but an optional "/".
func parseEndpoint(v string) (string, error) {
	e, err := url.Parse(v)
	switch {
	case err != nil || e.Opaque != "":
		return "", fmt.Errorf("object store endpoint %s is not a URL; want http(s)://HOST[:PORT]", redact.URL(v))
	case e.Scheme != "http" && e.Scheme != "https":
		return "", fmt.Errorf("object store endpoint has scheme %q; want http or https", e.Scheme)
	case e.User != nil:
		return "", errors.New("object store endpoint carries credentials; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead")
	case e.Host == "" || e.Hostname() == "":
		return "", errors.New("object store endpoint names no host; want http(s)://HOST[:PORT]")
	case e.Path != "" && e.Path != "/", e.RawQuery != "" || e.ForceQuery, e.Fragment != "":
		return "", fmt.Errorf("object store endpoint %s has a path, query or fragment; want http(s)://HOST[:PORT]", redact.URL(v))
	}
	if p := e.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("object store endpoint port %q is not a port number", p)
		}
	}
	return e.Scheme + "://" + e.Host, nil
}
