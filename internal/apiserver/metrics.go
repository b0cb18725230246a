package apiserver

// PathMetrics is where the server answers Prometheus scrapes. It is not in
// the OpenAPI description: it is for the cluster's monitoring, not for API
// clients, and like /healthz it needs no key.
const PathMetrics = "/metrics"
