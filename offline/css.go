package offline

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// checkCSS reports every URL that the stylesheet (or declaration list) src would load: url()
// tokens, url("…") and src("…") functions, @import with a string, and strings inside
// image-set() and -webkit-image-set(). Names and strings are decoded as CSS Syntax decodes them,
// so escapes (u\72l) and comments do not hide anything. A data: stylesheet that @import names is
// checked in turn. URLs in @namespace name a namespace and load nothing.
func (c *checker) checkCSS(src string, depth int) []hit {
	// Every construct that loads needs a literal '(' (a function or url token) or '@' (an
	// at-rule), escaped, neither opens anything; or a custom property's string, which var()
	// may read as a URL elsewhere.
	if strings.IndexByte(src, '(') < 0 && strings.IndexByte(src, '@') < 0 &&
		!(strings.ContainsAny(src, `"'`) && (strings.Contains(src, "--") || strings.IndexByte(src, '\\') >= 0)) {
		return nil
	}
	// CSS Syntax §3.3 preprocessing turns NUL into U+FFFD; the lexer would stop at it.
	if strings.IndexByte(src, 0) >= 0 {
		src = strings.ReplaceAll(src, "\x00", "\uFFFD")
	}
	var hits []hit
	l := css.NewLexer(parse.NewInputString(src))
	off := 0
	var funcs []string // innermost function name last; "(" for plain parentheses
	atRule := ""       // the at-rule whose prelude we are in
	inFontFace := 0    // the block depth of an @font-face block, 0 outside one
	blocks := 0
	pendingURLFunc := -1
	var urlBuf strings.Builder
	urlFuncName := ""
	prop, lastIdent := "", "" // the declaration being read, and the last name before a colon
	add := func(at, n int, place, u string) {
		if isOwn(u) {
			if depth == 0 && atRule != "namespace" {
				d := "img-src"
				switch {
				case atRule == "import":
					d = "style-src-elem"
				case inFontFace > 0:
					d = "font-src"
				}
				hits = append(hits, c.policyHit(d, at, n, place, u)...)
			}
			if atRule == "import" && isData(u) {
				hits = append(hits, c.nested(at, n, place, u, docCSS, depth)...)
			}
			return
		}
		if atRule == "namespace" {
			return
		}
		hits = append(hits, hit{off: at, length: n, place: place, url: u})
	}
	for {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		start := off
		off += len(data)
		if pendingURLFunc >= 0 {
			// Inside url(…) written with an escaped name: the lexer gave a function token,
			// and the browser reads the rest as a URL token up to ')'.
			if tt == css.RightParenthesisToken {
				u := strings.TrimSpace(cssUnescape(urlBuf.String()))
				add(pendingURLFunc, off-pendingURLFunc, urlPlace(atRule, urlFuncName), u)
				pendingURLFunc = -1
				funcs = funcs[:len(funcs)-1]
				continue
			}
			if tt == css.StringToken && strings.TrimSpace(urlBuf.String()) == "" {
				add(start, len(data), urlPlace(atRule, urlFuncName), cssString(data))
				urlBuf.Reset()
				urlBuf.WriteString(" ")
				continue
			}
			urlBuf.Write(data)
			continue
		}
		switch tt {
		case css.AtKeywordToken:
			atRule = strings.ToLower(cssUnescape(string(data[1:])))
		case css.IdentToken, css.CustomPropertyNameToken:
			lastIdent = cssUnescape(string(data))
		case css.ColonToken:
			if len(funcs) == 0 && prop == "" {
				prop = lastIdent
			}
		case css.SemicolonToken, css.LeftBraceToken, css.RightBraceToken:
			switch {
			case tt == css.LeftBraceToken:
				blocks++
				if atRule == "font-face" {
					inFontFace = blocks
				}
			case tt == css.RightBraceToken:
				if blocks == inFontFace {
					inFontFace = 0
				}
				blocks = max(blocks-1, 0)
			}
			if len(funcs) == 0 {
				atRule = ""
			}
			prop, lastIdent = "", ""
			if tt == css.LeftBraceToken || tt == css.RightBraceToken {
				funcs = funcs[:0]
			}
		case css.URLToken:
			add(start, len(data), urlPlace(atRule, "url"), urlTokenValue(data))
		case css.BadURLToken:
			// The lexer calls url("…" followed by anything but ")" (a comment, a URL modifier
			// such as cross-origin()) a bad url; CSS Syntax reads url( and a quote as a
			// function, and Chromium loads the string. An unquoted bad url loads nothing.
			if u, ok := quotedURL(data); ok {
				add(start, len(data), urlPlace(atRule, "url"), u)
			}
		case css.FunctionToken:
			name := strings.ToLower(cssUnescape(string(data[:len(data)-1])))
			if n := len(funcs); name == "var" && n > 0 && takesURLString(funcs[n-1]) {
				// A custom property's string becomes a URL here: the document's custom
				// property strings then load (checkDoc keeps them).
				hits = append(hits, hit{off: start, length: len(data), marker: true})
			}
			funcs = append(funcs, name)
			if name == "url" || name == "src" {
				pendingURLFunc = start
				urlFuncName = name
				urlBuf.Reset()
			}
		case css.LeftParenthesisToken:
			funcs = append(funcs, "(")
		case css.RightParenthesisToken:
			if len(funcs) > 0 {
				funcs = funcs[:len(funcs)-1]
			}
		case css.StringToken:
			if strings.HasPrefix(prop, "--") {
				if u := cssString(data); !isOwn(u) {
					hits = append(hits, hit{off: start, length: len(data), place: "CSS custom property " + prop + " (a string image-set() reads through var())", url: u, cond: true})
				}
			}
			if atRule == "import" && len(funcs) == 0 {
				add(start, len(data), "CSS @import", cssString(data))
			} else if n := len(funcs); n > 0 && takesURLString(funcs[n-1]) {
				add(start, len(data), "CSS "+funcs[n-1]+"()", cssString(data))
			}
		}
	}
	if pendingURLFunc >= 0 {
		// An unclosed url( at the end of the input still loads what it names.
		u := strings.TrimSpace(cssUnescape(urlBuf.String()))
		add(pendingURLFunc, off-pendingURLFunc, urlPlace(atRule, urlFuncName), u)
	}
	return hits
}

// takesURLString reports whether a CSS function reads a string argument as a URL.
func takesURLString(fn string) bool {
	return fn == "image-set" || fn == "-webkit-image-set" || fn == "src"
}

// quotedURL returns the string of a bad-url token that starts url( whitespace* quote.
func quotedURL(tok []byte) (string, bool) {
	s := string(tok)
	i := strings.IndexByte(s, '(')
	if i < 0 {
		return "", false
	}
	s = strings.TrimLeft(s[i+1:], " \t\n\r\f")
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", false
	}
	q := s[0]
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return cssString([]byte(s[:j+1])), true
		case '\n':
			return "", false // an unclosed string ends at the line: a bad string loads nothing
		}
	}
	return "", false
}

func urlPlace(atRule, fn string) string {
	switch atRule {
	case "import":
		return "CSS @import " + fn + "()"
	case "font-face":
		return "CSS @font-face " + fn + "()"
	}
	return "CSS " + fn + "()"
}

// urlTokenValue returns the URL inside a url( … ) token, unquoted and unescaped.
func urlTokenValue(tok []byte) string {
	s := string(tok)
	i := strings.IndexByte(s, '(')
	if i < 0 {
		return ""
	}
	s = strings.TrimSuffix(s[i+1:], ")")
	s = strings.Trim(s, " \t\n\r\f")
	if len(s) > 0 && (s[0] == '"' || s[0] == '\'') {
		return cssString([]byte(s))
	}
	return cssUnescape(s)
}

// cssString returns the value of a CSS string token: quotes removed, escapes decoded, and
// escaped newlines dropped (CSS Syntax §4.3.5).
func cssString(tok []byte) string {
	s := string(tok)
	if len(s) > 0 && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		s = s[1:]
		if len(s) > 0 && s[len(s)-1] == q {
			s = s[:len(s)-1]
		}
	}
	return cssUnescape(s)
}

// cssUnescape decodes CSS escapes: a backslash and up to six hex digits (and one following
// whitespace) is that code point; a backslash and a newline is nothing; a backslash and any
// other character is that character (CSS Syntax §4.3.7).
func cssUnescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i >= len(s) {
			b.WriteRune(utf8.RuneError)
			break
		}
		if s[i] == '\n' || s[i] == '\f' {
			continue
		}
		if s[i] == '\r' {
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			continue
		}
		j := i
		for j < len(s) && j-i < 6 && isHex(s[j]) {
			j++
		}
		if j > i {
			v, _ := strconv.ParseUint(s[i:j], 16, 32)
			r := rune(v)
			if r == 0 || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
			if j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f') {
				j++
			} else if j+1 < len(s) && s[j] == '\r' && s[j+1] == '\n' {
				j += 2
			} else if j < len(s) && s[j] == '\r' {
				j++
			}
			i = j - 1
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n - 1
	}
	return b.String()
}
