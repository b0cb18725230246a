package components

import (
	"strings"
	"testing"
)

// TestRender_everyNameIsDrawn holds Names to the components Render
// draws: a name in the list that fell through to the generic wrapper
// would be announced to custom components as a built-in and yet render
// as an unknown one.
func TestRender_everyNameIsDrawn(t *testing.T) {
	for _, n := range Names {
		open, closing := Render(n, map[string]string{"title": "T"}, nil)
		if strings.Contains(open.String(), "data-component") {
			t.Errorf("%s renders as an unknown component: %s", n, open)
		}
		if !Has(n) {
			t.Errorf("Has(%q) = false", n)
		}
		if open.Empty() && closing.Empty() {
			t.Errorf("%s renders nothing", n)
		}
	}
	if Has("Foo") {
		t.Error(`Has("Foo") = true`)
	}
}

// TestRender_unknownKeepsChildren: a component the platform does not
// have becomes a plain wrapper naming it, so its children still show.
func TestRender_unknownKeepsChildren(t *testing.T) {
	open, closing := Render("Foo", nil, nil)
	if got, want := open.String()+"x"+closing.String(), `<div class="component" data-component="Foo">x</div>`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestRender_cardLinkSchemes: a card links only to an allowed scheme; a
// javascript: href leaves a title without a link, a javascript: image
// no image.
func TestRender_cardLinkSchemes(t *testing.T) {
	open, _ := Render("Card", map[string]string{"title": "Go", "href": "/start", "img": "/a.png"}, nil)
	for _, want := range []string{`<a class="card-title card-link" href="/start">Go</a>`, `<img class="card-img" src="/a.png" alt="">`} {
		if !strings.Contains(open.String(), want) {
			t.Errorf("safe card: no %s in %s", want, open)
		}
	}
	open, _ = Render("Card", map[string]string{"title": "Go", "href": "javascript:alert(1)", "img": "javascript:x"}, nil)
	if s := open.String(); strings.Contains(s, "javascript") || strings.Contains(s, "<img") || !strings.Contains(s, `<p class="card-title">Go</p>`) {
		t.Errorf("unsafe card: %s", s)
	}
}

// TestRender_fieldInPageLanguage: a field's pills and link name are the
// page's texts, and nil labels are English.
func TestRender_fieldInPageLanguage(t *testing.T) {
	attrs := map[string]string{"query": "limit", "type": "integer", "required": "true", "default": "10"}
	fr := EnglishLabels
	fr.Required, fr.Default, fr.Colon, fr.FieldLink = "obligatoire", "par défaut", " : ", "Lien vers {name}"
	open, _ := Render("ParamField", attrs, &fr)
	for _, want := range []string{`id="field-limit"`, `<span class="field-in">query</span>`, `<span class="field-type">integer</span>`,
		`<span class="field-required">obligatoire</span>`, `<span class="field-default">par défaut : <code>10</code></span>`,
		`aria-label="Lien vers limit"`} {
		if !strings.Contains(open.String(), want) {
			t.Errorf("no %s in %s", want, open)
		}
	}
	open, _ = Render("ParamField", attrs, nil)
	if !strings.Contains(open.String(), `<span class="field-required">required</span>`) {
		t.Errorf("nil labels: %s", open)
	}
}
