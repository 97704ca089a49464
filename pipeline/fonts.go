package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/markup"
)

// pruneFontFaces rewrites every @font-face src list that offers a woff2 source so that it keeps
// only its local() sources and the first woff2 one: every browser a bundle targets reads woff2,
// so the woff, ttf and eot fallbacks would only be inlined for nothing. Lists without woff2 are
// left alone. Comments are left in place; strings and parentheses are respected.
func pruneFontFaces(css string) string {
	blocks := fontFaceBlocks(css)
	if len(blocks) == 0 {
		return css
	}
	var b strings.Builder
	last := 0
	for _, blk := range blocks {
		b.WriteString(css[last:blk[0]])
		b.WriteString(pruneSrc(css[blk[0]:blk[1]]))
		last = blk[1]
	}
	b.WriteString(css[last:])
	return b.String()
}

// fontFaceBlocks returns the [start, end) of the body (between the braces) of every @font-face
// rule in css, in order.
func fontFaceBlocks(css string) [][2]int {
	var out [][2]int
	for i := 0; ; {
		at := markup.IndexFold(css[i:], "@font-face")
		if at < 0 {
			return out
		}
		at += i
		open := strings.IndexByte(css[at:], '{')
		if open < 0 {
			return out
		}
		open += at + 1
		end := blockEnd(css, open)
		out = append(out, [2]int{open, end})
		i = end
	}
}

// blockEnd returns the offset of the '}' that closes the block starting at from.
func blockEnd(css string, from int) int {
	depth := 0
	for i := from; i < len(css); i++ {
		switch c := css[i]; c {
		case '"', '\'':
			i = skipString(css, i)
		case '/':
			if i+1 < len(css) && css[i+1] == '*' {
				if j := strings.Index(css[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					return len(css)
				}
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return len(css)
}

func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] == q || s[j] == '\n' {
			return j
		}
	}
	return len(s) - 1
}

// splitTop splits s at the byte sep where it is outside strings and parentheses.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\'':
			i = skipString(s, i)
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func pruneSrc(body string) string {
	decls := splitTop(body, ';')
	for i, d := range decls {
		name, value, ok := strings.Cut(d, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "src") {
			continue
		}
		entries := splitTop(value, ',')
		var keep []string
		found := false
		for _, e := range entries {
			le := strings.ToLower(e)
			switch {
			case strings.Contains(le, "local("):
				keep = append(keep, e)
			case !found && isWoff2(le):
				keep = append(keep, e)
				found = true
			}
		}
		if found {
			decls[i] = name + ":" + strings.Join(keep, ",")
		}
	}
	return strings.Join(decls, ";")
}

func isWoff2(entry string) bool {
	if i := strings.Index(entry, "format("); i >= 0 {
		f := strings.Trim(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(entry[i+len("format("):]), ")")), `"' `)
		return f == "woff2"
	}
	e := strings.TrimSpace(entry)
	e = strings.TrimSuffix(e, ")")
	e = strings.Trim(e, `"' `)
	if j := strings.IndexAny(e, "?#"); j >= 0 {
		e = e[:j]
	}
	return strings.HasSuffix(e, ".woff2")
}

// dataFonts counts the @font-face rules in page whose sources include a data: URL.
func dataFonts(page []byte) int {
	css := string(page)
	n := 0
	for _, blk := range fontFaceBlocks(css) {
		if markup.IndexFold(css[blk[0]:blk[1]], "data:") >= 0 {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
