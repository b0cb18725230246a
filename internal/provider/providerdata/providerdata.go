// Package providerdata is what the provider hands everything it serves
// once it is configured: the admin API client (which also tells the
// server's time, client.ServerNow) and the default project. It lets the
// provider's subpackages receive that value without importing the
// provider.
//
// It knows the client, nothing of any resource, data source or action;
// it never imports the provider or its other subpackages.
package providerdata

import (
	"fmt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Data is what the provider hands its resources, data sources and
// actions in Configure.
type Data struct {
	// Client talks to the admin API with the provider's key.
	Client *client.Client
	// ProjectID is the provider's default project; empty when unset.
	ProjectID string
}

// Configured unpacks the provider's data in a resource or data source
// Configure. It returns nil before the provider is configured (Terraform
// validates configuration first), which callers treat as "not yet".
func Configured(data any, diags *diag.Diagnostics) *Data {
	if data == nil {
		return nil
	}
	pd, ok := data.(*Data)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerdata.Data, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return pd
}
