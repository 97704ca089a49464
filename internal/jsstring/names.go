package jsstring

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Identifier returns the name an IdentifierName as written stands for (ECMAScript's
// StringValue): its \uXXXX and \u{…} escapes decoded, so that f\u0065tch is fetch, as V8
// reads it. ok is false where raw is not one: an escape that is malformed or that gives a
// code point an identifier may not hold there (the script then does not run). Whether the
// name is a reserved word, which may not be written with escapes where an identifier is
// expected, is the caller's: as a property name (x.\u0069f) it is allowed.
func Identifier(raw string) (name string, ok bool) {
	if raw == "" {
		return "", false
	}
	if !strings.ContainsRune(raw, '\\') {
		for i, r := range raw {
			if !identifierRune(r, i == 0) {
				return "", false
			}
		}
		return raw, true
	}
	var b strings.Builder
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRuneInString(raw[i:])
		if r == '\\' {
			if i+1 >= len(raw) || raw[i+1] != 'u' {
				return "", false
			}
			var v rune
			switch {
			case i+2 < len(raw) && raw[i+2] == '{':
				end := strings.IndexByte(raw[i:], '}')
				if end < 4 { // \u{} holds at least one digit
					return "", false
				}
				if v, ok = hex(raw, i+3, end-3); !ok || v > utf8.MaxRune {
					return "", false
				}
				n = end + 1
			default:
				if v, ok = hex(raw, i+2, 4); !ok {
					return "", false
				}
				n = 6
			}
			r = v
		}
		if !identifierRune(r, b.Len() == 0) {
			return "", false
		}
		b.WriteRune(r)
		i += n
	}
	return b.String(), true
}

// identifierRune reports whether r may stand first in an identifier (ID_Start, "$", "_") or
// after (ID_Continue, "$", ZWNJ, ZWJ), as ECMAScript's IdentifierStartChar and
// IdentifierPartChar say, Unicode's ID_Start and ID_Continue read from Go's tables.
func identifierRune(r rune, first bool) bool {
	if r == '$' || r == '_' {
		return true
	}
	if r >= 0xD800 && r <= 0xDFFF || unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space) {
		return false
	}
	if unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start) {
		return true
	}
	return !first && (r == '\u200C' || r == '\u200D' || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue))
}

// Raw returns the raw value of a template literal without substitutions, backquotes included
// (ECMAScript's TRV, what String.raw gives): its text as written, escapes and all, each
// CR LF and CR made LF. ok is false where lit is not one.
func Raw(lit string) (s string, ok bool) {
	if len(lit) < 2 || lit[0] != '`' || lit[len(lit)-1] != '`' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			if i+1 == len(body) {
				return "", false // the closing backquote is escaped
			}
			i++ // the escaped character, a backquote or "$" included
		case '$':
			if i+1 < len(body) && body[i+1] == '{' {
				return "", false
			}
		case '`':
			return "", false
		}
	}
	return strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n"), true
}

// IsIdentifierPart reports whether r may stand in an identifier after its first code point
// (ECMAScript's IdentifierPartChar: ID_Continue, "$", ZWNJ, ZWJ): a keyword next to one is
// not the keyword ("éexport"), next to anything else (a space U+3000, U+2028) it is.
func IsIdentifierPart(r rune) bool { return identifierRune(r, false) }
