package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

// runChild exports docs into out, archives it twice and prints a
// childResult. It runs in its own process so that its peak memory is the
// export's alone. A non-empty cpuprofile receives a CPU profile of the
// whole run, and a heap profile near the export's peak beside it
// (.heap). With spool the export goes, as the server's does, into a
// bundle.Spool in out, archived from there, instead of a directory tree.
func runChild(docs, out, cpuprofile string, spool bool) (err error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
	}
	heapFile := ""
	if cpuprofile != "" {
		heapFile = cpuprofile + ".heap"
	}
	stopHeap := watchHeap(heapFile)
	var logged bytes.Buffer
	e := export.New(export.Options{Logger: hclog.New(&hclog.LoggerOptions{Output: &logged, Level: hclog.Debug, JSONFormat: true}),
		Limits: export.Limits{HighlightTime: highlightTime}})
	var limited []string
	var done atomic.Int64
	stop := make(chan struct{})
	distinct := make(chan int)
	go func() {
		// Poll like an API client would, every 100 ms.
		seen, last := 0, int64(-1)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				distinct <- seen
				return
			case <-t.C:
				if v := done.Load(); v != last {
					seen, last = seen+1, v
				}
			}
		}
	}()
	start := time.Now()
	req := export.Request{Source: os.DirFS(docs), Domain: "docs.example.com", Kind: export.KindAirGapped, Warn: func(w export.Warning) {
		if w.Kind == export.WarnLimit {
			limited = append(limited, w.Message)
		}
	}}
	to := export.DirOutput(out)
	archive := archiveTo
	if spool {
		sp, err := bundle.NewSpool(out)
		if err != nil {
			return err
		}
		defer func() { _ = sp.Close() }() // an unlinked scratch file: nothing is lost
		to = sp
		archive = func(_, file string) (time.Duration, [32]byte, int64, error) {
			return archiveWith(file, func(w io.Writer) error { return sp.WriteArchive(context.Background(), w, 0) })
		}
	}
	m, err := e.ExportTo(context.Background(), req, to,
		func(p export.Progress) { done.Store(int64(p.Done)) })
	if err != nil {
		return err
	}
	exported := time.Since(start)
	close(stop)
	res := childResult{Pages: m.PageCount, Export: exported.Seconds(), Distinct: <-distinct, HeapPeakMiB: stopHeap() >> 20, Limited: limited}
	res.Phases = phases(logged.Bytes())

	first := filepath.Join(filepath.Dir(out), filepath.Base(out)+".tar.gz")
	d, sum1, size, err := archive(out, first)
	if err != nil {
		return err
	}
	res.Archive, res.BundleBytes = d.Seconds(), size
	res.CPU = selfCPU()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.AllocMiB, res.GCs = ms.TotalAlloc>>20, ms.NumGC
	d, sum2, _, err := archive(out, first+".2")
	if err != nil {
		return err
	}
	res.Second, res.Identical = d.Seconds(), sum1 == sum2
	return json.NewEncoder(os.Stdout).Encode(res)
}

// selfCPU is the CPU time this process has used so far, user and system,
// in seconds; 0 if the system does not say.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// phases reads the plan, render and finish times of the export from
// the engine's "export done" debug line, to say where the time goes.
func phases(log []byte) string {
	for _, line := range bytes.Split(log, []byte("\n")) {
		var l struct {
			Msg                  string        `json:"@message"`
			Plan, Render, Finish time.Duration // hclog's JSON writes nanoseconds
		}
		if json.Unmarshal(line, &l) == nil && l.Msg == "export done" {
			ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
			return fmt.Sprintf("plan %s, render %s, finish %s", ms(l.Plan), ms(l.Render), ms(l.Finish))
		}
	}
	return "phases not logged"
}

// archiveTo archives the export directory dir into file and returns the
// time it took, the archive's hash and its size.
func archiveTo(dir, file string) (time.Duration, [32]byte, int64, error) {
	return archiveWith(file, func(w io.Writer) error { return bundle.Write(context.Background(), dir, w, 0) })
}

// archiveWith is archiveTo with the archive written by write.
func archiveWith(file string, write func(io.Writer) error) (_ time.Duration, sum [32]byte, _ int64, err error) {
	f, err := os.Create(file)
	if err != nil {
		return 0, sum, 0, err
	}
	// The archive was written through f: a failed Close fails the run.
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	start := time.Now()
	if err := write(f); err != nil {
		return 0, sum, 0, err
	}
	d := time.Since(start)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, sum, 0, err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	copy(sum[:], h.Sum(nil))
	return d, sum, n, err
}

var searchMS = regexp.MustCompile(`data-search-ms="([0-9.]+)"`)

// searchTiming opens a page of the export in headless Chromium with a
// search in its URL and reads back how long the search took in the page.
func searchTiming(root, out string) string {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		return "search: not measured (chromium not installed)"
	}
	page := filepath.Join(out, "tab0", "group0", "page0.html")
	u := (&url.URL{Scheme: "file", Path: page, RawQuery: "q=config+service"}).String()
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(root, "chromium"),
		"--virtual-time-budget=10000", "--dump-dom", u)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		return fmt.Sprintf("search: not measured (chromium: %v)", err)
	}
	m := searchMS.FindSubmatch(stdout.Bytes())
	if m == nil {
		return "search: no result timing in the page"
	}
	return fmt.Sprintf("search: %s ms for a two-word query over the 2000-page index in headless Chromium (goal < 50 ms)", m[1])
}
