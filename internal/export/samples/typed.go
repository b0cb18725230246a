package samples

import (
	"net/url"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// urlencoded is the body of a urlencoded form sample, in the order of
// the form's fields.
func (r Request) urlencoded() string {
	parts := make([]string, len(r.form))
	for i, f := range r.form {
		parts[i] = url.QueryEscape(f.Name) + "=" + url.QueryEscape(f.Value)
	}
	return strings.Join(parts, "&")
}

// java writes the request with java.net.http (Java 11 and later), a
// program that runs with `java Main.java`.
func (r Request) java() string {
	imports := []string{"java.net.URI", "java.net.http.HttpClient", "java.net.http.HttpRequest", "java.net.http.HttpResponse"}
	var pre, b strings.Builder
	body := "HttpRequest.BodyPublishers.noBody()"
	switch openapi.FormKind(r.media) {
	case "multipart":
		// java.net.http has no multipart writer: the parts are written
		// out between boundaries.
		imports = append(imports, "java.io.ByteArrayOutputStream", "java.nio.charset.StandardCharsets", "java.nio.file.Files", "java.nio.file.Path")
		pre.WriteString("        String boundary = \"----JavaSample\" + System.nanoTime();\n" +
			"        ByteArrayOutputStream form = new ByteArrayOutputStream();\n")
		for _, f := range r.form {
			disp := "Content-Disposition: form-data; name=\"" + f.Name + "\""
			if f.File {
				pre.WriteString("        form.write((\"--\" + boundary + " + jsonString("\r\n"+disp+"; filename=\""+f.Value+"\"\r\nContent-Type: application/octet-stream\r\n\r\n") +
					").getBytes(StandardCharsets.UTF_8));\n" +
					"        form.write(Files.readAllBytes(Path.of(" + jsonString(f.Value) + ")));\n" +
					"        form.write(\"\\r\\n\".getBytes(StandardCharsets.UTF_8));\n")
				continue
			}
			pre.WriteString("        form.write((\"--\" + boundary + " + jsonString("\r\n"+disp+"\r\n\r\n"+f.Value+"\r\n") + ").getBytes(StandardCharsets.UTF_8));\n")
		}
		pre.WriteString("        form.write((\"--\" + boundary + \"--\\r\\n\").getBytes(StandardCharsets.UTF_8));\n\n")
		body = "HttpRequest.BodyPublishers.ofByteArray(form.toByteArray())"
	case "urlencoded":
		body = "HttpRequest.BodyPublishers.ofString(" + jsonString(r.urlencoded()) + ")"
	default:
		if r.body != "" {
			body = "HttpRequest.BodyPublishers.ofString(" + jsonString(r.body) + ")"
		}
	}
	b.WriteString("public class Main {\n    public static void main(String[] args) throws Exception {\n" + pre.String() +
		"        HttpRequest request = HttpRequest.newBuilder()\n            .uri(URI.create(" + jsonString(r.url) + "))\n")
	for _, h := range r.headers {
		b.WriteString("            .header(" + jsonString(h[0]) + ", " + jsonString(h[1]) + ")\n")
	}
	switch openapi.FormKind(r.media) {
	case "multipart":
		b.WriteString("            .header(\"Content-Type\", \"multipart/form-data; boundary=\" + boundary)\n")
	case "urlencoded":
		b.WriteString("            .header(\"Content-Type\", \"application/x-www-form-urlencoded\")\n")
	}
	if len(r.cookies) > 0 {
		b.WriteString("            .header(\"Cookie\", " + jsonString(cookieString(r.cookies)) + ")\n")
	}
	b.WriteString("            .method(" + jsonString(r.method) + ", " + body + ")\n            .build();\n" +
		"        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());\n" +
		"        System.out.println(response.body());\n    }\n}")
	slices.Sort(imports)
	return "import " + strings.Join(imports, ";\nimport ") + ";\n\n" + b.String()
}

// csString quotes s as a C# verbatim string, where only a doubled quote
// is special, so a multi-line body stays as it is.
func csString(s string) string {
	if !strings.ContainsAny(s, "\"\\\n\r") {
		return `"` + s + `"`
	}
	return `@"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// csharp writes the request with HttpClient, as top-level statements.
func (r Request) csharp() string {
	var b strings.Builder
	b.WriteString("using System;\nusing System.Collections.Generic;\nusing System.IO;\nusing System.Net.Http;\nusing System.Text;\n\n" +
		"var client = new HttpClient();\nvar request = new HttpRequestMessage(new HttpMethod(" + csString(r.method) + "), " + csString(r.url) + ");\n")
	for _, h := range r.headers {
		// The content type belongs to the content; Authorization
		// placeholders would fail HttpClient's validation.
		if !strings.EqualFold(h[0], "Content-Type") {
			b.WriteString("request.Headers.TryAddWithoutValidation(" + csString(h[0]) + ", " + csString(h[1]) + ");\n")
		}
	}
	if len(r.cookies) > 0 {
		b.WriteString("request.Headers.TryAddWithoutValidation(\"Cookie\", " + csString(cookieString(r.cookies)) + ");\n")
	}
	switch openapi.FormKind(r.media) {
	case "multipart":
		b.WriteString("var form = new MultipartFormDataContent();\n")
		for _, f := range r.form {
			if f.File {
				b.WriteString("form.Add(new ByteArrayContent(File.ReadAllBytes(" + csString(f.Value) + ")), " + csString(f.Name) + ", " + csString(f.Value) + ");\n")
			} else {
				b.WriteString("form.Add(new StringContent(" + csString(f.Value) + "), " + csString(f.Name) + ");\n")
			}
		}
		b.WriteString("request.Content = form;\n")
	case "urlencoded":
		b.WriteString("request.Content = new FormUrlEncodedContent(new[]\n{\n")
		for _, f := range r.form {
			b.WriteString("    new KeyValuePair<string, string>(" + csString(f.Name) + ", " + csString(f.Value) + "),\n")
		}
		b.WriteString("});\n")
	default:
		if r.body != "" {
			// StringContent takes the media type without parameters.
			mediaType, _, _ := strings.Cut(r.media, ";")
			mediaType = strings.TrimSpace(mediaType)
			b.WriteString("request.Content = new StringContent(" + csString(r.body) + ", Encoding.UTF8, " + csString(mediaType) + ");\n")
		}
	}
	b.WriteString("\nusing var response = await client.SendAsync(request);\nConsole.WriteLine(await response.Content.ReadAsStringAsync());")
	return b.String()
}
