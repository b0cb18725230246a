package apiserver_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// TestOpenAPI_schemasMatchWireTypes checks that each schema of the
// published document names exactly the JSON fields of its wire type, and
// that optional (omitempty) fields are not listed as required: an added
// field must stay optional to remain compatible with the real service.
func TestOpenAPI_schemasMatchWireTypes(t *testing.T) {
	env := apiservertest.Start(t)
	r := call(t, "GET", env.URL+"/openapi.json", "", nil)
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	r.decode(t, &doc)
	for name, typ := range map[string]any{
		"Error":                    api.Error{},
		"CreateAgentJobRequest":    api.CreateAgentJobRequest{},
		"SendAgentMessageRequest":  api.SendAgentMessageRequest{},
		"AgentJob":                 api.AgentJob{},
		"StartStaticExportRequest": api.StartExportRequest{},
		"StaticExportJob":          api.ExportJob{},
		"BundleResponse":           api.Bundle{},
		"TriggerUpdateResponse":    api.TriggerUpdateResponse{},
		"UpdateStatus":             api.UpdateStatus{},
	} {
		t.Run(name, func(t *testing.T) {
			schema, ok := doc.Components.Schemas[name]
			if !ok {
				t.Fatalf("openapi.json has no schema %s", name)
			}
			rt := reflect.TypeOf(typ)
			fields := map[string]bool{}
			for i := range rt.NumField() {
				tag, opts, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
				omitempty := strings.Contains(opts, "omitempty")
				fields[tag] = true
				if _, ok := schema.Properties[tag]; !ok {
					t.Errorf("schema %s lacks property %q of %s", name, tag, rt.Name())
				}
				if omitempty && slices.Contains(schema.Required, tag) {
					t.Errorf("schema %s requires %q, which %s omits when empty", name, tag, rt.Name())
				}
			}
			for p := range schema.Properties {
				if !fields[p] {
					t.Errorf("schema %s has property %q that %s does not", name, p, rt.Name())
				}
			}
		})
	}
}
