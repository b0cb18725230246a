// Package pgstore is the jobstore.Store that replicas share: PostgreSQL,
// with its schema in numbered migrations applied under an advisory lock,
// every check-and-write in one transaction, and the records status polls
// are answered from kept fresh by a trigger's notifications.
//
// It is the only package that imports pgx. internal/apiserver does not
// import it: the binary's command (internal/apiservercmd) opens it and
// passes it to apiserver.New, so that a program embedding the server on
// its data dir (docsadmintest) builds without PostgreSQL's client. It
// knows records, limits and leases as jobstore defines them, and nothing
// of HTTP, rendering or archives.
package pgstore
