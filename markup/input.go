package markup

import (
	"encoding/binary"
	"unicode/utf8"
)

// The input stream (HTML Standard §13.2.3).

// decodeInput returns src as the browser's UTF-8 decoder reads it (the Encoding Standard's
// "UTF-8 decode"): src itself when it is valid UTF-8, else with each maximal invalid
// subsequence replaced by U+FFFD. The byte order mark, if any, stays; bomLen says how long
// it is, so that Ranges keep indexing the input.
func decodeInput(src []byte) (s string, b []byte, bomLen int) {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		bomLen = 3
	}
	if utf8.Valid(src) {
		return string(src), src, bomLen
	}
	b = make([]byte, 0, len(src)+16)
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
	return string(b), b, bomLen
}

// inputErrors reports the parse errors of the input stream itself: controls other than
// whitespace and NUL, and noncharacters (surrogates cannot be in UTF-8). b is the input as
// decoded (the same bytes as Document.Src).
func inputErrors(b []byte, from int, report func(code string, at int)) {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i := from; i < len(b); i++ {
		// Skip eight bytes at a time while they are all printable ASCII (0x20-0x7E): no
		// byte below 0x20 ((x-0x20…)&^x has its top bit), none above 0x7E ((x+1…)|x has).
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if ((x-lo*0x20)&^x|(x+lo)|x)&hi != 0 {
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
		switch c := b[i]; {
		case c < 0x20:
			if c != 0 && c != '\t' && c != '\n' && c != '\f' && c != '\r' {
				report("control-character-in-input-stream", i)
			}
		case c == 0x7F:
			report("control-character-in-input-stream", i)
		case c == 0xC2:
			if i+1 < len(b) && b[i+1] <= 0x9F {
				report("control-character-in-input-stream", i)
			}
		case c == 0xEF:
			if i+2 < len(b) && (b[i+1] == 0xB7 && 0x90 <= b[i+2] && b[i+2] <= 0xAF ||
				b[i+1] == 0xBF && b[i+2] >= 0xBE) {
				report("noncharacter-in-input-stream", i)
			}
		case c >= 0xF0:
			if i+3 < len(b) && b[i+2] == 0xBF && b[i+3] >= 0xBE && b[i+1]&0x0F == 0x0F {
				report("noncharacter-in-input-stream", i)
			}
		}
	}
}
