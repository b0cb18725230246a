package linksign

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
)

// Key ring files in the data dir. legacyKeyFile is the single key of
// servers that predate key ids; it is taken into the ring on first start,
// so links issued before the upgrade keep working.
const (
	keyRingFile   = "signing-keys.json"
	legacyKeyFile = "signing.key"
	// legacyKeyID names the migrated key. Links without a kid parameter
	// were signed with it.
	legacyKeyID = "legacy"
	keyIDBytes  = 4
	keyBytes    = 32
)

// signingKey is one link-signing secret. A retired key still verifies the
// links it signed until they expire, then it is dropped.
type signingKey struct {
	ID        string     `json:"id"`
	Key       hexBytes   `json:"key"`
	CreatedAt time.Time  `json:"createdAt"`
	RetiredAt *time.Time `json:"retiredAt,omitempty"`
}

// KeyRing is the file's content: the last key signs, every key verifies.
type KeyRing struct {
	Keys []signingKey `json:"keys"`
}

// hexBytes keeps a key readable (and hand-editable) in the JSON file.
type hexBytes []byte

func (h hexBytes) MarshalJSON() ([]byte, error) { return json.Marshal(hex.EncodeToString(h)) }

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	if err != nil {
		return fmt.Errorf("key is not hex: %w", err)
	}
	*h = v
	return nil
}

// current is the key new links are signed with.
func (r *KeyRing) current() signingKey { return r.Keys[len(r.Keys)-1] }

func (r *KeyRing) find(id string) (signingKey, bool) {
	for _, k := range r.Keys {
		if k.ID == id {
			return k, true
		}
	}
	return signingKey{}, false
}

// readKeyRing loads the ring, or migrates the legacy key into a new one.
// It returns (nil, nil) when the data dir holds no key at all.
func readKeyRing(dataDir string) (*KeyRing, error) {
	raw, err := os.ReadFile(filepath.Join(dataDir, keyRingFile))
	if err == nil {
		var r KeyRing
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("signing key ring %s: %w", keyRingFile, err)
		}
		if len(r.Keys) == 0 {
			return nil, fmt.Errorf("signing key ring %s holds no key", keyRingFile)
		}
		for _, k := range r.Keys {
			if len(k.Key) != keyBytes || k.ID == "" {
				return nil, fmt.Errorf("signing key ring %s: key %q must have an id and %d bytes", keyRingFile, k.ID, keyBytes)
			}
		}
		return &r, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read signing key ring: %w", err)
	}
	legacy, err := os.ReadFile(filepath.Join(dataDir, legacyKeyFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	if len(legacy) != keyBytes {
		return nil, fmt.Errorf("signing key %s: want %d bytes, have %d", legacyKeyFile, keyBytes, len(legacy))
	}
	return &KeyRing{Keys: []signingKey{{ID: legacyKeyID, Key: legacy}}}, nil
}

// writeKeyRing replaces the ring atomically and then removes the legacy
// key file, whose key (if still trusted) is in the ring now.
func writeKeyRing(dataDir string, r *KeyRing) error {
	raw, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(dataDir, keyRingFile), raw, 0o600); err != nil {
		return fmt.Errorf("write signing key ring: %w", err)
	}
	if err := os.Remove(filepath.Join(dataDir, legacyKeyFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove legacy signing key: %w", err)
	}
	return nil
}

func newSigningKey(random io.Reader, now time.Time) (signingKey, error) {
	id, err := RandomHex(random, keyIDBytes)
	if err != nil {
		return signingKey{}, fmt.Errorf("generate signing key id: %w", err)
	}
	key := make([]byte, keyBytes)
	if _, err := io.ReadFull(random, key); err != nil {
		return signingKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	return signingKey{ID: "k" + id, Key: key, CreatedAt: now.UTC()}, nil
}

// LoadKeyRing reads the ring, creating it on first start, and drops
// retired keys whose every link has expired (retired more than linkTTL
// ago). The caller holds the data-dir lock, so two servers started at once
// cannot write different keys.
func LoadKeyRing(dataDir string, random io.Reader, now time.Time, linkTTL time.Duration) (*KeyRing, error) {
	r, err := readKeyRing(dataDir)
	if err != nil {
		return nil, err
	}
	changed := false
	if r == nil {
		k, err := newSigningKey(random, now)
		if err != nil {
			return nil, err
		}
		r, changed = &KeyRing{Keys: []signingKey{k}}, true
	} else if _, err := os.Stat(filepath.Join(dataDir, keyRingFile)); err != nil {
		changed = true // migrated from the legacy file
	}
	kept := r.Keys[:0:0]
	for i, k := range r.Keys {
		if i < len(r.Keys)-1 && k.RetiredAt != nil && !now.Before(k.RetiredAt.Add(linkTTL)) {
			changed = true
			continue
		}
		kept = append(kept, k)
	}
	r.Keys = kept
	if changed {
		if err := writeKeyRing(dataDir, r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ErrNoKeyRing is a data dir without a signing key: no server signed links
// from it yet, or its server keeps exports in an object store, which
// presigns the links itself and never creates a key.
var ErrNoKeyRing = errors.New("no signing key")

// HasKeyRing reports whether dataDir holds a signing key, in the ring or
// in the legacy file, without reading or changing it.
func HasKeyRing(dataDir string) (bool, error) {
	for _, name := range []string{keyRingFile, legacyKeyFile} {
		_, err := os.Stat(filepath.Join(dataDir, name))
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("signing key: %w", err)
		}
	}
	return false, nil
}

// RotateKeyRing adds a new current key. The previous keys are retired:
// they keep verifying links until those expire, unless dropPrevious asks
// to forget them at once (after a leak, every link they signed must die).
// A data dir without a key is ErrNoKeyRing: a key nobody signs with would
// only be one more secret to guard, and the first start creates one.
func RotateKeyRing(dataDir string, random io.Reader, now time.Time, dropPrevious bool) (old []string, next string, err error) {
	r, err := readKeyRing(dataDir)
	if err != nil {
		return nil, "", err
	}
	if r == nil {
		return nil, "", ErrNoKeyRing
	}
	k, err := newSigningKey(random, now)
	if err != nil {
		return nil, "", err
	}
	t := now.UTC()
	var keep []signingKey
	for _, prev := range r.Keys {
		old = append(old, prev.ID)
		if dropPrevious {
			continue
		}
		if prev.RetiredAt == nil {
			prev.RetiredAt = &t
		}
		keep = append(keep, prev)
	}
	r.Keys = append(keep, k)
	if err := writeKeyRing(dataDir, r); err != nil {
		return nil, "", err
	}
	return old, k.ID, nil
}
