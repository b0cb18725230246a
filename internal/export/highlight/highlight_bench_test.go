package highlight

import "testing"

// highlightCases are code blocks like those of docs pages.
var highlightCases = []struct{ lang, code string }{
	{"go", "func node(ctx context.Context, id string) error {\n\tif id == \"\" {\n\t\treturn errors.New(\"missing rule\")\n\t}\n\treturn client.A(ctx, id)\n}\n"},
	{"json", "{\n  \"id\": \"3fa85f64-5717-4562-b3fc-2c963f66afa6\",\n  \"name\": \"<string>\",\n  \"limits\": {\"cpu\": 1, \"memory\": \"<string>\"}\n}\n"},
	{"bash", "curl --request POST \\\n  --url 'https://api.example.com/v1/items/<id>' \\\n  --header 'Authorization: Bearer <token>'\n"},
	{"python", "import requests\n\nurl = \"https://api.example.com/v1/items/<id>\"\nheaders = {\"Authorization\": \"Bearer <token>\"}\n\nresponse = requests.request(\"GET\", url, headers=headers)\n\nprint(response.text)\n"},
	{"javascript", "const options = {\n  method: \"GET\",\n  headers: {\n    \"Authorization\": \"Bearer <token>\"\n  }\n};\n\nfetch(\"https://api.example.com/v1/items/<id>\", options)\n  .then(response => response.json())\n  .catch(err => console.error(err));\n"},
}

// BenchmarkHighlight times chroma on blocks like those of docs pages: it
// is most of a page's render time (issue 25), all of it in chroma's
// regexp2 rule matching, so this is where a cheaper tokeniser would show.
func BenchmarkHighlight(b *testing.B) {
	for _, c := range highlightCases {
		b.Run(c.lang, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Code(c.lang, c.code); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
