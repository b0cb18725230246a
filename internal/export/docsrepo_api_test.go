package export

import (
	"strings"
	"testing"
)

// TestExport_docsRepoAPISettings checks, on the cloud export of the docs
// repository (which has the playground), what the docs.json api block,
// the x-mint extensions and the playground frontmatter change.
func TestExport_docsRepoAPISettings(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindCloud})
	list := readOut(t, dir, "en/api-reference/pets/list-pets.html")
	wantAll(t, "list-pets", list, `class="playground"`, `_static/playground.js`)
	py, curl, js := strings.Index(list, `data-title="Python"`), strings.Index(list, `data-title="cURL"`), strings.Index(list, `data-title="JavaScript"`)
	if py < 0 || py >= curl || curl >= js {
		t.Errorf("samples are not in the order of api.examples.languages (python, curl, js): %d %d %d", py, curl, js)
	}
	// x-mint: href sets the address, metadata the sidebar title, the
	// deprecated label and the playground; content comes before the reference.
	status := readOut(t, dir, "en/guides/order-status.html")
	wantAll(t, "order-status", status, `<h1>Look up an order</h1>`, `<p class="lead">Where an order is and what it holds.</p>`,
		`<meta name="description" content="Where an order is and what it holds.">`, `<span class="field-deprecated">deprecated</span>`,
		`Orders are kept for <strong>90 days</strong>`, `href="../../en/quickstart.html"`,
		`<a href="../../en/guides/order-status.html" aria-current="page">`+faIcon("box")+`Order status <span class="nav-tag nav-deprecated">deprecated</span></a>`,
		// the operation's own deprecated flag labels its sidebar entry too
		`<a href="../../en/api-reference/pets/delete-a-pet.html">Delete a pet <span class="nav-tag nav-deprecated">deprecated</span></a>`)
	if strings.Contains(status, `class="playground"`) || strings.Contains(status, `playground.js`) {
		t.Error("x-mint metadata playground: none still shows the playground")
	}
	if strings.Index(status, "90 days") > strings.Index(status, `id="path-parameters"`) {
		t.Error("x-mint content is not before the generated reference")
	}
	// playground: simple in frontmatter shows the endpoint, no panel.
	if fr := readOut(t, dir, "fr/api/get-pet.html"); strings.Contains(fr, `class="playground"`) || !strings.Contains(fr, `/pets/{petId}`) {
		t.Error("fr/api/get-pet.html: playground: simple must show the endpoint without the panel")
	}
	// api.params.post and x-mint pre/post pills.
	wantAll(t, "create-a-pet", readOut(t, dir, "en/api-reference/pets/create-a-pet.html"),
		`<span class="field-pill field-pre">PII</span><code class="field-name">name</code>`,
		`<span class="field-pill">indexed</span><span class="field-pill">unique</span>`,
		`<code class="field-name">nickname</code><span class="field-type">string | null</span><span class="field-pill">nullable</span>`)
	// api.mdx.server goes in front of a relative "api" path.
	wantAll(t, "voucher", readOut(t, dir, "en/events/voucher.html"), `<code>https://api.acme.test/v1/vouchers</code>`)
}

// TestExport_docsRepoSocialTags checks that og: and twitter: settings of
// frontmatter and of x-mint metadata become the page's meta tags.
func TestExport_docsRepoSocialTags(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped})
	wantAll(t, "en/quickstart.html", readOut(t, dir, "en/quickstart.html"),
		`<meta property="og:image" content="/images/architecture.svg"><meta name="twitter:card" content="summary_large_image">`)
	wantAll(t, "en/guides/order-status.html", readOut(t, dir, "en/guides/order-status.html"), `<meta property="og:title" content="Track an order">`)
}
