package markup

// The readers of raw attribute bytes, srcset and script text that the offline check and the
// assembler share.

import (
	"bytes"
	"strings"
)

// RawAttr is where one attribute's value sits inside a raw start tag.
type RawAttr struct {
	Name           string
	ValOff, ValLen int // valOff points at the attribute name when it has no value
}

// ScanAttrs scans a raw start tag as the HTML tokenizer does (HTML Standard §13.2.5.32–39)
// and calls fn for each attribute, duplicates included, with the span of its name as written
// and of its value without quotes (the name's span again when it has no value). It allocates
// nothing.
func ScanAttrs(raw []byte, fn func(nameOff, nameEnd, valOff, valLen int)) {
	i := 1 // past '<'
	for i < len(raw) && !IsSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	for i < len(raw) {
		for i < len(raw) && (IsSpace(raw[i]) || raw[i] == '/') {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			return
		}
		ns := i
		i++ // the first character may be '='
		for i < len(raw) && !IsSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' && raw[i] != '=' {
			i++
		}
		ne := i
		for i < len(raw) && IsSpace(raw[i]) {
			i++
		}
		if i >= len(raw) || raw[i] != '=' {
			fn(ns, ne, ns, ne-ns)
			continue
		}
		i++
		for i < len(raw) && IsSpace(raw[i]) {
			i++
		}
		if i < len(raw) && (raw[i] == '"' || raw[i] == '\'') {
			q := raw[i]
			i++
			vs := i
			for i < len(raw) && raw[i] != q {
				i++
			}
			fn(ns, ne, vs, i-vs)
			i++
			continue
		}
		vs := i
		for i < len(raw) && !IsSpace(raw[i]) && raw[i] != '>' {
			i++
		}
		fn(ns, ne, vs, i-vs)
	}
}

// RawAttrs returns each attribute of a raw start tag (ScanAttrs) with its lower-cased name
// and the offset and length of its value without quotes.
func RawAttrs(raw []byte) []RawAttr {
	var out []RawAttr
	ScanAttrs(raw, func(ns, ne, vo, vl int) {
		out = append(out, RawAttr{Name: string(bytes.ToLower(raw[ns:ne])), ValOff: vo, ValLen: vl})
	})
	return out
}

// Span is a substring and its byte offset in the string it came from.
type Span struct {
	Off  int
	Text string
}

// Srcset splits a srcset or imagesrcset value into its candidates' URLs as the HTML
// Standard's "parse a srcset attribute" does, returning each URL with its byte offset in s.
func Srcset(s string) []Span {
	var out []Span
	i := 0
	for i < len(s) {
		for i < len(s) && (IsSpace(s[i]) || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			break
		}
		start := i
		for i < len(s) && !IsSpace(s[i]) {
			i++
		}
		u := s[start:i]
		if strings.HasSuffix(u, ",") {
			u = strings.TrimRight(u, ",")
			if u != "" {
				out = append(out, Span{Off: start, Text: u})
			}
			continue
		}
		out = append(out, Span{Off: start, Text: u})
		// Descriptors run to the next comma outside parentheses, which do not nest: in the
		// "in parens" state a '(' is a character and the first ')' ends it.
		inParens := false
		for i < len(s) {
			c := s[i]
			if c == '(' {
				inParens = true
			} else if c == ')' {
				inParens = false
			} else if c == ',' && !inParens {
				i++
				break
			}
			i++
		}
	}
	return out
}

// IndexFold returns the offset of the first instance of sub in s in any ASCII case, or -1,
// without copying s. sub is lower-case ASCII and holds a byte that is not a letter, which
// anchors the search.
func IndexFold(s, sub string) int {
	p := strings.IndexFunc(sub, func(r rune) bool { return r < 'a' || r > 'z' })
	for i := p; i < len(s); {
		j := strings.IndexByte(s[i:], sub[p])
		if j < 0 {
			return -1
		}
		if start := i + j - p; start+len(sub) <= len(s) && HasPrefixFold(s[start:], sub) {
			return start
		}
		i += j + 1
	}
	return -1
}

// HasPrefixFold reports whether s begins with prefix (lower-case ASCII) in any ASCII case.
func HasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// BreaksScript reports whether s begins with what changes how the text of a script element
// is read (the script data states, HTML Standard §13.2.5.4-5): "<!--", or "<script" or
// "</script" in any case. A text without them ends at the first "</script" after it.
func BreaksScript(s string) bool {
	return strings.HasPrefix(s, "<!--") || HasPrefixFold(s, "<script") || HasPrefixFold(s, "</script")
}

// IsSpace reports whether c is ASCII whitespace as the HTML Standard has it (space, tab, LF,
// FF, CR).
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
