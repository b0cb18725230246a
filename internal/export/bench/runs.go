package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// allCases are the cases of -cases, in the order they run.
var allCases = []string{"site", "api", "api1000", "rich", "incr", "shape"}

// parseCases reads -cases: names from allCases, comma-separated.
func parseCases(list string) (map[string]bool, error) {
	cs := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(allCases, f) {
			return nil, fmt.Errorf("-cases: unknown case %q (want some of %s)", f, strings.Join(allCases, ", "))
		}
		cs[f] = true
	}
	return cs, nil
}

// exportRuns collects the runs of one export case. The median run is
// the one reported: one lucky run on a quiet moment says little about a
// margin, and one unlucky run on a loaded machine says as little.
type exportRuns struct {
	res []childResult
	use []usage
}

// run exports docs into out in a child process and records the run.
func (e *exportRuns) run(self, docs, out string) error {
	var res childResult
	use, err := measure(&res, self, childArgs(docs, out)...)
	if err != nil {
		return err
	}
	e.res, e.use = append(e.res, res), append(e.use, use)
	return nil
}

// totals are the runs' wall times, render and archive, in run order.
func (e *exportRuns) totals() []float64 {
	ts := make([]float64, len(e.res))
	for i, r := range e.res {
		ts[i] = r.Export + r.Archive
	}
	return ts
}

// median returns the run of median wall time, and the median CPU time
// of all runs in its usage (CPU and wall time need not come from the
// same run).
func (e *exportRuns) median() (childResult, usage) {
	i := medianIndex(e.totals())
	use := e.use[i]
	cpus := make([]float64, len(e.use))
	for k, u := range e.use {
		cpus[k] = u.cpu
	}
	use.cpu = cpus[medianIndex(cpus)]
	return e.res[i], use
}

// medianCPU is the median of the runs' CPU time up to the end of the
// first archive (childResult.CPU).
func (e *exportRuns) medianCPU() float64 {
	cpus := make([]float64, len(e.res))
	for k, r := range e.res {
		cpus[k] = r.CPU
	}
	return cpus[medianIndex(cpus)]
}

// spread is the fastest and slowest run, to show how far to trust the median.
func (e *exportRuns) spread() string { return spread(e.totals()) }

// peakRSS is the largest resident set of any run.
func (e *exportRuns) peakRSS() int64 {
	var p int64
	for _, u := range e.use {
		p = max(p, u.rssKiB)
	}
	return p
}

// hugoRuns collects the runs of Hugo on one site.
type hugoRuns struct {
	secs []float64
	use  []usage
}

// run builds site into dest with Hugo and records the run; dest is
// removed afterwards unless keep.
func (h *hugoRuns) run(hugo, site, dest string, keep bool) error {
	start := time.Now()
	use, err := measure(nil, hugo, "--quiet", "--source", site, "--destination", dest)
	if err != nil {
		return err
	}
	h.secs, h.use = append(h.secs, time.Since(start).Seconds()), append(h.use, use)
	if !keep {
		_ = os.RemoveAll(dest)
	}
	return nil
}

// median returns Hugo's median wall time, and the median CPU time.
func (h *hugoRuns) median() (float64, usage) {
	cpus := make([]float64, len(h.use))
	for k, u := range h.use {
		cpus[k] = u.cpu
	}
	use := h.use[medianIndex(h.secs)]
	use.cpu = cpus[medianIndex(cpus)]
	return h.secs[medianIndex(h.secs)], use
}

func (h *hugoRuns) spread() string { return spread(h.secs) }

func (h *hugoRuns) peakRSS() int64 {
	var p int64
	for _, u := range h.use {
		p = max(p, u.rssKiB)
	}
	return p
}

// medianIndex is the index of the median of vs; of an even count, the
// lower of the two middle values (so two runs report the faster).
func medianIndex(vs []float64) int {
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case vs[a] < vs[b]:
			return -1
		case vs[a] > vs[b]:
			return 1
		}
		return 0
	})
	return idx[(len(idx)-1)/2]
}

// spread formats the smallest and largest of vs in seconds.
func spread(vs []float64) string {
	if len(vs) == 0 {
		return "none"
	}
	return fmt.Sprintf("%.2f-%.2fs", slices.Min(vs), slices.Max(vs))
}

// goalAtMost says, beside a figure, the goal it must stay under and
// whether it does.
func goalAtMost(v, limit float64) string {
	return goalNote(v <= limit, fmt.Sprintf("<= %g", limit))
}

// goalAtLeast is goalAtMost for a figure that must reach limit.
func goalAtLeast(v, limit float64) string {
	return goalNote(v >= limit, fmt.Sprintf(">= %g", limit))
}

func goalNote(met bool, goal string) string {
	if met {
		return "(goal " + goal + ": met)"
	}
	return "(goal " + goal + ": NOT met)"
}
