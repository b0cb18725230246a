// Command bench measures the static export against Hugo on a synthetic
// docs site of 2,000 pages, 200 of them endpoint pages generated from an
// OpenAPI spec, and on those 200 alone, and an endpoint-heavy site of
// 1,000 endpoint pages against issue 25's 300 pages a second: the time of
// a full export including the archive, a second archive of the same export
// (it must be byte-identical; the server never builds it twice, see
// BenchmarkBundle_secondCall in internal/apiserver for the second bundle
// call), peak memory, how often live progress moves, and (when Chromium
// is installed) the offline search time. Issue 44 adds a corpus of plain
// Markdown pages rich in code, tables, lists and quotes, exported as the
// air-gapped and the cloud kind against Hugo (rich.go), and the real shape
// of a large multi-language, multi-version site, about 25,000 pages
// exported once (realshape.go). Each figure is the median of -runs runs
// (the real shape: one run), printed with its goal beside it. It asserts
// nothing.
//
// The export through the API runs the docsadmin binary named by -server
// (its apiserver subcommand) in a process of its own; the bench links the
// export facade and the client, never the server. run.sh builds both:
//
//	go build -o /tmp/docsadmin . && go run ./internal/export/bench \
//	    -hugo "$(go env GOPATH)/bin/hugo" -server /tmp/docsadmin
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// childResult is what the measuring child process reports.
type childResult struct {
	Pages       int     `json:"pages"`
	Export      float64 `json:"export"`
	Archive     float64 `json:"archive"`
	Second      float64 `json:"second"`
	BundleBytes int64   `json:"bundleBytes"`
	Identical   bool    `json:"identical"`
	Distinct    int     `json:"distinct"`
	HeapPeakMiB uint64  `json:"heapPeakMiB"` // live heap objects at the export's peak
	Phases      string  `json:"phases"`      // plan, render and finish times
	// CPU is the child's CPU time up to the end of the first archive:
	// what the figure of a run costs, whatever else the machine runs.
	CPU float64 `json:"cpu"`
	// AllocMiB and GCs are what the export and the first archive
	// allocated, and the collections that took: unlike times, they do
	// not move with the machine's load.
	AllocMiB uint64 `json:"allocMiB"`
	GCs      uint32 `json:"gcs"`
	// Limited holds the export's warnings of a limit reached, such as
	// its highlighting time spent (on a loaded machine, blocks then show
	// plain): a run that reached one did less work than the others.
	Limited []string `json:"limited,omitempty"`
}

func main() {
	hugo := flag.String("hugo", "", "path of the hugo binary; empty skips the comparison")
	runs := flag.Int("runs", 3, "runs of each side; the median counts")
	cases := flag.String("cases", strings.Join(allCases, ","), "comma-separated cases to run: site (2,000 pages against Hugo), api (200 endpoint pages against Hugo), api1000 (1,000 endpoint pages against 300 pages/s), rich (2,000 Markdown pages with code, tables, lists and quotes, air-gapped and cloud, against Hugo), shape (languages x versions, see -shape, against 500 pages/s), incr (a one-page change to the 2,000-page site re-exported through the API, against 10 % of a full export)")
	keep := flag.String("work", "", "work directory to keep (default: a temporary one, removed)")
	child := flag.String("child", "", "internal: export this docs source and report as JSON")
	out := flag.String("out", "", "internal: export directory of -child")
	flag.StringVar(&serverBin, "server", "", "path of the docsadmin binary, whose apiserver subcommand is the reference server the site case exports through (run.sh builds it)")
	flag.StringVar(&profileDir, "profile", "", "directory for CPU profiles of each export run (export-N.pprof, api-export-N.pprof: render and both archives)")
	cpuprofile := flag.String("cpuprofile", "", "internal: CPU profile file of -child")
	spool := flag.Bool("spool", false, "internal: -child exports into a spool, as the server does, not a directory")
	scale := flag.String("scale", "", "page counts, e.g. 2000,20000: only export the synthetic site at each size and print time and peak RSS")
	flag.DurationVar(&highlightTime, "highlighttime", 0, "the exports' highlighting limit (limits.highlightTime, counted as work: 0 is the default), raised for a site whose highlighting needs more")
	shape := flag.String("shape", "1x5,4x30", "sizes of the real shape case, LANGUAGESxVERSIONS, each exported once; the first is the base of the growth figure")
	flag.Parse()
	if *child != "" {
		if err := runChild(*child, *out, *cpuprofile, *spool); err != nil {
			fmt.Fprintln(os.Stderr, "bench child:", err)
			os.Exit(1)
		}
		return
	}
	if *scale != "" {
		if err := runScale(*scale, *keep); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	cs, err := parseCases(*cases)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(*hugo, *runs, *keep, *shape, cs); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// runScale is the -scale mode: no Hugo, one export per size.
func runScale(sizes, keep string) error {
	return withRoot(keep, func(self, root string) error { return scaleCase(self, root, sizes, keep != "") })
}

// withRoot calls f with this executable and a work directory: keep, or a
// temporary one removed afterwards.
func withRoot(keep string, f func(self, root string) error) error {
	root := keep
	if root == "" {
		var err error
		if root, err = os.MkdirTemp("", "export-bench-"); err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(root) }() // best effort
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return f(self, root)
}

func run(hugo string, runs int, keep, shape string, cases map[string]bool) error {
	return withRoot(keep, func(self, root string) error { return runCases(self, root, hugo, runs, keep != "", shape, cases) })
}

// runCases runs the cases in the order of allCases.
func runCases(self, root, hugo string, runs int, keep bool, shape string, cases map[string]bool) error {
	if cases["site"] {
		if err := siteCase(self, hugo, root, runs, keep); err != nil {
			return err
		}
	}
	if cases["api"] {
		line, err := apiCase(self, hugo, root, runs, keep)
		if err != nil {
			return err
		}
		fmt.Println(line)
	}
	if cases["api1000"] {
		line, err := bigAPICase(self, root, runs, keep)
		if err != nil {
			return err
		}
		fmt.Println(line)
	}
	if cases["rich"] {
		if err := richCase(hugo, root, runs, keep); err != nil {
			return err
		}
	}
	if cases["incr"] {
		if err := incrCase(root, runs); err != nil {
			return err
		}
	}
	if cases["shape"] {
		return shapeCase(self, root, shape, keep)
	}
	return nil
}

// siteCase times the export of the 2,000-page site against Hugo, twice:
// through the API of a reference server running in its own process (start,
// the client's own polling, bundle link: what a pipeline waits for, and
// what issue 25's goal is about), and by the engine alone writing a tree
// of files and archiving it (where the time goes). The three sides
// alternate run by run so that each meets the same load on a shared
// machine; the median run of each side counts.
func siteCase(self, hugo, root string, runs int, keep bool) error {
	docs, hugoSite, err := generate(root)
	if err != nil {
		return fmt.Errorf("generate site: %w", err)
	}
	// A deployment per run: a re-export of one deployment copies its
	// previous archive's unchanged entries (the incr case), and this
	// figure is the full export's.
	deps := make([]deployment, runs)
	for r := range deps {
		deps[r] = deployment{runDomain(r), docs, "air-gapped"}
	}
	srv, err := startAPIServer(root, "site-apiserver", deps...)
	if err != nil {
		return err
	}
	defer srv.stop()
	var exp exportRuns
	var viaAPI apiRuns
	var hug hugoRuns
	var lastOut string
	for r := 0; r < runs; r++ {
		if lastOut != "" && !keep {
			// Only the last export is needed (for the search timing); the
			// others would hold hundreds of MiB of temporary disk.
			removeExport(lastOut)
		}
		lastOut = filepath.Join(root, fmt.Sprintf("export-%d", r))
		if err := exp.run(self, docs, lastOut); err != nil {
			return fmt.Errorf("export run: %w", err)
		}
		run, err := srv.export(runDomain(r))
		if err != nil {
			return fmt.Errorf("export through the API: %w", err)
		}
		viaAPI.runs = append(viaAPI.runs, run)
		if hugo == "" {
			continue
		}
		if err := hug.run(hugo, hugoSite, filepath.Join(root, fmt.Sprintf("hugo-out-%d", r)), keep); err != nil {
			return fmt.Errorf("hugo: %w", err)
		}
	}
	apiMed, apiCPU := viaAPI.median()
	med, medUse := exp.median()
	total := med.Export + med.Archive
	apiLine := fmt.Sprintf("export through the API: %d pages (%d from a spec), start to bundle link, median of %d runs %.2fs (%.0f pages/s; runs %s; server CPU %.2fs; archive %.1f MiB)",
		apiMed.pages, apiPages, runs, apiMed.wall, float64(apiMed.pages)/apiMed.wall, spread(viaAPI.walls()), apiCPU, float64(apiMed.bytes)/(1<<20))
	line := fmt.Sprintf("engine alone, writing a tree of files then archiving it: median of %d runs %.2fs (%.0f pages/s; render %.2fs + archive %.2fs; runs %s)",
		runs, total, float64(med.Pages)/total, med.Export, med.Archive, exp.spread())
	if hugo != "" {
		hugoMed, hugoUse := hug.median()
		apiLine += fmt.Sprintf(", hugo median %.2fs (runs %s), ratio %.2f %s", hugoMed, hug.spread(), apiMed.wall/hugoMed, goalAtMost(apiMed.wall/hugoMed, 0.5))
		apiLine += fmt.Sprintf("\n  cpu time (medians): server %.2fs, hugo %.2fs, ratio %.2f", apiCPU, hugoUse.cpu, apiCPU/hugoUse.cpu)
		line += fmt.Sprintf(", ratio to hugo %.2f (no goal: the server renders into a spool, not a tree)", total/hugoMed)
		// CPU time is steadier than wall time on a shared machine. The
		// export's includes the second, determinism-checking archive.
		line += fmt.Sprintf("\n  cpu time (medians): export %.2fs, hugo %.2fs, ratio %.2f; render and first archive alone %.2fs, ratio %.2f",
			medUse.cpu, hugoUse.cpu, medUse.cpu/hugoUse.cpu, exp.medianCPU(), exp.medianCPU()/hugoUse.cpu)
	} else {
		apiLine += ", hugo not measured (pass -hugo)"
	}
	fmt.Println(apiLine)
	fmt.Printf("%s\nexport phases (median run): %s; load %s\n", line, med.Phases, loadAvg())
	fmt.Printf("second archive (determinism check; the server re-signs instead): %.2fs (%.1f MiB, byte-identical to the first: %v)\n",
		med.Second, float64(med.BundleBytes)/(1<<20), med.Identical)
	mem := fmt.Sprintf("peak RSS: export %d MiB", exp.peakRSS()>>10)
	if hugo != "" {
		mem += fmt.Sprintf(", hugo %d MiB", hug.peakRSS()>>10)
	}
	fmt.Println(mem)
	fmt.Printf("progress: %d distinct values seen by a 100 ms poller\n", med.Distinct)
	fmt.Println(searchTiming(root, lastOut))
	return nil
}

// apiCase times the export of the API reference alone, 200 endpoint pages
// generated from a spec, against Hugo rendering the same reference
// written as 200 Markdown pages; runs alternate as above.
func apiCase(self, hugo, root string, runs int, keep bool) (string, error) {
	docs, hugoSite, err := generateAPI(root, "api", apiTags)
	if err != nil {
		return "", fmt.Errorf("generate API site: %w", err)
	}
	var exp exportRuns
	var hug hugoRuns
	for r := 0; r < runs; r++ {
		out := filepath.Join(root, fmt.Sprintf("api-export-%d", r))
		if err := exp.run(self, docs, out); err != nil {
			return "", fmt.Errorf("API export run: %w", err)
		}
		if !keep {
			removeExport(out)
		}
		if hugo == "" {
			continue
		}
		if err := hug.run(hugo, hugoSite, filepath.Join(root, fmt.Sprintf("api-hugo-out-%d", r)), keep); err != nil {
			return "", fmt.Errorf("hugo on the API pages: %w", err)
		}
	}
	med, medUse := exp.median()
	total := med.Export + med.Archive
	line := fmt.Sprintf("API reference alone: %d endpoint pages from a spec, median of %d runs %.2fs (render %.2fs + archive %.2fs; runs %s)",
		med.Pages, runs, total, med.Export, med.Archive, exp.spread())
	if hugo == "" {
		return line + ", hugo not measured (pass -hugo)", nil
	}
	hugoMed, hugoUse := hug.median()
	return line + fmt.Sprintf(", hugo median %.2fs on %d Markdown pages, ratio %.2f %s\n  cpu time (medians): export %.2fs, hugo %.2fs, ratio %.2f; load %s",
		hugoMed, apiPages, total/hugoMed, goalAtMost(total/hugoMed, 1.0), medUse.cpu, hugoUse.cpu, medUse.cpu/hugoUse.cpu, loadAvg()), nil
}

// bigAPICase times the export of an endpoint-heavy site, 1,000 endpoint
// pages from one spec, against issue 25's goal of 300 pages a second
// (render and archive).
func bigAPICase(self, root string, runs int, keep bool) (string, error) {
	docs, _, err := generateAPI(root, "api1000", bigAPITags)
	if err != nil {
		return "", fmt.Errorf("generate the 1,000-endpoint site: %w", err)
	}
	var exp exportRuns
	var weight pageBytes // of the first run: every run writes the same bytes
	for r := 0; r < runs; r++ {
		out := filepath.Join(root, fmt.Sprintf("api1000-export-%d", r))
		if err := exp.run(self, docs, out); err != nil {
			return "", fmt.Errorf("1,000-endpoint export run: %w", err)
		}
		if r == 0 {
			if weight, err = measurePages(out); err != nil {
				return "", err
			}
		}
		if !keep {
			removeExport(out)
		}
	}
	med, medUse := exp.median()
	total := med.Export + med.Archive
	rate := float64(med.Pages) / total
	cpu := exp.medianCPU()
	return fmt.Sprintf("endpoint-heavy site: %d endpoint pages from a spec, median of %d runs %.2fs (render %.2fs + archive %.2fs; runs %s), %.0f pages/s %s\n  %s; cpu %.2fs (render and first archive %.2fs: %.0f pages/s if all %d cores were its own); peak RSS %d MiB; load %s\n  %s; archive %.1f MB",
		med.Pages, runs, total, med.Export, med.Archive, exp.spread(), rate, goalAtLeast(rate, 300), med.Phases, medUse.cpu,
		cpu, float64(med.Pages)/cpu*float64(runtime.NumCPU()), runtime.NumCPU(), exp.peakRSS()>>10, loadAvg(),
		weight, float64(med.BundleBytes)/1e6), nil
}

// siteDomain is the domain the bench's sites are deployed at.
const siteDomain = "docs.example.com"

// runDomain is a deployment of its own for run r, with no earlier export.
func runDomain(r int) string { return fmt.Sprintf("run%d.%s", r, siteDomain) }

// removeExport removes an export directory and its two archives; a
// failure only leaves temporary files behind.
func removeExport(out string) {
	_ = os.RemoveAll(out)
	_ = os.Remove(out + ".tar.gz")
	_ = os.Remove(out + ".tar.gz.2")
}

// profileDir is where -profile puts the children's CPU profiles.
var profileDir string

// highlightTime is -highlighttime, passed on to the children.
var highlightTime time.Duration

// childArgs are the arguments of a child that exports docs into out, with
// a CPU profile named after out when -profile is set.
func childArgs(docs, out string) []string {
	args := []string{"-child", docs, "-out", out}
	if highlightTime > 0 {
		args = append(args, "-highlighttime", highlightTime.String())
	}
	if profileDir != "" {
		args = append(args, "-cpuprofile", filepath.Join(profileDir, filepath.Base(out)+".pprof"))
	}
	return args
}

// usage is what the kernel accounted to a finished process.
type usage struct {
	rssKiB int64
	cpu    float64 // user + system seconds
}

// measure runs a command, decodes its stdout as JSON into res when res is
// not nil, and returns its resource usage.
func measure(res *childResult, name string, args ...string) (usage, error) {
	cmd := exec.Command(name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return usage{}, fmt.Errorf("%w: %s", err, stderr.String())
	}
	if res != nil {
		if err := json.Unmarshal(stdout.Bytes(), res); err != nil {
			return usage{}, fmt.Errorf("child output: %w", err)
		}
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return usage{}, nil
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return usage{rssKiB: ru.Maxrss, cpu: cpu.Seconds()}, nil
}
