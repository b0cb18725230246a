package export

import (
	"context"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// playgroundConnectOrigins lists the origins the playground of this export
// may send requests to: the servers of its specs. The air-gapped
// Content-Security-Policy adds them to connect-src when the playground is
// enabled, and nothing else.
func (j *pipeline) playgroundConnectOrigins(ctx context.Context) []string {
	if !j.features["playground"] {
		return nil
	}
	seen := map[string]bool{}
	for _, p := range j.pages {
		var servers []string
		switch {
		case p.API != nil:
			servers = p.API.Resolve(&openapi.View{Spec: p.API.Spec, Work: openapi.NewWork(ctx, openapi.PageWork)}).Servers
		case p.FM.API != "" && j.api.Mode(j.apiPage(p, nil)) == "interactive":
			_, _, servers, _ = j.api.MDXTarget(j.apiPage(p, nil))
		}
		for _, s := range servers {
			_, warned := seen[s]
			if o := csp.WebOrigin(s); o != "" {
				seen[o] = true
			} else if strings.Contains(s, "*") && !warned {
				seen[s] = false // warned once; false keeps it out of the list
				j.warnings.add(WarnAPI, "%s: the server %q names a wildcard host; the playground may not send to it (the page's policy lists exact hosts)", p.File, s)
			}
		}
	}
	var out []string
	for _, o := range sortedKeys(seen) {
		if seen[o] {
			out = append(out, o)
		}
	}
	return out
}

// apiPage is what the API page writer needs of page p; work bounds its
// schema expansion (nil: unbounded, for pages that expand none).
func (j *pipeline) apiPage(p *page, work *openapi.Work) apipages.Page {
	prefix := markup.RootPrefix(p.Out)
	return apipages.Page{Key: p.Key, Out: p.Out, File: p.File, Prefix: prefix, Deprecated: p.FM.Deprecated,
		Playground: p.FM.Playground, API: p.FM.API, AuthMethod: p.FM.AuthMethod,
		Markdown: func(s string) markup.HTML { return j.untrusted.specHTML(s, p.Key, prefix, p.File) }, Work: work,
		Labels: apiLabels(j.frame.UI(j.frame.Section(p)))}
}

// apiAssets are the bundle files endpoint pages need, as bundle path and
// embedded asset, only when the export has endpoint pages; the
// playground's script only when the export has the playground.
func (j *pipeline) apiAssets() [][2]string {
	for _, p := range j.pages {
		if p.API != nil || p.Schema != nil || p.FM.API != "" {
			out := [][2]string{{"_static/api.css", "assets/api.css"}, {"_static/api.js", "assets/api.js"}}
			if j.features["playground"] {
				out = append(out, [2]string{"_static/playground.js", "assets/playground.js"})
			}
			return out
		}
	}
	return nil
}
