package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// FormatText renders l for a person, as esbuild does: the one-line summary, the source line with
// a caret under the place, and the note. With color it uses ANSI escapes; cmd/bundle passes
// color only on a terminal without NO_COLOR.
func FormatText(l List, color bool) string {
	var b strings.Builder
	bold, red, yellow, green, reset := "", "", "", "", ""
	if color {
		bold, red, yellow, green, reset = "\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[0m"
	}
	for _, m := range l {
		sev := red + "error" + reset
		if m.Severity == Warning {
			sev = yellow + "warning" + reset
		}
		// The text and the note are one line each: a line break in them (a path or a tool's
		// message, the app author's) is shown as Go quotes it, so that no line of the output
		// starts with what they hold (ShownName).
		fmt.Fprintf(&b, "%s%s%s%s: %s%s\n", bold, m.place(), reset, sev, bold, OneLine(m.Text)+reset)
		if m.Line > 0 && m.LineText != "" {
			caret := m.caret
			if caret == 0 && m.Column > 1 {
				caret = m.Column - 1
			}
			if caret > len(m.LineText) {
				caret = len(m.LineText)
			}
			num := fmt.Sprint(m.Line)
			lineText := strings.ReplaceAll(m.LineText, "\t", " ")
			fmt.Fprintf(&b, "    %s │ %s\n", num, lineText)
			pad := utf8.RuneCountInString(lineText[:caret])
			n := m.Length
			if rest := len(lineText) - caret; n > rest {
				n = rest
			}
			under := "^"
			if n > 1 {
				under = strings.Repeat("~", utf8.RuneCountInString(lineText[caret:caret+n]))
			}
			fmt.Fprintf(&b, "    %s ╵ %s%s%s%s\n", strings.Repeat(" ", len(num)), strings.Repeat(" ", pad), green, under, reset)
		}
		if m.Note != "" {
			fmt.Fprintf(&b, "  %s\n", OneLine(m.Note))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatLines renders l one message per line, clang style.
func FormatLines(l List) string {
	var b strings.Builder
	for _, m := range l {
		b.WriteString(m.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatGitHub renders l as GitHub Actions workflow commands (::error file=…,line=…,col=…::…),
// so that each message shows as an annotation on the line it names.
func FormatGitHub(l List) string {
	var b strings.Builder
	for _, m := range l {
		b.WriteString("::")
		b.WriteString(m.Severity.String())
		var props []string
		if m.File != "" {
			props = append(props, "file="+ghProp(m.File))
		}
		if m.Line > 0 {
			// The underlined span ends on the same line (Length is clamped to it).
			props = append(props, fmt.Sprintf("line=%d", m.Line), fmt.Sprintf("endLine=%d", m.Line), fmt.Sprintf("col=%d", m.Column),
				fmt.Sprintf("endColumn=%d", m.Column+max(m.Length, 1)-1))
		}
		if len(props) > 0 {
			b.WriteString(" " + strings.Join(props, ","))
		}
		text := m.Text
		if m.Path != "" {
			text = m.Path + ": " + text
		}
		if m.Note != "" {
			text += "\n" + m.Note
		}
		b.WriteString("::" + ghData(text) + "\n")
	}
	return b.String()
}

// ghData escapes a workflow command's message as the runner expects.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command's property value.
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
