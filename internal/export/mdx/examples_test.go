package mdx

import "testing"

func TestSplitExamples(t *testing.T) {
	for _, c := range []struct{ name, in, rest, req, resp string }{
		{"none", `<p>a</p><div class="example-title">x</div>`, `<p>a</p><div class="example-title">x</div>`, "", ""},
		{"both, nested divs",
			`<p>a</p><div class="example example-request" data-tabs><div class="code-block"><div>x</div></div></div><p>b</p>` +
				`<section><div class="example example-response"><div>y</div></div></section>`,
			`<p>a</p><p>b</p><section></section>`,
			`<div class="example example-request" data-tabs><div class="code-block"><div>x</div></div></div>`,
			`<div class="example example-response"><div>y</div></div>`},
		{"two requests, in order",
			`<div class="example example-request">1</div><p>m</p><div class="example example-request">2</div>`,
			`<p>m</p>`, `<div class="example example-request">1</div><div class="example example-request">2</div>`, ""},
		{"unclosed runs to the end", `<p>a</p><div class="example example-response"><div>y</div><p>z</p>`,
			`<p>a</p>`, "", `<div class="example example-response"><div>y</div><p>z</p>`},
		{"other example classes stay", `<div class="example other">o</div>`, `<div class="example other">o</div>`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex := SplitExamples([]byte(c.in))
			if string(ex.Rest) != c.rest || string(ex.Request) != c.req || string(ex.Response) != c.resp {
				t.Errorf("SplitExamples(%q)\n rest %q\n req  %q\n resp %q\nwant\n rest %q\n req  %q\n resp %q",
					c.in, ex.Rest, ex.Request, ex.Response, c.rest, c.req, c.resp)
			}
		})
	}
}
