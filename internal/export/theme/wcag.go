package theme

// MinTextContrast is WCAG 2's AA ratio for body-size text: the ratio the
// stylesheet holds links and text to on both backgrounds.
const MinTextContrast = minTextContrast

// ContrastRatio is WCAG 2's contrast ratio, from 1 to 21, of two colours
// written as #rgb or #rrggbb; ok is false when either is not such a
// colour. Tests read a page's computed colours with it.
func ContrastRatio(a, b string) (ratio float64, ok bool) {
	ca, okA := parseHex(a)
	cb, okB := parseHex(b)
	if !okA || !okB {
		return 0, false
	}
	return contrast(ca, cb), true
}

// Luminance is WCAG 2's relative luminance, from 0 to 1, of a colour
// written as #rgb or #rrggbb; ok is false when it is not such a colour.
func Luminance(c string) (l float64, ok bool) {
	x, ok := parseHex(c)
	if !ok {
		return 0, false
	}
	return x.luminance(), true
}
