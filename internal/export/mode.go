package export

// pageMode is a page's layout, chosen by its "mode" frontmatter. The
// modes and what each leaves out follow the platform's public
// documentation of page modes (not the reference files of this package):
// the frame leaves out of the HTML what a mode does not show, and the
// layout element carries a "mode-<name>" class for the widths.
type pageMode string

const (
	modeDefault pageMode = ""       // sidebar, table of contents, title header
	modeWide    pageMode = "wide"   // no table of contents; the content takes its width
	modeCustom  pageMode = "custom" // top bar only: no sidebar, contents or header; full width
	modeCenter  pageMode = "center" // no sidebar or table of contents; content centred
	modeFrame   pageMode = "frame"  // as custom, keeping the sidebar
)

// parseMode returns the mode a frontmatter value names; ok is false for
// a value the platform does not know, which renders as the default.
func parseMode(v string) (m pageMode, ok bool) {
	switch m := pageMode(v); m {
	case "", "default":
		return modeDefault, true
	case modeWide, modeCustom, modeCenter, modeFrame:
		return m, true
	}
	return modeDefault, false
}

// sidebar reports whether the mode shows the navigation sidebar (and so
// the phone-width menu button that opens it).
func (m pageMode) sidebar() bool { return m != modeCustom && m != modeCenter }

// toc reports whether the mode shows the table of contents.
func (m pageMode) toc() bool { return m == modeDefault }

// header reports whether the mode shows the page's title, description
// and eyebrow above the content.
func (m pageMode) header() bool { return m != modeCustom && m != modeFrame }

// class is the layout element's class attribute for the mode.
func (m pageMode) class() string {
	if m == modeDefault {
		return "layout"
	}
	return "layout mode-" + string(m)
}
