// Package jsstring decodes JavaScript string literals and template literals without
// substitutions to the string the language gives them (ECMAScript's SV of a StringLiteral, TV of
// a NoSubstitutionTemplate): every escape form, line continuations, legacy octal escapes as a
// classic script reads them, and template line ends normalised. The build reads import
// specifiers with it, the offline check the URLs a page requests: both read a literal once, the
// same way.
//
// A JavaScript string is a sequence of UTF-16 code units; Decode returns UTF-8, so a lone
// surrogate (an escape such as \uD800 with no partner) becomes U+FFFD, as it does where a
// browser turns a string into a URL or a USVString.
package jsstring

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode returns the value of lit, a string literal or a template literal without
// substitutions, quotes included. ok is false where lit is not one: no matching quotes, a
// malformed escape, a line end a string literal may not hold, or "${" in a template.
func Decode(lit string) (s string, ok bool) {
	if len(lit) < 2 || lit[0] != lit[len(lit)-1] || strings.IndexByte("'\"`", lit[0]) < 0 {
		return "", false
	}
	template := lit[0] == '`'
	body := lit[1 : len(lit)-1]
	if !strings.ContainsAny(body, "\\\r\n$") {
		return body, true
	}
	var units []uint16 // the value, as the language holds it
	add := func(r rune) { units = utf16.AppendRune(units, r) }
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\r' || c == '\n':
			if !template {
				return "", false
			}
			// A template's CR and CR LF are LF.
			if c == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			add('\n')
			i++
			continue
		case c == '$' && template && i+1 < len(body) && body[i+1] == '{':
			return "", false
		case c != '\\':
			r, n := utf8.DecodeRuneInString(body[i:])
			add(r)
			i += n
			continue
		}
		i++ // the backslash
		if i == len(body) {
			return "", false
		}
		c = body[i]
		switch c {
		case 'b':
			add('\b')
		case 'f':
			add('\f')
		case 'n':
			add('\n')
		case 'r':
			add('\r')
		case 't':
			add('\t')
		case 'v':
			add('\v')
		case '\r':
			// A line continuation: nothing.
			if i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
		case '\n':
		case 'x':
			v, ok := hex(body, i+1, 2)
			if !ok {
				return "", false
			}
			units = append(units, uint16(v))
			i += 2
		case 'u':
			var v rune
			if i+1 < len(body) && body[i+1] == '{' {
				end := strings.IndexByte(body[i:], '}')
				if end < 3 { // \u{} holds at least one digit
					return "", false
				}
				var ok bool
				if v, ok = hex(body, i+2, end-2); !ok || v > utf8.MaxRune {
					return "", false
				}
				i += end
				if v <= 0xFFFF {
					units = append(units, uint16(v)) // a surrogate stays one, to pair
				} else {
					add(v)
				}
				break
			}
			var ok bool
			if v, ok = hex(body, i+1, 4); !ok {
				return "", false
			}
			units = append(units, uint16(v))
			i += 4
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// \0 not before a digit is NUL; the rest are legacy octal escapes, which a
			// classic script reads (up to \377) and a template or strict code refuses.
			next := i+1 < len(body) && body[i+1] >= '0' && body[i+1] <= '9'
			if c == '0' && !next {
				add(0)
				break
			}
			if template {
				return "", false
			}
			v, n := rune(c-'0'), 1
			max := 3
			if c >= '4' {
				max = 2
			}
			for n < max && i+n < len(body) && body[i+n] >= '0' && body[i+n] <= '7' {
				v = v*8 + rune(body[i+n]-'0')
				n++
			}
			add(v)
			i += n - 1
		case '8', '9':
			if template {
				return "", false
			}
			add(rune(c))
		default:
			// Any other character escapes itself; U+2028 and U+2029 are line continuations.
			r, n := utf8.DecodeRuneInString(body[i:])
			if r != '\u2028' && r != '\u2029' {
				add(r)
			}
			i += n - 1
		}
		i++
	}
	return string(utf16.Decode(units)), true
}

// hex reads n hexadecimal digits of s at i.
func hex(s string, i, n int) (rune, bool) {
	if n <= 0 || i+n > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[i : i+n]) {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		if v > utf8.MaxRune {
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}
