package provider

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// planWarnings records the warnings the provider gives Terraform with
// its plans, which Terraform prints and the test framework does not check.
type planWarnings struct {
	mu   sync.Mutex
	seen []string // "summary: detail"
}

// recordPlanWarnings makes env's provider record its plan warnings. Every
// Terraform command starts a provider instance; they all record into one.
func recordPlanWarnings(env *accEnv) *planWarnings {
	w := &planWarnings{}
	next := env.factories["docsadmin"]
	env.factories = map[string]func() (tfprotov6.ProviderServer, error){"docsadmin": func() (tfprotov6.ProviderServer, error) {
		srv, err := next()
		if err != nil {
			return nil, err
		}
		return &sharedWarnings{ProviderServer: srv, w: w}, nil
	}}
	return w
}

// sharedWarnings is one provider instance recording into planWarnings.
type sharedWarnings struct {
	tfprotov6.ProviderServer
	w *planWarnings
}

func (s *sharedWarnings) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.w.mu.Lock()
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityWarning {
				s.w.seen = append(s.w.seen, d.Summary+": "+d.Detail)
			}
		}
		s.w.mu.Unlock()
	}
	return resp, err
}

// take returns the warnings seen so far and forgets them.
func (w *planWarnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.seen
	w.seen = nil
	return out
}

// expectWarning fails unless one of the recorded warnings matches want.
func (w *planWarnings) expectWarning(want *regexp.Regexp) error {
	seen := w.take()
	for _, s := range seen {
		if want.MatchString(s) {
			return nil
		}
	}
	return fmt.Errorf("no plan warning matches %s; warnings: %q", want, seen)
}

// A renew_before not shorter than the links the server grants (1h here)
// renews on every plan; each such plan says so, on renew_before.
func TestAccStaticExportBundle_renewBeforeNotShorterThanLinksWarns(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t) // links live 1h
	warnings := recordPlanWarnings(env)
	// The lifetime is the server's 1h, give or take the second a link's
	// signing may take to cross.
	warned := regexp.MustCompile(`^Bundle Link Renews on Every Plan: .* live (59m59s|1h0m0s|1h0m1s), and renew_before \(3h\) is not shorter`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{Config: env.config(bundleConfig(env.Domain, "3h")), ExpectNonEmptyPlan: true},
			{
				Config: env.config(bundleConfig(env.Domain, "3h")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					planCheckFunc(func() error { return warnings.expectWarning(warned) }),
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
				}},
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// The server's clock runs 50 minutes ahead of the machine's (moved by the
// control plane, as another suite would, or simply skewed): by the
// server's clock, which signs the link and refuses it once expired, the
// link is within its 15 minutes of renewal, so the plan renews it, and
// the new link works.
func TestAccStaticExportBundle_renewalByTheServersClock(t *testing.T) {
	t.Parallel()
	const token = "control-token-for-the-skew-test"
	env := newAccEnv(t, apiservertest.WithControlToken(token))
	control := docsadmintest.NewControl(env.URL, token)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{Config: env.config(bundleConfig(env.Domain, "15m"))},
			{
				PreConfig: func() {
					if _, err := control.Advance(context.Background(), 50*time.Minute); err != nil {
						t.Fatal(err)
					}
				},
				Config: env.config(bundleConfig(env.Domain, "15m")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("bundle_url")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(downloads)),
				},
			},
		},
	})
}

// Passing time is not a change made outside of Terraform: the refresh
// that finds a link in its renewal window reports no drift, and the plan
// shows the renewal as its own update.
func TestAccStaticExportBundle_timePassingIsNotDrift(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t) // links live 1h
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{Config: env.config(bundleConfig(env.Domain, "15m"))},
			{
				PreConfig: func() { env.Clock.Advance(50 * time.Minute) },
				Config:    env.config(bundleConfig(env.Domain, "15m")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectNoDrift(bundleAddr),
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("ready_for_renewal"), knownvalue.Bool(true)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(downloads)),
				},
			},
			{
				// Right after the renewal: nothing to do, nothing drifted.
				Config: env.config(bundleConfig(env.Domain, "15m")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
}

// planCheckFunc is a plan check made of a function.
type planCheckFunc func() error

func (f planCheckFunc) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f()
}

// expectNoDrift fails when Terraform's refresh reports addr as changed
// outside of Terraform.
func expectNoDrift(addr string) plancheck.PlanCheck {
	return planCheckDrift(addr)
}

type planCheckDrift string

func (addr planCheckDrift) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceDrift {
		if rc.Address != string(addr) {
			continue
		}
		// Attribute names only: the values include the link, a secret.
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		var changed []string
		for k, v := range after {
			if fmt.Sprint(before[k]) != fmt.Sprint(v) {
				changed = append(changed, k)
			}
		}
		sort.Strings(changed)
		resp.Error = fmt.Errorf("%s changed outside of Terraform: %s", addr, strings.Join(changed, ", "))
	}
}
