package manifest

import (
	"strconv"
	"strings"
)

// find returns the offset and length of the value of the field path p, when the manifest
// writes its first key; ok is false when it does not.
func (v *validator) find(p string) (off, n int, ok bool) {
	segs := splitPath(p)
	if len(segs) == 0 || segs[0].name == "" || findKey(string(v.src), segs[0].name, 0) < 0 {
		return 0, 0, false
	}
	off, n = v.locate(p, true)
	return off, n, true
}

// locate finds the field path p (such as "capabilities[1].purpose" or "build.define.global") in
// the manifest source, TOML or JSON alike, and returns the offset and length of its key, or of
// its value when value is true. A path it cannot find falls back to its nearest parent, then
// to the start of the file.
func (v *validator) locate(p string, value bool) (int, int) {
	segs := splitPath(p)
	src := string(v.src)
	pos, keyOff, keyLen := 0, 0, 1
	for i, s := range segs {
		if s.name != "" {
			o := findKey(src, s.name, pos)
			if o < 0 {
				return keyOff, keyLen
			}
			pos, keyOff, keyLen = o+len(s.name), o, len(s.name)
			continue
		}
		// An index: skip that many occurrences of the next key, or find the element.
		if i+1 < len(segs) && segs[i+1].name != "" {
			for j := 0; j < s.index; j++ {
				o := findKey(src, segs[i+1].name, pos)
				if o < 0 {
					break
				}
				pos = o + 1
			}
			continue
		}
		// An array of tables: the k-th [[name]] header.
		if i > 0 && segs[i-1].name != "" {
			header := "[[" + segs[i-1].name + "]]"
			from := 0
			for j := 0; j <= s.index; j++ {
				o := strings.Index(src[from:], header)
				if o < 0 {
					from = -1
					break
				}
				from += o
				if j < s.index {
					from++
				}
			}
			if from >= 0 {
				return from, len(header)
			}
		}
		if o, n := element(src, pos, s.index); o >= 0 {
			return o, n
		}
		return keyOff, keyLen
	}
	if value {
		if o, n := valueAfter(src, pos); o >= 0 {
			return o, n
		}
	}
	return keyOff, keyLen
}

type seg struct {
	name  string
	index int
}

func splitPath(p string) []seg {
	var out []seg
	for _, part := range strings.Split(p, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			out = append(out, seg{name: name})
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			n, _ := strconv.Atoi(num)
			out = append(out, seg{index: n})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

func isKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// findKey finds name written as a key (bare or quoted, followed by '=', ':', '.' or ']') at or
// after from.
func findKey(src, name string, from int) int {
	for from <= len(src) {
		i := strings.Index(src[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(name)
		ok := i == 0 || !isKeyChar(src[i-1])
		j := end
		if j < len(src) && (src[j] == '"' || src[j] == '\'') {
			j++
		}
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if ok && j < len(src) && (end == len(src) || !isKeyChar(src[end])) &&
			(src[j] == '=' || src[j] == ':' || src[j] == '.' || src[j] == ']') {
			return i
		}
		from = i + 1
	}
	return -1
}

// valueAfter returns the offset and length of the value that follows a key ending at pos.
func valueAfter(src string, pos int) (int, int) {
	i := pos
	for i < len(src) && src[i] != '=' && src[i] != ':' && src[i] != '\n' {
		i++
	}
	if i >= len(src) || src[i] == '\n' {
		return -1, 0
	}
	i++
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i, tokenLen(src, i)
}

// tokenLen is the length of the value token at i: a quoted string, or up to a delimiter.
func tokenLen(src string, i int) int {
	if i >= len(src) {
		return 1
	}
	if q := src[i]; q == '"' || q == '\'' {
		for j := i + 1; j < len(src); j++ {
			if src[j] == '\\' && q == '"' {
				j++
				continue
			}
			if src[j] == q || src[j] == '\n' {
				return j - i + 1
			}
		}
		return len(src) - i
	}
	j := i
	for j < len(src) && !strings.ContainsRune(",}]\n\r#", rune(src[j])) {
		j++
	}
	return max(j-i, 1)
}

// element finds the k-th element of the array that follows a key ending at pos.
func element(src string, pos, k int) (int, int) {
	i := strings.IndexByte(src[pos:], '[')
	if i < 0 {
		return -1, 0
	}
	i += pos + 1
	depth, n := 0, 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == ']' && depth == 0:
			return -1, 0
		}
		if n == k {
			return i, tokenLen(src, i)
		}
		// Skip this element.
		for i < len(src) {
			c := src[i]
			if c == '"' || c == '\'' {
				i += tokenLen(src, i)
				continue
			}
			if c == '[' || c == '{' {
				depth++
			} else if c == ']' || c == '}' {
				if depth == 0 {
					return -1, 0
				}
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
			i++
		}
		n++
	}
	return -1, 0
}
