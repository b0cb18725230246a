// Package control is the reference server's control plane: the endpoints
// other projects' acceptance suites drive to use the server as a test
// double. Plane answers reset, forced job states and holds, and owns a
// clock the suite moves (clockControl); Faults injects failures into the
// admin API; Journal keeps what a suite's client sent, redacted; Orgs are
// the configured organizations and those created at runtime.
//
// It reaches the server only through Host, a narrow interface the server
// implements, and never imports internal/apiserver. It knows the
// configuration (apiconfig), the HTTP conventions (httpapi), the job
// records (jobstore), a deployment's kind (internal/export/deploy) and a
// docs source's root (internal/export/source), and draws runtime ids and
// keys with linksign.RandomHex; not how exports are rendered or stored.
package control
