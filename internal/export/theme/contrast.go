package theme

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// rgb is an sRGB colour with channels in [0, 1].
type rgb struct{ r, g, b float64 }

// minTextContrast is WCAG 2's AA ratio for body-size text; minUIContrast
// its ratio for non-text parts such as borders and underlines.
const (
	minTextContrast = 4.5
	minUIContrast   = 3.0
)

// parseHex reads #rgb, #rgba, #rrggbb or #rrggbbaa (the alpha is ignored:
// docs.json's colours are opaque brand colours).
func parseHex(s string) (rgb, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "#") {
		return rgb{}, false
	}
	h := s[1:]
	switch len(h) {
	case 3, 4:
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	case 6, 8:
		h = h[:6]
	default:
		return rgb{}, false
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgb{}, false
	}
	return rgb{float64(v>>16&0xff) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255}, true
}

// hex is c as #rrggbb.
func (c rgb) hex() string {
	ch := func(x float64) int { return int(math.Round(math.Max(0, math.Min(1, x)) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", ch(c.r), ch(c.g), ch(c.b))
}

// luminance is WCAG 2's relative luminance of c.
func (c rgb) luminance() float64 {
	lin := func(x float64) float64 {
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG 2's contrast ratio of two colours, from 1 to 21.
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// minContrast is the lowest ratio of c against any of the backgrounds.
func minContrast(c rgb, bgs []rgb) float64 {
	m := math.Inf(1)
	for _, bg := range bgs {
		m = math.Min(m, contrast(c, bg))
	}
	return m
}

// readable returns c if it reaches ratio against every background, else
// the colour of c's hue and saturation whose lightness is the nearest one
// that does: darker on light backgrounds, lighter on dark ones. When no
// lightness does (a background of middle grey), the extreme is returned.
//
//nolint:unparam // every caller wants AA text today; the ratio stays the caller's to say
func readable(c rgb, bgs []rgb, ratio float64) rgb {
	if minContrast(c, bgs) >= ratio {
		return c
	}
	h, s, l := c.hsl()
	darken := bgs[0].luminance() > 0.18 // black and white tie near 0.18
	// Lightness steps of 1/1000 find the nearest passing shade well below
	// what one 8-bit channel step changes.
	for i := 1; i <= 1000; i++ {
		step := float64(i) / 1000
		ll := l + step
		if darken {
			ll = l - step
		}
		if ll < 0 || ll > 1 {
			break
		}
		if v := fromHSL(h, s, ll); minContrast(v.rounded(), bgs) >= ratio {
			return v.rounded()
		}
	}
	if darken {
		return rgb{}
	}
	return rgb{1, 1, 1}
}

// rounded is c as the #rrggbb colour the stylesheet will hold, so a
// ratio is checked on what the browser paints.
func (c rgb) rounded() rgb {
	v, _ := parseHex(c.hex())
	return v
}

// onColor is black or white, whichever reads better on bg. One of them
// always reaches 4.5:1 (their ratios multiply to 21).
func onColor(bg rgb) rgb {
	if contrast(rgb{1, 1, 1}, bg) >= contrast(rgb{}, bg) {
		return rgb{1, 1, 1}
	}
	return rgb{}
}

// hsl converts c to hue (degrees), saturation and lightness.
func (c rgb) hsl() (h, s, l float64) {
	hi := math.Max(c.r, math.Max(c.g, c.b))
	lo := math.Min(c.r, math.Min(c.g, c.b))
	l = (hi + lo) / 2
	d := hi - lo
	if d == 0 {
		return 0, 0, l
	}
	s = d / (1 - math.Abs(2*l-1))
	switch hi {
	case c.r:
		h = math.Mod((c.g-c.b)/d, 6)
	case c.g:
		h = (c.b-c.r)/d + 2
	default:
		h = (c.r-c.g)/d + 4
	}
	h *= 60
	if h < 0 {
		h += 360
	}
	return h, s, l
}

// fromHSL converts hue (degrees), saturation and lightness to RGB.
func fromHSL(h, s, l float64) rgb {
	ch := (1 - math.Abs(2*l-1)) * s
	x := ch * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - ch/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g = ch, x
	case h < 120:
		r, g = x, ch
	case h < 180:
		g, b = ch, x
	case h < 240:
		g, b = x, ch
	case h < 300:
		r, b = x, ch
	default:
		r, b = ch, x
	}
	return rgb{r + m, g + m, b + m}
}
