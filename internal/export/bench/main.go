// Command bench measures the static export against Hugo on a synthetic
// docs site of 2,000 pages, 200 of them endpoint pages generated from an
// OpenAPI spec, and on those 200 alone: the time of a full export including the
// archive, a second archive of the same export (it must be byte-identical;
// the server never builds it twice, see BenchmarkBundle_secondCall in
// internal/apiserver for the second bundle call), peak memory, how often live
// progress moves, and (when Chromium is installed) the offline search time.
// It prints ratios; it is not a test and asserts nothing.
//
//	go run ./internal/export/bench -hugo "$(go env GOPATH)/bin/hugo"
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
}

func main() {
	hugo := flag.String("hugo", "", "path of the hugo binary; empty skips the comparison")
	runs := flag.Int("runs", 3, "runs of each side; the fastest counts")
	keep := flag.String("work", "", "work directory to keep (default: a temporary one, removed)")
	child := flag.String("child", "", "internal: export this docs source and report as JSON")
	out := flag.String("out", "", "internal: export directory of -child")
	flag.StringVar(&profileDir, "profile", "", "directory for CPU profiles of each export run (export-N.pprof, api-export-N.pprof: render and both archives)")
	cpuprofile := flag.String("cpuprofile", "", "internal: CPU profile file of -child")
	scale := flag.String("scale", "", "page counts, e.g. 2000,20000: only export the synthetic site at each size and print time and peak RSS")
	flag.Parse()
	if *child != "" {
		if err := runChild(*child, *out, *cpuprofile); err != nil {
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
	if err := run(*hugo, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// runScale is the -scale mode: no Hugo, one export per size.
func runScale(sizes, keep string) error {
	root := keep
	if root == "" {
		var err error
		if root, err = os.MkdirTemp("", "export-scale-"); err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(root) }() // best effort
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return scaleCase(self, root, sizes, keep != "")
}

func run(hugo string, runs int, keep string) error {
	root := keep
	if root == "" {
		var err error
		if root, err = os.MkdirTemp("", "export-bench-"); err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(root) }() // best effort, like the removals below
	}
	docs, hugoSite, err := generate(root)
	if err != nil {
		return fmt.Errorf("generate site: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// Export and Hugo runs alternate so that both sides meet the same load
	// on a shared machine; the fastest run of each side counts.
	var best childResult
	var peak, bestUse, hugoPeak, hugoUse usage
	var lastOut string
	hugoBest := 0.0
	for r := 0; r < runs; r++ {
		if lastOut != "" && keep == "" {
			// Only the last export is needed (for the search timing); the
			// others would hold hundreds of MiB of temporary disk.
			_ = os.RemoveAll(lastOut)
			_ = os.Remove(lastOut + ".tar.gz")
			_ = os.Remove(lastOut + ".tar.gz.2")
		}
		lastOut = filepath.Join(root, fmt.Sprintf("export-%d", r))
		var res childResult
		use, err := measure(&res, self, childArgs(docs, lastOut)...)
		if err != nil {
			return fmt.Errorf("export run: %w", err)
		}
		if r == 0 || res.Export+res.Archive < best.Export+best.Archive {
			best, bestUse = res, use
		}
		peak.rssKiB = max(peak.rssKiB, use.rssKiB)
		if hugo == "" {
			continue
		}
		start := time.Now()
		dest := filepath.Join(root, fmt.Sprintf("hugo-out-%d", r))
		use, err = measure(nil, hugo, "--quiet", "--source", hugoSite, "--destination", dest)
		if err != nil {
			return fmt.Errorf("hugo: %w", err)
		}
		if keep == "" {
			_ = os.RemoveAll(dest)
		}
		if d := time.Since(start).Seconds(); r == 0 || d < hugoBest {
			hugoBest, hugoUse = d, use
		}
		hugoPeak.rssKiB = max(hugoPeak.rssKiB, use.rssKiB)
	}
	total := best.Export + best.Archive
	line := fmt.Sprintf("export: %d pages (%d from a spec) in %.2fs (%.0f pages/s; render %.2fs + archive %.2fs)",
		best.Pages, apiPages, total, float64(best.Pages)/total, best.Export, best.Archive)
	if hugo != "" {
		line += fmt.Sprintf(", hugo %.2fs, ratio %.2f (goal <= 1.0)", hugoBest, total/hugoBest)
		// CPU time is steadier than wall time on a shared machine. The
		// export's includes the second, determinism-checking archive.
		line += fmt.Sprintf("\ncpu time: export %.2fs, hugo %.2fs, ratio %.2f", bestUse.cpu, hugoUse.cpu, bestUse.cpu/hugoUse.cpu)
	} else {
		line += ", hugo not measured (pass -hugo)"
	}
	fmt.Printf("%s\nexport phases (fastest run): %s; load %s\n", line, best.Phases, loadAvg())
	fmt.Printf("second archive (determinism check; the server re-signs instead): %.2fs (%.1f MiB, byte-identical to the first: %v)\n",
		best.Second, float64(best.BundleBytes)/(1<<20), best.Identical)
	mem := fmt.Sprintf("peak RSS: export %d MiB", peak.rssKiB>>10)
	if hugoPeak.rssKiB > 0 {
		mem += fmt.Sprintf(", hugo %d MiB", hugoPeak.rssKiB>>10)
	}
	fmt.Println(mem)
	fmt.Printf("progress: %d distinct values seen by a 100 ms poller\n", best.Distinct)
	fmt.Println(searchTiming(root, lastOut))
	line, err = apiCase(self, hugo, root, runs, keep != "")
	if err != nil {
		return err
	}
	fmt.Println(line)
	return nil
}

// apiCase times the export of the API reference alone, 200 endpoint pages
// generated from a spec, against Hugo rendering the same reference
// written as 200 Markdown pages; runs alternate as above.
func apiCase(self, hugo, root string, runs int, keep bool) (string, error) {
	docs, hugoSite, err := generateAPI(root)
	if err != nil {
		return "", fmt.Errorf("generate API site: %w", err)
	}
	var best childResult
	var bestUse, hugoUse usage
	hugoBest := 0.0
	for r := 0; r < runs; r++ {
		out := filepath.Join(root, fmt.Sprintf("api-export-%d", r))
		var res childResult
		use, err := measure(&res, self, childArgs(docs, out)...)
		if err != nil {
			return "", fmt.Errorf("API export run: %w", err)
		}
		if !keep {
			_ = os.RemoveAll(out)
			_ = os.Remove(out + ".tar.gz")
			_ = os.Remove(out + ".tar.gz.2")
		}
		if r == 0 || res.Export+res.Archive < best.Export+best.Archive {
			best, bestUse = res, use
		}
		if hugo == "" {
			continue
		}
		start := time.Now()
		dest := filepath.Join(root, fmt.Sprintf("api-hugo-out-%d", r))
		use, err = measure(nil, hugo, "--quiet", "--source", hugoSite, "--destination", dest)
		if err != nil {
			return "", fmt.Errorf("hugo on the API pages: %w", err)
		}
		if d := time.Since(start).Seconds(); r == 0 || d < hugoBest {
			hugoBest, hugoUse = d, use
		}
		if !keep {
			_ = os.RemoveAll(dest)
		}
	}
	total := best.Export + best.Archive
	line := fmt.Sprintf("API reference alone: %d endpoint pages from a spec in %.2fs (render %.2fs + archive %.2fs)",
		best.Pages, total, best.Export, best.Archive)
	if hugo == "" {
		return line + ", hugo not measured (pass -hugo)", nil
	}
	return line + fmt.Sprintf(", hugo %.2fs on %d Markdown pages, ratio %.2f (goal <= 1.0)\n  cpu time: export %.2fs, hugo %.2fs, ratio %.2f",
		hugoBest, apiPages, total/hugoBest, bestUse.cpu, hugoUse.cpu, bestUse.cpu/hugoUse.cpu), nil
}

// profileDir is where -profile puts the children's CPU profiles.
var profileDir string

// childArgs are the arguments of a child that exports docs into out, with
// a CPU profile named after out when -profile is set.
func childArgs(docs, out string) []string {
	args := []string{"-child", docs, "-out", out}
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
