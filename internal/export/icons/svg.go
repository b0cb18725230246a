package icons

import (
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// svg writes a use of a drawing: an <svg> of class "i", 16 pixels square
// until CSS says otherwise, painted in currentColor so it takes the colour
// of the text around it, that shows the shapes of id (a <g> of the
// page's icon definitions, see Set.Defs) through <use>. The shapes inherit
// the paint, so one definition serves every use, in either colour mode.
func svg(paint, id string, d drawing) markup.HTML {
	var b markup.Builder
	b.Markup(`<svg class="i" viewBox="`)
	b.Text(strconv.Itoa(d.Box[0]) + " " + strconv.Itoa(d.Box[1]) + " " + strconv.Itoa(d.Box[2]) + " " + strconv.Itoa(d.Box[3]))
	b.Markup(`" width="16" height="16" `)
	if paint == "stroke" {
		b.Markup(`fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"`)
	} else {
		b.Markup(`fill="currentColor"`)
	}
	b.Markup(` aria-hidden="true" focusable="false"><use href="`)
	b.URL(markup.Fragment(id))
	b.Markup(`"/></svg>`)
	return b.Fragment()
}

// shapes writes a drawing's shapes. Element and attribute names come
// from constants here; the data's values are escaped like any text, so
// the data file can hold nothing that runs.
func shapes(d drawing) markup.HTML {
	var b markup.Builder
	for _, el := range d.El {
		if len(el) == 0 || !openShape(&b, el[0]) {
			continue
		}
		for i := 1; i+1 < len(el); i += 2 {
			shapeAttr(&b, el[i], el[i+1])
		}
		b.Markup(`/>`)
	}
	return b.Fragment()
}

// openShape writes the start of a shape element the generator allows.
func openShape(b *markup.Builder, tag string) bool {
	switch tag {
	case "path":
		b.Markup(`<path`)
	case "circle":
		b.Markup(`<circle`)
	case "ellipse":
		b.Markup(`<ellipse`)
	case "rect":
		b.Markup(`<rect`)
	case "line":
		b.Markup(`<line`)
	case "polyline":
		b.Markup(`<polyline`)
	case "polygon":
		b.Markup(`<polygon`)
	default:
		return false
	}
	return true
}

// shapeAttr writes one of the attributes the generator allows; others
// are left out.
func shapeAttr(b *markup.Builder, name, v string) {
	switch name {
	case "d":
		b.Attr("d", v)
	case "cx":
		b.Attr("cx", v)
	case "cy":
		b.Attr("cy", v)
	case "r":
		b.Attr("r", v)
	case "rx":
		b.Attr("rx", v)
	case "ry":
		b.Attr("ry", v)
	case "x":
		b.Attr("x", v)
	case "y":
		b.Attr("y", v)
	case "width":
		b.Attr("width", v)
	case "height":
		b.Attr("height", v)
	case "x1":
		b.Attr("x1", v)
	case "y1":
		b.Attr("y1", v)
	case "x2":
		b.Attr("x2", v)
	case "y2":
		b.Attr("y2", v)
	case "points":
		b.Attr("points", v)
	case "fill":
		b.Attr("fill", v)
	case "stroke":
		b.Attr("stroke", v)
	case "opacity":
		b.Attr("opacity", v)
	case "fill-rule":
		b.Attr("fill-rule", v)
	case "clip-rule":
		b.Attr("clip-rule", v)
	}
}
