package icons

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

//go:generate go run gen/main.go

// data holds one gzip'd JSON file per library and the licence of the
// package it was made from (see gen/main.go and README.md).
//
//go:embed data/*.json.gz data/LICENSE-*.txt
var data embed.FS

// libData is one library's decoded data file.
type libData struct {
	Package string            `json:"package"` // npm name@version
	Styles  map[string]*style `json:"styles"`
	Icons   []drawing         `json:"icons"`
}

type style struct {
	// Paint is "fill" or "stroke": how the <svg> element paints its shapes.
	Paint string         `json:"paint"`
	Names map[string]int `json:"names"` // name or alias -> index in Icons
}

type drawing struct {
	Box [4]int     `json:"v"` // viewBox x, y, width, height
	El  [][]string `json:"e"` // [tag, attribute, value, attribute, value, ...]
}

var loaded struct {
	sync.Mutex
	libs map[Library]*libData
}

// load decodes a library's data the first time it is drawn from; an
// export that names no icon never pays for it.
func load(lib Library) (*libData, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if d, ok := loaded.libs[lib]; ok {
		return d, nil
	}
	f, err := data.Open("data/" + string(lib) + ".json.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("icon data of %s: %w", lib, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("icon data of %s: %w", lib, err)
	}
	d := &libData{}
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(d); err != nil {
		return nil, fmt.Errorf("icon data of %s: %w", lib, err)
	}
	if loaded.libs == nil {
		loaded.libs = map[Library]*libData{}
	}
	loaded.libs[lib] = d
	return d, nil
}

// License is the licence of a library's package, for a bundle that draws
// its icons.
type License struct {
	Library Library
	Package string // npm name@version the drawings come from
	Text    []byte
}

func license(lib Library) (License, error) {
	d, err := load(lib)
	if err != nil {
		return License{}, err
	}
	t, err := data.ReadFile("data/LICENSE-" + string(lib) + ".txt")
	return License{Library: lib, Package: d.Package, Text: t}, err
}
