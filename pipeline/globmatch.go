package pipeline

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// globPattern is one glob of import.meta.glob, compiled to match slash-separated absolute
// paths as Vite's matcher (picomatch, through tinyglobby) does with Vite's options: * and ?
// within a segment, ** across segments, [classes], {a,b} and {1..3} alternatives (expanded),
// \ escapes, no extglobs. A segment starting with a dot is matched only by a pattern segment
// that starts with a literal dot, unless dot is set (the exhaustive option); a node_modules
// folder only by a literal segment, unless exhaustive.
type globPattern struct {
	alts [][]string // the brace expansions, each split into segments
	// exhaustive matches dot files and node_modules folders with wildcards; fold ignores case.
	exhaustive, fold bool
}

// maxBraceExpansions bounds what one pattern's braces expand to.
const maxBraceExpansions = 10000

// compileGlob compiles the absolute pattern p.
func compileGlob(p string, exhaustive, fold bool) (*globPattern, error) {
	exp, err := expandBraces(p)
	if err != nil {
		return nil, err
	}
	g := &globPattern{exhaustive: exhaustive, fold: fold}
	for _, e := range exp {
		g.alts = append(g.alts, strings.Split(e, "/"))
	}
	return g, nil
}

// match reports whether the slash-separated path matches.
func (g *globPattern) match(path string) bool {
	segs := strings.Split(path, "/")
	for _, alt := range g.alts {
		if g.matchSegs(alt, segs, false) {
			return true
		}
	}
	return false
}

// mayContain reports whether a file under the folder dir could match: the walk descends
// only into such folders.
func (g *globPattern) mayContain(dir string) bool {
	segs := strings.Split(dir, "/")
	for _, alt := range g.alts {
		if g.matchSegs(alt, segs, true) {
			return true
		}
	}
	return false
}

// matchSegs matches path segments against pattern segments; with prefix, segs need only be
// a folder some match could lie under.
func (g *globPattern) matchSegs(pat, segs []string, prefix bool) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// ** matches no segment, or one more (neither . nor .. nor, unless exhaustive, a
			// dot folder or node_modules) and stays.
			if g.matchSegs(pat[1:], segs, prefix) {
				return true
			}
			if len(segs) == 0 {
				return prefix
			}
			if !g.wildOK(segs[0]) {
				return false
			}
			segs = segs[1:]
			continue
		}
		if len(segs) == 0 {
			return prefix
		}
		if !g.matchSeg(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// wildOK reports whether a wildcard may stand for the segment s.
func (g *globPattern) wildOK(s string) bool {
	if s == "." || s == ".." {
		return false
	}
	return g.exhaustive || (!strings.HasPrefix(s, ".") && s != "node_modules")
}

// matchSeg matches one segment.
func (g *globPattern) matchSeg(pat, s string) bool {
	if !hasGlobMeta(pat) {
		lit := unescapeGlob(pat)
		if g.fold {
			return strings.EqualFold(lit, s)
		}
		return lit == s
	}
	if !g.exhaustive && (strings.HasPrefix(s, ".") && !strings.HasPrefix(pat, ".") || s == "node_modules") {
		return false // a dot segment needs the pattern's own literal dot; node_modules its name
	}
	return g.wild(pat, s)
}

// wild matches a segment pattern with * ? [..] \ against s, rune by rune.
func (g *globPattern) wild(pat, s string) bool {
	// Iterative matching with one backtrack point for the last *.
	px, sx := 0, 0
	starP, starS := -1, -1
	for sx < len(s) {
		if px < len(pat) {
			c, size := utf8.DecodeRuneInString(pat[px:])
			switch c {
			case '*':
				for px < len(pat) && pat[px] == '*' {
					px++
				}
				starP, starS = px, sx
				continue
			case '?':
				_, n := utf8.DecodeRuneInString(s[sx:])
				px, sx = px+1, sx+n
				continue
			case '[':
				r, n := utf8.DecodeRuneInString(s[sx:])
				ok, end := g.class(pat, px, r)
				if g.fold && end > 0 && !ok {
					ok1, _ := g.class(pat, px, unicode.ToLower(r))
					ok2, _ := g.class(pat, px, unicode.ToUpper(r))
					ok = ok1 || ok2
				}
				if end > 0 {
					if ok {
						px, sx = end, sx+n
						continue
					}
					goto backtrack
				}
				// An unclosed [ is itself.
			case '\\':
				if px+1 < len(pat) {
					px++
					c, size = utf8.DecodeRuneInString(pat[px:])
				}
			}
			r, n := utf8.DecodeRuneInString(s[sx:])
			if r == c || g.fold && strings.EqualFold(string(r), string(c)) {
				px, sx = px+size, sx+n
				continue
			}
		}
	backtrack:
		if starP < 0 {
			return false
		}
		_, n := utf8.DecodeRuneInString(s[starS:])
		starS += n
		px, sx = starP, starS
	}
	for px < len(pat) && pat[px] == '*' {
		px++
	}
	return px == len(pat)
}

// class matches r against the bracket expression at pat[i] ('['); end is the offset past its
// ']', 0 when it is not closed.
func (g *globPattern) class(pat string, i int, r rune) (ok bool, end int) {
	j := i + 1
	negate := false
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		negate, j = true, j+1
	}
	matched := false
	first := true
	for j < len(pat) {
		if pat[j] == ']' && !first {
			return matched != negate, j + 1
		}
		first = false
		if strings.HasPrefix(pat[j:], "[:") {
			if k := strings.Index(pat[j+2:], ":]"); k >= 0 {
				if posixClass(pat[j+2:j+2+k], r) {
					matched = true
				}
				j += k + 4
				continue
			}
		}
		lo, n := utf8.DecodeRuneInString(pat[j:])
		if lo == '\\' && j+1 < len(pat) {
			j++
			lo, n = utf8.DecodeRuneInString(pat[j:])
		}
		j += n
		hi := lo
		if j+1 < len(pat) && pat[j] == '-' && pat[j+1] != ']' {
			j++
			hi, n = utf8.DecodeRuneInString(pat[j:])
			if hi == '\\' && j+1 < len(pat) {
				j++
				hi, n = utf8.DecodeRuneInString(pat[j:])
			}
			j += n
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return false, 0
}

// posixClass matches the POSIX bracket class [:name:].
func posixClass(name string, r rune) bool {
	switch name {
	case "alnum":
		return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
	case "alpha":
		return r < 128 && unicode.IsLetter(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "lower":
		return 'a' <= r && r <= 'z'
	case "upper":
		return 'A' <= r && r <= 'Z'
	case "space":
		return strings.ContainsRune(" \t\r\n\v\f", r)
	case "xdigit":
		return strings.ContainsRune("0123456789abcdefABCDEF", r)
	case "word":
		return r == '_' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
	case "punct":
		return r < 128 && unicode.IsPunct(r) || strings.ContainsRune("$+<=>^`|~", r)
	}
	return false
}

// hasGlobMeta reports whether a segment has a wildcard or class.
func hasGlobMeta(seg string) bool {
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// unescapeGlob removes a pattern's backslash escapes.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// escapeGlob escapes the characters a glob reads, for a path put in front of a pattern
// (tinyglobby's escapePath).
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}()!\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// globBase is the part of the absolute pattern p before its first segment with a wildcard,
// unescaped: the folder its matches are under (picomatch's scan base; a last segment with a
// dot and no wildcard is taken for a file).
func globBase(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if hasGlobMeta(s) || s == "**" || strings.ContainsAny(s, "{") {
			return unescapeGlob(strings.Join(segs[:i], "/"))
		}
	}
	base := unescapeGlob(p)
	if i := strings.LastIndex(base, "/"); i >= 0 && strings.Contains(base[i+1:], ".") {
		base = base[:i]
	}
	return base
}

// expandBraces expands {a,b} and {1..3} as picomatch's braces do, nested braces included; a
// brace with neither a comma nor a range, or one not closed, is itself.
func expandBraces(p string) ([]string, error) {
	open := -1
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			alts, ok := braceAlternatives(p[open+1 : i])
			if !ok {
				// Literal braces: escape them and go on after.
				rest, err := expandBraces(p[i+1:])
				if err != nil {
					return nil, err
				}
				head := p[:open] + `\{` + p[open+1:i] + `\}`
				var out []string
				for _, r := range rest {
					out = append(out, head+r)
				}
				return out, nil
			}
			rest, err := expandBraces(p[i+1:])
			if err != nil {
				return nil, err
			}
			var out []string
			for _, a := range alts {
				inner, err := expandBraces(a)
				if err != nil {
					return nil, err
				}
				for _, in := range inner {
					for _, r := range rest {
						out = append(out, p[:open]+in+r)
						if len(out) > maxBraceExpansions {
							return nil, fmt.Errorf("its braces expand to more than %d patterns", maxBraceExpansions)
						}
					}
				}
			}
			return out, nil
		}
	}
	return []string{p}, nil
}

// braceAlternatives splits the body of a brace at its top-level commas, or expands a range.
func braceAlternatives(body string) ([]string, bool) {
	var alts []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				alts = append(alts, body[start:i])
				start = i + 1
			}
		}
	}
	if len(alts) > 0 {
		return append(alts, body[start:]), true
	}
	return braceRange(body)
}

// braceRange expands a..b (numbers or single letters), with an optional step a..b..s.
func braceRange(body string) ([]string, bool) {
	parts := strings.Split(body, "..")
	if len(parts) != 2 && len(parts) != 3 {
		return nil, false
	}
	step := 1
	if len(parts) == 3 {
		s, err := strconv.Atoi(parts[2])
		if err != nil || s == 0 {
			return nil, false
		}
		step = max(s, -s)
	}
	a, errA := strconv.Atoi(parts[0])
	z, errZ := strconv.Atoi(parts[1])
	letters := false
	if errA != nil || errZ != nil {
		if utf8.RuneCountInString(parts[0]) != 1 || utf8.RuneCountInString(parts[1]) != 1 {
			return nil, false
		}
		ra, _ := utf8.DecodeRuneInString(parts[0])
		rz, _ := utf8.DecodeRuneInString(parts[1])
		a, z, letters = int(ra), int(rz), true
	}
	pad := 0
	if !letters && (strings.HasPrefix(strings.TrimPrefix(parts[0], "-"), "0") && len(parts[0]) > 1 || strings.HasPrefix(strings.TrimPrefix(parts[1], "-"), "0") && len(parts[1]) > 1) {
		pad = max(len(parts[0]), len(parts[1]))
	}
	var out []string
	for i := a; (a <= z && i <= z) || (a > z && i >= z); {
		if letters {
			out = append(out, string(rune(i)))
		} else {
			out = append(out, fmt.Sprintf("%0*d", pad, i))
		}
		if len(out) > maxBraceExpansions {
			return nil, false
		}
		if a <= z {
			i += step
		} else {
			i -= step
		}
	}
	return out, true
}

// lessUTF16 orders strings as JavaScript's sort does: by UTF-16 code units. That is the
// order of their UTF-8 bytes but where a character past U+FFFF (a surrogate pair, from
// U+D800) meets one from U+E000 to U+FFFF.
func lessUTF16(a, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) < len(b)
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if (ra > 0xFFFF) != (rb > 0xFFFF) && min(ra, rb) >= 0xE000 {
		return ra > rb // the pair's first unit, from U+D800, comes first
	}
	return a[i:] < b[i:]
}
