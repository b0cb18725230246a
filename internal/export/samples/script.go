package samples

import (
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// singleQuoted quotes s for Ruby and PHP, where a single-quoted string
// knows only the escapes \\ and \' and so never interpolates.
func singleQuoted(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// ruby writes the request with Ruby's net/http.
func (r Request) ruby() string {
	var b strings.Builder
	b.WriteString("require \"uri\"\nrequire \"net/http\"\n\nurl = URI(" + singleQuoted(r.url) + ")\n\n" +
		"http = Net::HTTP.new(url.host, url.port)\nhttp.use_ssl = url.scheme == \"https\"\n\n")
	// Net::HTTP has a class per method (Get, Post, ...); GenericRequest
	// takes any other, with or without a body.
	m := strings.ToUpper(r.method)
	hasBody := r.body != "" || len(r.form) > 0
	switch m {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE":
		b.WriteString("request = Net::HTTP::" + m[:1] + strings.ToLower(m[1:]) + ".new(url)\n")
	default:
		b.WriteString("request = Net::HTTPGenericRequest.new(" + singleQuoted(m) + ", " + rubyBool(hasBody) + ", true, url)\n")
	}
	for _, h := range r.headers {
		b.WriteString("request[" + singleQuoted(h[0]) + "] = " + singleQuoted(h[1]) + "\n")
	}
	if len(r.cookies) > 0 {
		b.WriteString("request['Cookie'] = " + singleQuoted(cookieString(r.cookies)) + "\n")
	}
	if len(r.form) > 0 {
		parts := make([]string, len(r.form))
		for i, f := range r.form {
			v := singleQuoted(f.Value)
			if f.File {
				v = "File.open(" + v + ")"
			}
			parts[i] = "\n  [" + singleQuoted(f.Name) + ", " + v + "]"
		}
		enc := "application/x-www-form-urlencoded"
		if openapi.FormKind(r.media) == "multipart" {
			enc = "multipart/form-data"
		}
		b.WriteString("request.set_form([" + strings.Join(parts, ",") + "\n], " + singleQuoted(enc) + ")\n")
	}
	if r.body != "" {
		b.WriteString("request.body = " + singleQuoted(r.body) + "\n")
	}
	b.WriteString("\nresponse = http.request(request)\nputs response.read_body")
	return b.String()
}

func rubyBool(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// php writes the request with PHP's curl extension.
func (r Request) php() string {
	var b strings.Builder
	b.WriteString("<?php\n\n$curl = curl_init();\n\ncurl_setopt_array($curl, [\n  CURLOPT_URL => " + singleQuoted(r.url) +
		",\n  CURLOPT_RETURNTRANSFER => true,\n  CURLOPT_CUSTOMREQUEST => " + singleQuoted(r.method) + ",\n")
	switch openapi.FormKind(r.media) {
	case "multipart":
		// An array makes curl send multipart/form-data; a CURLFile is
		// uploaded from disk.
		b.WriteString("  CURLOPT_POSTFIELDS => [\n")
		for _, f := range r.form {
			v := singleQuoted(f.Value)
			if f.File {
				v = "new CURLFile(" + v + ")"
			}
			b.WriteString("    " + singleQuoted(f.Name) + " => " + v + ",\n")
		}
		b.WriteString("  ],\n")
	case "urlencoded":
		b.WriteString("  CURLOPT_POSTFIELDS => http_build_query([\n")
		for _, f := range r.form {
			b.WriteString("    " + singleQuoted(f.Name) + " => " + singleQuoted(f.Value) + ",\n")
		}
		b.WriteString("  ]),\n")
	default:
		if r.body != "" {
			b.WriteString("  CURLOPT_POSTFIELDS => " + singleQuoted(r.body) + ",\n")
		}
	}
	if len(r.cookies) > 0 {
		b.WriteString("  CURLOPT_COOKIE => " + singleQuoted(cookieString(r.cookies)) + ",\n")
	}
	if len(r.headers) > 0 {
		b.WriteString("  CURLOPT_HTTPHEADER => [\n")
		for _, h := range r.headers {
			b.WriteString("    " + singleQuoted(h[0]+": "+h[1]) + ",\n")
		}
		b.WriteString("  ],\n")
	}
	b.WriteString("]);\n\n$response = curl_exec($curl);\n$err = curl_error($curl);\ncurl_close($curl);\n\n" +
		"if ($err) {\n  echo 'cURL Error #:' . $err;\n} else {\n  echo $response;\n}")
	return b.String()
}

// node writes the request for Node.js 18 and later, whose fetch may set
// the Cookie header and reads files from disk, unlike a browser's.
func (r Request) node() string {
	var b strings.Builder
	if openapi.FormKind(r.media) == "multipart" && slices.ContainsFunc(r.form, func(f openapi.FormPart) bool { return f.File }) {
		b.WriteString("const fs = require(\"node:fs\");\n\n")
	}
	writeFetchForm(&b, r, func(value string) string {
		return "new Blob([fs.readFileSync(" + jsonString(value) + ")]), " + jsonString(value) + ");"
	})
	headers := r.headers
	if len(r.cookies) > 0 {
		headers = append(headers[:len(headers):len(headers)], [2]string{"Cookie", cookieString(r.cookies)})
	}
	writeFetchOptions(&b, r, headers)
	b.WriteString("\n};\n\nfetch(" + jsonString(r.url) + ", options)\n  .then(response => response.text())\n" +
		"  .then(text => console.log(text))\n  .catch(err => {\n    console.error(err);\n    process.exitCode = 1;\n  });")
	return b.String()
}
