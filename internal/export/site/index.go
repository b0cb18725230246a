package site

// findCrumbs records, for each page in the navigation, the labels above
// it: the divisions (language, version, tab, ...) and then the groups.
// The first place of a page wins, as for its section.
func (t *Tree) findCrumbs() {
	t.Crumbs = map[string][]string{}
	var items func(list []*Item, path []string)
	items = func(list []*Item, path []string) {
		for _, it := range list {
			if it.Page != "" {
				if _, seen := t.Crumbs[it.Page]; !seen {
					t.Crumbs[it.Page] = path
				}
				continue
			}
			inner := append(path[:len(path):len(path)], it.Group)
			if it.Root != "" {
				if _, seen := t.Crumbs[it.Root]; !seen {
					t.Crumbs[it.Root] = inner
				}
			}
			items(it.Children, inner)
		}
	}
	var divs func(d *Division, path []string)
	divs = func(d *Division, path []string) {
		if d.Label != "" {
			path = append(path[:len(path):len(path)], d.Label)
		}
		items(d.Items, path)
		for _, c := range d.Children {
			divs(c, path)
		}
	}
	if t.Root != nil {
		divs(t.Root, nil)
	}
}

// findDirectories records the groups whose root page lists their entries
// (the "directory" setting); the first group of a root page wins, as the
// page has one place in the navigation.
func (t *Tree) findDirectories() {
	t.DirOf = map[string]*Item{}
	var items func([]*Item)
	items = func(list []*Item) {
		for _, it := range list {
			if it.Root != "" && it.Directory != "" {
				if _, seen := t.DirOf[it.Root]; !seen {
					t.DirOf[it.Root] = it
				}
			}
			items(it.Children)
		}
	}
	var divs func(*Division)
	divs = func(d *Division) {
		items(d.Items)
		for _, c := range d.Children {
			divs(c)
		}
	}
	if t.Root != nil {
		divs(t.Root)
	}
}
