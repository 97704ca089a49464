package pipeline

import (
	"bytes"

	"golang.org/x/net/html/charset"
)

// decodeStylesheet decodes a stylesheet file to UTF-8 as a browser decodes it (CSS Syntax 3,
// "decode bytes" and "determine the fallback encoding"): a byte-order mark decides; else an
// @charset rule, when the file's first bytes are exactly @charset "label"; (an encoding of
// that label, UTF-16 read as UTF-8); else the environment's encoding, the page's, which is
// UTF-8 in every page bundle builds. esbuild reads every file as UTF-8: a stylesheet written
// in ISO-8859-1 with @charset "iso-8859-1" showed "caf\uFFFD" where the page as written showed
// "café". (A stylesheet @imported by one in another encoding, without @charset or a mark of
// its own, is read as UTF-8, not in its importer's encoding.)
func decodeStylesheet(src []byte) []byte {
	switch {
	case bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}):
		return src[3:]
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}), bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		label := "utf-16le"
		if src[0] == 0xFE {
			label = "utf-16be"
		}
		enc, _ := charset.Lookup(label)
		if out, err := enc.NewDecoder().Bytes(src[2:]); err == nil {
			return out
		}
		return src
	}
	const prefix = `@charset "`
	head := src[:min(len(src), 1024)]
	if !bytes.HasPrefix(head, []byte(prefix)) {
		return src
	}
	end := bytes.IndexByte(head[len(prefix):], '"')
	if end < 0 || len(head) < len(prefix)+end+2 || head[len(prefix)+end+1] != ';' {
		return src
	}
	enc, name := charset.Lookup(string(head[len(prefix) : len(prefix)+end]))
	if enc == nil || isUTF8(name) || name == "utf-16be" || name == "utf-16le" {
		return src
	}
	out, err := enc.NewDecoder().Bytes(src)
	if err != nil {
		return src
	}
	return out
}
