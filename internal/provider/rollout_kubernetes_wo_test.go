package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
)

// TestAccStaticExportRollout_kubernetesWriteOnlyCredentials: token_wo and
// exec.env_wo reach the cluster and never state; a change made by hand
// still shows in the plan, read there with the configuration's
// credentials since refresh has none.
func TestAccStaticExportRollout_kubernetesWriteOnlyCredentials(t *testing.T) {
	// Every step reaches the cluster through the kubernetes block, and
	// Read leaves a release with write-only credentials alone, so nothing
	// needs KUBECONFIG: the test runs beside the other parallel ones.
	t.Parallel()
	e := startRolloutEnv(t, kubetest.WithRBAC())
	token, err := e.cluster.ServiceAccountToken(t.Context(), e.ns, "deployer")
	if err != nil {
		t.Fatal(err)
	}
	client := rest.Config{Host: e.cluster.Server, BearerToken: token, TLSClientConfig: rest.TLSClientConfig{CAData: e.cluster.CAData}}
	e.grantAdmin(t, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: e.ns, Name: "deployer"},
		kubernetes.NewForConfigOrDie(&client))
	dir := t.TempDir()
	plugin, mark, tokenFile := filepath.Join(dir, "get-token"), filepath.Join(dir, "ran"), filepath.Join(dir, "token")
	for name, content := range map[string]string{plugin: execPlugin, tokenFile: token} {
		if err := os.WriteFile(name, []byte(content), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	workDir := stateDir(t)
	noToken := stateLacks{t: t, dir: workDir, secret: token}
	kube := tfjsonpath.New("kubernetes")
	resource.Test(t, resource.TestCase{
		WorkingDir:               workDir,
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config: e.kubernetesConfig(fmt.Sprintf("    token_wo = file(%q)", tokenFile)),
				ConfigStateChecks: []statecheck.StateCheck{
					noToken,
					statecheck.ExpectKnownValue(rolloutAddr, kube.AtMapKey("token"), knownvalue.Null()),
					statecheck.ExpectKnownValue(rolloutAddr, kube.AtMapKey("token_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
				},
			},
			{
				// Drift that refresh cannot see (it has no credentials) is
				// found by the plan and corrected.
				PreConfig: func() { e.disableStaticExport(t) },
				Config:    e.kubernetesConfig(fmt.Sprintf("    token_wo = file(%q)", tokenFile)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{noToken,
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(2))},
				Check: func(*terraform.State) error {
					if !e.current(t).Enabled {
						return fmt.Errorf("the release still has staticExport.enabled=false")
					}
					return nil
				},
			},
			{
				Config: e.kubernetesConfig(fmt.Sprintf(`    exec {
      command = %q
      args    = ["get-token", %q]
      env_wo  = { EXEC_MARK = %q }
    }`, plugin, tokenFile, mark)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, kube.AtMapKey("exec").AtMapKey("env"), knownvalue.Null()),
					statecheck.ExpectKnownValue(rolloutAddr, kube.AtMapKey("exec").AtMapKey("env_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(2)),
				},
			},
		},
	})
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the exec plugin never ran with env_wo: %v", err)
	}
}

// stateLacks checks that the state file in dir does not hold secret.
type stateLacks struct {
	t      *testing.T
	dir    string
	secret string
}

func (s stateLacks) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	shown, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if strings.Contains(string(shown), s.secret) {
		resp.Error = fmt.Errorf("terraform show -json holds the credential")
	} else if strings.Contains(stateFiles(s.t, s.dir), s.secret) {
		resp.Error = fmt.Errorf("a state file holds the credential")
	}
}
