// Package thirdparty holds the browser libraries the export ships or runs,
// as published on npm and pinned by tools/vendorjs (which alone writes
// these files, with each licence and SHA256SUMS): Mermaid, which a
// bundle carries for the reader's browser to draw diagrams, and KaTeX,
// which the component evaluator runs to typeset math at export time and
// whose stylesheet and fonts a bundle carries.
package thirdparty

import "embed"

// Files are the libraries' files, by their paths here
// ("mermaid/mermaid.min.js", "katex/fonts/KaTeX_Main-Regular.woff2").
//
//go:embed SHA256SUMS katex mermaid
var Files embed.FS
