package control

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
)

// What the control plane keeps in the data dir besides its runtime
// organizations: the organizations whose new exports are held and the
// jobs whose links a reset revoked. Both change what the admin API
// answers, so a restart on the same data dir must not drop them. (Forced
// job states are not here: they are part of the jobs' records in the job
// store.) Like the clock, faults and journal, this is one process's
// state: replicas sharing a database each keep their own.
//
// A hold is kept only while its organization exists: a configured one, or
// a runtime one created with "persist": true; a runtime organization that
// a restart drops takes its hold with it. A revocation is kept for one
// link lifetime (the bundle link TTL) after the reset: by then every link
// issued before it has expired anyway.
const controlStateFile = "control-state.json"

// controlState is the content of controlStateFile.
type controlState struct {
	Held []string `json:"held"`
	// Revoked maps a job deleted by a reset to the time of the reset.
	Revoked map[string]time.Time `json:"revoked"`
}

// saveControlStateLocked writes the holds and revocations; the caller
// holds cp.mu, so writes happen in the order the changes did.
func (cp *Plane) saveControlStateLocked() error {
	c := cp
	cutoff := cp.clock.clock.Now().Add(-cp.linkTTL)
	for id, at := range c.revoked {
		if !at.After(cutoff) {
			delete(c.revoked, id) // every link it covered has expired
		}
	}
	st := controlState{Held: []string{}, Revoked: c.revoked}
	for org := range c.held {
		st.Held = append(st.Held, org)
	}
	slices.Sort(st.Held)
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(filepath.Join(cp.dataDir, controlStateFile), data, 0o600)
}

// LoadState brings back the holds of organizations that still exist and
// the revocations younger than a link's lifetime. It runs at start, once
// the runtime organizations are loaded.
func (cp *Plane) LoadState() error {
	data, err := os.ReadFile(filepath.Join(cp.dataDir, controlStateFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", controlStateFile, err)
	}
	var st controlState
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("read %s: %w", controlStateFile, err)
	}
	c := cp
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, org := range st.Held {
		if cp.orgs.Find(org) != nil {
			c.held[org] = true
		}
	}
	cutoff := cp.clock.clock.Now().Add(-cp.linkTTL)
	for id, at := range st.Revoked {
		if at.After(cutoff) {
			c.revoked[id] = at
		}
	}
	return nil
}
