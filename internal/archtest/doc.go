// Package archtest checks what the project's pages claim. Its tests
// compare the imports `go list` reports for every package of the module
// with the table of manual/architecture.md and with the per-package
// allow-lists of .golangci.yml, so that the table, the lint and the code
// cannot drift apart; and they check that every link, repository path and
// make target the hand-written pages (README.md, manual/, the provider
// guides) name exists. The package has no code of its own.
package archtest
