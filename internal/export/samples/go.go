package samples

import (
	"slices"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// goString quotes s for Go source: a raw string for a multi-line body
// that has no backquote, an interpreted one otherwise.
func goString(s string) string {
	if strings.Contains(s, "\n") && !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// golang writes the request with net/http, a complete program that
// gofmt leaves as it is and that stops on the first error.
func (r Request) golang() string {
	imports := []string{"fmt", "io", "net/http"}
	var b strings.Builder
	body := "nil"
	switch {
	case openapi.FormKind(r.media) == "multipart":
		imports = append(imports, "bytes", "mime/multipart")
		body = "&body"
		b.WriteString("\tvar body bytes.Buffer\n\tform := multipart.NewWriter(&body)\n")
		for _, f := range r.form {
			if !f.File {
				b.WriteString("\tif err := form.WriteField(" + strconv.Quote(f.Name) + ", " + strconv.Quote(f.Value) + "); err != nil {\n\t\tpanic(err)\n\t}\n")
				continue
			}
			if !slices.Contains(imports, "os") {
				imports = append(imports, "os")
				b.WriteString("\tvar file *os.File\n\tvar part io.Writer\n\tvar err error\n")
			}
			b.WriteString("\tif file, err = os.Open(" + strconv.Quote(f.Value) + "); err != nil {\n\t\tpanic(err)\n\t}\n" +
				"\tif part, err = form.CreateFormFile(" + strconv.Quote(f.Name) + ", " + strconv.Quote(f.Value) + "); err != nil {\n\t\tpanic(err)\n\t}\n" +
				"\tif _, err = io.Copy(part, file); err != nil {\n\t\tpanic(err)\n\t}\n\tfile.Close()\n")
		}
		b.WriteString("\tif err := form.Close(); err != nil {\n\t\tpanic(err)\n\t}\n\n")
	case openapi.FormKind(r.media) == "urlencoded":
		imports = append(imports, "net/url", "strings")
		body = "strings.NewReader(form.Encode())"
		b.WriteString("\tform := url.Values{}\n")
		for _, f := range r.form {
			b.WriteString("\tform.Add(" + strconv.Quote(f.Name) + ", " + strconv.Quote(f.Value) + ")\n")
		}
		b.WriteString("\n")
	case r.body != "":
		imports = append(imports, "strings")
		body = "payload"
		b.WriteString("\tpayload := strings.NewReader(" + goString(r.body) + ")\n\n")
	}
	b.WriteString("\treq, err := http.NewRequest(" + strconv.Quote(r.method) + ", " + strconv.Quote(r.url) + ", " + body + ")\n" +
		"\tif err != nil {\n\t\tpanic(err)\n\t}\n")
	for _, h := range r.headers {
		b.WriteString("\treq.Header.Set(" + strconv.Quote(h[0]) + ", " + strconv.Quote(h[1]) + ")\n")
	}
	switch openapi.FormKind(r.media) {
	case "multipart":
		b.WriteString("\treq.Header.Set(\"Content-Type\", form.FormDataContentType())\n")
	case "urlencoded":
		b.WriteString("\treq.Header.Set(\"Content-Type\", \"application/x-www-form-urlencoded\")\n")
	}
	for _, c := range r.cookies {
		b.WriteString("\treq.AddCookie(&http.Cookie{Name: " + strconv.Quote(c[0]) + ", Value: " + strconv.Quote(c[1]) + "})\n")
	}
	b.WriteString("\n\tres, err := http.DefaultClient.Do(req)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tdefer res.Body.Close()\n" +
		"\tanswer, err := io.ReadAll(res.Body)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tfmt.Println(res.Status, string(answer))\n}")
	slices.Sort(imports)
	return "package main\n\nimport (\n\t\"" + strings.Join(imports, "\"\n\t\"") + "\"\n)\n\nfunc main() {\n" + b.String()
}
