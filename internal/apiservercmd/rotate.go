package apiservercmd

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
)

// RotateCommand runs `apiserver rotate-signing-key`: it adds a new
// link-signing key to the data dir's key ring. New links are signed with
// it at the next start; links signed with the previous keys keep working
// until they expire, unless --drop-previous revokes them at once, which is
// what a suspected leak of the data dir calls for.
func RotateCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("apiserver rotate-signing-key", stderr)
	fs := cmd.Flags
	dataDir := fs.String("data-dir", defaultDataDir(), "data dir of the (stopped) server")
	drop := fs.Bool("drop-previous", false, "forget the previous keys at once: every link they signed stops working (after a leak)")
	fs.Usage = func() {
		_, _ = fmt.Fprintf(stderr, "Usage: terraform-provider-docsadmin apiserver rotate-signing-key [flags]\n\n"+
			"Adds a new bundle-link signing key. Stop the server first; start it again to sign with the new key.\n\n")
		fs.PrintDefaults()
	}
	log, code, ok := cmd.Parse(args)
	if !ok {
		return code
	}
	if fs.NArg() > 0 {
		return cmd.Usagef("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	// Checked before the lock, whose file would otherwise be created in a
	// data dir that holds nothing to rotate.
	switch has, err := linksign.HasKeyRing(*dataDir); {
	case err != nil:
		log.Error("rotate signing key", "error", err)
		return cli.ExitFailed
	case !has:
		log.Error("rotate signing key", "error", noKeyError(*dataDir))
		return cli.ExitFailed
	}
	// The store is opened only for its lock: a running server would keep
	// signing with the key it loaded, and would not learn of the new one.
	st, err := jobstore.OpenBolt(ctx, *dataDir)
	if err != nil {
		log.Error("rotate signing key", "error", fmt.Errorf("%w (stop the server first)", err))
		return cli.ExitFailed
	}
	defer st.Close() //nolint:errcheck // nothing was written through the store
	old, next, err := linksign.RotateKeyRing(*dataDir, rand.Reader, time.Now(), *drop)
	if errors.Is(err, linksign.ErrNoKeyRing) {
		err = noKeyError(*dataDir) // removed while we took the lock
	}
	if err != nil {
		log.Error("rotate signing key", "error", err)
		return cli.ExitFailed
	}
	verb := "retired (links they signed work until they expire)"
	if *drop {
		verb = "dropped (links they signed no longer work)"
	}
	_, _ = fmt.Fprintf(stdout, "new signing key %s; previous keys %s: %s\n", next, verb, strings.Join(old, ", "))
	return cli.ExitOK
}

// noKeyError explains a data dir without a signing key: there is nothing
// to rotate, and creating a key there would leave a secret nobody uses.
func noKeyError(dataDir string) error {
	return fmt.Errorf("%w in %s: a server creates its key on its first start, and one that keeps "+
		"exports in an object store never does (the store presigns its links); nothing to rotate", linksign.ErrNoKeyRing, dataDir)
}
