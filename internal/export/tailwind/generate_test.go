package tailwind

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// supported lists every class the package writes, each utility once
// plain and some with each kind of variant.
func supported() []string {
	var out []string
	for k := range fixed {
		out = append(out, k)
	}
	for side := range sides {
		for _, s := range spacingSteps {
			out = append(out, side+"-"+s)
		}
	}
	for _, p := range []string{"w", "h"} {
		for _, s := range spacingSteps {
			out = append(out, p+"-"+s)
		}
		for _, v := range []string{"auto", "full", "screen", "min", "max", "fit", "1/2", "1/3", "2/3", "1/4", "3/4", "2/5", "5/6"} {
			out = append(out, p+"-"+v)
		}
	}
	for n := 1; n <= 12; n++ {
		out = append(out, "grid-cols-"+strconv.Itoa(n), "col-span-"+strconv.Itoa(n))
		if n < 12 {
			out = append(out, "w-"+strconv.Itoa(n)+"/12")
		}
	}
	for n := 0; n <= 100; n += 5 {
		out = append(out, "opacity-"+strconv.Itoa(n))
	}
	for name := range families {
		for _, v := range familyValues {
			for _, sign := range []string{"", "-"} {
				s, ok := families[name].values(v)
				if _, negatable := negate(s); ok && (sign == "" || families[name].negative && negatable) {
					out = append(out, sign+name+"-"+v)
				}
			}
		}
	}
	for name := range colorUtilities {
		for _, c := range []string{"blue-500", "gray-50", "slate-950", "rose-300", "white", "black", "transparent", "current", "inherit", "white/10", "gray-900/50", "red-500/0", "sky-400/100"} {
			if (c == "inherit" || strings.HasSuffix(c, "/0") || strings.HasSuffix(c, "/100")) && name != "bg" && name != "text" {
				continue // one family is enough for the rare ones
			}
			out = append(out, name+"-"+c)
		}
	}
	for hue := range palette {
		for _, s := range shades {
			out = append(out, "bg-"+hue+"-"+s)
		}
	}
	out = append(out, "md:grid-cols-3", "lg:hidden", "sm:flex", "xl:w-1/2", "2xl:p-8", "dark:hidden", "dark:block",
		"hover:underline", "focus:font-bold", "md:dark:block", "md:hover:opacity-75", "dark:hover:bg-gray-800",
		"first:mt-0", "last:mb-0", "odd:bg-gray-50", "even:bg-white", "only:block", "focus-visible:ring-2", "focus-within:shadow",
		"active:scale-95", "disabled:opacity-50", "open:bg-white", "group-hover:text-blue-500",
		"group-focus:underline", "sm:space-x-4", "dark:divide-gray-800", "dark:placeholder-gray-500", "lg:-mt-8")
	slices.Sort(out)
	return out
}

// familyValues are the values tried with every family's name; each
// family writes the ones its scale has.
var familyValues = []string{"0", "px", "0.5", "1", "1.5", "2", "3", "3.5", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
	"14", "15", "16", "20", "24", "25", "30", "32", "40", "45", "48", "50", "60", "64", "72", "75", "80", "90", "95", "96", "100",
	"105", "110", "125", "150", "180", "200", "300", "500", "700", "1000",
	"1/2", "1/3", "2/3", "1/4", "2/4", "3/4", "1/5", "4/5", "1/6", "5/6", "7/12", "full", "auto", "min", "max", "fit", "none",
	"screen", "svh", "dvh", "lvh", "sm", "md", "lg", "xl", "2xl", "3xl", "3xs", "2xs", "xs", "7xl", "tight", "tighter", "snug",
	"normal", "relaxed", "loose", "wide", "wider", "widest", "first", "last", "fr", "from-font", "subgrid"}

// TestCSS_agreesWithTailwind: every class the package writes gets the
// declarations, selector and media query Tailwind CSS v3 (pinned in
// tools/mdxoracle) gives it, and every class it reports as unsupported is
// one Tailwind writes.
func TestCSS_agreesWithTailwind(t *testing.T) {
	testutil.SkipShort(t, "Tailwind CSS from npm (make mdx-oracle)")
	classes := supported()
	unknown := []string{"animate-spin", "bg-blue-550", "text-gray-600/33", "w-[350px]", "h-7/12", "tabular-nums", "peer-hover:bg-white"}
	theirs := tailwindRules(t, append(slices.Clone(classes), unknown...))
	ours := map[string]string{}
	for _, c := range classes {
		r, ok, _ := parse(c)
		if !ok {
			t.Errorf("%s is listed as written but is not", c)
			continue
		}
		ours[key(selectorOf(r), mediaOf(r))] = declsOf(r.decls)
	}
	for k, want := range ours {
		if got, ok := theirs[k]; !ok {
			t.Errorf("Tailwind writes no rule %s", k)
		} else if got != want {
			t.Errorf("%s: ours %s, Tailwind's %s", k, want, got)
		}
	}
	_, unsupported := CSS(unknown)
	if !slices.Equal(unsupported, []string{"animate-spin", "bg-blue-550", "h-7/12", "peer-hover:bg-white", "tabular-nums", "text-gray-600/33", "w-[350px]"}) {
		t.Errorf("unsupported: %q", unsupported)
	}
	// The base layer's variables, which the stylesheet writes when a rule
	// reads one, are Tailwind's.
	for _, sel := range []string{"*, ::before, ::after", "::backdrop"} {
		if got, want := theirs[key(sel, "")], declsOf(defaults); got != want {
			t.Errorf("%s: ours %s, Tailwind's %s", sel, want, got)
		}
	}
	t.Logf("%d classes agree with Tailwind CSS", len(ours))
}

func TestCSS_orderAndEscapes(t *testing.T) {
	css, unsupported := CSS([]string{"md:hidden", "block", "dark:hidden", "w-1/2", "2xl:flex", "my-own-class", "block"})
	want := ".block{display:block}\n" +
		".w-1\\/2{width:50%}\n" +
		`.dark\:hidden:where([data-theme="dark"], [data-theme="dark"] *){display:none}` + "\n" +
		"@media (min-width: 768px){.md\\:hidden{display:none}}\n" +
		"@media (min-width: 1536px){.\\32xl\\:flex{display:flex}}\n"
	if css != want || len(unsupported) != 0 {
		t.Errorf("got\n%s%q\nwant\n%s", css, unsupported, want)
	}
}

func selectorOf(r rule) string { return r.selector() }

func mediaOf(r rule) string {
	if r.media == 0 {
		return ""
	}
	return "(min-width: " + strconv.Itoa(r.media) + "px)"
}

func key(selector, media string) string { return selector + " @" + media }

func declsOf(ds []decl) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.prop+": "+d.value)
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// tailwindRules runs Tailwind CSS on classes and returns its rules by
// selector and media query.
func tailwindRules(t *testing.T, classes []string) map[string]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(root, "tools", "mdxoracle", "build.sh")).Output()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tools/mdxoracle/build.sh: %v", err)
		}
		t.Skipf("Tailwind CSS could not be installed (make mdx-oracle): %v", err)
	}
	script := filepath.Join(filepath.Dir(strings.TrimSpace(string(out))), "tailwind.mjs")
	in, _ := json.Marshal(classes)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("tailwind.mjs: %v: %s", err, stderr.Bytes())
	}
	var rules []struct {
		Selector, Media string
		Decls           [][2]string
	}
	if err := json.Unmarshal(res, &rules); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]string{}
	for _, r := range rules {
		var ds []decl
		for _, d := range r.Decls {
			ds = append(ds, decl{d[0], d[1]})
		}
		k := key(r.Selector, r.Media)
		if prev, ok := byKey[k]; ok {
			byKey[k] = fmt.Sprintf("%s; %s", prev, declsOf(ds))
			continue
		}
		byKey[k] = declsOf(ds)
	}
	return byKey
}
