//go:build generate

// Package tools pins the documentation generator in its own module, so the
// provider's go.mod never carries tfplugindocs and its dependencies.
package tools

import (
	// tfplugindocs renders docs/ from templates/, examples/ and the schema.
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
)
