package markup

import (
	"errors"
	"strings"
	"testing"
)

func TestBuilder_escapesTextAndAttributes(t *testing.T) {
	var b Builder
	b.Markup(`<p`)
	b.Attr("title", `"><script>x</script>`)
	b.Markup(`>`)
	b.Text(`<img src=x onerror=alert(1)> & 'q'`)
	b.Markup(`</p>`)
	want := `<p title="&#34;&gt;&lt;script&gt;x&lt;/script&gt;">&lt;img src=x onerror=alert(1)&gt; &amp; &#39;q&#39;</p>`
	if got := b.String(); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := Concat(Const(`<b>`), Text("<i>"), Const(`</b>`)).String(); got != `<b>&lt;i&gt;</b>` {
		t.Fatalf("Concat: %s", got)
	}
}

func TestParse_refusesSchemesOutsideTheAllowlist(t *testing.T) {
	for _, ref := range []string{
		"javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
		"\x01javascript:alert(1)", "java\nscript:alert(1)", "data:text/html,<script>alert(1)</script>",
		"vbscript:msgbox(1)", "file:///etc/passwd", "v1:ratio.html", `\\host\share\x.png`, `/\evil.test`,
	} {
		if u, err := Parse(ref); err == nil {
			t.Errorf("Parse(%q) = %q, want an error", ref, u)
		}
	}
	if _, err := Parse("javascript:x"); !errors.Is(err, ErrScheme) {
		t.Errorf("want ErrScheme, got %v", err)
	}
	for _, ref := range []string{
		"https://example.com/a?b=c#d", "HTTP://example.com", "mailto:a@example.com", "tel:+15550100",
		"guides/intro.html", "../img/a.png", "?q=1", "#install", "/abs/path", "./v1:ratio.html",
	} {
		if _, err := Parse(ref); err != nil {
			t.Errorf("Parse(%q): %v", ref, err)
		}
	}
}

func TestParse_errorClipsHostileValues(t *testing.T) {
	_, err := Parse("javascript:" + strings.Repeat("a", 1<<20))
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error not clipped: %d bytes", len(err.Error()))
	}
}

func TestPath_colonInFirstSegment(t *testing.T) {
	cases := []struct {
		prefix    Prefix
		p, rest   string
		want      string
		wantAfter string
	}{
		{"", "v1:ratio.html", "", "./v1:ratio.html", "../v1:ratio.html"},
		{"", "javascript:alert(1).html", "", "./javascript:alert%281%29.html", "../javascript:alert%281%29.html"},
		{"", "guides/a b.html", "#x", "guides/a%20b.html#x", "../guides/a%20b.html#x"},
		{"../", "v1:ratio.html", "", "../v1:ratio.html", "../v1:ratio.html"},
		{"", "dir/v1:ratio.html", "", "dir/v1:ratio.html", "../dir/v1:ratio.html"},
	}
	for _, c := range cases {
		u := Path(c.prefix, c.p, c.rest)
		if u.String() != c.want {
			t.Errorf("Path(%q, %q) = %q, want %q", c.prefix, c.p, u, c.want)
		}
		if Scheme(u.String()) != "" {
			t.Errorf("Path(%q, %q) = %q reads as a scheme", c.prefix, c.p, u)
		}
		if got := Join("../", Path("", c.p, c.rest)).String(); got != c.wantAfter {
			t.Errorf("Join(../, %q) = %q, want %q", c.p, got, c.wantAfter)
		}
	}
	if got := Join("../", MustParse("https://x.test/a")).String(); got != "https://x.test/a" {
		t.Errorf("absolute URL joined: %q", got)
	}
	if got := RootPrefix("a/b/c.html"); got != "../../" {
		t.Errorf("RootPrefix = %q", got)
	}
}

func TestJSON_cannotCloseTheScriptElement(t *testing.T) {
	h, err := JSON(map[string]string{"x": "</script><script>alert(1)</script><!--"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h.String(), "<") || strings.Contains(h.String(), ">") {
		t.Fatalf("unescaped: %s", h)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"Path Parameters": "path-parameters", "field-body-a.b": "field-body-a-b", "  ": ""} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// A fragment handed out keeps its markup whatever the builder writes
// next, after a Reset too; a builder read only through Bytes reuses its
// buffer, so a worker writing page after page allocates it once.
func TestBuilder_fragmentsOutliveReset(t *testing.T) {
	var b Builder
	b.Markup(`<p>`)
	b.Text("one")
	first := b.Fragment()
	b.Markup(`</p>`) // appends after what first holds
	s := b.String()
	b.Reset()
	b.Markup(`<i>`)
	b.Text("two & more")
	if first.String() != `<p>one` || s != `<p>one</p>` {
		t.Fatalf("handed-out markup changed: %q, %q", first.String(), s)
	}
	if got := string(b.Bytes()); got != `<i>two &amp; more` {
		t.Fatalf("after Reset: %q", got)
	}

	b.Reset()
	b.Grow(4096)
	b.Markup(`<div>`)
	buf := &b.Bytes()[0]
	for range 3 {
		b.Reset()
		b.Markup(`<div>`)
		b.Text(strings.Repeat("x", 1000))
		if &b.Bytes()[0] != buf {
			t.Fatal("a builder read only through Bytes allocated a new buffer after Reset")
		}
	}
}
