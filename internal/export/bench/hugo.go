package main

// hugoFiles is the Hugo side of the comparison: the same page frame as an
// export (head, per-tab sidebar, table of contents, previous/next), with
// goldmark passing components through as HTML and chroma highlighting by
// class, as the exporter does.
var hugoFiles = map[string]string{
	"hugo.toml": `baseURL = "https://docs.example.com/"
title = "Bench Docs"
disableKinds = ["taxonomy", "term", "rss"]
[markup.goldmark.renderer]
unsafe = true
[markup.highlight]
noClasses = false
[markup.tableOfContents]
startLevel = 2
endLevel = 3
`,
	"layouts/single.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} - {{ site.Title }}</title><meta name="description" content="{{ .Description }}">
<link rel="canonical" href="{{ .Permalink }}"><link rel="stylesheet" href="{{ relURL "style.css" }}"></head>
<body><header class="topbar"><a href="{{ relURL "" }}">{{ site.Title }}</a><input type="search" placeholder="Search"></header>
<nav class="tabbar">{{ range site.Sections }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>
<div class="layout"><nav class="sidebar"><ul>{{ $cur := . }}{{ range .FirstSection.RegularPagesRecursive }}<li><a href="{{ .RelPermalink }}"{{ if eq . $cur }} aria-current="page"{{ end }}>{{ .Title }}</a></li>{{ end }}</ul></nav>
<main><article><h1>{{ .Title }}</h1><p class="lead">{{ .Description }}</p><div class="prose">{{ .Content }}</div>
<nav class="pager">{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav></article></main>
<aside class="toc">{{ .TableOfContents }}</aside></div></body></html>
`,
	"layouts/list.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><ul>{{ range .RegularPagesRecursive }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>
`,
	"layouts/home.html": `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ site.Title }}</title></head>
<body><ul>{{ range site.Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>
`,
	"static/style.css": `body{font-family:system-ui,sans-serif}
`,
}
