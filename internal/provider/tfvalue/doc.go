// Package tfvalue holds the attribute helpers every resource, data source
// and action of the provider shares: plan-time validators for hostnames,
// durations, URLs and timestamps, the one way timestamps are written
// into and compared in state, and what every action shares (its timeout
// attribute and its progress lines).
//
// It knows Terraform attribute values and the API's wire rules
// (internal/api), nothing more: not the provider's resources, its client,
// or the server. The provider and its subpackages import it; it imports
// none of them.
package tfvalue
