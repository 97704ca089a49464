package diag

import (
	"strings"
	"testing"
)

func TestPlace(t *testing.T) {
	src := []byte("ab\r\ncd\nxyz")
	rows := []struct {
		off, line, col int
		text           string
	}{
		{0, 1, 1, "ab"}, {1, 1, 2, "ab"}, {4, 2, 1, "cd"}, {8, 3, 2, "xyz"}, {99, 3, 4, "xyz"}, {-5, 1, 1, "ab"},
	}
	for _, r := range rows {
		var m Message
		m.Place(src, r.off, 1)
		if m.Line != r.line || m.Column != r.col || m.LineText != r.text {
			t.Errorf("offset %d: %d:%d %q, want %d:%d %q", r.off, m.Line, m.Column, m.LineText, r.line, r.col, r.text)
		}
	}
}

// TestCaretInLongLine checks that in a minified one-line file the shown window keeps the caret
// under the right byte.
func TestCaretInLongLine(t *testing.T) {
	src := []byte(strings.Repeat("a", 5000) + "<img src=X>" + strings.Repeat("b", 5000))
	m := Message{File: "f.html", Text: "t"}
	m.Place(src, 5009, 1)
	if m.Column != 5010 {
		t.Fatalf("column %d", m.Column)
	}
	out := FormatText(List{m}, false)
	lines := strings.Split(out, "\n")
	src1, caret := lines[1], lines[2]
	i := strings.Index(src1, "X")
	j := strings.Index(caret, "^")
	// The source line and caret line share their prefix width ("    1 │ " and "      ╵ ").
	if len([]rune(src1[:i])) != len([]rune(caret[:j])) {
		t.Errorf("the caret is not under X:\n%s\n%s", src1, caret)
	}
}

func TestFormats(t *testing.T) {
	l := List{{File: "a,b.html", Line: 2, Column: 3, Length: 4, Text: "bad: 100%\nthing", Note: "fix it"}, {Path: "maxKB", File: "m.toml", Text: "over"}}
	gh := FormatGitHub(l)
	if !strings.Contains(gh, "::error file=a%2Cb.html,line=2,endLine=2,col=3,endColumn=6::bad: 100%25%0Athing%0Afix it") || !strings.Contains(gh, "::error file=m.toml::maxKB: over") {
		t.Errorf("github:\n%s", gh)
	}
	if s := l[0].String(); s != "a,b.html:2:3: error: bad: 100%\nthing" {
		t.Errorf("String: %q", s)
	}
	if s := l[1].String(); s != "m.toml: maxKB: error: over" {
		t.Errorf("String: %q", s)
	}
	if (List{{Severity: Warning}}).Err() != nil || l.Err() == nil {
		t.Error("Err: warnings alone are not an error; errors are")
	}
	if c := FormatText(l, true); !strings.Contains(c, "\x1b[31merror") {
		t.Errorf("colour: %q", c)
	}
	if c := FormatText(l, false); strings.Contains(c, "\x1b") {
		t.Errorf("no colour: %q", c)
	}
}

// TestFormatsStartNoCommand: a file's name is the app author's, and may hold a line break or
// start with "::": printed as it was, at the start of a line, its rest was a line of its own
// that GitHub Actions' runner reads as a workflow command (the runner reads every line of a
// step's output whose text, leading spaces trimmed, starts with "::"), in the text format that
// CI runs by default ("app/a\n::error file=evil::x.js:1:8: warning: …" annotated evil). The
// place shows a control character as Go quotes it, and a relative name that starts with ":"
// after "./", which names the same file.
func TestFormatsStartNoCommand(t *testing.T) {
	for _, row := range []struct {
		name string
		m    Message
		want string // the place as shown
	}{
		{"line_break", Message{File: "app/a\n::error file=evil::x.js", Line: 1, Column: 8, Text: "t"}, `app/a\n::error file=evil::x.js:1:8: `},
		{"carriage_return", Message{File: "app/a\r::error::x.js", Text: "t"}, `app/a\r::error::x.js: `},
		{"leading_colons", Message{File: "::error file=evil::x.js", Line: 1, Column: 1, Text: "t"}, "./::error file=evil::x.js:1:1: "},
		{"leading_space_colons", Message{File: " ::error::x.js", Text: "t"}, "./ ::error::x.js: "},
		{"path_line_break", Message{File: "m.toml", Path: "a\n::error::b", Text: "t"}, `m.toml: a\n::error::b: `},
		{"plain", Message{File: "app/a.js", Line: 2, Column: 3, Text: "t"}, "app/a.js:2:3: "},
	} {
		t.Run(row.name, func(t *testing.T) {
			for _, out := range []string{FormatText(List{row.m}, false), FormatLines(List{row.m}), row.m.String()} {
				if !strings.HasPrefix(out, row.want) {
					t.Errorf("shown %q, want it to start %q", out, row.want)
				}
				for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
					if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
						t.Errorf("a line is a workflow command: %q in %q", line, out)
					}
				}
			}
		})
	}
}

// TestFormatTextOneLineEach: the text and the note of a message, which quote paths and tools'
// messages (the app author's), are one line each in the text format: "no such file in
// app/z\n::error file=evil::refused" put the command on a line of its own.
func TestFormatTextOneLineEach(t *testing.T) {
	m := Message{File: "a.js", Line: 1, Column: 1, LineText: "x", Text: "no such file in z\n::error file=evil::refused", Note: "see y\r\n  ::add-mask::v"}
	out := FormatText(List{m}, false)
	if !strings.Contains(out, `no such file in z\n::error file=evil::refused`) || !strings.Contains(out, `see y\r\n  ::add-mask::v`) {
		t.Errorf("the line breaks are not shown quoted:\n%s", out)
	}
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("a line is a workflow command: %q in %q", line, out)
		}
	}
}
