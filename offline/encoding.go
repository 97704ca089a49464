package offline

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/miniapp/bundle/markup"
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
	text []byte
	// name and why say which encoding and why a browser may pick it; "" for the plain UTF-8
	// reading of the bytes.
	name, why string
}

// multibyte are the encodings a browser may detect in a document that declares none and is
// not valid UTF-8: their trail bytes overlap ASCII.
var multibyte = []string{"shift_jis", "euc-jp", "gbk", "big5", "euc-kr"}

// readings calls read with each way a browser may decode src, given the charset parameter of
// its type ("" when none): a byte-order mark decides alone (HTML Standard, "decode"), as does
// a type's UTF-16; else the UTF-8 reading first, then once each encoding a declaration names
// (the prescan's, the type's, or a <meta> in the tree of a reading: a browser whose encoding
// is tentative changes to one its tree builder meets), and the encodings a browser may
// detect in the bytes. read returns the tree it built, whose
// <meta> elements may declare more.
func readings(src []byte, declared string, read func(r reading) *markup.Document) {
	switch {
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		read(decodeWith(src, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "UTF-16BE", "its byte-order mark"))
		return
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		read(decodeWith(src, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "UTF-16LE", "its byte-order mark"))
		return
	}
	if e, name := charset.Lookup(declared); e != nil && strings.HasPrefix(name, "utf-16") {
		// The charset of a type is honoured as it is, UTF-16 included.
		read(decodeWith(src, e, name, "the charset of its type"))
		return
	}
	d := read(reading{text: src})
	if bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}) {
		return
	}
	seen := map[string]bool{"utf-8": true}
	var queue []reading
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
		queue = append(queue, decodeWith(src, e, name, why))
	}
	if declared != "" {
		add(declared, "the charset of its type")
	}
	for _, m := range prescan(src) {
		add(m.label, "its <meta charset>")
	}
	for _, m := range treeCharsets(d) {
		add(m.label, "its <meta charset>")
	}
	// A browser may detect an encoding from the bytes. It does so only when nothing is
	// declared, but what it takes for a declaration (its own prescan, which may know raw
	// text, or not) is not the standard's: the detected readings count whatever is declared.
	if bytes.IndexByte(src, 0x1B) >= 0 {
		add("iso-2022-jp", "its escape bytes")
	}
	if !utf8.Valid(src) {
		for _, label := range multibyte {
			add(label, "its bytes, which are not UTF-8")
		}
		add("windows-1252", "its bytes, which are not UTF-8")
	}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		// What the tree of this reading declares is a reading too: the bound is the number
		// of encodings.
		for _, m := range treeCharsets(read(r)) {
			add(m.label, "a <meta charset> it holds when read as "+r.name)
		}
	}
}

func decodeWith(src []byte, e encoding.Encoding, name, why string) reading {
	// Decoders replace what they cannot decode; they never fail on bytes.
	text, err := e.NewDecoder().Bytes(src)
	if err != nil {
		text = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	return reading{text: text, name: name, why: why}
}

// declaration is an encoding label a <meta> declares, at the byte offset of its tag.
type declaration struct {
	label string
	off   int
}

// Encoding returns the encoding other than UTF-8 that a browser may read a page in, and the
// byte offset that makes it: a UTF-16 byte-order mark, a declaration (found by the HTML
// Standard's prescan, or a <meta> of the page's tree), or, when the page declares nothing,
// the escape bytes of ISO-2022-JP, which a browser detects. name is "" when the page declares
// UTF-8 or nothing, and holds no escape. A build writes UTF-8, and refuses a page that says
// otherwise; verify refuses a page a browser may read otherwise.
func Encoding(src []byte) (name string, off int) {
	if bytes.HasPrefix(src, []byte{0xFE, 0xFF}) || bytes.HasPrefix(src, []byte{0xFF, 0xFE}) {
		return "UTF-16", 0
	}
	if bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}) {
		return "", 0 // the byte-order mark decides
	}
	decls := prescan(src)
	decls = append(decls, treeCharsets(markup.ParseString(unsafe.String(unsafe.SliceData(src), len(src)), markup.Options{}))...)
	first := -1
	for i, m := range decls {
		if _, n := charset.Lookup(m.label); n != "utf-8" && !strings.HasPrefix(n, "utf-16") && (first < 0 || m.off < decls[first].off) {
			first = i
		}
	}
	if first >= 0 {
		m := decls[first]
		if _, n := charset.Lookup(m.label); n != "" {
			return n, m.off
		}
		return m.label, m.off
	}
	if i := bytes.IndexByte(src, 0x1B); i >= 0 && len(decls) == 0 {
		return "iso-2022-jp", i
	}
	return "", 0
}

// treeCharsets returns the encodings that the <meta> elements of a tree declare (a charset
// attribute, or http-equiv="content-type" with a charset in its content), as the tree builder
// reads them (HTML Standard §13.2.6.4.4, "in head", A start tag whose tag name is "meta").
func treeCharsets(d *markup.Document) []declaration {
	var out []declaration
	for _, n := range d.Nodes {
		if !n.Is(markup.HTML, "meta") {
			continue
		}
		if cs, ok := n.AttrValue("charset"); ok {
			out = append(out, declaration{strings.TrimSpace(cs), n.Tag.Start})
			continue
		}
		equiv, _ := n.AttrValue("http-equiv")
		content, ok := n.AttrValue("content")
		if ok && asciiEqualFold(equiv, "content-type") {
			if label, ok := metaContentCharset(content); ok {
				out = append(out, declaration{label, n.Tag.Start})
			}
		}
	}
	return out
}

// asciiEqualFold reports whether s equals t (lower-case ASCII) in ASCII case only, as the
// HTML Standard compares keywords: Unicode case folding (ſ for s, K for k) does not count.
func asciiEqualFold(s, t string) bool {
	return len(s) == len(t) && markup.HasPrefixFold(s, t)
}

// prescan returns every encoding declaration the HTML Standard's "prescan a byte stream to
// determine its encoding" (§13.2.3.2) finds in src. The standard stops at the first and
// reads 1024 bytes; a browser's own reading of a longer head may meet more, so every one in
// the whole input counts.
func prescan(src []byte) []declaration {
	var out []declaration
	lower := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 0x20
		}
		return c
	}
	isWS := func(c byte) bool { return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20 }
	isLetter := func(c byte) bool { return 'a' <= lower(c) && lower(c) <= 'z' }
	// attribute is "get an attribute": it returns the name and value, lower-cased (when keep
	// is set: a tag other than <meta> only needs to be passed over), and the position after
	// it; ok is false where the tag ends.
	attribute := func(i int, keep bool) (name, value string, next int, ok bool) {
		for i < len(src) && (isWS(src[i]) || src[i] == '/') {
			i++
		}
		if i >= len(src) || src[i] == '>' {
			return "", "", i, false
		}
		var n, v []byte
		named := false // the name is not empty
		for {
			if i >= len(src) {
				return string(n), "", i, true
			}
			c := src[i]
			if c == '=' && named {
				i++
				break
			}
			if isWS(c) {
				for i < len(src) && isWS(src[i]) {
					i++
				}
				if i >= len(src) || src[i] != '=' {
					return string(n), "", i, true
				}
				i++
				break
			}
			if (c == '/' || c == '>') && named {
				return string(n), "", i, true
			}
			if keep {
				n = append(n, lower(c))
			}
			named = true
			i++
		}
		for i < len(src) && isWS(src[i]) {
			i++
		}
		if i >= len(src) {
			return string(n), "", i, true
		}
		if q := src[i]; q == '"' || q == '\'' {
			i++
			for i < len(src) && src[i] != q {
				if keep {
					v = append(v, lower(src[i]))
				}
				i++
			}
			return string(n), string(v), min(i+1, len(src)), true
		}
		if src[i] == '>' {
			return string(n), "", i, true
		}
		for i < len(src) && !isWS(src[i]) && src[i] != '>' {
			if keep {
				v = append(v, lower(src[i]))
			}
			i++
		}
		return string(n), string(v), i, true
	}
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			// To the first '>' preceded by "--" after the '<' ("<!-->" ends there).
			k := bytes.Index(rest[2:], []byte("-->"))
			if k < 0 {
				return out
			}
			i += 2 + k + 3
		case len(rest) > 6 && markup.HasPrefixFold(string(rest[:5]), "<meta") && (isWS(rest[5]) || rest[5] == '/'):
			at := i
			i += 6
			seen := map[string]bool{}
			gotPragma, needPragma, cs := false, 0, "" // needPragma: 0 null, 1 true, 2 false
			for {
				name, value, next, ok := attribute(i, true)
				i = next
				if !ok {
					break
				}
				if seen[name] {
					continue
				}
				seen[name] = true
				switch name {
				case "http-equiv":
					gotPragma = gotPragma || value == "content-type"
				case "content":
					if cs == "" {
						if label, ok := metaContentCharset(value); ok {
							cs, needPragma = label, 1
						}
					}
				case "charset":
					cs, needPragma = strings.Trim(value, "\t\n\f\r "), 2
				}
			}
			if needPragma == 0 || needPragma == 1 && !gotPragma || cs == "" {
				continue
			}
			out = append(out, declaration{cs, at})
		case len(rest) > 1 && isLetter(rest[1]) || len(rest) > 2 && rest[1] == '/' && isLetter(rest[2]):
			k := 1
			for k < len(rest) && !isWS(rest[k]) && rest[k] != '>' {
				k++
			}
			i += k
			for {
				_, _, next, ok := attribute(i, false)
				i = next
				if !ok {
					break
				}
			}
		case len(rest) > 1 && (rest[1] == '!' || rest[1] == '/' || rest[1] == '?'):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return out
			}
			i += k + 1
		default:
			i++
		}
	}
	return out
}

// metaContentCharset is the HTML Standard's "extract a character encoding from a meta
// element" (§2.3.3) of a content attribute's value.
func metaContentCharset(s string) (string, bool) {
	for i := 0; ; {
		j := i
		for j+len("charset") <= len(s) && !markup.HasPrefixFold(s[j:], "charset") {
			j++
		}
		if j+len("charset") > len(s) {
			return "", false
		}
		i = j + len("charset")
		k := i
		for k < len(s) && markup.IsSpace(s[k]) {
			k++
		}
		if k >= len(s) || s[k] != '=' {
			continue
		}
		k++
		for k < len(s) && markup.IsSpace(s[k]) {
			k++
		}
		if k >= len(s) {
			return "", false
		}
		if q := s[k]; q == '"' || q == '\'' {
			e := strings.IndexByte(s[k+1:], q)
			if e < 0 {
				return "", false
			}
			return s[k+1 : k+1+e], true
		}
		e := k
		for e < len(s) && !markup.IsSpace(s[e]) && s[e] != ';' {
			e++
		}
		return s[k:e], true
	}
}
