package offline

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// A reading is the document as a browser may decode it. The checker judges every reading a
// browser could make of the bytes, since the markup, the CSS and the scripts it sees depend
// on the encoding: UTF-16 interleaves zero bytes, ISO-2022-JP's escapes hide or reveal
// markup, and the trail bytes of Shift_JIS, GBK, Big5 and EUC-KR can swallow a backslash and
// end a script's string where a UTF-8 reading sees it escaped.
type reading struct {
	text string
	// name and why say which encoding and why a browser may pick it; "" for the plain UTF-8
	// reading of the bytes.
	name, why string
}

// multibyte are the encodings a browser may detect in a document that declares none and is
// not valid UTF-8: their trail bytes overlap ASCII.
var multibyte = []string{"shift_jis", "euc-jp", "gbk", "big5", "euc-kr"}

// readings returns the ways a browser may decode src, given the charset parameter of its
// type ("" when none): the UTF-8 reading first (the only one, unless a byte-order mark, a
// declaration or the bytes themselves allow another), then each other one once.
func readings(src []byte, declared string) []reading {
	switch {
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return []reading{decodeWith(src, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "UTF-16BE", "its byte-order mark")}
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return []reading{decodeWith(src, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "UTF-16LE", "its byte-order mark")}
	}
	if e, name := charset.Lookup(declared); e != nil && strings.HasPrefix(name, "utf-16") {
		// The charset of a type is honoured as it is, UTF-16 included.
		return []reading{decodeWith(src, e, name, "the charset of its type")}
	}
	// The UTF-8 reading is the bytes themselves, read as a string without copying them.
	out := []reading{{text: unsafe.String(unsafe.SliceData(src), len(src))}}
	if bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}) {
		return out
	}
	seen := map[string]bool{"utf-8": true}
	add := func(label, why string) {
		e, name := charset.Lookup(label)
		if e == nil || seen[name] {
			return
		}
		seen[name] = true
		// A declaration of UTF-16 without a byte-order mark means UTF-8 (HTML Standard,
		// "prescan a byte stream", step "If charset is UTF-16BE/LE, then set charset to UTF-8").
		if strings.HasPrefix(name, "utf-16") {
			return
		}
		out = append(out, decodeWith(src, e, name, why))
	}
	declaredAny := declared != ""
	if declared != "" {
		add(declared, "the charset of its type")
	}
	for _, m := range metaCharsets(src) {
		declaredAny = true
		add(m.label, "its <meta charset>")
	}
	if !declaredAny {
		// With no declaration a browser may detect an encoding from the bytes.
		if bytes.IndexByte(src, 0x1B) >= 0 {
			add("iso-2022-jp", "its escape bytes, with no encoding declared")
		}
		if !utf8.Valid(src) {
			for _, label := range multibyte {
				add(label, "its bytes, which are not UTF-8, with no encoding declared")
			}
			add("windows-1252", "its bytes, which are not UTF-8, with no encoding declared")
		}
	}
	return out
}

func decodeWith(src []byte, e encoding.Encoding, name, why string) reading {
	// Decoders replace what they cannot decode; they never fail on bytes.
	text, err := e.NewDecoder().Bytes(src)
	if err != nil {
		text = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	return reading{text: string(text), name: name, why: why}
}

// indexTag returns the offset of the first "<name" in s, name in any case (name is lower-case
// ASCII letters), or -1.
func indexTag(s []byte, name string) int {
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j + 1
		if len(s)-i >= len(name) && s[i]|0x20 == name[0] && strings.EqualFold(unsafe.String(&s[i], len(name)), name) {
			return i - 1
		}
	}
}

// declaration is an encoding label a <meta> declares, at the byte offset of its tag.
type declaration struct {
	label string
	off   int
}

// Encoding returns the encoding other than UTF-8 that a page declares, by a UTF-16 byte-order
// mark or a <meta>, and the byte offset of the declaration; name is "" when the page declares
// UTF-8 or nothing. A build writes UTF-8, and refuses a page that says otherwise.
func Encoding(src []byte) (name string, off int) {
	if bytes.HasPrefix(src, []byte{0xFE, 0xFF}) || bytes.HasPrefix(src, []byte{0xFF, 0xFE}) {
		return "UTF-16", 0
	}
	for _, m := range metaCharsets(src) {
		if _, n := charset.Lookup(m.label); n != "utf-8" && !strings.HasPrefix(n, "utf-16") {
			if n == "" {
				n = m.label
			}
			return n, m.off
		}
	}
	return "", 0
}

// metaCharsets returns the encoding labels that <meta charset> and <meta http-equiv=
// content-type content="…charset=…"> declare anywhere in src: a browser whose encoding is
// tentative changes to one met later, so every one counts. It looks at <meta> tags only.
func metaCharsets(src []byte) []declaration {
	var out []declaration
	s := src
	for {
		i := indexTag(s, "meta")
		if i < 0 {
			return out
		}
		s = s[i:]
		end := bytes.IndexByte(s, '>')
		if end < 0 {
			end = len(s) - 1
		}
		z := html.NewTokenizer(bytes.NewReader(s[:end+1]))
		if tt := z.Next(); tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			_, more := z.TagName()
			var content, cs string
			pragma := false
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				switch strings.ToLower(string(k)) {
				case "charset":
					cs = string(v)
				case "content":
					content = string(v)
				case "http-equiv":
					pragma = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
				}
			}
			off := len(src) - len(s)
			if cs != "" {
				out = append(out, declaration{strings.TrimSpace(cs), off})
			} else if pragma {
				if _, label, ok := strings.Cut(strings.ToLower(content), "charset="); ok {
					label = strings.Trim(strings.TrimSpace(label), `"'`)
					if j := strings.IndexAny(label, "; \t\n\f\r\"'"); j >= 0 {
						label = label[:j]
					}
					out = append(out, declaration{label, off})
				}
			}
		}
		s = s[5:]
	}
}
