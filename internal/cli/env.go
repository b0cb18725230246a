package cli

// The environment variables that the provider and the subcommands share
// (base URL, key, project, log level), and the Kubernetes test tier's, so
// that they cannot drift apart on a spelling. A variable that one package
// alone reads stays beside its flag or its use: the apiserver's
// DOCSADMIN_DATABASE_URL, DOCSADMIN_OBJECT_STORE and
// DOCSADMIN_CONTROL_TOKEN (internal/apiservercmd), the MinIO tier's
// DOCSADMIN_MINIO_BIN and DOCSADMIN_MINIO_CACHE (internal/s3test), and
// DOCSADMIN_COMPONENT_EVALUATOR, which marks the export's component
// evaluator process (internal/export/jsx).
const (
	// EnvBaseURL is the admin API's base URL (provider and rollout).
	EnvBaseURL = "DOCSADMIN_BASE_URL"
	// EnvAPIKey is the admin API key (provider and rollout). It names the
	// variable; it is not a credential.
	EnvAPIKey = "DOCSADMIN_API_KEY"
	// EnvProjectID is the provider's default project.
	EnvProjectID = "DOCSADMIN_PROJECT_ID"
	// EnvLogLevel is the subcommands' log level when --log-level is not
	// given.
	EnvLogLevel = "DOCSADMIN_LOG_LEVEL"

	// EnvKubeBin names a directory holding the test cluster's programs
	// (etcd, kube-apiserver, the controller manager, the scheduler and kwok)
	// for the Kubernetes test tier (internal/kubetest).
	EnvKubeBin = "DOCSADMIN_KUBE_BIN"
	// EnvKubeCache overrides the cache root of tools/kube/build.sh.
	EnvKubeCache = "DOCSADMIN_KUBE_CACHE"
	// EnvSkipKube, set to "1", lets the Kubernetes tier skip when its
	// binaries are missing.
	EnvSkipKube = "DOCSADMIN_SKIP_KUBE"
)
