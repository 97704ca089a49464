package markup

import "unicode/utf8"

// The input stream (HTML Standard §13.2.3).

// decodeInput returns src as the browser's UTF-8 decoder reads it (the Encoding Standard's
// "UTF-8 decode"): src itself when it is valid UTF-8, else with each maximal invalid
// subsequence replaced by U+FFFD. The byte order mark, if any, stays; bomLen says how long
// it is, so that Ranges keep indexing the input.
func decodeInput(src []byte) (s string, bomLen int) {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		bomLen = 3
	}
	if utf8.Valid(src) {
		return string(src), bomLen
	}
	b := make([]byte, 0, len(src)+16)
	for i := 0; i < len(src); {
		c := src[i]
		if c < 0x80 {
			b = append(b, c)
			i++
			continue
		}
		// The number of bytes the lead byte needs, and the range of the first continuation
		// byte (which rules out overlong forms and surrogates).
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case 0xC2 <= c && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case 0xE1 <= c && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c == 0xF4:
			need, hi = 3, 0x8F
		case 0xF1 <= c && c <= 0xF3:
			need = 3
		default:
			b = append(b, "\uFFFD"...)
			i++
			continue
		}
		j := i + 1
		for k := 0; k < need; k++ {
			if j >= len(src) || src[j] < lo || src[j] > hi {
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if j-i == need+1 {
			b = append(b, src[i:j]...)
		} else {
			b = append(b, "\uFFFD"...)
		}
		i = j
	}
	return string(b), bomLen
}

// inputErrors reports the parse errors of the input stream itself: controls other than
// whitespace and NUL, and noncharacters (surrogates cannot be in UTF-8).
func inputErrors(s string, from int, report func(code string, at int)) {
	for i := from; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20:
			if c != 0 && c != '\t' && c != '\n' && c != '\f' && c != '\r' {
				report("control-character-in-input-stream", i)
			}
		case c == 0x7F:
			report("control-character-in-input-stream", i)
		case c == 0xC2:
			if i+1 < len(s) && s[i+1] <= 0x9F {
				report("control-character-in-input-stream", i)
			}
		case c == 0xEF:
			if i+2 < len(s) && (s[i+1] == 0xB7 && 0x90 <= s[i+2] && s[i+2] <= 0xAF ||
				s[i+1] == 0xBF && s[i+2] >= 0xBE) {
				report("noncharacter-in-input-stream", i)
			}
		case c >= 0xF0:
			if i+3 < len(s) && s[i+2] == 0xBF && s[i+3] >= 0xBE && s[i+1]&0x0F == 0x0F {
				report("noncharacter-in-input-stream", i)
			}
		}
	}
}
