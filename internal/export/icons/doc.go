// Package icons draws the icons a docs source names by name, from the
// libraries the platform documents: Font Awesome (the default), Lucide and
// Tabler, chosen by docs.json's icons.library and, for Font Awesome, a
// style (iconType). Each icon is written as inline SVG painted in
// currentColor, so a page carries exactly the icons it uses, works from
// file:// and loads nothing from outside the bundle; an icon a page shows
// more than once is defined once at its top and shown through <use>
// (Set.Defs).
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
