// Package jobstore is where the reference API server keeps its state:
// agent jobs with their follow-up messages, export jobs with their claims
// and leases, idempotency keys, counters and documentation updates. Store
// is the one interface the server holds, made of one per kind of record
// (AgentStore, ExportStore, ClaimStore, UpdateStore); Bolt (one bbolt
// file, one process) is the embedded default, and the PostgreSQL store
// that replicas share lives in pgstore, so that what embeds the server on
// its data dir builds without pgx; the two share the records, the lease
// rules (TakeOver, ExtendLease, Holds) and the memos of records here
// (RecordMemo, ExportDecodes). Each backend implements every kind on a
// small type of its own over one shared core (the file, or the pool) and
// embeds them all, so no type carries every method.
//
// It knows records, limits and leases: every check-and-write that a limit
// or a claim depends on is one method, so each backend makes it one
// transaction. It does not know HTTP, the API's error bodies, the
// configuration file, rendering, archives or object storage, and it never
// imports internal/apiserver (depguard holds that line): the server maps
// its errors (ErrTooManyActive, ErrLeaseLost, …) to statuses and decides
// what a job's fields mean.
package jobstore
