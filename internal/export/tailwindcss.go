package export

import (
	"sort"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/tailwind"
)

// utilityClasses gathers the class names pages write in className, for
// the Tailwind CSS the site's stylesheet carries (only what pages use).
type utilityClasses struct {
	mu  sync.Mutex
	set map[string]bool
}

func (u *utilityClasses) add(classes []string) {
	if len(classes) == 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.set == nil {
		u.set = map[string]bool{}
	}
	for _, c := range classes {
		u.set[c] = true
	}
}

// css is the Tailwind CSS of the classes pages used, in a stable order;
// a utility it does not write is a warning.
func (j *pipeline) tailwindCSS() []byte {
	j.classes.mu.Lock()
	names := make([]string, 0, len(j.classes.set))
	for c := range j.classes.set {
		names = append(names, c)
	}
	j.classes.mu.Unlock()
	sort.Strings(names)
	css, unsupported := tailwind.CSS(names)
	if len(unsupported) > 0 {
		j.warnings.add(WarnContent, "%d Tailwind CSS classes used in className are not written into the site's stylesheet, so they style nothing: %s",
			len(unsupported), listSome(unsupported))
	}
	return []byte(css)
}
