package offline

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A tokenizer of CSS as CSS Syntax Level 3 §4 reads it, so that the checker's tokens are the
// browser's: a url( with a quote is a function whose string is the URL, an unquoted url(
// with a space inside is a bad url that swallows to its ')', escapes make names (u\72l() and
// strings, comments vanish. The input is read as written; preprocessing (§3.3: CR LF, CR and
// FF are newlines, NUL is U+FFFD) is applied where it matters, so that offsets stay the
// source's.

type cssKind uint8

const (
	cssEOF cssKind = iota
	cssIdent
	cssFunction
	cssAtKeyword
	cssHash
	cssString
	cssBadString
	cssURL
	cssBadURL
	cssDelim
	cssNumber
	cssPercentage
	cssDimension
	cssWhitespace
	cssCDO
	cssCDC
	cssColon
	cssSemicolon
	cssComma
	cssOpenSquare
	cssCloseSquare
	cssOpenParen
	cssCloseParen
	cssOpenCurly
	cssCloseCurly
)

// cssToken is one token: its kind, its bytes [start, end) in the input, and for names,
// strings and URLs its value, escapes decoded.
type cssToken struct {
	kind       cssKind
	start, end int
	value      string
}

type cssTokenizer struct {
	s   string
	pos int
}

func isCSSNewline(c byte) bool { return c == '\n' || c == '\r' || c == '\f' }

func isCSSSpace(c byte) bool { return c == ' ' || c == '\t' || isCSSNewline(c) }

func isIdentStart(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '_' || c >= 0x80 || c == 0 // NUL is U+FFFD
}

func isIdentChar(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' || c == '-' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// at returns the byte at pos+k, or 0x00 past the end with ok false.
func (z *cssTokenizer) at(k int) (byte, bool) {
	if z.pos+k < len(z.s) {
		return z.s[z.pos+k], true
	}
	return 0, false
}

// validEscape reports whether a valid escape (§4.3.8) starts at pos+k.
func (z *cssTokenizer) validEscape(k int) bool {
	c, ok := z.at(k)
	if !ok || c != '\\' {
		return false
	}
	d, ok := z.at(k + 1)
	return !ok || !isCSSNewline(d) // a backslash at the end escapes the end: U+FFFD
}

// startsIdent reports whether an ident sequence (§4.3.9) starts at pos+k.
func (z *cssTokenizer) startsIdent(k int) bool {
	c, ok := z.at(k)
	if !ok {
		return false
	}
	switch {
	case c == '-':
		d, ok := z.at(k + 1)
		return ok && (isIdentStart(d) || d == '-') || z.validEscape(k+1)
	case isIdentStart(c):
		return true
	case c == '\\':
		return z.validEscape(k)
	}
	return false
}

// startsNumber reports whether a number (§4.3.10) starts at pos+k.
func (z *cssTokenizer) startsNumber(k int) bool {
	c, ok := z.at(k)
	if !ok {
		return false
	}
	d, _ := z.at(k + 1)
	e, _ := z.at(k + 2)
	switch {
	case c == '+' || c == '-':
		return isDigit(d) || d == '.' && isDigit(e)
	case c == '.':
		return isDigit(d)
	}
	return isDigit(c)
}

// next returns the next token.
func (z *cssTokenizer) next() cssToken {
	// Comments (§4.3.2) are not tokens.
	for strings.HasPrefix(z.s[z.pos:], "/*") {
		if i := strings.Index(z.s[z.pos+2:], "*/"); i >= 0 {
			z.pos += 2 + i + 2
		} else {
			z.pos = len(z.s)
		}
	}
	start := z.pos
	tok := func(k cssKind, n int) cssToken {
		z.pos += n
		return cssToken{kind: k, start: start, end: z.pos}
	}
	if z.pos >= len(z.s) {
		return cssToken{kind: cssEOF, start: start, end: start}
	}
	c := z.s[z.pos]
	switch {
	case isCSSSpace(c):
		for z.pos < len(z.s) && isCSSSpace(z.s[z.pos]) {
			z.pos++
		}
		return cssToken{kind: cssWhitespace, start: start, end: z.pos}
	case c == '"' || c == '\'':
		z.pos++
		return z.str(c, start)
	case c == '#':
		if d, ok := z.at(1); ok && isIdentChar(d) || z.validEscape(1) {
			z.pos++
			return cssToken{kind: cssHash, start: start, value: z.name(), end: z.pos}
		}
		return tok(cssDelim, 1)
	case c == '(':
		return tok(cssOpenParen, 1)
	case c == ')':
		return tok(cssCloseParen, 1)
	case c == '[':
		return tok(cssOpenSquare, 1)
	case c == ']':
		return tok(cssCloseSquare, 1)
	case c == '{':
		return tok(cssOpenCurly, 1)
	case c == '}':
		return tok(cssCloseCurly, 1)
	case c == ',':
		return tok(cssComma, 1)
	case c == ':':
		return tok(cssColon, 1)
	case c == ';':
		return tok(cssSemicolon, 1)
	case c == '+' || c == '.':
		if z.startsNumber(0) {
			return z.numeric(start)
		}
		return tok(cssDelim, 1)
	case c == '-':
		switch {
		case z.startsNumber(0):
			return z.numeric(start)
		case strings.HasPrefix(z.s[z.pos:], "-->"):
			return tok(cssCDC, 3)
		case z.startsIdent(0):
			return z.identLike(start)
		}
		return tok(cssDelim, 1)
	case c == '<':
		if strings.HasPrefix(z.s[z.pos:], "<!--") {
			return tok(cssCDO, 4)
		}
		return tok(cssDelim, 1)
	case c == '@':
		if z.startsIdent(1) {
			z.pos++
			return cssToken{kind: cssAtKeyword, start: start, value: z.name(), end: z.pos}
		}
		return tok(cssDelim, 1)
	case c == '\\':
		if z.validEscape(0) {
			return z.identLike(start)
		}
		return tok(cssDelim, 1)
	case isDigit(c):
		return z.numeric(start)
	case isIdentStart(c):
		return z.identLike(start)
	}
	_, n := utf8.DecodeRuneInString(z.s[z.pos:])
	return tok(cssDelim, n)
}

// name consumes an ident sequence (§4.3.12) and returns it, escapes decoded.
func (z *cssTokenizer) name() string {
	start := z.pos
	var b []byte // only when the name holds an escape or a NUL
	for z.pos < len(z.s) {
		c := z.s[z.pos]
		switch {
		case c == 0:
			b = append(append(b, z.s[start:z.pos]...), "\uFFFD"...)
			z.pos++
			start = z.pos
		case isIdentChar(c):
			z.pos++
		case z.validEscape(0):
			b = append(b, z.s[start:z.pos]...)
			z.pos++
			b = utf8.AppendRune(b, z.escape())
			start = z.pos
		default:
			return z.finish(b, start)
		}
	}
	return z.finish(b, start)
}

func (z *cssTokenizer) finish(b []byte, start int) string {
	if b == nil {
		return z.s[start:z.pos]
	}
	return string(append(b, z.s[start:z.pos]...))
}

// escape consumes an escaped code point (§4.3.7) after its backslash.
func (z *cssTokenizer) escape() rune {
	if z.pos >= len(z.s) {
		return utf8.RuneError
	}
	j := z.pos
	for j < len(z.s) && j-z.pos < 6 && isHex(z.s[j]) {
		j++
	}
	if j == z.pos {
		r, n := utf8.DecodeRuneInString(z.s[z.pos:])
		z.pos += n
		if r == 0 {
			r = utf8.RuneError
		}
		return r
	}
	v, _ := strconv.ParseUint(z.s[z.pos:j], 16, 32)
	z.pos = j
	if strings.HasPrefix(z.s[z.pos:], "\r\n") {
		z.pos += 2
	} else if z.pos < len(z.s) && isCSSSpace(z.s[z.pos]) {
		z.pos++
	}
	r := rune(v)
	if r == 0 || r > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
		return utf8.RuneError
	}
	return r
}

// str consumes a string token (§4.3.5) whose opening quote q is behind.
func (z *cssTokenizer) str(q byte, start int) cssToken {
	from := z.pos
	var b []byte
	for z.pos < len(z.s) {
		c := z.s[z.pos]
		switch {
		case c == q:
			v := z.finish(b, from)
			z.pos++
			return cssToken{kind: cssString, start: start, end: z.pos, value: v}
		case isCSSNewline(c):
			return cssToken{kind: cssBadString, start: start, end: z.pos}
		case c == '\\':
			b = append(b, z.s[from:z.pos]...)
			z.pos++
			switch {
			case z.pos >= len(z.s):
			case strings.HasPrefix(z.s[z.pos:], "\r\n"):
				z.pos += 2
			case isCSSNewline(z.s[z.pos]):
				z.pos++
			default:
				b = utf8.AppendRune(b, z.escape())
			}
			from = z.pos
			if b == nil {
				b = []byte{}
			}
		case c == 0:
			b = append(append(b, z.s[from:z.pos]...), "\uFFFD"...)
			z.pos++
			from = z.pos
		default:
			z.pos++
		}
	}
	return cssToken{kind: cssString, start: start, end: z.pos, value: z.finish(b, from)}
}

// numeric consumes a numeric token (§4.3.3).
func (z *cssTokenizer) numeric(start int) cssToken {
	if c := z.s[z.pos]; c == '+' || c == '-' {
		z.pos++
	}
	digits := func() {
		for z.pos < len(z.s) && isDigit(z.s[z.pos]) {
			z.pos++
		}
	}
	digits()
	if c, _ := z.at(0); c == '.' {
		if d, ok := z.at(1); ok && isDigit(d) {
			z.pos++
			digits()
		}
	}
	if c, _ := z.at(0); c == 'e' || c == 'E' {
		d, _ := z.at(1)
		e, _ := z.at(2)
		if isDigit(d) || (d == '+' || d == '-') && isDigit(e) {
			z.pos += 2
			digits()
		}
	}
	switch {
	case z.startsIdent(0):
		unit := z.name()
		return cssToken{kind: cssDimension, start: start, end: z.pos, value: unit}
	case z.pos < len(z.s) && z.s[z.pos] == '%':
		z.pos++
		return cssToken{kind: cssPercentage, start: start, end: z.pos}
	}
	return cssToken{kind: cssNumber, start: start, end: z.pos}
}

// identLike consumes an ident-like token (§4.3.4): an ident, a function, or a url.
func (z *cssTokenizer) identLike(start int) cssToken {
	name := z.name()
	if z.pos >= len(z.s) || z.s[z.pos] != '(' {
		return cssToken{kind: cssIdent, start: start, end: z.pos, value: name}
	}
	z.pos++
	if !strings.EqualFold(name, "url") {
		return cssToken{kind: cssFunction, start: start, end: z.pos, value: name}
	}
	// url( then whitespace: a quote makes it a function whose string is the URL.
	for z.pos+1 < len(z.s) && isCSSSpace(z.s[z.pos]) && isCSSSpace(z.s[z.pos+1]) {
		z.pos++
	}
	c, _ := z.at(0)
	d, _ := z.at(1)
	if c == '"' || c == '\'' || isCSSSpace(c) && (d == '"' || d == '\'') {
		return cssToken{kind: cssFunction, start: start, end: z.pos, value: name}
	}
	return z.url(start)
}

// url consumes a url token (§4.3.6) after "url(".
func (z *cssTokenizer) url(start int) cssToken {
	for z.pos < len(z.s) && isCSSSpace(z.s[z.pos]) {
		z.pos++
	}
	from := z.pos
	var b []byte
	for {
		if z.pos >= len(z.s) {
			return cssToken{kind: cssURL, start: start, end: z.pos, value: z.finish(b, from)}
		}
		c := z.s[z.pos]
		switch {
		case c == ')':
			v := z.finish(b, from)
			z.pos++
			return cssToken{kind: cssURL, start: start, end: z.pos, value: v}
		case isCSSSpace(c):
			v := z.finish(b, from)
			for z.pos < len(z.s) && isCSSSpace(z.s[z.pos]) {
				z.pos++
			}
			if z.pos >= len(z.s) {
				return cssToken{kind: cssURL, start: start, end: z.pos, value: v}
			}
			if z.s[z.pos] == ')' {
				z.pos++
				return cssToken{kind: cssURL, start: start, end: z.pos, value: v}
			}
			return z.badURL(start)
		case c == '"' || c == '\'' || c == '(' || c <= 0x08 && c != 0 || c == 0x0B || 0x0E <= c && c <= 0x1F || c == 0x7F:
			return z.badURL(start)
		case c == '\\':
			if !z.validEscape(0) {
				return z.badURL(start)
			}
			b = append(b, z.s[from:z.pos]...)
			z.pos++
			b = utf8.AppendRune(b, z.escape())
			from = z.pos
		case c == 0:
			b = append(append(b, z.s[from:z.pos]...), "\uFFFD"...)
			z.pos++
			from = z.pos
		default:
			z.pos++
		}
	}
}

// badURL consumes the remnants of a bad url (§4.3.14): to a ')' that no escape hides.
func (z *cssTokenizer) badURL(start int) cssToken {
	for z.pos < len(z.s) {
		if z.s[z.pos] == ')' {
			z.pos++
			break
		}
		if z.validEscape(0) {
			z.pos++
			z.escape()
			continue
		}
		z.pos++
	}
	return cssToken{kind: cssBadURL, start: start, end: z.pos}
}
