// Package markup holds what the offline check and the assembler both need to know about raw
// HTML bytes.
package markup

import "bytes"

// RawAttr is where one attribute's value sits inside a raw start tag.
type RawAttr struct {
	Name           string
	ValOff, ValLen int // valOff points at the attribute name when it has no value
}

// RawAttrs scans a raw start tag as the HTML tokenizer does (HTML Standard §13.2.5.32–39),
// returning each attribute's lower-cased name and the offset and length of its value without
// quotes.
func RawAttrs(raw []byte) []RawAttr {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	i := 1 // past '<'
	for i < len(raw) && !isSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	var out []RawAttr
	for i < len(raw) {
		for i < len(raw) && (isSpace(raw[i]) || raw[i] == '/') {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			break
		}
		ns := i
		i++ // the first character may be '='
		for i < len(raw) && !isSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' && raw[i] != '=' {
			i++
		}
		name := string(bytes.ToLower(raw[ns:i]))
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		if i >= len(raw) || raw[i] != '=' {
			out = append(out, RawAttr{Name: name, ValOff: ns, ValLen: len(name)})
			continue
		}
		i++
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		if i < len(raw) && (raw[i] == '"' || raw[i] == '\'') {
			q := raw[i]
			i++
			vs := i
			for i < len(raw) && raw[i] != q {
				i++
			}
			out = append(out, RawAttr{Name: name, ValOff: vs, ValLen: i - vs})
			i++
			continue
		}
		vs := i
		for i < len(raw) && !isSpace(raw[i]) && raw[i] != '>' {
			i++
		}
		out = append(out, RawAttr{Name: name, ValOff: vs, ValLen: i - vs})
	}
	return out
}
