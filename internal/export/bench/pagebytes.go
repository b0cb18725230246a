package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// pageBytes is what the HTML pages of one export weigh: issue 25's
// endpoint-heavy case was slow mostly because each page carried the
// whole sidebar, so the report shows the bytes beside the speed.
type pageBytes struct {
	pages          int
	total, largest int64
}

// measurePages sums the .html files under dir.
func measurePages(dir string) (pageBytes, error) {
	var s pageBytes
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		s.pages++
		s.total += fi.Size()
		s.largest = max(s.largest, fi.Size())
		return nil
	})
	return s, err
}

// String is the mean and largest page, in KB.
func (s pageBytes) String() string {
	if s.pages == 0 {
		return "no pages"
	}
	return fmt.Sprintf("HTML %.1f KB/page (largest %.1f KB, %.1f MB in all)",
		float64(s.total)/float64(s.pages)/1e3, float64(s.largest)/1e3, float64(s.total)/1e6)
}
