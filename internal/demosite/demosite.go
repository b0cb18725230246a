// Package demosite embeds the sample documentation site that a new
// installation serves before any real docs source is configured. It is a
// small but complete docs repository of a fictional product, Parcelwise,
// so the first export a user runs shows every part of the platform format.
package demosite

import (
	"embed"
	"io/fs"
)

//go:embed site
var site embed.FS

// FS returns the demo docs source, rooted so that docs.json is at its top.
func FS() fs.FS {
	sub, err := fs.Sub(site, "site")
	if err != nil {
		// fs.Sub fails only for an invalid path; "site" is a constant.
		panic(err)
	}
	return sub
}
