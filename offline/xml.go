package offline

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/unicode"
)

// The namespaces whose elements the rules know.
const (
	nsXHTML = "http://www.w3.org/1999/xhtml"
	nsXLink = "http://www.w3.org/1999/xlink"
)

// checkXML checks an XML document (SVG or XHTML shown in a frame) as a browser's XML parser
// reads it, in every encoding a browser may decode it in (a byte-order mark; else the charset
// of its type, its XML declaration, UTF-8). encoding/xml is a tokenizer; on it this builds
// what the reading needs: elements by namespace (XHTML elements take the HTML rules, SVG and
// others the foreign ones: presentation attributes, SMIL), namespaced attributes (xlink:href),
// the text of <style> and <script>, and processing instructions: an xml-stylesheet's
// pseudo-attributes are read as an XML parser reads a tag's attributes, as Chromium reads
// them, and one that names XSLT (which Chromium runs) is refused. What it cannot read is
// refused, never assumed clean: a DTD internal subset (entities, ATTLIST default attributes),
// an entity it does not know, a document that is not well-formed (the elements before the
// error are judged too: a browser shows them).
func (c *checker) checkXML(payload []byte, typeCharset string, sc scope) []hit {
	var hits []hit
	for _, r := range xmlReadings(payload, typeCharset) {
		rsc := sc
		rsc.enc = r.name
		inner := c.readXML(r.text, rsc)
		if r.name != "" {
			for i := range inner {
				inner[i].via += viaReading(r, "it")
			}
		}
		hits = append(hits, inner...)
	}
	return hits
}

// xmlReadings returns the texts a browser may decode an XML document's bytes to (XML §4.3.3
// and RFC 7303: a byte-order mark, the charset of the type, the encoding declaration).
func xmlReadings(b []byte, typeCharset string) []reading {
	switch {
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return []reading{decodeWith(b, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "UTF-16BE", "its byte-order mark")}
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return []reading{decodeWith(b, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "UTF-16LE", "its byte-order mark")}
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return []reading{{text: b[3:]}}
	}
	out := []reading{{text: b}}
	seen := map[string]bool{"utf-8": true}
	for _, l := range []struct{ label, why string }{{typeCharset, "the charset of its type"}, {xmlDeclEncoding(b), "its XML declaration"}} {
		e, name := charset.Lookup(l.label)
		if e == nil || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, decodeWith(b, e, name, l.why))
	}
	return out
}

// xmlDeclEncoding returns the encoding an XML declaration at the start of b names, or "".
func xmlDeclEncoding(b []byte) string {
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(b, []byte("?>"))
	if end < 0 {
		return ""
	}
	attrs, ok := pseudoAttrs(string(b[5:end]))
	if !ok {
		return ""
	}
	return attrs["encoding"]
}

// xmlSink takes the hits of an XML document's elements: the document is nested in a data:
// URL, so every hit is placed at the URL.
type xmlSink struct{ hits []hit }

func (s *xmlSink) add(_ int, hits []hit) {
	for _, h := range hits {
		h.off, h.length = -1, 0
		s.hits = append(s.hits, h)
	}
}

func (s *xmlSink) addLater(target, _ int, check func() []hit) { s.add(target, check()) }

// readXML judges one reading, UTF-8 text, of an XML document.
func (c *checker) readXML(src []byte, sc scope) []hit {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	// The text is decoded already: the declaration's encoding names what it was.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	s := &xmlSink{}
	type open struct {
		e    elem
		text strings.Builder
	}
	var stack []*open
	judge := func(o *open) {
		o.e.text, o.e.hasText = o.text.String(), o.text.Len() > 0
		c.element(&o.e, sc, s)
	}
	refuse := func(text, note string) []hit {
		// What was read before is a document a browser shows: judge its open elements too.
		for i := len(stack) - 1; i >= 0; i-- {
			judge(stack[i])
		}
		return append(resolveConditional(s.hits, hasURLVar(s.hits)), hit{off: -1, place: "XML document", text: text, note: note})
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return refuse("cannot read this XML document: "+err.Error(), noteXMLUnreadable)
		}
		switch t := tok.(type) {
		case xml.Directive:
			if dt, ok := bytes.CutPrefix(t, []byte("DOCTYPE")); ok {
				if bytes.IndexByte(dt, '[') >= 0 {
					return refuse("this XML document declares a DTD internal subset (entities, default attributes), which the check does not read", noteXMLUnreadable)
				}
				if bytes.Contains(dt, []byte("-//W3C//DTD XHTML")) {
					d.Entity = xml.HTMLEntity // XHTML's doctypes bring HTML's entities in Chromium
				}
			}
		case xml.ProcInst:
			if t.Target != "xml-stylesheet" {
				continue
			}
			attrs, ok := pseudoAttrs(string(t.Inst))
			if !ok {
				return refuse("cannot read the pseudo-attributes of <?xml-stylesheet?>", noteXMLUnreadable)
			}
			href, typ := attrs["href"], attrs["type"]
			if typ != "" && typ != "text/css" {
				return refuse(fmt.Sprintf("<?xml-stylesheet type=%q?> runs an XSLT (or unknown) stylesheet, whose output the check cannot read", typ), noteXSLT)
			}
			place := "<?xml-stylesheet href?>"
			switch {
			case isData(href):
				s.add(0, c.nested(-1, 0, place, href, docCSS, sc, fallback{}))
			case !isOwn(href):
				s.add(0, []hit{{off: -1, place: place, url: href}})
			}
		case xml.StartElement:
			o := &open{e: elem{name: t.Name.Local, foreign: t.Name.Space != nsXHTML}}
			for _, a := range t.Attr {
				name := a.Name.Local
				switch {
				case a.Name.Space == "xmlns" || a.Name.Space == "" && name == "xmlns":
					continue
				case a.Name.Space == nsXLink:
					name = "xlink:" + name
				}
				o.e.attrs = append(o.e.attrs, attr{name: name, value: a.Value})
			}
			stack = append(stack, o)
		case xml.CharData:
			if n := len(stack); n > 0 {
				stack[n-1].text.Write(t)
			}
		case xml.EndElement:
			if n := len(stack); n > 0 {
				judge(stack[n-1])
				stack = stack[:n-1]
			}
		}
	}
	return resolveConditional(s.hits, hasURLVar(s.hits))
}

// pseudoAttrs reads the pseudo-attributes of a processing instruction as Chromium does: as
// the attributes of a tag (name="value", references decoded, no name twice). ok is false
// when they do not read so, and Chromium then ignores the instruction.
func pseudoAttrs(inst string) (map[string]string, bool) {
	d := xml.NewDecoder(strings.NewReader("<x " + inst + "/>"))
	d.Strict = true
	tok, err := d.Token()
	if err != nil {
		return nil, false
	}
	start, ok := tok.(xml.StartElement)
	if !ok {
		return nil, false
	}
	out := map[string]string{}
	for _, a := range start.Attr {
		name := a.Name.Local
		if a.Name.Space != "" {
			name = a.Name.Space + ":" + name
		}
		if _, dup := out[name]; dup {
			return nil, false
		}
		out[name] = a.Value
	}
	return out, true
}
