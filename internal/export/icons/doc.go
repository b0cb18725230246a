// Package icons draws the icons a docs source names by name, from the
// libraries the platform documents: Font Awesome (the default), Lucide and
// Tabler, chosen by docs.json's icons.library and, for Font Awesome, a
// style (iconType). By default an icon is an empty <span> masked by its
// drawing over currentColor, and the site's stylesheet holds each drawing
// the site shows once, as a data: URL (Set.CSS, mask.go): the icons every
// page repeats (the sidebar's) cost a class name per use, not their shapes,
// work from file:// and load nothing from outside the bundle. A Set made
// by NewInlineSet, for output without the site's stylesheet, writes inline
// SVG instead, each drawing a page shows more than once defined once at
// its top and shown through <use> (Set.Defs).
//
// The drawings come from the libraries' npm packages, turned by gen/main.go
// (go generate) into one gzip'd data file per library under data/, next to
// the package's licence; only Font Awesome Free's styles (solid, regular,
// brands) exist there, and the Pro-only styles are drawn in the closest
// free one. A Set records which libraries it drew, for the licences a
// bundle ships, and the names it could not draw, for one warning each.
//
// It writes HTML through internal/export/markup only. It knows nothing of
// docs.json, MDX, pages or bundles: callers pass the library, the name and
// style as written and a description of where the icon is used.
package icons
