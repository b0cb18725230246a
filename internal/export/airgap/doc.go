// Package airgap makes rendered HTML and CSS self-contained for bundles
// that must load nothing from outside: remote embeds become placeholders
// that name their address, remote stylesheets, scripts and url()s are
// taken out, and what was taken out is returned for the export's
// warnings.
//
// It works on markup already rendered and knows nothing of pages, docs
// sources or bundles; the placeholders it writes go through
// internal/export/markup.
package airgap
