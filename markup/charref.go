package markup

import (
	"strings"
	"unicode/utf8"
)

// Character references (HTML Standard §13.2.5.72-80).

// charRef decodes the character reference whose '&' is at i (§13.2.5.72-80). It returns
// where the reference ends, its value, and false when the '&' is just a character (then end
// is where the characters read as text end).
func (z *tokenizer) charRef(i int, attr bool) (end int, val string, ok bool) {
	return z.charRefIn(i, len(z.src), attr)
}

func (z *tokenizer) charRefIn(i, lim int, attr bool) (end int, val string, ok bool) {
	if i == z.refAt && !attr {
		return z.refEnd, z.refVal, true
	}
	s := z.src[:lim]
	j := i + 1
	if j >= len(s) {
		return j, "", false
	}
	if s[j] == '#' {
		return z.numericRef(i, s, attr)
	}
	k := j
	for k < len(s) && isAlnum(s[k]) {
		k++
	}
	if k == j {
		return j, "", false
	}
	if k < len(s) && s[k] == ';' && k-j < 32 {
		if v, found := lookupEntity(s[j : k+1]); found {
			z.cacheRef(i, k+1, v, attr)
			return k + 1, v, true
		}
	}
	for n := min(k-j, maxLegacy); n >= 2; n-- {
		v, found := lookupEntity(s[j : j+n])
		if !found {
			continue
		}
		e := j + n
		if attr && e < len(s) && (s[e] == '=' || isAlnum(s[e])) {
			return e, "", false
		}
		z.report("missing-semicolon-after-character-reference", e)
		z.cacheRef(i, e, v, attr)
		return e, v, true
	}
	// The ambiguous ampersand state: the name is text.
	if k < len(s) && s[k] == ';' {
		z.report("unknown-named-character-reference", k)
	}
	return k, "", false
}

func (z *tokenizer) cacheRef(i, end int, v string, attr bool) {
	if !attr {
		z.refAt, z.refEnd, z.refVal = i, end, v
	}
}

// numericRef decodes "&#...;" at i (§13.2.5.74-80).
func (z *tokenizer) numericRef(i int, s string, attr bool) (int, string, bool) {
	j := i + 2
	hex := j < len(s) && s[j]|0x20 == 'x'
	if hex {
		j++
	}
	k := j
	var v rune
	for k < len(s) {
		c := s[k]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case hex && 'a' <= c|0x20 && c|0x20 <= 'f':
			d = rune(c|0x20-'a') + 10
		default:
			goto out
		}
		if hex {
			v = v*16 + d
		} else {
			v = v*10 + d
		}
		if v > 0x10FFFF {
			v = 0x110000 // stays out of range however many digits follow
		}
		k++
	}
out:
	if k == j {
		z.report("absence-of-digits-in-numeric-character-reference", k)
		return j, "", false
	}
	end := k
	if k < len(s) && s[k] == ';' {
		end++
	} else {
		z.report("missing-semicolon-after-character-reference", k)
	}
	switch {
	case v == 0:
		z.report("null-character-reference", end)
		v = 0xFFFD
	case v > 0x10FFFF:
		z.report("character-reference-outside-unicode-range", end)
		v = 0xFFFD
	case 0xD800 <= v && v <= 0xDFFF:
		z.report("surrogate-character-reference", end)
		v = 0xFFFD
	case 0xFDD0 <= v && v <= 0xFDEF || v&0xFFFE == 0xFFFE:
		z.report("noncharacter-character-reference", end)
	case v == 0x0D || (v < 0x20 || 0x7F <= v && v <= 0x9F) && v != '\t' && v != '\n' && v != '\f' && v != ' ':
		z.report("control-character-reference", end)
		if 0x80 <= v && v <= 0x9F {
			if r := c1Replacements[v-0x80]; r != 0 {
				v = r
			}
		}
	}
	var val string
	if v < utf8.RuneSelf {
		val = asciiStrings[v : v+1]
	} else {
		val = string(v)
	}
	z.cacheRef(i, end, val, attr)
	return end, val, true
}

// asciiStrings lets a one-byte value be a substring rather than an allocation.
var asciiStrings = func() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// c1Replacements are the characters that numeric references to 0x80-0x9F stand for
// (§13.2.5.80, windows-1252); 0 where the code point stays.
var c1Replacements = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
	0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
	0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

//go:generate go run gen_entities.go

// lookupEntity returns the value of a named character reference (with its ';' if it has one).
func lookupEntity(name string) (string, bool) {
	lo, hi := 0, len(entityNames)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if entityNames[m] < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(entityNames) && entityNames[lo] == name {
		return entityValues[lo], true
	}
	return "", false
}

// maxLegacy is the length of the longest reference that may be written without ';'.
var maxLegacy = func() int {
	n := 0
	for _, e := range entityNames {
		if !strings.HasSuffix(e, ";") {
			n = max(n, len(e))
		}
	}
	return n
}()
