package openapi

import (
	"io/fs"
	"path"
	"strings"
)

// SchemaRef is the component schema a page documents.
type SchemaRef struct {
	Spec *Spec
	Name string
}

// Ref is the schema's internal reference, escaped as a JSON pointer.
func (r *SchemaRef) Ref() string {
	return "#/components/schemas/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(r.Name)
}

// HasSchema reports a component schema of that name.
func (s *Spec) HasSchema(name string) bool {
	return s.Root.Sub("components").Sub("schemas").Get(name) != nil
}

// Files lists the JSON and YAML files of the source that may be specs,
// walking the source once.
func (ss *Specs) Files() []string {
	if !ss.walked {
		ss.walked = true
		_ = fs.WalkDir(ss.src, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != "." && ss.skip != nil && ss.skip(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			switch path.Ext(p) {
			case ".json", ".yaml", ".yml":
				if p != "docs.json" && d.Type().IsRegular() {
					ss.all = append(ss.all, p)
				}
			}
			return nil
		})
	}
	return ss.all
}

// SearchText is what readers find a schema page by: its name and the
// names of its properties.
func (r *SchemaRef) SearchText() string {
	v := &View{Spec: r.Spec, Budget: SchemaBudget}
	ref := NewObj()
	ref.Set("$ref", r.Ref())
	return r.Name + " " + strings.Join(v.Flatten(ref).Props.Keys, " ")
}
