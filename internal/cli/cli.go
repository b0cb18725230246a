// Package cli is what the subcommands (apiserver, serve-bundle, rollout)
// share around their own work: the flag set with --log-level, the logger,
// exit codes, signal handling and the graceful stop of an HTTP server. It
// exists so that the three agree on these by construction: the same level
// names, the same precedence of flag over environment, the same exit code
// for a usage error.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/go-hclog"
)

// Exit codes every subcommand uses. rollout adds its own above these.
const (
	// ExitOK: done, or stopped cleanly by a signal.
	ExitOK = 0
	// ExitFailed: the work failed.
	ExitFailed = 1
	// ExitUsage: bad flags or environment; the reason is on stderr.
	ExitUsage = 2
)

// DefaultLogLevel applies when neither --log-level nor DOCSADMIN_LOG_LEVEL
// is given.
const DefaultLogLevel = hclog.Info

// Command is a subcommand's flag set with the flags every subcommand shares
// already registered. Register the command's own flags on Flags, then call
// Parse.
type Command struct {
	// Name prefixes messages and names the logger.
	Name string
	// Flags reports parse errors and -h to stderr.
	Flags  *flag.FlagSet
	stderr io.Writer
	level  levelFlag
}

// New returns the command name writing its messages to stderr, with
// --log-level registered.
func New(name string, stderr io.Writer) *Command {
	c := &Command{Name: name, Flags: flag.NewFlagSet(name, flag.ContinueOnError), stderr: stderr}
	c.Flags.SetOutput(stderr)
	// The back-quoted word names the value in -h ("-log-level level").
	c.Flags.Var(&c.level, "log-level", "log `level`: trace, debug, info, warn or error (default info; env "+EnvLogLevel+")")
	return c
}

// Parse parses args and builds the command's logger on stderr. When ok is
// false the command must return code at once: ExitOK after -h, ExitUsage
// after a usage error, which has already been printed. No subcommand takes
// positional arguments, so one is a usage error rather than being ignored.
func (c *Command) Parse(args []string) (log hclog.Logger, code int, ok bool) {
	if err := c.Flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, ExitOK, false
		}
		return nil, ExitUsage, false // the flag package has printed why
	}
	if c.Flags.NArg() > 0 {
		return nil, c.Usagef("unexpected argument %q", c.Flags.Arg(0)), false
	}
	level, err := c.level.resolve(os.Getenv(EnvLogLevel))
	if err != nil {
		return nil, c.Usagef("%v", err), false
	}
	return hclog.New(&hclog.LoggerOptions{Name: c.Name, Level: level, Output: c.stderr}), 0, true
}

// Usagef prints "<name>: <message>" to stderr and returns ExitUsage, for
// the checks a command makes on its flags after Parse.
func (c *Command) Usagef(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.Name, fmt.Sprintf(format, args...))
	return ExitUsage
}

// ParseLevel turns a level name into an hclog level. Unlike
// hclog.LevelFromString, an unknown name is an error: falling back to a
// default would hide a typo in a unit file until the logs were needed.
func ParseLevel(s string) (hclog.Level, error) {
	l := hclog.LevelFromString(s)
	if l == hclog.NoLevel {
		return l, fmt.Errorf("unknown log level %q (want trace, debug, info, warn or error)", s)
	}
	return l, nil
}

// levelFlag is --log-level. It checks the name as the flag is parsed, so a
// bad value is reported by the flag package like any other bad flag, and it
// remembers whether it was given at all, so the flag wins over the
// environment even when it names the default.
type levelFlag struct {
	set   bool
	level hclog.Level
}

func (f *levelFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.level.String()
}

func (f *levelFlag) Set(s string) error {
	l, err := ParseLevel(s)
	if err != nil {
		return errors.New("want trace, debug, info, warn or error")
	}
	f.set, f.level = true, l
	return nil
}

// resolve picks the flag, else env (the environment variable's value; empty
// means unset), else DefaultLogLevel. A bad environment value is an error
// only when the flag does not override it.
func (f *levelFlag) resolve(env string) (hclog.Level, error) {
	switch {
	case f.set:
		return f.level, nil
	case env == "":
		return DefaultLogLevel, nil
	}
	l, err := ParseLevel(env)
	if err != nil {
		return l, fmt.Errorf("%s: %w", EnvLogLevel, err)
	}
	return l, nil
}
