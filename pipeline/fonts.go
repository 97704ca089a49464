package pipeline

import (
	"path"
	"slices"
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

// pruneSrc keeps, in each src descriptor of an @font-face body, what Chromium can reach: it
// takes the first source it supports (CSS Fonts 4, "src": a url() whose format() and every
// tech() it supports, or a local() font it has), so the sources after the first supported
// url() are never loaded (its data: URL does not fail), and an unsupported one before it is
// skipped; local() ones before it stay. A list without a supported url() is left alone.
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
			switch kind := fontSource(e); {
			case kind == "local":
				keep = append(keep, e)
			case kind == "supported":
				keep = append(keep, e)
				found = true
			}
			if found {
				break
			}
		}
		if found {
			decls[i] = name + ":" + strings.Join(keep, ",")
		}
	}
	return strings.Join(decls, ";")
}

// fontFormats and fontTechs are the format() and tech() keywords Chromium supports
// (FontFaceSrcValue, CSSFontFaceSrcValue::IsSupportedFormat and the tech list of CSS Fonts 4
// it parses): woff2, woff, truetype, opentype, collection and the *-variations forms; not
// embedded-opentype or svg, nor features-graphite, color-svg or incremental.
var (
	fontFormats = []string{"woff2", "woff", "truetype", "opentype", "collection", "woff2-variations", "woff-variations", "truetype-variations", "opentype-variations"}
	fontTechs   = []string{"features-opentype", "features-aat", "color-colrv0", "color-colrv1", "color-cbdt", "color-sbix", "variations", "palettes"}
)

// fontSource says what one entry of a src list is for Chromium: "local", "supported" (a url()
// it loads) or "skipped" (a format or tech it does not support, or no url()).
func fontSource(entry string) string {
	e := strings.ToLower(strings.TrimSpace(entry))
	if strings.HasPrefix(e, "local(") {
		return "local"
	}
	if !strings.HasPrefix(e, "url(") && !strings.HasPrefix(e, `"`) && !strings.HasPrefix(e, "'") {
		return "skipped"
	}
	if !strings.Contains(e, "format(") {
		// No hint: Chromium loads it and reads the file, which an EOT or SVG font fails.
		u, _, _ := strings.Cut(strings.TrimPrefix(e, "url("), ")")
		u = strings.Trim(strings.TrimSpace(u), `"'`)
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
		if ext := path.Ext(u); ext == ".eot" || ext == ".svg" || ext == ".svgz" {
			return "skipped"
		}
	}
	for _, fn := range []string{"format(", "tech("} {
		at := strings.Index(e, fn)
		if at < 0 {
			continue
		}
		args, _, _ := strings.Cut(e[at+len(fn):], ")")
		list := fontFormats
		if fn == "tech(" {
			list = fontTechs
		}
		any, all := false, true
		for _, a := range splitTop(args, ',') {
			ok := slices.Contains(list, strings.Trim(strings.TrimSpace(a), `"'`))
			any, all = any || ok, all && ok
		}
		// format("woff2", "woff"): one it supports is enough; tech(): it must support each.
		if fn == "format(" && !any || fn == "tech(" && !all {
			return "skipped"
		}
	}
	return "supported"
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
