package apiconfig

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// ExportLimits is the `limits:` section of the configuration: what one
// export may read from its docs source. An absent or zero field keeps the
// engine's default (source.DefaultLimits).
type ExportLimits struct {
	MaxPageBytes  ByteSize `yaml:"maxPageBytes"`
	MaxAssetBytes ByteSize `yaml:"maxAssetBytes"`
	MaxFiles      int      `yaml:"maxFiles"`
	MaxTotalBytes ByteSize `yaml:"maxTotalBytes"`
	// ComponentTime bounds how long the custom components of one page may
	// run; ComponentMemory bounds each process that runs them.
	ComponentTime   Duration `yaml:"componentTime"`
	ComponentMemory ByteSize `yaml:"componentMemory"`
	// HighlightTime bounds an export's syntax highlighting, summed over
	// its code blocks and counted as work (export.Limits).
	HighlightTime Duration `yaml:"highlightTime"`
	// The config bounds hold docs.json with every $ref written out:
	// its bytes, its JSON values and how deeply it nests.
	MaxConfigBytes  ByteSize `yaml:"maxConfigBytes"`
	MaxConfigValues int64    `yaml:"maxConfigValues"`
	MaxConfigDepth  int      `yaml:"maxConfigDepth"`
}

// ByteSize is a size in bytes, written in YAML as a plain number of bytes
// or with a unit: "512KiB", "4MiB", "2GiB" (powers of 1024) or "4MB"
// (powers of 1000).
type ByteSize int64

var byteUnits = []struct {
	suffix string
	factor int64
}{ // longest suffixes first, so "MiB" is not read as "B"
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1},
}

// UnmarshalYAML parses a number of bytes or a number with a unit.
func (b *ByteSize) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: size must be a number of bytes or a string such as \"4MiB\"", n.Line)
	}
	v, err := parseByteSize(s)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*b = ByteSize(v)
	return nil
}

func parseByteSize(s string) (int64, error) {
	num, factor := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, factor = strings.TrimSpace(rest), u.factor
			break
		}
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a whole number of bytes, optionally with a unit (KiB, MiB, GiB, TiB, kB, MB, GB, TB)", s)
	}
	if v > math.MaxInt64/factor {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return v * factor, nil
}

// check rejects limits that contradict each other: a bound on one file
// larger than the bound on all files could never be reached, which is
// almost certainly a unit mistake.
func (l *ExportLimits) check() error {
	if l.MaxFiles < 0 {
		return fmt.Errorf("limits: maxFiles must not be negative")
	}
	if l.MaxConfigValues < 0 || l.MaxConfigDepth < 0 {
		return fmt.Errorf("limits: maxConfigValues and maxConfigDepth must not be negative")
	}
	if l.ComponentTime < 0 || l.HighlightTime < 0 {
		return fmt.Errorf("limits: componentTime and highlightTime must not be negative")
	}
	if l.ComponentMemory != 0 && l.ComponentMemory < minComponentMemory {
		return fmt.Errorf("limits: componentMemory must be at least %d MiB (the evaluator's own runtime needs it)", minComponentMemory>>20)
	}
	eff := l.Export().WithDefaults()
	if eff.MaxPageBytes > eff.MaxTotalBytes || eff.MaxAssetBytes > eff.MaxTotalBytes {
		return fmt.Errorf("limits: maxPageBytes (%d) and maxAssetBytes (%d) must not exceed maxTotalBytes (%d)",
			eff.MaxPageBytes, eff.MaxAssetBytes, eff.MaxTotalBytes)
	}
	return nil
}

// Export converts the section for the export engine; zero fields stay zero,
// which the engine reads as its default.
func (l ExportLimits) Export() source.Limits {
	lim := source.Limits{
		MaxPageBytes:    int64(l.MaxPageBytes),
		MaxAssetBytes:   int64(l.MaxAssetBytes),
		MaxFiles:        l.MaxFiles,
		MaxTotalBytes:   int64(l.MaxTotalBytes),
		ComponentTime:   time.Duration(l.ComponentTime),
		ComponentMemory: int64(l.ComponentMemory),
		HighlightTime:   time.Duration(l.HighlightTime),
	}
	lim.Config.MaxBytes, lim.Config.MaxValues, lim.Config.MaxDepth = int64(l.MaxConfigBytes), l.MaxConfigValues, l.MaxConfigDepth
	return lim
}

// minComponentMemory is the least memory bound an evaluator process
// starts with: below it the Go runtime alone fails.
const minComponentMemory = 64 << 20
