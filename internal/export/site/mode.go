package site

// Mode is a page's layout, chosen by its "mode" Frontmatter. The
// modes and what each leaves out follow the platform's public
// documentation of page modes (not the reference files of this package):
// the frame leaves out of the HTML what a mode does not show, and the
// layout element carries a "mode-<name>" class for the widths.
type Mode string

// The page modes of the platform.
const (
	ModeDefault Mode = ""       // sidebar, table of contents, title header
	ModeWide    Mode = "wide"   // no table of contents; the content takes its width
	ModeCustom  Mode = "custom" // top bar only: no sidebar, contents or header; full width
	ModeCenter  Mode = "center" // no sidebar or table of contents; content centred
	ModeFrame   Mode = "frame"  // as custom, keeping the sidebar
)

// ParseMode returns the mode a Frontmatter value names; ok is false for
// a value the platform does not know, which renders as the default.
func ParseMode(v string) (m Mode, ok bool) {
	switch m := Mode(v); m {
	case "", "default":
		return ModeDefault, true
	case ModeWide, ModeCustom, ModeCenter, ModeFrame:
		return m, true
	}
	return ModeDefault, false
}

// Sidebar reports whether the mode shows the navigation sidebar (and so
// the phone-width menu button that opens it).
func (m Mode) Sidebar() bool { return m != ModeCustom && m != ModeCenter }

// TOC reports whether the mode shows the table of contents.
func (m Mode) TOC() bool { return m == ModeDefault }

// Header reports whether the mode shows the page's title, description
// and eyebrow above the content.
func (m Mode) Header() bool { return m != ModeCustom && m != ModeFrame }

// Class is the layout element's class attribute for the mode.
func (m Mode) Class() string {
	if m == ModeDefault {
		return "layout"
	}
	return "layout mode-" + string(m)
}
