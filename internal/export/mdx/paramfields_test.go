package mdx

import (
	"os"
	"reflect"
	"testing"
)

func TestMDXFields_model(t *testing.T) {
	top := ParamFields(mdxOrderPage, nil)
	var names []string
	for _, f := range top {
		names = append(names, f.In+":"+f.Name)
	}
	want := []string{"path:orderId", "query:limit", "header:X-Trace", "cookie:session", "body:note", "body:rush",
		"body:gift", "body:address", "body:tags"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("fields %v, want %v", names, want)
	}
	addr := top[7]
	if len(addr.Children) != 3 || addr.Children[1].Name != "zip" || addr.Children[1].In != "body" || !addr.Children[1].Required {
		t.Errorf("address children: %+v", addr.Children)
	}
	if top[1].Default != "10" || top[1].Type != "integer" || top[1].Required {
		t.Errorf("limit: %+v", top[1])
	}
}

// TestMDXFields_snippets checks that ParamFields of an imported snippet
// count where the page uses it, nested under an open body field too, and
// that a snippet imported but not used, or missing, adds nothing.
func TestMDXFields_snippets(t *testing.T) {
	snippets := map[string]string{
		"snippets/paging.mdx":  "---\ntitle: x\n---\n<ParamField query=\"cursor\" type=\"string\" />\n",
		"snippets/address.mdx": "<ParamField body=\"city\" type=\"string\" required />\n",
		"snippets/unused.mdx":  "<ParamField query=\"never\" type=\"string\" />\n",
	}
	load := func(file string) (string, error) {
		if s, ok := snippets[file]; ok {
			return s, nil
		}
		return "", os.ErrNotExist
	}
	page := `import Paging from '/snippets/paging.mdx';
import Address from "/snippets/address.mdx"
import Unused from '/snippets/unused.mdx';
import Gone from '/snippets/gone.mdx';

<ParamField path="id" type="string" required />
<Paging />
<ParamField body="to" type="object" required>
  <Address />
</ParamField>
<Gone />
`
	var got []string
	for _, f := range ParamFields(page, load) {
		got = append(got, f.In+":"+f.Name)
		for _, c := range f.Children {
			got = append(got, "  "+c.In+":"+c.Name)
		}
	}
	if want := []string{"path:id", "query:cursor", "body:to", "  body:city"}; !reflect.DeepEqual(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
}

// mdxOrderPage is the page of every kind of ParamField that the export's
// tests share (internal/export/testdata).
var mdxOrderPage = func() string {
	b, err := os.ReadFile("../testdata/mdx-order-page.mdx")
	if err != nil {
		panic(err)
	}
	return string(b)
}()
