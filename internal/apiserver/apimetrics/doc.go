// Package apimetrics is the reference server's Prometheus metrics: export
// and archive durations, bundle links issued, store errors, and, read from
// the store at scrape time, the jobs by status and the database pool's
// figures. Each Metrics has a registry of its own, so two servers in one
// process (tests, replicas) never share counters.
//
// It knows the job records (jobstore) and the wire statuses (api), never
// the server that records into it: the server hands it the store to read
// and calls it when something happens.
package apimetrics
