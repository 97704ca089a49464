package offline

import (
	"bytes"
	"fmt"
	"strings"
	"unsafe"

	"github.com/miniapp/bundle/markup"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/unicode"
)

// docKind is where a data: URL is used, which decides what the browser makes of its payload.
type docKind int

const (
	docHTML    docKind = iota // a navigable place: iframe, frame, object, embed, a or area href
	docCSS                    // a stylesheet: <link rel=stylesheet>, @import
	docModule                 // a module script or an import
	docClassic                // a classic script
)

// fallback is what decides a nested resource's encoding when its bytes and type do not: the
// charset attribute of the element that loads it (<script charset>, <link charset>).
type fallback struct {
	attr string
}

// inertMIME reports whether a document of this type, shown in a frame, loads nothing: text
// shown as text, images, sound and video.
func inertMIME(mime string) bool {
	switch {
	case mime == "text/plain", mime == "text/csv", mime == "application/json",
		strings.HasPrefix(mime, "audio/"), strings.HasPrefix(mime, "video/"), strings.HasPrefix(mime, "font/"):
		return true
	case strings.HasPrefix(mime, "image/"):
		return !isXMLMIME(mime)
	}
	return false
}

// isXMLMIME reports whether a frame parses a document of this type as XML (MIME Sniffing
// Standard, "XML MIME type").
func isXMLMIME(mime string) bool {
	return mime == "text/xml" || mime == "application/xml" || strings.HasSuffix(mime, "+xml")
}

// textReadings returns the texts a browser may decode a script's or a stylesheet's bytes to.
// A byte-order mark decides (the Encoding Standard's "decode", which the Fetch and CSS
// Syntax standards use; a module is decoded as UTF-8 whatever it says, and may be read with
// its mark too). Else every candidate the rules for the kind name is a reading: the charset
// of its type, the element's charset attribute, an @charset rule (CSS Syntax §3.2, "determine
// the fallback encoding"), the encoding of the document or stylesheet that loads it, and
// UTF-8. Each is named for the finding when it is not UTF-8.
func textReadings(payload []byte, kind docKind, typeCharset string, fb fallback, sc scope) []reading {
	var out []reading
	seen := map[string]bool{}
	add := func(label, why string) {
		e, name := charset.Lookup(label)
		if e == nil || seen[name] {
			return
		}
		seen[name] = true
		if name == "utf-8" {
			out = append(out, reading{text: bytes.TrimPrefix(payload, []byte{0xEF, 0xBB, 0xBF})})
			return
		}
		out = append(out, decodeWith(payload, e, name, why))
	}
	switch {
	case bytes.HasPrefix(payload, []byte{0xEF, 0xBB, 0xBF}):
		add("utf-8", "")
		return out
	case bytes.HasPrefix(payload, []byte{0xFE, 0xFF}), bytes.HasPrefix(payload, []byte{0xFF, 0xFE}):
		endian, name := unicode.LittleEndian, "UTF-16LE"
		if payload[0] == 0xFE {
			endian, name = unicode.BigEndian, "UTF-16BE"
		}
		out = append(out, decodeWith(payload, unicode.UTF16(endian, unicode.UseBOM), name, "its byte-order mark"))
		if kind == docModule {
			add("utf-8", "")
		}
		return out
	}
	add("utf-8", "")
	if kind == docModule {
		return out
	}
	if typeCharset != "" {
		add(typeCharset, "the charset of its type")
	}
	if fb.attr != "" {
		add(fb.attr, "the charset attribute of the element that loads it")
	}
	if kind == docCSS {
		if label, ok := cssCharsetRule(payload); ok {
			if _, name := charset.Lookup(label); strings.HasPrefix(name, "utf-16") {
				label = "utf-8" // CSS Syntax §3.2: an @charset of UTF-16 means UTF-8
			}
			add(label, "its @charset rule")
		}
	}
	if sc.enc != "" {
		add(sc.enc, "the encoding of what loads it")
	}
	return out
}

// cssCharsetRule reads the @charset rule CSS Syntax §3.2 honours: the bytes `@charset "`,
// a label, `";` at the very start of the stylesheet.
func cssCharsetRule(b []byte) (string, bool) {
	const open = `@charset "`
	if !bytes.HasPrefix(b, []byte(open)) {
		return "", false
	}
	rest := b[len(open):min(len(b), 1024)]
	i := bytes.IndexByte(rest, '"')
	if i < 0 || i+1 >= len(rest) || rest[i+1] != ';' {
		return "", false
	}
	return string(rest[:i]), true
}

// nested decodes the data: URL u found at [at, at+n) and checks its payload as the browser
// reads it in that place: a document by its MIME type (HTML in every reading its bytes allow,
// XML for SVG and XHTML), a stylesheet, a module (CSS for a CSS module script), a classic
// script, each in every encoding a browser may decode it in. A document of a type the check
// does not read is refused. Every hit inside is reported at the URL, since offsets inside an
// encoded payload name no place in the file.
func (c *checker) nested(at, n int, place, u string, kind docKind, sc scope, fb fallback) []hit {
	mime, cs, payload, ok := dataURL(u)
	if !ok {
		return nil
	}
	if sc.depth+1 > maxDepth {
		return []hit{{off: at, length: n, place: place, url: u, text: fmt.Sprintf("%s nests documents more than %d deep", place, maxDepth), note: noteDeep}}
	}
	in := sc.inner()
	var inner []hit
	read := func(rs []reading, check func(text string, sc scope) []hit) {
		for _, r := range rs {
			rsc := in
			rsc.enc = r.name
			hits := check(string(r.text), rsc)
			if r.name != "" {
				for i := range hits {
					hits[i].via += viaReading(r, "it")
					hits[i].note = noteNestedEncoding
				}
			}
			inner = append(inner, hits...)
		}
	}
	switch kind {
	case docHTML:
		switch {
		case mime == "text/html":
			readings(payload, cs, func(r reading) *markup.Document {
				d := markup.ParseString(unsafe.String(unsafe.SliceData(r.text), len(r.text)), markup.Options{})
				rsc := in
				rsc.enc = r.name
				hits := c.checkTree(d, rsc)
				if r.name != "" {
					for i := range hits {
						hits[i].via += viaReading(r, "it")
					}
				}
				inner = append(inner, hits...)
				return d
			})
		case isXMLMIME(mime):
			inner = c.checkXML(payload, cs, in)
		case inertMIME(mime):
		default:
			return []hit{{off: at, length: n, place: place, url: u, text: fmt.Sprintf("%s shows a data: document of type %s, which the check does not read", place, mime), note: noteDataType}}
		}
	case docCSS:
		read(textReadings(payload, docCSS, cs, fb, sc), c.checkCSS)
	case docModule:
		switch {
		case mime == "text/css":
			read(textReadings(payload, docModule, cs, fb, sc), c.checkCSS) // a CSS module script
		case mime == "application/json" || strings.HasSuffix(mime, "+json"):
		default:
			read(textReadings(payload, docModule, cs, fb, sc), func(text string, sc scope) []hit { return c.checkScript(text, true, "module", sc) })
		}
	case docClassic:
		if strings.HasPrefix(mime, "image/") || strings.HasPrefix(mime, "audio/") || strings.HasPrefix(mime, "video/") || mime == "text/csv" {
			return nil // the browser refuses to run these as scripts
		}
		read(textReadings(payload, docClassic, cs, fb, sc), func(text string, sc scope) []hit { return c.checkScript(text, false, "script", sc) })
	}
	for i := range inner {
		inner[i].off, inner[i].length = at, n
		inner[i].place += " inside the data: URL of " + place
		nestedNote(&inner[i])
	}
	return inner
}

// viaReading says, of a hit found in a reading other than UTF-8, which.
func viaReading(r reading, what string) string {
	return fmt.Sprintf(" (when %s is read as %s, as a browser may from %s)", what, r.name, r.why)
}

// nestedNote says, of a file named in a nested document (srcdoc, a data: URL), that the build
// does not inline it there: the default note says it does.
func nestedNote(h *hit) {
	if h.note == "" && !isRemote(h.url) {
		h.note = noteNested
	}
}

// nestedDoc checks the document src held in an attribute (srcdoc): a string, which no
// decoding changes, parsed as the document of a frame.
func (c *checker) nestedDoc(src string, at, n int, place string, sc scope) []hit {
	if sc.depth+1 > maxDepth {
		return []hit{{off: at, length: n, place: place, text: fmt.Sprintf("%s nests documents more than %d deep", place, maxDepth), note: noteDeep}}
	}
	d := markup.ParseString(src, markup.Options{})
	inner := c.checkTree(d, scope{depth: sc.depth + 1})
	for i := range inner {
		inner[i].place += " inside " + place
		nestedNote(&inner[i])
	}
	return inner
}
