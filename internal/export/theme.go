package export

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// Defaults match the platform's when docs.json sets no colours.
const (
	defaultPrimary = "#0D9373"
	defaultLight   = "#07C983"
)

var cssColor = regexp.MustCompile(`^(#[0-9a-fA-F]{3,8}|[a-zA-Z]+|(rgb|hsl)a?\([0-9.,%\s]+\))$`)

// safeColor keeps a colour from docs.json only if it cannot break out of
// the stylesheet.
func safeColor(c, fallback string) string {
	c = strings.TrimSpace(c)
	if c == "" || !cssColor.MatchString(c) {
		return fallback
	}
	return c
}

// stylesheet builds the one stylesheet of the bundle: the theme colours,
// the code highlighting of both themes, then the layout.
func (j *job) stylesheet() ([]byte, error) {
	primary := safeColor(j.cfg.Colors.Primary, defaultPrimary)
	light := safeColor(j.cfg.Colors.Light, defaultLight)
	if j.cfg.Colors.Light == "" && j.cfg.Colors.Primary != "" {
		light = primary
	}
	dark := safeColor(j.cfg.Colors.Dark, primary)
	var b bytes.Buffer
	fmt.Fprintf(&b, ":root{--primary:%s;--primary-light:%s;--primary-dark:%s", primary, light, dark)
	if c := safeColor(j.cfg.Background.Color.Light, ""); c != "" {
		fmt.Fprintf(&b, ";--bg-light:%s", c)
	}
	if c := safeColor(j.cfg.Background.Color.Dark, ""); c != "" {
		fmt.Fprintf(&b, ";--bg-dark:%s", c)
	}
	b.WriteString("}\n")
	if err := chromaCSS(&b, "github", ""); err != nil {
		return nil, err
	}
	if err := chromaCSS(&b, "github-dark", "[data-theme=dark] "); err != nil {
		return nil, err
	}
	base, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return nil, err
	}
	b.Write(base)
	return b.Bytes(), nil
}

// chromaCSS writes the highlighting classes of a chroma style, each rule
// scoped under scope so the dark style applies only in dark mode.
func chromaCSS(b *bytes.Buffer, style, scope string) error {
	var css bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false))
	if err := f.WriteCSS(&css, styles.Get(style)); err != nil {
		return fmt.Errorf("highlight css: %w", err)
	}
	for _, line := range strings.Split(css.String(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		b.WriteString(scope)
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return nil
}
