package tailwind

import "strings"

// keyword utilities: each sets one property to a value named in the
// class (cursor-pointer, whitespace-nowrap, bg-cover…).
func addKeywords() {
	keywords := func(prefix, prop string, pairs ...string) {
		for i := 0; i+1 < len(pairs); i += 2 {
			fixed[strings.TrimSuffix(prefix+pairs[i], "-")] = []decl{{prop, pairs[i+1]}}
		}
	}
	same := func(prefix, prop string, values ...string) {
		for _, v := range values {
			fixed[prefix+v] = []decl{{prop, v}}
		}
	}
	same("cursor-", "cursor", "auto", "default", "pointer", "wait", "text", "move", "help", "not-allowed", "none",
		"context-menu", "progress", "cell", "crosshair", "vertical-text", "alias", "copy", "no-drop", "grab", "grabbing",
		"all-scroll", "col-resize", "row-resize", "zoom-in", "zoom-out")
	same("select-", "user-select", "none", "text", "all", "auto")
	same("pointer-events-", "pointer-events", "none", "auto")
	same("whitespace-", "white-space", "normal", "nowrap", "pre", "pre-line", "pre-wrap", "break-spaces")
	same("list-", "list-style-type", "none", "disc", "decimal")
	same("list-", "list-style-position", "inside", "outside")
	same("align-", "vertical-align", "baseline", "top", "middle", "bottom", "text-top", "text-bottom", "sub", "super")
	same("float-", "float", "right", "left", "none")
	keywords("float-", "float", "start", "inline-start", "end", "inline-end")
	same("clear-", "clear", "left", "right", "both", "none")
	keywords("clear-", "clear", "start", "inline-start", "end", "inline-end")
	keywords("box-", "box-sizing", "border", "border-box", "content", "content-box")
	same("border-", "border-style", "solid", "dashed", "dotted", "double", "hidden", "none")
	same("divide-", "border-style", "solid", "dashed", "dotted", "double", "none")
	same("outline-", "outline-style", "dashed", "dotted", "double")
	fixed["outline"] = []decl{{"outline-style", "solid"}}
	fixed["outline-none"] = []decl{{"outline", "2px solid transparent"}, {"outline-offset", "2px"}}
	same("decoration-", "text-decoration-style", "solid", "double", "dotted", "dashed", "wavy")
	fixed["line-through"] = []decl{{"text-decoration-line", "line-through"}}
	fixed["overline"] = []decl{{"text-decoration-line", "overline"}}
	fixed["normal-case"] = []decl{{"text-transform", "none"}}
	keywords("text-", "text-overflow", "ellipsis", "ellipsis", "clip", "clip")
	fixed["overflow-ellipsis"] = []decl{{"text-overflow", "ellipsis"}}
	keywords("text-", "text-wrap", "wrap", "wrap", "nowrap", "nowrap", "balance", "balance", "pretty", "pretty")
	fixed["truncate"] = []decl{{"overflow", "hidden"}, {"text-overflow", "ellipsis"}, {"white-space", "nowrap"}}
	fixed["break-normal"] = []decl{{"overflow-wrap", "normal"}, {"word-break", "normal"}}
	fixed["break-words"] = []decl{{"overflow-wrap", "break-word"}}
	fixed["break-all"] = []decl{{"word-break", "break-all"}}
	fixed["break-keep"] = []decl{{"word-break", "keep-all"}}
	same("hyphens-", "hyphens", "none", "manual", "auto")
	fixed["antialiased"] = []decl{{"-webkit-font-smoothing", "antialiased"}, {"-moz-osx-font-smoothing", "grayscale"}}
	fixed["subpixel-antialiased"] = []decl{{"-webkit-font-smoothing", "auto"}, {"-moz-osx-font-smoothing", "auto"}}
	keywords("font-", "font-family",
		"sans", `ui-sans-serif, system-ui, sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"`,
		"serif", `ui-serif, Georgia, Cambria, "Times New Roman", Times, serif`,
		"mono", `ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, "Liberation Mono", "Courier New", monospace`)
	fixed["visible"] = []decl{{"visibility", "visible"}}
	fixed["invisible"] = []decl{{"visibility", "hidden"}}
	fixed["collapse"] = []decl{{"visibility", "collapse"}}
	fixed["isolate"] = []decl{{"isolation", "isolate"}}
	fixed["isolation-auto"] = []decl{{"isolation", "auto"}}
	fixed["sr-only"] = []decl{{"position", "absolute"}, {"width", "1px"}, {"height", "1px"}, {"padding", "0"}, {"margin", "-1px"},
		{"overflow", "hidden"}, {"clip", "rect(0, 0, 0, 0)"}, {"white-space", "nowrap"}, {"border-width", "0"}}
	fixed["not-sr-only"] = []decl{{"position", "static"}, {"width", "auto"}, {"height", "auto"}, {"padding", "0"}, {"margin", "0"},
		{"overflow", "visible"}, {"clip", "auto"}, {"white-space", "normal"}}
	fixed["appearance-none"] = []decl{{"appearance", "none"}}
	fixed["appearance-auto"] = []decl{{"appearance", "auto"}}
	keywords("resize", "resize", "", "both", "-none", "none", "-x", "horizontal", "-y", "vertical")
	keywords("will-change-", "will-change", "auto", "auto", "scroll", "scroll-position", "contents", "contents", "transform", "transform")
	same("bg-", "background-attachment", "fixed", "local", "scroll")
	same("bg-", "background-size", "auto", "cover", "contain")
	keywords("bg-", "background-position", "bottom", "bottom", "center", "center", "left", "left", "left-bottom", "left bottom",
		"left-top", "left top", "right", "right", "right-bottom", "right bottom", "right-top", "right top", "top", "top")
	keywords("bg-", "background-repeat", "repeat", "repeat", "no-repeat", "no-repeat", "repeat-x", "repeat-x", "repeat-y", "repeat-y",
		"repeat-round", "round", "repeat-space", "space")
	keywords("bg-clip-", "background-clip", "border", "border-box", "padding", "padding-box", "content", "content-box", "text", "text")
	fixed["bg-none"] = []decl{{"background-image", "none"}}
	for k, v := range map[string]string{"t": "top", "tr": "top right", "r": "right", "br": "bottom right", "b": "bottom",
		"bl": "bottom left", "l": "left", "tl": "top left"} {
		fixed["bg-gradient-to-"+k] = []decl{{"background-image", "linear-gradient(to " + v + ", var(--tw-gradient-stops))"}}
	}
	keywords("object-", "object-position", "bottom", "bottom", "center", "center", "left", "left", "left-bottom", "left bottom",
		"left-top", "left top", "right", "right", "right-bottom", "right bottom", "right-top", "right top", "top", "top")
	fixed["flex-grow"], fixed["flex-grow-0"] = []decl{{"flex-grow", "1"}}, []decl{{"flex-grow", "0"}}
	fixed["flex-shrink"], fixed["flex-shrink-0"] = []decl{{"flex-shrink", "1"}}, []decl{{"flex-shrink", "0"}}
	keywords("grid-flow-", "grid-auto-flow", "row", "row", "col", "column", "dense", "dense", "row-dense", "row dense", "col-dense", "column dense")
	fixed["grid-cols-none"] = []decl{{"grid-template-columns", "none"}}
	fixed["grid-cols-subgrid"] = []decl{{"grid-template-columns", "subgrid"}}
	fixed["col-auto"] = []decl{{"grid-column", "auto"}}
	fixed["row-auto"] = []decl{{"grid-row", "auto"}}
	fixed["row-span-full"] = []decl{{"grid-row", "1 / -1"}}
	same("place-items-", "place-items", "start", "end", "center", "baseline", "stretch")
	same("justify-items-", "justify-items", "start", "end", "center", "stretch")
	for k, v := range map[string]string{"auto": "auto", "start": "start", "end": "end", "center": "center", "stretch": "stretch"} {
		fixed["justify-self-"+k] = []decl{{"justify-self", v}}
		fixed["place-self-"+k] = []decl{{"place-self", v}}
	}
	fixed["self-auto"] = []decl{{"align-self", "auto"}}
	for k, v := range map[string]string{"center": "center", "start": "flex-start", "end": "flex-end", "between": "space-between",
		"around": "space-around", "evenly": "space-evenly", "baseline": "baseline", "stretch": "stretch", "normal": "normal"} {
		fixed["content-"+k] = []decl{{"align-content", v}}
	}
	for k, v := range map[string]string{"center": "center", "start": "start", "end": "end", "between": "space-between",
		"around": "space-around", "evenly": "space-evenly", "baseline": "baseline", "stretch": "stretch"} {
		fixed["place-content-"+k] = []decl{{"place-content", v}}
	}
	fixed["space-x-reverse"] = []decl{{"--tw-space-x-reverse", "1"}}
	fixed["space-y-reverse"] = []decl{{"--tw-space-y-reverse", "1"}}
	fixed["divide-x-reverse"] = []decl{{"--tw-divide-x-reverse", "1"}}
	fixed["divide-y-reverse"] = []decl{{"--tw-divide-y-reverse", "1"}}
	fixed["divide-x"] = families["divide-x"].decls("1px")
	fixed["divide-y"] = families["divide-y"].decls("1px")
	fixed["ring"] = families["ring"].decls("3px")
	fixed["ring-inset"] = []decl{{"--tw-ring-inset", "inset"}}
	fixed["line-clamp-none"] = []decl{{"overflow", "visible"}, {"display", "block"}, {"-webkit-box-orient", "horizontal"}, {"-webkit-line-clamp", "none"}}
	for side, props := range map[string][]string{"t": {"border-top-width"}, "r": {"border-right-width"}, "b": {"border-bottom-width"},
		"l": {"border-left-width"}, "x": {"border-left-width", "border-right-width"}, "y": {"border-top-width", "border-bottom-width"},
		"s": {"border-inline-start-width"}, "e": {"border-inline-end-width"}} {
		fixed["border-"+side] = set(props...)("1px")
	}
	for name, shadow := range map[string]string{
		"shadow-sm":    "0 1px 2px 0 rgb(0 0 0 / 0.05)|0 1px 2px 0 var(--tw-shadow-color)",
		"shadow":       "0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)|0 1px 3px 0 var(--tw-shadow-color), 0 1px 2px -1px var(--tw-shadow-color)",
		"shadow-md":    "0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)|0 4px 6px -1px var(--tw-shadow-color), 0 2px 4px -2px var(--tw-shadow-color)",
		"shadow-lg":    "0 10px 15px -3px rgb(0 0 0 / 0.1), 0 4px 6px -4px rgb(0 0 0 / 0.1)|0 10px 15px -3px var(--tw-shadow-color), 0 4px 6px -4px var(--tw-shadow-color)",
		"shadow-xl":    "0 20px 25px -5px rgb(0 0 0 / 0.1), 0 8px 10px -6px rgb(0 0 0 / 0.1)|0 20px 25px -5px var(--tw-shadow-color), 0 8px 10px -6px var(--tw-shadow-color)",
		"shadow-2xl":   "0 25px 50px -12px rgb(0 0 0 / 0.25)|0 25px 50px -12px var(--tw-shadow-color)",
		"shadow-inner": "inset 0 2px 4px 0 rgb(0 0 0 / 0.05)|inset 0 2px 4px 0 var(--tw-shadow-color)",
		"shadow-none":  "0 0 #0000|0 0 #0000",
	} {
		plain, colored, _ := strings.Cut(shadow, "|")
		fixed[name] = []decl{{"--tw-shadow", plain}, {"--tw-shadow-colored", colored}, {"box-shadow", boxShadowValue}}
	}
	for name, v := range map[string]string{
		"drop-shadow-sm":   "drop-shadow(0 1px 1px rgb(0 0 0 / 0.05))",
		"drop-shadow":      "drop-shadow(0 1px 2px rgb(0 0 0 / 0.1)) drop-shadow(0 1px 1px rgb(0 0 0 / 0.06))",
		"drop-shadow-md":   "drop-shadow(0 4px 3px rgb(0 0 0 / 0.07)) drop-shadow(0 2px 2px rgb(0 0 0 / 0.06))",
		"drop-shadow-lg":   "drop-shadow(0 10px 8px rgb(0 0 0 / 0.04)) drop-shadow(0 4px 3px rgb(0 0 0 / 0.1))",
		"drop-shadow-xl":   "drop-shadow(0 20px 13px rgb(0 0 0 / 0.03)) drop-shadow(0 8px 5px rgb(0 0 0 / 0.08))",
		"drop-shadow-2xl":  "drop-shadow(0 25px 25px rgb(0 0 0 / 0.15))",
		"drop-shadow-none": "drop-shadow(0 0 #0000)",
	} {
		fixed[name] = through("--tw-drop-shadow", "filter", filterValue)(v)
	}
	fixed["filter"] = []decl{{"filter", filterValue}}
	fixed["filter-none"] = []decl{{"filter", "none"}}
	fixed["transform"] = []decl{{"transform", transformValue}}
	fixed["transform-none"] = []decl{{"transform", "none"}}
	transition := func(name, props string) {
		fixed[name] = []decl{{"transition-property", props}, {"transition-timing-function", easing}, {"transition-duration", "150ms"}}
	}
	transition("transition", "color, background-color, border-color, text-decoration-color, fill, stroke, opacity, box-shadow, transform, filter, backdrop-filter")
	transition("transition-all", "all")
	transition("transition-colors", "color, background-color, border-color, text-decoration-color, fill, stroke")
	transition("transition-opacity", "opacity")
	transition("transition-shadow", "box-shadow")
	transition("transition-transform", "transform")
	fixed["transition-none"] = []decl{{"transition-property", "none"}}
	keywords("ease-", "transition-timing-function", "linear", "linear", "in", "cubic-bezier(0.4, 0, 1, 1)", "out", "cubic-bezier(0, 0, 0.2, 1)", "in-out", easing)
	for _, v := range []string{"svw", "lvw", "dvw"} {
		fixed["w-"+v] = []decl{{"width", "100" + v}}
	}
	for _, v := range []string{"svh", "lvh", "dvh"} {
		fixed["h-"+v] = []decl{{"height", "100" + v}}
	}
}
