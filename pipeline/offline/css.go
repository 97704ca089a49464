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
	// at-rule); escaped, neither opens anything.
	if strings.IndexByte(src, '(') < 0 && strings.IndexByte(src, '@') < 0 {
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
	pendingURLFunc := -1
	var urlBuf strings.Builder
	urlFuncName := ""
	add := func(at, n int, place, u string) {
		if isOwn(u) {
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
		case css.SemicolonToken, css.LeftBraceToken, css.RightBraceToken:
			if len(funcs) == 0 {
				atRule = ""
			}
			if tt == css.LeftBraceToken || tt == css.RightBraceToken {
				funcs = funcs[:0]
			}
		case css.URLToken:
			add(start, len(data), urlPlace(atRule, "url"), urlTokenValue(data))
		case css.BadURLToken:
			// A bad url() loads nothing.
		case css.FunctionToken:
			name := strings.ToLower(cssUnescape(string(data[:len(data)-1])))
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
			if atRule == "import" && len(funcs) == 0 {
				add(start, len(data), "CSS @import", cssString(data))
			} else if n := len(funcs); n > 0 && (funcs[n-1] == "image-set" || funcs[n-1] == "-webkit-image-set") {
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
