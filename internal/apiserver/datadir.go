package apiserver

import (
	"fmt"
	"os"
	"runtime"

	"github.com/hashicorp/go-hclog"
)

// chmod is os.Chmod; a test replaces it to see a directory it may not change.
var chmod = os.Chmod

// tightenDataDir keeps other users out of the data dir, which holds the
// link-signing keys, the admin key, the job records and every export:
// whoever may write there can forge links or replace a site. A data dir
// every user may write to is tightened (o-w) and the log says so; one
// this user cannot change is refused. Group write is left alone: a
// deployment may share the dir with its group (a Kubernetes fsGroup).
func tightenDataDir(dir string, log hclog.Logger) error {
	if runtime.GOOS == "windows" {
		return nil // no permission bits to speak of
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	perm := fi.Mode().Perm()
	if perm&0o002 == 0 {
		return nil
	}
	tight := fi.Mode() & (os.ModePerm | os.ModeSetgid | os.ModeSticky) &^ 0o002
	if err := chmod(dir, tight); err != nil {
		return fmt.Errorf("data dir %s is writable by every user (mode %04o), who could forge links or replace exports, "+
			"and this user cannot tighten it (%w): chmod o-w it, or give a directory of this user's own", dir, perm, err)
	}
	log.Warn("the data dir was writable by every user; tightened it", "dir", dir,
		"mode_was", fmt.Sprintf("%04o", perm), "mode", fmt.Sprintf("%04o", tight.Perm()))
	return nil
}
