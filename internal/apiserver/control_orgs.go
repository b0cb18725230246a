package apiserver

import (
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
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
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

// runtimeOrgs are the organizations the control plane created.
type runtimeOrgs struct {
	// edit serialises creations and deletions, so two cannot take the
	// same id or domain; mu guards list for readers.
	edit sync.Mutex
	mu   sync.RWMutex
	list []*runtimeOrg
}

type runtimeOrg struct {
	org     *Organization
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
}

// organizations returns the configured organizations and the runtime
// ones, a snapshot.
func (s *Server) organizations() []*Organization {
	s.runtime.mu.RLock()
	defer s.runtime.mu.RUnlock()
	out := make([]*Organization, 0, len(s.cfg.Organizations)+len(s.runtime.list))
	for i := range s.cfg.Organizations {
		out = append(out, &s.cfg.Organizations[i])
	}
	for _, r := range s.runtime.list {
		out = append(out, r.org)
	}
	return out
}

// organization finds an organization by id, nil when there is none.
func (s *Server) organization(id string) *Organization {
	for _, o := range s.organizations() {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// newRuntimeOrg builds and checks an organization against those there are.
func (s *Server) newRuntimeOrg(sv savedOrg, source fs.FS, digest [sha256.Size]byte) (*Organization, error) {
	o := &Organization{
		ID: sv.ID, Plan: sv.Plan, keyDigests: [][sha256.Size]byte{digest},
		Projects: []Project{{
			ID: sv.ProjectID, Repository: "https://git.example.com/" + sv.ID + "/docs", Branch: "main",
			Agent:       AgentScript{Outcome: OutcomePullRequest, Duration: Duration(5 * time.Second), Model: "reference"},
			Deployments: []Deployment{{Domain: sv.Domain, Source: sv.Source, Kind: sv.Kind, BasePath: sv.BasePath, source: source}},
		}},
	}
	if o.Plan != PlanEnterprise && o.Plan != PlanPro {
		return nil, badRequest("plan %q: want enterprise or pro", o.Plan)
	}
	seenProject, seenDomain := map[string]bool{}, map[string]bool{}
	for _, other := range s.organizations() {
		if other.ID == o.ID {
			return nil, errorf(http.StatusConflict, "organization %q already exists", o.ID)
		}
		for _, p := range other.Projects {
			seenProject[p.ID] = true
			for _, d := range p.Deployments {
				seenDomain[d.Domain] = true
			}
		}
	}
	if seenDomain[sv.Domain] {
		return nil, errorf(http.StatusConflict, "domain %q belongs to another organization", sv.Domain)
	}
	if err := o.Projects[0].check(seenProject, seenDomain); err != nil {
		return nil, badRequest("%v", err)
	}
	return o, nil
}

func (cp *controlPlane) controlCreateOrganization(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlNewOrganization
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	sv := savedOrg{ID: req.ID, Plan: req.Plan, Kind: req.Kind, Domain: req.Domain, BasePath: req.BasePath}
	if sv.ID == "" {
		h, err := linksign.RandomHex(s.random, 6)
		if err != nil {
			return err
		}
		sv.ID = "org-" + h
	}
	if !idPattern.MatchString(sv.ID) || len(sv.ID) > maxRuntimeID {
		return badRequest("id %q: want up to %d letters, digits, '-' or '_', starting with a letter or digit", sv.ID, maxRuntimeID)
	}
	if sv.Plan == "" {
		sv.Plan = PlanEnterprise
	}
	if sv.Domain == "" {
		sv.Domain = strings.ToLower(strings.ReplaceAll(sv.ID, "_", "-")) + ".docs.test"
	}
	if canon, err := api.CheckDomain(sv.Domain); err != nil || canon != sv.Domain {
		return badRequest("domain %q is not a lower-case hostname", sv.Domain)
	}
	if _, err := export.ParseKind(sv.Kind); err != nil {
		return badRequest("kind: %s", err.Error())
	}
	sv.ProjectID = "proj_" + sv.ID
	secret, err := linksign.RandomHex(s.random, 20)
	if err != nil {
		return err
	}
	key := s.cfg.KeyPrefix + "_" + secret
	digest := sha256.Sum256([]byte(key))
	sv.KeyDigest = hex.EncodeToString(digest[:])

	s.runtime.edit.Lock()
	defer s.runtime.edit.Unlock()
	// The source is checked before anything is written for it.
	o, err := s.newRuntimeOrg(sv, export.Dir(os.TempDir()), digest)
	if err != nil {
		return err
	}
	src, err := cp.runtimeSource(&sv, req.Source)
	if err != nil {
		return err
	}
	o.Projects[0].Deployments[0].source = src
	o.Projects[0].Deployments[0].Source = sv.Source
	ro := &runtimeOrg{org: o, persist: req.Persist, saved: sv}
	s.runtime.mu.Lock()
	s.runtime.list = append(s.runtime.list, ro)
	s.runtime.mu.Unlock()
	if req.Persist {
		if err := cp.saveRuntimeOrgs(); err != nil {
			cp.dropRuntimeOrg(o.ID)
			return storeError("persist organization", err)
		}
	}
	s.log.Info("control: organization created", "organization", o.ID, "domain", sv.Domain, "persist", req.Persist)
	writeJSON(w, http.StatusCreated, api.ControlOrganization{ID: o.ID, APIKey: key, ProjectID: sv.ProjectID, Domain: sv.Domain})
	return nil
}

// runtimeSource checks the docs source of a new organization and, when it
// is given inline, writes it under the data dir.
func (cp *controlPlane) runtimeSource(sv *savedOrg, src api.ControlSource) (fs.FS, error) {
	s := cp.srv
	switch {
	case (len(src.Files) == 0) == (src.Path == ""):
		return nil, badRequest("source: give either files (name → content) or path (a directory on the server)")
	case src.Path != "":
		if !filepath.IsAbs(src.Path) {
			return nil, badRequest("source.path %q must be absolute", src.Path)
		}
		if st, err := os.Stat(filepath.Join(src.Path, "docs.json")); err != nil || !st.Mode().IsRegular() {
			return nil, badRequest("source.path %q has no docs.json", src.Path)
		}
		sv.Source = src.Path
		return export.Dir(src.Path), nil
	}
	if len(src.Files) > maxSourceFiles {
		return nil, badRequest("source.files has %d files; at most %d", len(src.Files), maxSourceFiles)
	}
	if _, ok := src.Files["docs.json"]; !ok {
		return nil, badRequest("source.files needs a docs.json")
	}
	for name := range src.Files {
		if !fs.ValidPath(name) || name == "." || strings.Contains(name, `\`) {
			return nil, badRequest("source.files: %q is not a relative slash-separated file name", name)
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
	return export.Dir(dir), nil
}

func (cp *controlPlane) controlDeleteOrganization(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	id := r.PathValue("id")
	for i := range s.cfg.Organizations {
		if s.cfg.Organizations[i].ID == id {
			return errorf(http.StatusConflict, "organization %q is configured, not created at runtime; it cannot be deleted", id)
		}
	}
	if s.organization(id) == nil {
		return notFound("organization %q not found", id)
	}
	if err := cp.removeRuntimeOrganization(id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeRuntimeOrganization deletes a runtime organization with its jobs.
func (cp *controlPlane) removeRuntimeOrganization(id string) error {
	s := cp.srv
	s.runtime.edit.Lock()
	defer s.runtime.edit.Unlock()
	if err := cp.resetOrganization(id); err != nil {
		return err
	}
	gone := cp.dropRuntimeOrg(id)
	if gone == nil {
		return nil
	}
	if gone.saved.Owned {
		if err := os.RemoveAll(gone.saved.Source); err != nil {
			s.log.Warn("remove a runtime organization's source", "organization", id, "error", err)
		}
	}
	if gone.persist {
		if err := cp.saveRuntimeOrgs(); err != nil {
			return storeError("persist organizations", err)
		}
	}
	s.log.Info("control: organization deleted", "organization", id)
	return nil
}

// dropRuntimeOrg takes an organization out of the list and returns it.
func (cp *controlPlane) dropRuntimeOrg(id string) *runtimeOrg {
	s := cp.srv
	s.runtime.mu.Lock()
	defer s.runtime.mu.Unlock()
	var gone *runtimeOrg
	s.runtime.list = deleteMatching(s.runtime.list, func(r *runtimeOrg) bool {
		if r.org.ID == id {
			gone = r
			return true
		}
		return false
	})
	return gone
}

// removeRuntimeOrganizations deletes every runtime organization.
func (cp *controlPlane) removeRuntimeOrganizations() error {
	s := cp.srv
	s.runtime.mu.RLock()
	ids := make([]string, len(s.runtime.list))
	for i, r := range s.runtime.list {
		ids[i] = r.org.ID
	}
	s.runtime.mu.RUnlock()
	for _, id := range ids {
		if err := cp.removeRuntimeOrganization(id); err != nil {
			return err
		}
	}
	return nil
}

// saveRuntimeOrgs writes the persisted runtime organizations; the caller
// holds s.runtime.edit.
func (cp *controlPlane) saveRuntimeOrgs() error {
	s := cp.srv
	saved := []savedOrg{}
	s.runtime.mu.RLock()
	for _, r := range s.runtime.list {
		if r.persist {
			saved = append(saved, r.saved)
		}
	}
	s.runtime.mu.RUnlock()
	data, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(filepath.Join(s.dataDir, runtimeOrgsFile), data, 0o600)
}

// loadRuntimeOrgs brings back the persisted runtime organizations at
// start and removes the sources of those that were not persisted.
func (s *Server) loadRuntimeOrgs() error {
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
		o, err := s.newRuntimeOrg(sv, export.Dir(sv.Source), digest)
		if err != nil {
			return fmt.Errorf("%s: organization %q: %w", runtimeOrgsFile, sv.ID, err)
		}
		s.runtime.list = append(s.runtime.list, &runtimeOrg{org: o, persist: true, saved: sv})
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
