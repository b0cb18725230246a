// Package export turns a documentation source (docs.json plus .mdx/.md
// pages) into a self-contained static site in a directory, in the format of
// internal/bundle (which owns the manifest, archives and verification). The
// reference API server drives it through the methods of Engine; nothing
// here knows about HTTP, jobs, storage or archives.
//
// This package is the facade and the site assembly: it plans the pages
// and the navigation, resolves links between pages, renders each page's
// content into its frame, and writes the shared files and the manifest.
// It leaves each part of the site to a package with one job, and those
// never import it:
//
//   - site: the site model, the pages and the navigation tree, which
//     the facade builds and frame and machines read;
//   - frame: what surrounds every page (head, top bar, sidebar, banner,
//     footer, pager, directory, icons) and the pages of the frame alone;
//   - markup: the only way HTML and URLs are written (escaping, safe URLs,
//     slugs);
//   - docsjson: docs.json decoded, $ref resolved, unsupported settings
//     reported;
//   - mdx: one MDX or Markdown page to HTML, components included;
//   - openapi: the model of a spec (references, schemas, examples);
//   - samples: request samples per language from that model;
//   - apipages: the generated parts of endpoint and data-model pages and
//     the playground;
//   - airgap: remote content taken out of rendered HTML and CSS;
//   - source: the docs source read confined to its root and bounded;
//   - uitext: the interface texts in every language;
//   - theme: the stylesheet from docs.json's colours;
//   - csp: the pages' Content-Security-Policy;
//   - deploy: a deployment's kind, features and base path, which the
//     server's configuration checks without this package;
//   - machines: the files machines read (each page's Markdown copy,
//     llms.txt, robots.txt, sitemap.xml, meta tags) and the offline
//     search index.
package export

import (
	"io/fs"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/deploy"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// Kind is how a deployment is hosted (deploy.Kind); it decides which
// features a bundle may switch on and whether anything in it may reach out
// to the network.
type Kind = deploy.Kind

// The deployment kinds of the platform.
const (
	KindCloud        = deploy.KindCloud
	KindClientHosted = deploy.KindClientHosted
	KindAirGapped    = deploy.KindAirGapped
)

// Request describes one export.
type Request struct {
	// Source is the root of the docs repository: docs.json sits at its top.
	Source fs.FS
	// Domain is the deployment's hostname, used for canonical URLs.
	Domain string
	// BasePath is the path the live site is served under ("/docs" for
	// https://example.com/docs/...), or "" at the root. docs.json has no
	// field for it: it is a setting of the deployment. Links, images and
	// docs.json references written with it ("/docs/guides/start") resolve
	// inside the bundle like those written without it, and canonical URLs
	// carry it.
	BasePath string
	// Kind gates network-reaching features.
	Kind Kind
	// Label is the optional version label given by the caller; it is
	// recorded in the manifest.
	Label string
	// Paths, when non-empty, limits the export to these pages (extensionless,
	// relative to the source root, e.g. "guides/intro") and what they need.
	Paths []string
	// Features lists the optional features a client-hosted deployment has
	// configured ("assistant", "analytics", "search"); ignored for other kinds.
	Features []string
	// Previous, if not nil, is the record an earlier export of the same
	// deployment left beside its bundle (Sidecarer), whose archive the
	// Output reuses (bundle.Spool.ReuseArchive): pages whose inputs did
	// not change are taken from it instead of rendered. The bundle is
	// byte for byte the one a full export makes; a record that does not
	// fit only means every page is rendered.
	Previous []byte
	// Warn, if not nil, receives each distinct warning of the export (a
	// setting left out, a reference to nothing, a link out of the source
	// refused), never concurrently. Warnings do not fail an export.
	Warn func(w Warning)
}

// Warning is one thing a docs author should know about an export that
// succeeded: what was left out or shown otherwise, and why. Message
// names the file (and line, for a page's content) or setting at fault.
type Warning struct {
	Kind    string
	Message string
}

// The kinds of warning, so that a job's warnings can be counted by what
// they are about.
const (
	// WarnConfig: a docs.json setting left out or read otherwise.
	WarnConfig = "config"
	// WarnContent: a page's content not rendered as written (a
	// component, an expression, a tag, a page mode).
	WarnContent = mdx.WarnContent
	// WarnMath: a formula KaTeX could not typeset.
	WarnMath = mdx.WarnMath
	// WarnLink: a reference that resolves to nothing, or leaves the source.
	WarnLink = "link"
	// WarnRedirect: a redirect skipped.
	WarnRedirect = "redirect"
	// WarnRemote: remote content an air-gapped bundle leaves out.
	WarnRemote = "remote"
	// WarnAPI: an OpenAPI spec or endpoint shown in part or not at all.
	WarnAPI = "api"
	// WarnLimit: a bound of the export reached (files, sizes, time for
	// highlighting or components), what is past it left out or plain.
	WarnLimit = "limit"
	// WarnNavigation: a navigation entry skipped or shown without part.
	WarnNavigation = "navigation"
)

// Progress is reported while an export runs. Done never exceeds Total.
type Progress struct {
	Done  int
	Total int
	// Reused counts the pages of Done taken from the earlier export
	// (Request.Previous) rather than rendered.
	Reused int
}

// InputError marks a problem with the caller's input (a path that names
// no page, a docs.json its author must fix) as opposed to a failure of the
// export itself; the server answers it with 400.
type InputError = docsjson.InputError
