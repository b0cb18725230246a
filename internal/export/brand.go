package export

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// brandURL resolves the logo or favicon reference ref of docs.json
// (field names the setting for warnings): a file of the source becomes
// its bundle path (relative to the root); an http or https URL stays as
// written in a cloud or client-hosted bundle, whose pages may load images
// from the web as the hosted site's do, and is left out of an air-gapped
// one, which loads nothing from outside (the top bar then shows the
// site's name). Anything else is left out with a warning.
func (j *pipeline) brandURL(field, ref string) (markup.URL, bool) {
	switch markup.Scheme(ref) {
	case "":
	case "http", "https":
		if j.kind == KindAirGapped {
			j.warnings.add(WarnConfig, "docs.json: the %s %q is remote; left out, as air-gapped pages load nothing from outside the bundle", field, ref)
			return markup.URL{}, false
		}
		u, err := markup.Parse(ref)
		if err != nil {
			j.warnings.add(WarnConfig, "docs.json: the %s %q: %v; left out", field, ref, err)
			return markup.URL{}, false
		}
		return u, true
	default:
		j.warnings.add(WarnConfig, "docs.json: the %s %q is neither a file of the source nor an http or https URL; left out", field, ref)
		return markup.URL{}, false
	}
	t, ok := j.link.target("index", ref)
	if !ok || hasScheme(t.String()) {
		j.warnings.add(WarnConfig, "docs.json: the %s %q is not a file of the source; left out", field, ref)
		return markup.URL{}, false
	}
	return t, true
}
