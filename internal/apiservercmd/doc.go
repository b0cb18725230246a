// Package apiservercmd is the `apiserver` subcommand: its flags and
// environment variables, the embedded demo's admin key, listening and a
// graceful stop, and `apiserver rotate-signing-key`. It turns a command
// line into apiserver.Options and an exit code; everything the server
// answers is internal/apiserver's, which is a library and knows nothing of
// flags, terminals or exit codes.
package apiservercmd
