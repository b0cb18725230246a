package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// guidePagesPerTab is how many guide pages a generated tab holds.
const guidePagesPerTab = groupsPerTab * pagesPerGroup

// containerMiB is the memory of the container issue 25 asks a 20,000-page
// export to fit in.
const containerMiB = 512

// scaleCase exports the synthetic site at each size of sizes (pages,
// the API reference's 200 included) once, in its own child process, and
// prints time and peak RSS per size and, against the first size, how
// both grew relative to the page count: a ratio above 1 means faster than
// linear growth. Issue 25's goal: 20,000 pages within a 512 MiB container.
func scaleCase(self, root, sizes string, keep bool) error {
	var ns []int
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < apiPages+guidePagesPerTab {
			return fmt.Errorf("-scale: %q is not a page count of at least %d", f, apiPages+guidePagesPerTab)
		}
		ns = append(ns, n)
	}
	type point struct {
		res  childResult
		use  usage
		load string // the load average when it ended
	}
	var first point
	for i, n := range ns {
		tabs := (n - apiPages) / guidePagesPerTab
		dir := filepath.Join(root, fmt.Sprintf("scale-%d", n))
		docs, _, err := generateTabs(filepath.Join(dir, "docs"), filepath.Join(dir, "hugo"), tabs)
		if err != nil {
			return fmt.Errorf("generate %d pages: %w", n, err)
		}
		var p point
		p.use, err = measure(&p.res, self, childArgs(docs, filepath.Join(dir, "export"))...)
		if err != nil {
			return fmt.Errorf("export of %d pages: %w", n, err)
		}
		if !keep {
			_ = os.RemoveAll(dir)
		}
		p.load = loadAvg()
		rss := float64(p.use.rssKiB) / 1024
		line := fmt.Sprintf("scale: %d pages: render %.2fs + archive %.2fs, %.0f pages/s, peak heap %d MiB during the export, peak RSS %.0f MiB %s, load %s",
			p.res.Pages, p.res.Export, p.res.Archive, float64(p.res.Pages)/(p.res.Export+p.res.Archive), p.res.HeapPeakMiB, rss, goalNote(rss <= containerMiB, fmt.Sprintf("<= %d MiB", containerMiB)), p.load)
		line += "\n  " + p.res.Phases
		if i == 0 {
			first = p
		} else {
			grow := float64(p.res.Pages) / float64(first.res.Pages)
			t := (p.res.Export + p.res.Archive) / (first.res.Export + first.res.Archive)
			r := float64(p.use.rssKiB) / float64(first.use.rssKiB)
			// Wall time follows the machine's load (printed for both
			// sizes); CPU time is the export's own work.
			line += fmt.Sprintf("\n  against %d pages (x%.1f pages): time x%.2f %s (load %s then %s), cpu x%.2f, RSS x%.2f %s",
				first.res.Pages, grow, t, goalNote(t <= grow, fmt.Sprintf("linear or better, <= x%.1f", grow)), first.load, p.load,
				p.use.cpu/first.use.cpu, r, goalNote(r <= grow, fmt.Sprintf("<= x%.1f", grow)))
		}
		fmt.Println(line)
	}
	return nil
}

// loadAvg is the machine's 1-minute load average, printed beside each
// figure: on a shared machine it says how much the figure can be trusted.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}
