package pipeline

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/miniapp/bundle/sourcemap"
)

// compiledCSS is a stylesheet's CSS as its preprocessor compiled it (Sass), with the source
// map Sass gave, and head: the lines and the last line's length of the additionalData written
// before the entry's text, which the map's places in the entry count.
type compiledCSS struct {
	css  string
	m    *sourcemap.Map
	head [2]int
}

// sassHead reads the runner's x_miniapp_head of a Sass source map.
func sassHead(sourceMap string) [2]int {
	var v struct {
		Head [2]int `json:"x_miniapp_head"`
	}
	json.Unmarshal([]byte(sourceMap), &v)
	return v.Head
}

// compiledPlace moves a place esbuild gives in a stylesheet's compiled CSS (a url() that
// leaves the root, in a partial the entry @uses) to the place in the file Sass compiled it
// from, by Sass's source map: the mapping at or before the column, in a file inside the root,
// its line read from the file. false where there is no map, the place is not in the compiled
// text, or the map gives no place.
func (b *bundler) compiledPlace(l *api.Location) (*api.Location, bool) {
	entry := b.editKey(l.File)
	v, ok := b.sassMaps.Load(entry)
	if !ok || l.Line < 1 {
		return nil, false
	}
	c := v.(compiledCSS)
	lines := strings.Split(c.css, "\n")
	if l.Line > len(lines) || strings.TrimRight(lines[l.Line-1], "\r") != l.LineText || l.Column > len(l.LineText) {
		return nil, false
	}
	at16 := len(utf16.Encode([]rune(l.LineText[:l.Column])))
	pos, ok := c.m.Find(l.Line-1, at16)
	if !ok {
		return nil, false
	}
	file := pos.File
	if u, err := url.Parse(file); err == nil && u.Scheme == "file" {
		file = filepath.FromSlash(u.Path)
	}
	if !filepath.IsAbs(file) {
		return nil, false
	}
	line, col16 := pos.Line, pos.Column-1
	if file == entry {
		// The entry's text starts after the additionalData.
		if line -= c.head[0]; line < 1 {
			return nil, false
		}
		if line == 1 {
			col16 -= c.head[1]
		}
	}
	text := lineIn(file, line, b.readRoot) // "" outside the root: no place there
	if text == "" || col16 < 0 {
		return nil, false
	}
	col := bytesOf(text, col16)
	// Sass maps a declaration's start: where the compiled text from the mapping to the place
	// (a url() in its value) is the source's too, the place is as far on in the source.
	if start16, ok := c.m.Start(l.Line-1, at16); ok {
		if from := bytesOf(l.LineText, start16); from <= l.Column {
			if between := l.LineText[from:l.Column]; strings.HasPrefix(text[col:], between) {
				col += len(between)
			}
		}
	}
	return &api.Location{File: file, Line: line, Column: col, LineText: text, Suggestion: l.Suggestion}, true
}

// bytesOf is the byte offset in text of the column col16 in UTF-16 code units (a source map's
// unit; a diagnostic's column counts bytes).
func bytesOf(text string, col16 int) int {
	col := 0
	for n := 0; col < len(text) && n < col16; {
		r, size := utf8.DecodeRuneInString(text[col:])
		n += utf16.RuneLen(r)
		col += size
	}
	return col
}
