package control

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/deploy"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
)

// Runtime organizations are created through the control plane, one per
// test or suite, and are isolated from each other exactly as configured
// ones are (their own key, project, domain and jobs). They live until a
// reset or their deletion; with persist they are written to the data dir
// (the key as a digest only) and come back after a restart.

const (
	runtimeOrgsFile = "runtime-organizations.json"
	runtimeOrgsDir  = "runtime-organizations"
	maxRuntimeID    = 48 // "proj_" + id must stay within idPattern's 64
	maxSourceFiles  = 1000
)

// Orgs are the organizations the server knows: the configured ones and
// those the control plane created at runtime. It exists with or without a
// control plane: persisted runtime organizations come back at start.
type Orgs struct {
	cfg     *apiconfig.Config
	dataDir string
	// edit serialises creations and deletions, so two cannot take the
	// same id or domain; mu guards list for readers.
	edit sync.Mutex
	mu   sync.RWMutex
	list []*runtimeOrg
	// all is what All returns, made again (publish) whenever list
	// changes: every authenticated request reads it, and a copy and a
	// lock per request were a measurable part of a status read.
	all atomic.Pointer[[]*apiconfig.Organization]
}

// NewOrgs returns the organizations of cfg; Load adds the persisted
// runtime ones from dataDir.
func NewOrgs(cfg *apiconfig.Config, dataDir string) *Orgs {
	s := &Orgs{cfg: cfg, dataDir: dataDir}
	s.publish()
	return s
}

// publish makes All return the organizations as they are now; the caller
// holds mu for writing (or, in Load, runs before the server serves).
func (s *Orgs) publish() {
	out := make([]*apiconfig.Organization, 0, len(s.cfg.Organizations)+len(s.list))
	for i := range s.cfg.Organizations {
		out = append(out, &s.cfg.Organizations[i])
	}
	for _, r := range s.list {
		out = append(out, r.org)
	}
	s.all.Store(&out)
}

type runtimeOrg struct {
	org     *apiconfig.Organization
	persist bool
	// saved is what the data dir keeps of a persisted organization.
	saved savedOrg
}

// savedOrg is one entry of runtimeOrgsFile.
type savedOrg struct {
	ID        string `json:"id"`
	Plan      string `json:"plan"`
	KeyDigest string `json:"keyDigest"`
	ProjectID string `json:"projectId"`
	Domain    string `json:"domain"`
	Kind      string `json:"kind"`
	BasePath  string `json:"basePath,omitempty"`
	Source    string `json:"source"`
	Owned     bool   `json:"owned"` // Source was written by the server and is deleted with the organization
	// Agent is the project's agent script, nil for the default one.
	Agent *api.ControlAgent `json:"agent,omitempty"`
}

// Default script of a runtime organization's reference agent.
const defaultAgentDuration = 5 * time.Second

// agentScript is the agent script sv asks for.
func (sv savedOrg) agentScript() (apiconfig.AgentScript, error) {
	a := apiconfig.AgentScript{Outcome: apiconfig.OutcomePullRequest, Duration: apiconfig.Duration(defaultAgentDuration), Model: "reference"}
	if sv.Agent == nil {
		return a, nil
	}
	if sv.Agent.Outcome != "" {
		a.Outcome = sv.Agent.Outcome
	}
	if sv.Agent.Duration != "" {
		d, err := time.ParseDuration(sv.Agent.Duration)
		if err != nil || d < 0 {
			return a, httpapi.BadRequest("agent.duration %q: want a Go duration such as \"2s\", zero or more", sv.Agent.Duration)
		}
		a.Duration = apiconfig.Duration(d)
	}
	return a, nil
}

// All returns the configured organizations and the runtime ones, a
// snapshot shared by every caller: read it, never change it.
func (s *Orgs) All() []*apiconfig.Organization { return *s.all.Load() }

// Find finds an organization by id, nil when there is none.
func (s *Orgs) Find(id string) *apiconfig.Organization {
	for _, o := range s.All() {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// newRuntimeOrg builds and checks an organization against those there are.
func (s *Orgs) newRuntimeOrg(sv savedOrg, source fs.FS, digest [sha256.Size]byte) (*apiconfig.Organization, error) {
	agent, err := sv.agentScript()
	if err != nil {
		return nil, err
	}
	o := &apiconfig.Organization{
		ID: sv.ID, Plan: sv.Plan, KeyDigests: [][sha256.Size]byte{digest},
		Projects: []apiconfig.Project{{
			ID: sv.ProjectID, Repository: "https://git.example.com/" + sv.ID + "/docs", Branch: "main",
			Agent: agent,
			Deployments: []apiconfig.Deployment{{
				Domain: sv.Domain, Source: sv.Source, Kind: sv.Kind, BasePath: sv.BasePath, SourceFS: source}},
		}},
	}
	if o.Plan != apiconfig.PlanEnterprise && o.Plan != apiconfig.PlanPro {
		return nil, httpapi.BadRequest("plan %q: want enterprise or pro", o.Plan)
	}
	seenProject, seenDomain := map[string]bool{}, map[string]bool{}
	for _, other := range s.All() {
		if other.ID == o.ID {
			return nil, httpapi.Errorf(http.StatusConflict, "organization %q already exists", o.ID)
		}
		for _, p := range other.Projects {
			seenProject[p.ID] = true
			for _, d := range p.Deployments {
				seenDomain[d.Domain] = true
			}
		}
	}
	if seenDomain[sv.Domain] {
		return nil, httpapi.Errorf(http.StatusConflict, "domain %q belongs to another organization", sv.Domain)
	}
	if err := o.Projects[0].Check(seenProject, seenDomain); err != nil {
		return nil, httpapi.BadRequest("%v", err)
	}
	return o, nil
}

func (cp *Plane) controlCreateOrganization(w http.ResponseWriter, r *http.Request) error {
	s := cp.orgs
	var req api.ControlNewOrganization
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	sv := savedOrg{ID: req.ID, Plan: req.Plan, Kind: req.Kind, Domain: req.Domain, BasePath: req.BasePath, Agent: req.Agent}
	if sv.ID == "" {
		h, err := linksign.RandomHex(cp.random, 6)
		if err != nil {
			return err
		}
		sv.ID = "org-" + h
	}
	if !apiconfig.IDPattern.MatchString(sv.ID) || len(sv.ID) > maxRuntimeID {
		return httpapi.BadRequest("id %q: want up to %d letters, digits, '-' or '_', starting with a letter or digit", sv.ID, maxRuntimeID)
	}
	if sv.Plan == "" {
		sv.Plan = apiconfig.PlanEnterprise
	}
	if sv.Domain == "" {
		sv.Domain = strings.ToLower(strings.ReplaceAll(sv.ID, "_", "-")) + ".docs.test"
	}
	if canon, err := api.CheckDomain(sv.Domain); err != nil || canon != sv.Domain {
		return httpapi.BadRequest("domain %q is not a lower-case hostname", sv.Domain)
	}
	if _, err := deploy.ParseKind(sv.Kind); err != nil {
		return httpapi.BadRequest("kind: %s", err.Error())
	}
	sv.ProjectID = "proj_" + sv.ID
	secret, err := linksign.RandomHex(cp.random, 20)
	if err != nil {
		return err
	}
	key := cp.cfg.KeyPrefix + "_" + secret
	digest := sha256.Sum256([]byte(key))
	sv.KeyDigest = hex.EncodeToString(digest[:])

	s.edit.Lock()
	defer s.edit.Unlock()
	// The source is checked before anything is written for it.
	o, err := s.newRuntimeOrg(sv, source.Dir(os.TempDir()), digest)
	if err != nil {
		return err
	}
	src, err := s.runtimeSource(&sv, req.Source)
	if err != nil {
		return err
	}
	o.Projects[0].Deployments[0].SourceFS = src
	o.Projects[0].Deployments[0].Source = sv.Source
	ro := &runtimeOrg{org: o, persist: req.Persist, saved: sv}
	s.mu.Lock()
	s.list = append(s.list, ro)
	s.publish()
	s.mu.Unlock()
	if req.Persist {
		if err := s.saveRuntimeOrgs(); err != nil {
			s.dropRuntimeOrg(o.ID)
			return httpapi.StoreError("persist organization", err)
		}
	}
	cp.log.Info("control: organization created", "organization", o.ID, "domain", sv.Domain, "persist", req.Persist)
	httpapi.WriteJSON(w, http.StatusCreated, api.ControlOrganization{ID: o.ID, APIKey: key, ProjectID: sv.ProjectID, Domain: sv.Domain})
	return nil
}

// runtimeSource checks the docs source of a new organization and, when it
// is given inline, writes it under the data dir.
func (s *Orgs) runtimeSource(sv *savedOrg, src api.ControlSource) (fs.FS, error) {
	switch {
	case (len(src.Files) == 0) == (src.Path == ""):
		return nil, httpapi.BadRequest("source: give either files (name → content) or path (a directory on the server)")
	case src.Path != "":
		dir, ok := s.confineSource(src.Path)
		if !ok {
			// One answer for every refusal, so that the control plane
			// does not tell which directories exist or hold a docs.json.
			return nil, httpapi.BadRequest("source.path must be an absolute path to a directory with a docs.json under one of control.sourceRoots; give the files inline otherwise")
		}
		sv.Source = dir
		return source.Dir(dir), nil
	}
	if len(src.Files) > maxSourceFiles {
		return nil, httpapi.BadRequest("source.files has %d files; at most %d", len(src.Files), maxSourceFiles)
	}
	if _, ok := src.Files["docs.json"]; !ok {
		return nil, httpapi.BadRequest("source.files needs a docs.json")
	}
	for name := range src.Files {
		if !fs.ValidPath(name) || name == "." || strings.Contains(name, `\`) {
			return nil, httpapi.BadRequest("source.files: %q is not a relative slash-separated file name", name)
		}
	}
	dir := filepath.Join(s.dataDir, runtimeOrgsDir, sv.ID)
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("clear source dir: %w", err)
	}
	for name, content := range src.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return nil, fmt.Errorf("write source: %w", err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			return nil, fmt.Errorf("write source: %w", err)
		}
	}
	sv.Source, sv.Owned = dir, true
	return source.Dir(dir), nil
}

// confineSource resolves path (symlinks included, so a link under a root
// cannot lead out of it) and reports the directory it names when that
// lies under one of the configured source roots, outside the data dir
// (where the inline sources of other organizations are kept), and holds
// a docs.json.
func (s *Orgs) confineSource(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	dir, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	if data, err := filepath.EvalSymlinks(s.dataDir); err == nil && within(data, dir) {
		return "", false
	}
	under := false
	for _, root := range s.cfg.Control.SourceRoots {
		if r, err := filepath.EvalSymlinks(root); err == nil && within(r, dir) {
			under = true
			break
		}
	}
	if !under {
		return "", false
	}
	if st, err := os.Stat(filepath.Join(dir, "docs.json")); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return dir, true
}

// within reports whether dir is root or below it; both are resolved.
func within(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && filepath.IsLocal(rel)
}

func (cp *Plane) controlDeleteOrganization(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	for i := range cp.cfg.Organizations {
		if cp.cfg.Organizations[i].ID == id {
			return httpapi.Errorf(http.StatusConflict, "organization %q is configured, not created at runtime; it cannot be deleted", id)
		}
	}
	if cp.orgs.Find(id) == nil {
		return httpapi.NotFound("organization %q not found", id)
	}
	if err := cp.removeRuntimeOrganization(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeRuntimeOrganization deletes a runtime organization with its jobs.
func (cp *Plane) removeRuntimeOrganization(ctx context.Context, id string) error {
	s := cp.orgs
	s.edit.Lock()
	defer s.edit.Unlock()
	if err := cp.resetOrganization(ctx, id); err != nil {
		return err
	}
	gone := s.dropRuntimeOrg(id)
	if gone == nil {
		return nil
	}
	if gone.saved.Owned {
		if err := os.RemoveAll(gone.saved.Source); err != nil {
			cp.log.Warn("remove a runtime organization's source", "organization", id, "error", err)
		}
	}
	if gone.persist {
		if err := s.saveRuntimeOrgs(); err != nil {
			return httpapi.StoreError("persist organizations", err)
		}
	}
	cp.log.Info("control: organization deleted", "organization", id)
	return nil
}

// dropRuntimeOrg takes an organization out of the list and returns it.
func (s *Orgs) dropRuntimeOrg(id string) *runtimeOrg {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone *runtimeOrg
	s.list = deleteMatching(s.list, func(r *runtimeOrg) bool {
		if r.org.ID == id {
			gone = r
			return true
		}
		return false
	})
	s.publish()
	return gone
}

// removeRuntimeOrganizations deletes every runtime organization.
func (cp *Plane) removeRuntimeOrganizations(ctx context.Context) error {
	s := cp.orgs
	s.mu.RLock()
	ids := make([]string, len(s.list))
	for i, r := range s.list {
		ids[i] = r.org.ID
	}
	s.mu.RUnlock()
	for _, id := range ids {
		if err := cp.removeRuntimeOrganization(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// saveRuntimeOrgs writes the persisted runtime organizations; the caller
// holds s.edit.
func (s *Orgs) saveRuntimeOrgs() error {
	saved := []savedOrg{}
	s.mu.RLock()
	for _, r := range s.list {
		if r.persist {
			saved = append(saved, r.saved)
		}
	}
	s.mu.RUnlock()
	data, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(filepath.Join(s.dataDir, runtimeOrgsFile), data, 0o600)
}

// Load brings back the persisted runtime organizations at start and
// removes the sources of those that were not persisted.
func (s *Orgs) Load() error {
	data, err := os.ReadFile(filepath.Join(s.dataDir, runtimeOrgsFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", runtimeOrgsFile, err)
	}
	var saved []savedOrg
	if len(data) > 0 {
		if err := json.Unmarshal(data, &saved); err != nil {
			return fmt.Errorf("read %s: %w", runtimeOrgsFile, err)
		}
	}
	keep := map[string]bool{}
	for _, sv := range saved {
		var digest [sha256.Size]byte
		b, err := hex.DecodeString(sv.KeyDigest)
		if err != nil || len(b) != sha256.Size {
			return fmt.Errorf("%s: organization %q: bad key digest", runtimeOrgsFile, sv.ID)
		}
		copy(digest[:], b)
		if !sv.Owned {
			// Persisted before the source roots were what they are now
			// (or before there were any): not brought back.
			if _, ok := s.confineSource(sv.Source); !ok {
				continue
			}
		}
		o, err := s.newRuntimeOrg(sv, source.Dir(sv.Source), digest)
		if err != nil {
			return fmt.Errorf("%s: organization %q: %w", runtimeOrgsFile, sv.ID, err)
		}
		s.list = append(s.list, &runtimeOrg{org: o, persist: true, saved: sv})
		s.publish() // the next one is checked against this one
		if sv.Owned {
			keep[filepath.Base(sv.Source)] = true
		}
	}
	entries, err := os.ReadDir(filepath.Join(s.dataDir, runtimeOrgsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", runtimeOrgsDir, err)
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			_ = os.RemoveAll(filepath.Join(s.dataDir, runtimeOrgsDir, e.Name()))
		}
	}
	return nil
}
