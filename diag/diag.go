// Package diag holds the diagnostics that bundle's packages report to app authors: a place in a
// file (or a manifest field), a message, and a note that says what to do.
//
//	list := diag.List{{File: "index.html", Line: 3, Column: 10, Text: "…", Note: "…"}}
//	fmt.Print(diag.FormatText(list, false))
//
// Libraries build Lists; only cmd/bundle renders them. Three renderings share one List: a human
// one with the source line and a caret (FormatText), one line per message in clang style for CI
// (Message.String), GitHub workflow annotations (FormatGitHub), and JSON through the struct tags.
package diag

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Severity says whether a message refuses the input (Error) or only informs (Warning).
// The zero value is Error.
type Severity int

const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText renders the severity as "error" or "warning" in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Message is one diagnostic. Line and Column are 1-based; Column counts bytes, as go/scanner and
// clang do. A zero Line means the message has no place in a file (Path may still name a manifest
// field). Length is the number of bytes the caret underlines, at least one.
type Message struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Length   int      `json:"length"`
	Path     string   `json:"path,omitempty"`
	Severity Severity `json:"severity"`
	Text     string   `json:"message"`
	Note     string   `json:"note,omitempty"`
	LineText string   `json:"line_text,omitempty"`

	// caret is the byte offset of Column inside LineText, which differs from Column-1 when
	// LineText is a window of a long line.
	caret int
}

// String renders m on one line, clang style: "file:line:col: error: text".
func (m Message) String() string {
	var b strings.Builder
	b.WriteString(m.place())
	fmt.Fprintf(&b, "%s: %s", m.Severity, m.Text)
	return b.String()
}

func (m Message) place() string {
	var b strings.Builder
	if m.File != "" {
		b.WriteString(ShownName(m.File))
		if m.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", m.Line, m.Column)
		}
		b.WriteString(": ")
	}
	if m.Path != "" {
		b.WriteString(OneLine(m.Path))
		b.WriteString(": ")
	}
	return b.String()
}

// ShownName is a file's name as a line of output shows it, where the name is the app
// author's and the line may be read by a program: a control character (a line break) as Go
// quotes it ("\n"), so that the rest of the name is no line of its own, and a relative name
// that starts with ":" (after spaces) after "./", which names the same file. GitHub Actions'
// runner reads every line of a step's output whose text, leading spaces trimmed, starts with
// "::" as a workflow command: a file named "a\n::error file=x::y.js" annotated x, and such
// a line can mask values or stop the runner reading the build's own annotations.
func ShownName(name string) string {
	name = OneLine(name)
	if strings.HasPrefix(strings.TrimLeft(name, " \t"), ":") {
		name = "./" + name
	}
	return name
}

// OneLine writes each control character of s (C0, DEL, C1, and Unicode's line and
// paragraph separators) as Go quotes it: a text of the app's (a page's tool result, a tool's
// message) printed on a line of output stays on that line.
func OneLine(s string) string {
	isControl := func(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 }
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// List is a sortable list of messages. Its Err is nil when it holds no errors.
type List []Message

// Sort orders l by file, line, column, then text, so that output is deterministic.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Text < b.Text
	})
}

// HasErrors reports whether any message in l is an Error.
func (l List) HasErrors() bool {
	for _, m := range l {
		if m.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns l as an error when it holds at least one Error, and nil otherwise.
func (l List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return &ListError{List: l}
}

// ListError carries a List through an error return. Callers unwrap it with errors.As.
type ListError struct{ List List }

// Error lists the first three errors on one line, and how many more there are.
func (e *ListError) Error() string {
	var parts []string
	for _, m := range e.List {
		if m.Severity == Error {
			parts = append(parts, m.String())
		}
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("and %d more", len(parts)-3))
	}
	return strings.Join(parts, "; ")
}

// Lines indexes the line starts of a source, so that placing many messages in one file costs a
// binary search each rather than a scan from the start.
type Lines struct {
	src    []byte
	starts []int
}

// NewLines indexes src. The Lines keeps src; the caller must not modify it.
func NewLines(src []byte) *Lines {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Lines{src: src, starts: starts}
}

// Place sets m.Line, m.Column and m.LineText from a byte offset into src, and clamps Length to the
// line. Offsets outside src are clamped to its ends.
func (m *Message) Place(src []byte, off, length int) {
	m.PlaceIn(NewLines(src), off, length)
}

// PlaceIn is Place over an indexed source.
func (m *Message) PlaceIn(ls *Lines, off, length int) {
	src := ls.src
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	li := sort.SearchInts(ls.starts, off+1) - 1
	start := ls.starts[li]
	end := len(src)
	if li+1 < len(ls.starts) {
		end = ls.starts[li+1] - 1
	}
	m.Line = li + 1
	m.Column = off - start + 1
	line := src[start:end]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	// A minified bundle has one enormous line: keep a window around the column so the caret
	// still points at the right byte.
	const window = 120
	col := off - start
	if len(line) > 2*window {
		lo := col - window/2
		if lo < 0 {
			lo = 0
		}
		hi := lo + window
		if hi > len(line) {
			hi = len(line)
		}
		m.LineText = "…" + string(line[lo:hi]) + "…"
		col = col - lo + len("…")
	} else {
		m.LineText = string(line)
	}
	m.caret = col
	if length < 1 {
		length = 1
	}
	if off+length > end {
		length = max(1, end-off)
	}
	m.Length = length
	if !utf8.ValidString(m.LineText) {
		m.LineText = strings.ToValidUTF8(m.LineText, "\uFFFD")
	}
}
