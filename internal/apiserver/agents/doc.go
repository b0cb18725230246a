// Package agents answers the agent job and documentation update
// operations of the reference server: a scripted reference agent whose
// jobs and follow-up messages move with the clock, and updates that
// snapshot a project's docs source. Their state is derived on every read
// from the records in the job store.
//
// It reaches the server only through Host (the caller's organization,
// ids, retention) and Checker (does a docs source load); it never
// imports internal/apiserver, and knows nothing of exports or bundles.
package agents
