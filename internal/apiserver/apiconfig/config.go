// Package apiconfig is the reference server's configuration: the YAML
// file other projects' suites write (its field names are a contract),
// its defaults and checks, organizations with their keys, projects and
// deployments, and the CORS origin rules.
//
// It knows the API's wire rules (internal/api), what a deployment may ask
// of an export (internal/export/deploy: kinds, features, base paths) and
// a docs source's root and read limits (internal/export/source); never
// the renderer itself, the server, its store or its handlers.
package apiconfig

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/deploy"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// Plans an organization can be on. Static export needs enterprise.
const (
	PlanEnterprise = "enterprise"
	PlanPro        = "pro"
)

// Outcomes of the reference agent.
const (
	OutcomePullRequest = "pullRequest"
	OutcomeNoChanges   = "noChanges"
	OutcomeFail        = "fail"
)

// StorageConfig is the `storage:` section. Database is a postgres:// URL
// (the --database-url flag and DOCSADMIN_DATABASE_URL override it);
// Objects an s3://BUCKET?… URL (--object-store, DOCSADMIN_OBJECT_STORE).
type StorageConfig struct {
	Database string `yaml:"database"`
	Objects  string `yaml:"objects"`
}

// DefaultAgentJobsPerHour is the per-project limit on created agent jobs.
const DefaultAgentJobsPerHour = 100

// Config is the server's YAML configuration. Other projects' acceptance
// suites write this file, so its field names are a contract.
type Config struct {
	KeyPrefix        string       `yaml:"keyPrefix"`
	BundleLinkTTL    Duration     `yaml:"bundleLinkTTL"`
	JobRetention     Duration     `yaml:"jobRetention"`
	AgentJobsPerHour int          `yaml:"agentJobsPerHour"`
	ExportWorkers    int          `yaml:"exportWorkers"`
	Limits           ExportLimits `yaml:"limits"`
	// MaxActiveExports caps an organization's queued + running exports
	// (429 with Retry-After beyond it); MaxStoredExports caps the jobs it
	// keeps (507); ExportTimeout ends a render that runs longer (failed).
	MaxActiveExports int            `yaml:"maxActiveExports"`
	MaxStoredExports int            `yaml:"maxStoredExports"`
	ExportTimeout    Duration       `yaml:"exportTimeout"`
	Organizations    []Organization `yaml:"organizations"`
	// CORSAllowedOrigins are the browser origins that may call the API,
	// e.g. "https://docs.example.com", "https://*.example.com" (any
	// subdomain, at any depth, with that scheme and port; never
	// example.com itself), or "null" for pages opened from file:// (an
	// API playground in an exported bundle). Default: none.
	CORSAllowedOrigins []string `yaml:"corsAllowedOrigins"`
	// ExportLease is how long a claimed export is held without renewal:
	// after a replica dies its jobs are taken over within about this
	// long (default 30s; Options.ExportLease overrides it).
	ExportLease Duration `yaml:"exportLease"`
	// Storage says where state lives when it is not the data dir.
	Storage StorageConfig `yaml:"storage"`
	// MaxStoredBytes caps the bytes of an organization's rendered sites
	// and archives (507 beyond).
	MaxStoredBytes int64 `yaml:"maxStoredBytes"`
	// Control enables the control plane for test suites
	// (internal/apiserver/control).
	Control ControlConfig `yaml:"control"`
}

// ControlConfig is the `control:` section of the configuration.
type ControlConfig struct {
	// Token enables the control plane; requests to it must carry
	// "Authorization: Bearer <token>".
	Token string `yaml:"token"`
	// JournalSize is how many requests the journal keeps (default 1000).
	JournalSize int `yaml:"journalSize"`
	// SourceRoots are the directories a runtime organization's
	// source.path must lie under (after symlinks are resolved); relative
	// ones are resolved against the configuration file's directory.
	// Without any, source.path is refused and sources are given inline:
	// the control plane must not read whatever directory on the server
	// happens to hold a docs.json, another organization's included.
	SourceRoots []string `yaml:"sourceRoots"`
}

// Defaults of the bounds that keep one key from filling the disk or the
// queue. A negative value in the file is refused; there is no "unlimited"
// except a very large number, on purpose.
const (
	DefaultMaxActiveExports = 10
	DefaultMaxStoredExports = 1000
	DefaultMaxStoredBytes   = 20 << 30
	DefaultExportTimeout    = 15 * time.Minute
	DefaultJobRetention     = 30 * 24 * time.Hour
)

// Organization owns API keys and projects.
type Organization struct {
	ID       string    `yaml:"id"`
	Plan     string    `yaml:"plan"`
	APIKeys  []string  `yaml:"apiKeys"`
	Projects []Project `yaml:"projects"`

	// KeyDigests are the SHA-256 digests of APIKeys, filled by Check;
	// only digests are compared when a key is presented.
	KeyDigests [][sha256.Size]byte `yaml:"-"`
}

// Project is a docs repository with its reference agent and deployments.
type Project struct {
	ID               string       `yaml:"id"`
	Repository       string       `yaml:"repository"`
	Branch           string       `yaml:"branch"`
	Agent            AgentScript  `yaml:"agent"`
	AgentJobsPerHour int          `yaml:"agentJobsPerHour"`
	Deployments      []Deployment `yaml:"deployments"`
}

// AgentScript says what the reference agent does with every job of a
// project: after Duration it completes with a pull request, completes with
// no changes, or fails; ArchiveAfter (optional) archives a finished job.
type AgentScript struct {
	Outcome      string   `yaml:"outcome"`
	Duration     Duration `yaml:"duration"`
	Model        string   `yaml:"model"`
	ArchiveAfter Duration `yaml:"archiveAfter"`
}

// Deployment is one exportable docs site.
type Deployment struct {
	Domain   string   `yaml:"domain"`
	Source   string   `yaml:"source"`
	Kind     string   `yaml:"kind"`
	Features []string `yaml:"features"`
	// BasePath is the path the site is served under on its domain
	// ("/docs"); docs.json has no field for it. Links its authors wrote
	// with it resolve inside the bundle (export.Request.BasePath).
	BasePath string `yaml:"basePath"`

	// SourceFS reads the docs source, every read confined to its root;
	// ParseConfig opens Source, code that builds a Config sets it.
	SourceFS fs.FS `yaml:"-"`

	kind     deploy.Kind
	basePath string
}

// ExportKind is Kind parsed by Check.
func (d *Deployment) ExportKind() deploy.Kind { return d.kind }

// ExportBasePath is BasePath cleaned by Check.
func (d *Deployment) ExportBasePath() string { return d.basePath }

// Duration is a time.Duration written as a Go duration string in YAML.
type Duration time.Duration

// UnmarshalYAML parses "90s", "1h30m" and the like.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: duration must be a string such as \"15m\"", n.Line)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	if v < 0 {
		return fmt.Errorf("line %d: duration %q is negative", n.Line, s)
	}
	*d = Duration(v)
	return nil
}

// LoadConfig reads and checks a configuration file. Deployment sources are
// resolved relative to the file's directory.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	cfg, err := ParseConfig(data, filepath.Dir(abs))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// ParseConfig decodes YAML strictly (an unknown key is an error, so a typo
// does not silently fall back to a default) and checks it. Relative
// deployment sources are resolved against baseDir.
func ParseConfig(data []byte, baseDir string) (*Config, error) {
	var cfg Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	for i, root := range cfg.Control.SourceRoots {
		if !filepath.IsAbs(root) {
			cfg.Control.SourceRoots[i] = filepath.Join(baseDir, root)
		}
	}
	for i := range cfg.Organizations {
		for j := range cfg.Organizations[i].Projects {
			for k := range cfg.Organizations[i].Projects[j].Deployments {
				d := &cfg.Organizations[i].Projects[j].Deployments[k]
				if d.Source == "" {
					return nil, fmt.Errorf("deployment %q: source is required", d.Domain)
				}
				dir := d.Source
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(baseDir, dir)
				}
				if st, err := os.Stat(dir); err != nil || !st.IsDir() {
					return nil, fmt.Errorf("deployment %q: source %s is not a directory", d.Domain, dir)
				}
				d.SourceFS = source.Dir(dir) // every read confined to the source root
			}
		}
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

var (
	// IDPattern is what organization, project and agent job ids look like,
	// in the config and in URL paths; an id in a path that does not match
	// (a "..", a slash smuggled in encoded) names nothing and is a 404.
	IDPattern     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	prefixPattern = regexp.MustCompile(`^[a-z][a-z0-9]{1,15}$`)
)

// Check fills defaults and rejects what the server could not serve
// correctly. Fields set from code (tests, the demo) must pass it too.
func (c *Config) Check() error {
	if c.KeyPrefix == "" {
		c.KeyPrefix = api.DefaultKeyPrefix
	}
	if !prefixPattern.MatchString(c.KeyPrefix) {
		return fmt.Errorf("keyPrefix %q: want 2-16 lower-case letters or digits, starting with a letter", c.KeyPrefix)
	}
	if c.BundleLinkTTL == 0 {
		c.BundleLinkTTL = Duration(api.DefaultBundleTTL)
	}
	if c.AgentJobsPerHour == 0 {
		c.AgentJobsPerHour = DefaultAgentJobsPerHour
	}
	for _, root := range c.Control.SourceRoots {
		if !filepath.IsAbs(root) {
			return fmt.Errorf("control.sourceRoots: %q is not an absolute path", root)
		}
	}
	if c.AgentJobsPerHour < 0 || c.ExportWorkers < 0 || c.MaxActiveExports < 0 || c.MaxStoredExports < 0 || c.MaxStoredBytes < 0 {
		return errors.New("agentJobsPerHour, exportWorkers, maxActiveExports, maxStoredExports and maxStoredBytes must not be negative")
	}
	if c.MaxStoredBytes == 0 {
		c.MaxStoredBytes = DefaultMaxStoredBytes
	}
	if c.MaxActiveExports == 0 {
		c.MaxActiveExports = DefaultMaxActiveExports
	}
	if c.MaxStoredExports == 0 {
		c.MaxStoredExports = DefaultMaxStoredExports
	}
	if c.ExportTimeout == 0 {
		c.ExportTimeout = Duration(DefaultExportTimeout)
	}
	if c.JobRetention == 0 {
		c.JobRetention = Duration(DefaultJobRetention)
	}
	if err := checkOrigins(c.CORSAllowedOrigins); err != nil {
		return err
	}
	if err := c.Limits.check(); err != nil {
		return err
	}
	if len(c.Organizations) == 0 {
		return errors.New("at least one organization is required")
	}
	seenOrg, seenProject, seenDomain, seenKey := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[[32]byte]bool{}
	for i := range c.Organizations {
		o := &c.Organizations[i]
		if !IDPattern.MatchString(o.ID) || seenOrg[o.ID] {
			return fmt.Errorf("organization %q: id missing, malformed or repeated", o.ID)
		}
		seenOrg[o.ID] = true
		if o.Plan != PlanEnterprise && o.Plan != PlanPro {
			return fmt.Errorf("organization %q: plan %q (want enterprise or pro)", o.ID, o.Plan)
		}
		o.KeyDigests = nil
		for _, k := range o.APIKeys {
			d, err := keyDigest(c.KeyPrefix, k)
			if err != nil {
				return fmt.Errorf("organization %q: %w", o.ID, err)
			}
			if seenKey[d] {
				return fmt.Errorf("organization %q: an API key is listed twice", o.ID)
			}
			seenKey[d] = true
			o.KeyDigests = append(o.KeyDigests, d)
		}
		for j := range o.Projects {
			p := &o.Projects[j]
			if err := p.Check(seenProject, seenDomain); err != nil {
				return fmt.Errorf("organization %q: %w", o.ID, err)
			}
		}
	}
	return nil
}

// Check fills the project's defaults and rejects what the server could
// not serve; seenProject and seenDomain hold the ids and domains of the
// projects checked before it, and get its own.
func (p *Project) Check(seenProject, seenDomain map[string]bool) error {
	if !IDPattern.MatchString(p.ID) || seenProject[p.ID] {
		return fmt.Errorf("project %q: id missing, malformed or repeated", p.ID)
	}
	seenProject[p.ID] = true
	if p.Repository == "" {
		return fmt.Errorf("project %q: repository is required", p.ID)
	}
	p.Repository = strings.TrimSuffix(p.Repository, "/")
	switch p.Agent.Outcome {
	case "":
		p.Agent.Outcome = OutcomePullRequest
	case OutcomePullRequest, OutcomeNoChanges, OutcomeFail:
	default:
		return fmt.Errorf("project %q: agent outcome %q (want pullRequest, noChanges or fail)", p.ID, p.Agent.Outcome)
	}
	if p.Agent.Model == "" {
		p.Agent.Model = "reference"
	}
	if p.AgentJobsPerHour < 0 {
		return fmt.Errorf("project %q: agentJobsPerHour must not be negative", p.ID)
	}
	for k := range p.Deployments {
		d := &p.Deployments[k]
		if canon, err := api.CheckDomain(d.Domain); err != nil || canon != d.Domain || seenDomain[d.Domain] {
			return fmt.Errorf("project %q: deployment domain %q is not a hostname or is repeated", p.ID, d.Domain)
		}
		seenDomain[d.Domain] = true
		kind, err := deploy.ParseKind(d.Kind)
		if err != nil {
			return fmt.Errorf("deployment %q: %w", d.Domain, err)
		}
		d.kind = kind
		if d.basePath, err = deploy.CleanBasePath(d.BasePath); err != nil {
			return fmt.Errorf("deployment %q: %w", d.Domain, err)
		}
		if err := deploy.CheckFeatures(kind, d.Features); err != nil {
			return fmt.Errorf("deployment %q: %w", d.Domain, err)
		}
		if d.SourceFS == nil {
			return fmt.Errorf("deployment %q: no source", d.Domain)
		}
	}
	return nil
}

// keyDigest accepts a key as "<prefix>_<secret>" or as "sha256:<hex>" of
// such a key, so a config file need not hold the secret itself.
func keyDigest(prefix, k string) ([sha256.Size]byte, error) {
	var d [sha256.Size]byte
	if hexDigest, ok := strings.CutPrefix(k, "sha256:"); ok {
		b, err := hex.DecodeString(hexDigest)
		if err != nil || len(b) != sha256.Size {
			return d, errors.New("apiKeys: sha256: entry must be 64 hex digits")
		}
		copy(d[:], b)
		return d, nil
	}
	if !WellFormedKey(prefix, k) {
		return d, fmt.Errorf("apiKeys: a key must look like %s_<16 to 128 letters or digits>", prefix)
	}
	return sha256.Sum256([]byte(k)), nil
}

// WellFormedKey checks the shape of a presented key before any lookup.
func WellFormedKey(prefix, k string) bool {
	secret, ok := strings.CutPrefix(k, prefix+"_")
	if !ok || len(secret) < 16 || len(secret) > 128 {
		return false
	}
	for _, r := range secret {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// Deployment finds a deployment of org by domain.
func (o *Organization) Deployment(domain string) (*Project, *Deployment) {
	for i := range o.Projects {
		for j := range o.Projects[i].Deployments {
			if o.Projects[i].Deployments[j].Domain == domain {
				return &o.Projects[i], &o.Projects[i].Deployments[j]
			}
		}
	}
	return nil, nil
}

// Project finds a project of org by id.
func (o *Organization) Project(id string) *Project {
	for i := range o.Projects {
		if o.Projects[i].ID == id {
			return &o.Projects[i]
		}
	}
	return nil
}

// JobsPerHour is the project's agent job limit.
func (c *Config) JobsPerHour(p *Project) int {
	if p.AgentJobsPerHour > 0 {
		return p.AgentJobsPerHour
	}
	return c.AgentJobsPerHour
}

// checkOrigins accepts exact origins ("scheme://host[:port]"), "null",
// and subdomain wildcards ("scheme://*.host[:port]", host of two labels or
// more). Any other wildcard ("*", "https://*", "*.test", "a.*.test") is
// refused: it would let sites nobody listed drive the API with a key a
// reader typed.
func checkOrigins(origins []string) error {
	for _, o := range origins {
		if o == "null" {
			continue
		}
		exact, wildcard := o, false
		if scheme, rest, ok := strings.Cut(o, "://*."); ok {
			wildcard = true
			exact = scheme + "://" + rest
			if host, _, _ := strings.Cut(rest, ":"); !strings.Contains(host, ".") {
				return fmt.Errorf("corsAllowedOrigins: %q would allow every subdomain of a top-level domain: list a domain of your own, e.g. https://*.example.com", o)
			}
		}
		u, err := url.Parse(exact)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" ||
			u.Fragment != "" || u.User != nil || o != strings.ToLower(o) || strings.Contains(exact, "*") ||
			(wildcard && !validHostLabels(u.Hostname())) {
			return fmt.Errorf("corsAllowedOrigins: %q is not an origin: want lower-case scheme://host[:port] without a path, "+
				"scheme://*.host[:port] for its subdomains, or null", o)
		}
	}
	return nil
}

// OriginAllowed reports whether a request's Origin is one of allowed:
// equal to an exact entry, or a subdomain (one label or more, each a valid
// hostname label) of a wildcard entry's host, with its scheme and port.
// "https://*.acme.test" allows https://docs.acme.test and
// https://a.b.acme.test, never https://acme.test, https://evil-acme.test,
// http://docs.acme.test or https://docs.acme.test:8443.
func OriginAllowed(allowed []string, origin string) bool {
	for _, a := range allowed {
		if a == origin {
			return true
		}
		scheme, rest, ok := strings.Cut(a, "://*.")
		if !ok {
			continue
		}
		host, ok := strings.CutPrefix(origin, scheme+"://")
		if !ok {
			continue
		}
		if sub, ok := strings.CutSuffix(host, "."+rest); ok && validHostLabels(sub) {
			return true
		}
	}
	return false
}

// validHostLabels reports whether s is dot-separated lower-case hostname
// labels: letters, digits and inner hyphens, 1 to 63 each.
func validHostLabels(s string) bool {
	if s == "" {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return false
			}
		}
	}
	return true
}
