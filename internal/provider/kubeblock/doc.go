// Package kubeblock is the rollout resource's kubernetes block: its schema,
// its plan-time checks, the folding of write-only credentials into the
// values they replace, and the client configuration it builds at apply.
//
// It knows Terraform values and client-go's rest.Config, nothing of the
// rollout resource around it, its model, the provider or Helm (only
// internal/rollout talks to Helm). The provider imports it; it never
// imports the provider.
package kubeblock
