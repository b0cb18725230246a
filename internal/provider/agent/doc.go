// Package agent holds the provider's operations on a project's agent and
// deployments: the docsadmin_agent_job action and data source, and the
// docsadmin_documentation_update action. They are things done or looked
// up, not kept, so nothing here has state to plan.
//
// It knows the admin API client (through providerdata) and the shared
// attribute helpers (tfvalue); nothing of the static export resources,
// the rollout or the provider itself, which registers what it exports.
package agent
