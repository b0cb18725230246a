package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// rbacTimeout bounds the wait for a new RoleBinding to take effect: the
// authorizer reads roles from an informer cache.
const rbacTimeout = 30 * time.Second

// execPlugin is a client-go credential plugin: it prints an ExecCredential
// carrying the token in the file named by its second argument, and leaves
// a mark so the test can tell it ran. It checks its arguments and
// environment, which come from the exec block.
const execPlugin = `#!/bin/sh
[ "$1" = get-token ] && [ -n "$EXEC_MARK" ] || { echo "usage: EXEC_MARK=file $0 get-token TOKEN_FILE" >&2; exit 2; }
touch "$EXEC_MARK"
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\n' "$(cat "$2")"
`

// kubernetesConfig is a release reached through the kubernetes block with
// the given credentials, on the cluster's CA. Host and CA come through a
// terraform_data resource whose input changes with the credentials, so at
// plan time they are unknown, as they are for a cluster created in the
// same run.
func (e *rolloutEnv) kubernetesConfig(credentials string) string {
	return e.config(fmt.Sprintf(`
resource "terraform_data" "cluster" {
  input = { host = %[5]q, ca = %[6]q, credentials = %[7]q }
}

resource "docsadmin_static_export_rollout" "docs" {
  release    = %[1]q
  namespace  = %[2]q
  chart      = %[3]q
  install    = true
  atomic     = false
  bundle_url = "https://bundles.example.com/b.tar.gz?signature=linksecret"
  version    = "v1"

  kubernetes {
    host                   = terraform_data.cluster.output.host
    cluster_ca_certificate = terraform_data.cluster.output.ca
%[4]s
  }
}
`, rolloutRelease, e.ns, e.chart, credentials, e.cluster.Server, e.cluster.CAData, credentialKind(credentials)))
}

// credentialKind names the kind of credentials in an HCL fragment.
func credentialKind(hcl string) string {
	for _, kind := range []string{"exec", "client_certificate", "token"} {
		if strings.Contains(hcl, kind) {
			return kind
		}
	}
	return "none"
}

// grantAdmin gives subject every right in the release's namespace and none
// elsewhere, and waits until the binding is in force for client. It binds
// cluster-admin with a RoleBinding: the built-in admin role is filled in by
// the controller manager's aggregation, which the no-node cluster lacks.
func (e *rolloutEnv) grantAdmin(t *testing.T, subject rbacv1.Subject, client kubernetes.Interface) {
	t.Helper()
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "deploy-" + strings.ReplaceAll(strings.ToLower(subject.Name), ":", "-")},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects:   []rbacv1.Subject{subject},
	}
	if _, err := e.cs.RbacV1().RoleBindings(e.ns).Create(t.Context(), binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, rbacTimeout, subject.Name+" may list secrets in "+e.ns, func() bool {
		_, err := client.CoreV1().Secrets(e.ns).List(t.Context(), metav1.ListOptions{})
		return err == nil
	})
}

// The kubernetes block reaches the cluster with each kind of credentials,
// on a cluster whose RBAC holds every identity but the admin to its roles:
// a token without a role is refused (so the block's token is what is
// used), then a ServiceAccount token, a client certificate and an exec
// plugin each drive the release. No credential reaches the logs.
func TestAccStaticExportRollout_kubernetesBlock(t *testing.T) {
	e := newRolloutEnv(t, kubetest.WithRBAC())
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	for _, v := range []string{"TF_LOG", "TF_LOG_PROVIDER_DOCSADMIN", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(v, "TRACE")
	}
	ctx := t.Context()
	nobody, err := e.cluster.ServiceAccountToken(ctx, e.ns, "nobody")
	if err != nil {
		t.Fatal(err)
	}
	token, err := e.cluster.ServiceAccountToken(ctx, e.ns, "deployer")
	if err != nil {
		t.Fatal(err)
	}
	base := rest.Config{Host: e.cluster.Server, TLSClientConfig: rest.TLSClientConfig{CAData: e.cluster.CAData}}
	tokenClient := base
	tokenClient.BearerToken = token
	e.grantAdmin(t, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: e.ns, Name: "deployer"},
		kubernetes.NewForConfigOrDie(&tokenClient))

	certPEM, keyPEM, err := e.cluster.ClientCertificate("cert-deployer")
	if err != nil {
		t.Fatal(err)
	}
	certClient := base
	certClient.CertData, certClient.KeyData = certPEM, keyPEM
	e.grantAdmin(t, rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: "cert-deployer"},
		kubernetes.NewForConfigOrDie(&certClient))

	// The credentials reach the configuration through file(), as they
	// would from a secret store: terraform-plugin-testing writes the text
	// of each step's configuration into this log, literals and all (seen
	// once; nothing else logged them).
	dir := t.TempDir()
	plugin, mark := filepath.Join(dir, "get-token"), filepath.Join(dir, "ran")
	files := map[string]string{}
	for name, content := range map[string]string{"get-token": execPlugin, "nobody": nobody, "token": token,
		"tls.crt": string(certPEM), "tls.key": string(keyPEM)} {
		files[name] = filepath.Join(dir, name)
		if err := os.WriteFile(files[name], []byte(content), 0o700); err != nil {
			t.Fatal(err)
		}
	}

	atRevision1 := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
		statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("status"), knownvalue.StringExact("deployed")),
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config:      e.kubernetesConfig(fmt.Sprintf("    token = file(%q)", files["nobody"])),
				ExpectError: regexp.MustCompile(`(?s)Unable to Upgrade Release.*forbidden.*system:serviceaccount:` + regexp.QuoteMeta(e.ns) + `:nobody`),
			},
			{
				Config: e.kubernetesConfig(fmt.Sprintf("    token = file(%q)", files["token"])),
				ConfigStateChecks: append(atRevision1,
					statecheck.ExpectSensitiveValue(rolloutAddr, tfjsonpath.New("kubernetes").AtMapKey("token")),
					// State holds what was configured, for the next refresh.
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("kubernetes").AtMapKey("token"), knownvalue.StringExact(token))),
			},
			{
				Config: e.kubernetesConfig(fmt.Sprintf("    client_certificate = file(%q)\n    client_key = file(%q)",
					files["tls.crt"], files["tls.key"])),
				ConfigStateChecks: append(atRevision1,
					statecheck.ExpectSensitiveValue(rolloutAddr, tfjsonpath.New("kubernetes").AtMapKey("client_key")),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("kubernetes").AtMapKey("token"), knownvalue.Null())),
			},
			{
				Config: e.kubernetesConfig(fmt.Sprintf(`    exec {
      command = %q
      args    = ["get-token", %q]
      env     = { EXEC_MARK = %q }
    }`, plugin, files["token"], mark)),
				ConfigStateChecks: atRevision1,
			},
		},
	})
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the exec plugin never ran: %v", err)
	}
	if e.current(t).Revision != 1 {
		t.Errorf("changing only credentials made revision %d", e.current(t).Revision)
	}
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for name, secret := range map[string]string{"token": token, "unbound token": nobody, "client key": string(keyPEM),
		"client key body": strings.Split(string(keyPEM), "\n")[1]} {
		if i := strings.Index(string(logged), secret); i >= 0 {
			around := string(logged[max(0, i-300):min(len(logged), i+len(secret)+100)])
			t.Errorf("the %s reached the log: %s", name, strings.ReplaceAll(around, secret, "<SECRET>"))
		}
	}
	if len(logged) == 0 {
		t.Error("nothing was logged; the check above proves nothing")
	}
}
