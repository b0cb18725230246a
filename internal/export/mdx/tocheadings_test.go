package mdx

import (
	"slices"
	"testing"
)

// TestWithComponentHeadings_bytes: only the id of a renumbered component
// heading changes; the bytes around it, odd markup included, are kept,
// and HTML with no component heading comes back as it was.
func TestWithComponentHeadings_bytes(t *testing.T) {
	md := []Heading{{Level: 2, ID: "a", Text: "A"}}
	in := `<h2 id="a">A</h2><p>x &amp; <b>y</p></b><!-- c --><script>"<h2 id=s>"</script>` +
		`<h3 class="k" id="a" data-x='1 "2"'>A &amp; <em>b</em></h3><textarea><h2 id="t"></textarea> tail`
	got, hs := WithComponentHeadings([]byte(in), md, nil)
	want := `<h2 id="a">A</h2><p>x &amp; <b>y</p></b><!-- c --><script>"<h2 id=s>"</script>` +
		`<h3 class="k" id="a-2" data-x="1 &#34;2&#34;">A &amp; <em>b</em></h3><textarea><h2 id="t"></textarea> tail`
	if string(got) != want {
		t.Errorf("html\n%s\nwant\n%s", got, want)
	}
	if wantHs := append(md, Heading{Level: 3, ID: "a-2", Text: "A & b"}); !slices.Equal(hs, wantHs) {
		t.Errorf("headings %v, want %v", hs, wantHs)
	}
	plain := `<h2 id="a">A</h2><h3>no id</h3>`
	if got, hs := WithComponentHeadings([]byte(plain), md, nil); string(got) != plain || !slices.Equal(hs, md) {
		t.Errorf("no component heading: %s %v", got, hs)
	}
}
