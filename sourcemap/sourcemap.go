// Package sourcemap turns a position in a built page, where a browser reports a run-time
// error, into the place in the author's file it came from, through the source map of the
// page's script (version 3, as esbuild writes it).
//
//	p := sourcemap.NewPage(page, mapJSON, "dist")
//	pos, ok := p.Locate(17, 1559) // as Chromium reports it: 1-based, in the page
//	// pos.File "src/App.tsx", pos.Line 12, pos.Column 5, pos.LineText "…"
//
// A page's columns are counted in UTF-16 code units, as browsers report them and source maps
// hold them; a source's in bytes, as bundle's diagnostics count them. A Map and a Page are safe for concurrent use once made.
package sourcemap

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
)

// Map is a decoded source map.
type Map struct {
	sources  []string
	contents []*string
	lines    [][]segment // by generated line, each sorted by column
}

// segment maps a generated column to a place in a source; src is -1 for a column mapped to
// no source.
type segment struct{ col, src, line, scol int }

// Position is a place in an author's file.
type Position struct {
	// File is the source's path as the map names it, joined to the Page's base.
	File string `json:"file"`
	// Line and Column are 1-based; Column counts the bytes of the line (UTF-8), as bundle's
	// other diagnostics, esbuild's and Go's do, when the map holds the source's text, and
	// UTF-16 code units (the map's own unit) when it does not.
	Line   int `json:"line"`
	Column int `json:"column"`
	// LineText is the source line, when the map holds the source's text.
	LineText string `json:"lineText,omitempty"`
}

// String gives the position as file:line:col.
func (p Position) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column) }

// Parse decodes a version 3 source map.
func Parse(data []byte) (*Map, error) {
	var raw struct {
		Version        int       `json:"version"`
		SourceRoot     string    `json:"sourceRoot"`
		Sources        []string  `json:"sources"`
		SourcesContent []*string `json:"sourcesContent"`
		Mappings       string    `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("read source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("read source map: version %d, not 3", raw.Version)
	}
	m := &Map{sources: raw.Sources, contents: raw.SourcesContent}
	for i, s := range m.sources {
		if raw.SourceRoot != "" {
			s = path.Join(raw.SourceRoot, s)
		}
		// A source is a URL: the file it names is its path, escapes decoded ("%C3%BC" is ü).
		if p, ok := Path(s); ok {
			s = p
		}
		m.sources[i] = s
	}
	var line []segment
	var col, src, sline, scol int
	s := raw.Mappings
	for i := 0; i < len(s); {
		switch s[i] {
		case ';':
			m.lines = append(m.lines, line)
			line, col = nil, 0
			i++
			continue
		case ',':
			i++
			continue
		}
		var f [5]int
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			v, next, err := vlq(s, i)
			if err != nil {
				return nil, fmt.Errorf("read source map: %w", err)
			}
			if n < 5 {
				f[n] = v
			}
			n++
			i = next
		}
		col += f[0]
		seg := segment{col: col, src: -1}
		if n >= 4 {
			src += f[1]
			sline += f[2]
			scol += f[3]
			if src < 0 || src >= len(m.sources) || sline < 0 || scol < 0 {
				return nil, errors.New("read source map: a mapping outside its sources")
			}
			seg = segment{col: col, src: src, line: sline, scol: scol}
		}
		line = append(line, seg)
	}
	m.lines = append(m.lines, line)
	for _, l := range m.lines {
		sort.SliceStable(l, func(a, b int) bool { return l[a].col < l[b].col })
	}
	return m, nil
}

const base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlq decodes the Base64 VLQ at s[i:], returning its value and the index after it.
func vlq(s string, i int) (int, int, error) {
	v, shift := 0, 0
	for {
		if i >= len(s) {
			return 0, i, errors.New("a mapping ends inside a number")
		}
		d := strings.IndexByte(base64, s[i])
		if d < 0 {
			return 0, i, fmt.Errorf("%q is not Base64", s[i])
		}
		i++
		if shift > 30 {
			return 0, i, errors.New("a number too large")
		}
		v |= (d & 31) << shift
		shift += 5
		if d&32 == 0 {
			break
		}
	}
	if v&1 != 0 {
		return -(v >> 1), i, nil
	}
	return v >> 1, i, nil
}

// Find returns the source place of the generated position line:col (0-based; col in UTF-16
// code units): that of the mapping at or before col on the line.
func (m *Map) Find(line, col int) (Position, bool) {
	p, scol, ok := m.find(line, col)
	if ok && p.LineText != "" {
		p.Column = advance(p.LineText, 0, scol) + 1
	}
	return p, ok
}

// Start returns the generated column (0-based, UTF-16 code units) of the mapping Find uses
// for line:col: where the generated text that maps to the place Find gives starts.
func (m *Map) Start(line, col int) (int, bool) {
	if line < 0 || line >= len(m.lines) {
		return 0, false
	}
	l := m.lines[line]
	i := sort.Search(len(l), func(i int) bool { return l[i].col > col }) - 1
	if i < 0 || l[i].src < 0 {
		return 0, false
	}
	return l[i].col, true
}

// find is Find with the column in UTF-16 code units (0-based) beside the Position, whose
// Column is that plus one.
func (m *Map) find(line, col int) (Position, int, bool) {
	if line < 0 || line >= len(m.lines) {
		return Position{}, 0, false
	}
	l := m.lines[line]
	i := sort.Search(len(l), func(i int) bool { return l[i].col > col }) - 1
	if i < 0 || l[i].src < 0 {
		return Position{}, 0, false
	}
	seg := l[i]
	p := Position{File: m.sources[seg.src], Line: seg.line + 1, Column: seg.scol + 1}
	if seg.src < len(m.contents) && m.contents[seg.src] != nil {
		lines := strings.Split(*m.contents[seg.src], "\n")
		if seg.line < len(lines) {
			p.LineText = strings.TrimRight(lines[seg.line], "\r")
		}
	}
	return p, seg.scol, true
}

// Page is a built page and the source map of its first module script. It reads them at its
// first use (Locate or Err): a build keeps one at every rebuild of bundle dev, where an error
// is rare.
type Page struct {
	page, raw []byte
	base      string
	// namesFrom, when set, is the folder a source's absolute path is named from (NamedFrom).
	namesFrom string

	once       sync.Once
	err        error
	m          *Map
	src        string // the page as the parser read it
	start, end int    // the script's text in src
	lineStarts []int

	// root, when set, is the folder whose files a source's line may be read from (Within).
	root string

	mu    sync.Mutex
	files map[string][]string // sources read from disk, for a map without their texts
}

// NewPage returns the page and the map mapJSON of its first module script with text (the
// script a build's map is of), whose sources are relative to the folder base (joined to
// them; "" leaves them as they are). It keeps page and mapJSON, which must not change, and
// reads them when first used.
func NewPage(page, mapJSON []byte, base string) *Page {
	return &Page{page: page, raw: mapJSON, base: base}
}

// NamedFrom makes the positions p gives, whose paths are absolute (an absolute base: a map
// written into a temporary folder, which names the app's files from there), relative to
// the folder dir, as a build names them from its working folder; a path that cannot be
// made relative stays absolute. It returns p, and is called before p is used.
func (p *Page) NamedFrom(dir string) *Page {
	p.namesFrom = dir
	return p
}

// Within lets p read a source's line from its file, for a map that does not hold the
// source's text (a map a build keeps in memory), where the file, its symbolic links
// followed, is inside root (absolute and real: a build's root): a map names its sources as
// it likes, and a file outside is never read, so that no line of it is shown and what p
// gives is the same whether it is there or not. Without it, p reads no file. It returns p,
// and is called before p is used.
func (p *Page) Within(root string) *Page {
	p.root = root
	return p
}

// Err reads the page and the map, and says why they cannot be used: a map that does not
// decode, a page without a module script.
func (p *Page) Err() error {
	p.once.Do(p.read)
	return p.err
}

func (p *Page) read() {
	if p.m, p.err = Parse(p.raw); p.err != nil {
		return
	}
	doc := markup.Parse(p.page, markup.Options{})
	p.src, p.start = doc.Src, -1
	for _, n := range doc.Nodes {
		if !n.Is(markup.HTML, "script") {
			continue
		}
		typ, hasType := n.AttrValue("type")
		lang, hasLang := n.AttrValue("language")
		if k, _ := offline.KindOfScript(typ, hasType, lang, hasLang); k != offline.ScriptModule {
			continue
		}
		if _, hasSrc := n.AttrValue("src"); hasSrc || n.FirstChild == nil || len(n.FirstChild.Raw) == 0 {
			continue
		}
		p.start, p.end = n.FirstChild.Raw[0].Start, n.FirstChild.Raw[len(n.FirstChild.Raw)-1].End
		break
	}
	if p.start < 0 {
		p.err = errors.New("the page has no module script with text, which the source map would be of")
		return
	}
	p.lineStarts = []int{0}
	for i := 0; i < len(p.src); i++ {
		if p.src[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
}

// Locate returns the author's place of the position line:col in the page (1-based, column
// in UTF-16 code units, as Chromium reports an error in an inline script); ok is false for
// a position outside the mapped script or that the map does not cover. Where the map holds
// no text of the source, its line is read from the file (File, as named from the current
// folder).
func (p *Page) Locate(line, col int) (Position, bool) {
	if p == nil || p.Err() != nil || line < 1 || line > len(p.lineStarts) || col < 1 {
		return Position{}, false
	}
	off := advance(p.src, p.lineStarts[line-1], col-1)
	if off < p.start || off >= p.end {
		return Position{}, false
	}
	text := p.src[p.start:off]
	gline := strings.Count(text, "\n")
	lineStart := strings.LastIndexByte(text, '\n') + 1
	gcol := units(text[lineStart:])
	// The build wrote each "<" that would have ended the script (pipeline's escapeScript) as
	// \x3C, or as ${"\x3C"} in a template literal: the map counts one unit where the page
	// has four or nine. (Between tokens esbuild itself writes "< /script", in its map; the
	// build's own "< " there, after a "<!--" in code, is not counted.)
	written := text[lineStart:]
	for i := 0; i < len(written); i++ {
		var n int
		switch {
		case strings.HasPrefix(written[i:], `${"\x3C"}`):
			n = 9
		case strings.HasPrefix(written[i:], `\x3C`):
			n = 4
		default:
			continue
		}
		at := p.start + lineStart + i + n
		if rest := p.src[at:min(len(p.src), at+16)]; breaksScript(rest, "/script") || breaksScript(rest, "script") {
			gcol -= n - 1
			i += n - 1
		}
	}
	pos, scol, ok := p.m.find(gline, gcol)
	if !ok {
		return Position{}, false
	}
	if p.base != "" {
		pos.File = path.Join(p.base, pos.File)
	}
	if p.namesFrom != "" && path.IsAbs(pos.File) {
		if rel, err := filepath.Rel(p.namesFrom, filepath.FromSlash(pos.File)); err == nil {
			pos.File = filepath.ToSlash(rel)
		}
	}
	if pos.LineText == "" {
		if lines := p.source(pos.File); pos.Line <= len(lines) {
			pos.LineText = lines[pos.Line-1]
		}
	}
	if pos.LineText != "" {
		pos.Column = advance(pos.LineText, 0, scol) + 1
	}
	return pos, true
}

// source returns the lines of the file at name, read once; none when it cannot be read or
// is not inside p's root (Within).
func (p *Page) source(name string) []string {
	if p.root == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.files[name]; ok {
		return l
	}
	var lines []string
	if real, err := rootpath.Resolve(filepath.FromSlash(name), p.root); err == nil {
		if b, err := os.ReadFile(real); err == nil {
			lines = strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
		}
	}
	if p.files == nil {
		p.files = map[string][]string{}
	}
	p.files[name] = lines
	return lines
}

// advance returns the offset n UTF-16 code units past off in s, stopping at the line's end.
func advance(s string, off, n int) int {
	for n > 0 && off < len(s) && s[off] != '\n' {
		r, size := utf8.DecodeRuneInString(s[off:])
		off += size
		n--
		if r >= 0x10000 {
			n--
		}
	}
	return off
}

// units returns the length of s in UTF-16 code units.
func units(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// breaksScript reports whether s begins with name in any ASCII case followed by what ends a
// tag name in a script's text (whitespace, "/" or ">"): what pipeline's escapeScript escapes
// the "<" before.
func breaksScript(s, name string) bool {
	if len(s) <= len(name) || !markup.HasPrefixFold(s, name) {
		return false
	}
	c := s[len(name)]
	return markup.IsSpace(c) || c == '/' || c == '>'
}
