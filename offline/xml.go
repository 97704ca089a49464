package offline

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/miniapp/bundle/markup"
	"golang.org/x/net/html/charset"
)

// xmlURLAttrs are the attributes, by local name in any namespace, that hold one URL an XML
// document (SVG, XHTML) loads or navigates to.
var xmlURLAttrs = map[string]bool{"href": true, "src": true, "data": true, "action": true, "formaction": true,
	"poster": true, "background": true, "icon": true, "manifest": true, "lowsrc": true, "dynsrc": true, "codebase": true}

// checkXML checks an XML document (SVG or XHTML shown in a frame) as a browser's XML parser
// reads it: character references and the five predefined entities decoded, <style> and
// <script> text read as ordinary text, namespaced attributes (xlink:href) by their local
// name, and processing instructions (<?xml-stylesheet href?>). A document the parser cannot
// read (an entity it does not know, as an internal DTD subset would declare) is refused, never
// assumed clean.
func (c *checker) checkXML(src []byte, depth int) []hit {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) { return charset.NewReaderLabel(label, in) }
	var hits []hit
	var stack []string // local names of open elements
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return append(resolveConditional(hits, hasURLVar(hits)), hit{off: -1, place: "XML document", text: "cannot read this XML document: " + err.Error(),
				note: "a document the check cannot read is refused, since it may load something"})
		}
		switch t := tok.(type) {
		case xml.ProcInst:
			if t.Target == "xml-stylesheet" {
				if href, ok := pseudoAttr(string(t.Inst), "href"); ok {
					if isOwn(href) {
						if isData(href) {
							hits = append(hits, c.nested(-1, 0, "<?xml-stylesheet href?>", href, docCSS, depth)...)
						}
					} else {
						hits = append(hits, hit{off: -1, place: "<?xml-stylesheet href?>", url: href})
					}
				}
			}
		case xml.StartElement:
			name := t.Name.Local
			stack = append(stack, name)
			text.Reset()
			for _, a := range t.Attr {
				local := a.Name.Local
				place := fmt.Sprintf("<%s %s>", name, local)
				switch {
				case xmlURLAttrs[local]:
					switch {
					case local == "href" && name == "a" && isData(a.Value):
						hits = append(hits, c.nested(-1, 0, place, a.Value, docHTML, depth)...)
					case local == "href" && name == "a" && (isOwn(a.Value) || linkAllowed(a.Value, c.opts.LinkDomains)):
					case isOwn(a.Value):
						if isData(a.Value) {
							hits = append(hits, c.xmlData(t, name, place, a.Value, depth)...)
						}
					default:
						hits = append(hits, hit{off: -1, place: place, url: a.Value})
					}
				case local == "srcset" || local == "imagesrcset" || local == "ping" || local == "attributionsrc":
					urls := spaceURLs(a.Value)
					if strings.HasSuffix(local, "srcset") {
						urls = markup.Srcset(a.Value)
					}
					for _, u := range urls {
						if !isOwn(u.Text) {
							hits = append(hits, hit{off: -1, place: place, url: u.Text})
						}
					}
				case local == "srcdoc" && name == "iframe":
					hits = append(hits, c.nestedDoc(a.Value, -1, 0, "<iframe srcdoc>", depth)...)
				case local == "style" || strings.IndexByte(a.Value, '(') >= 0:
					for _, h := range c.checkCSS(a.Value, depth) {
						h.off, h.length, h.place = -1, 0, h.place+" in "+place
						hits = append(hits, h)
					}
				}
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if len(stack) == 0 {
				break
			}
			name := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch name {
			case "style":
				for _, h := range c.checkCSS(text.String(), depth) {
					h.off, h.length, h.place = -1, 0, h.place+" in <style>"
					hits = append(hits, h)
				}
			case "script":
				hits = append(hits, c.checkScript(text.String(), true, "<script>", depth)...)
			}
			text.Reset()
		}
	}
	return resolveConditional(hits, hasURLVar(hits))
}

// xmlData checks the payload of a data: URL that element el of an XML document loads, as the
// browser uses it there: a frame's document, a script (module when its type says so), a
// stylesheet or module preload of a <link>.
func (c *checker) xmlData(el xml.StartElement, name, place, u string, depth int) []hit {
	attr := func(k string) string {
		for _, a := range el.Attr {
			if a.Name.Local == k {
				return a.Value
			}
		}
		return ""
	}
	switch name {
	case "iframe", "object", "embed", "frame":
		return c.nested(-1, 0, place, u, docHTML, depth)
	case "script":
		typ := strings.ToLower(strings.TrimSpace(attr("type")))
		if typ == "module" {
			return c.nested(-1, 0, place, u, docModule, depth)
		}
		return c.nested(-1, 0, place, u, docClassic, depth)
	case "link":
		rel := " " + strings.ToLower(attr("rel")) + " "
		if strings.Contains(rel, "modulepreload") {
			return c.nested(-1, 0, place, u, docModule, depth)
		}
		if strings.Contains(rel, "stylesheet") || strings.Contains(rel, "preload") {
			return c.nested(-1, 0, place, u, docCSS, depth)
		}
	}
	return nil
}

// pseudoAttr reads a pseudo-attribute of a processing instruction (name="value").
func pseudoAttr(inst, name string) (string, bool) {
	for s := inst; ; {
		i := strings.Index(s, name)
		if i < 0 {
			return "", false
		}
		rest := strings.TrimLeft(s[i+len(name):], " \t\r\n")
		if (i == 0 || strings.IndexByte(" \t\r\n", s[i-1]) >= 0) && strings.HasPrefix(rest, "=") {
			rest = strings.TrimLeft(rest[1:], " \t\r\n")
			if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
				if j := strings.IndexByte(rest[1:], rest[0]); j >= 0 {
					return xmlUnescape(rest[1 : 1+j]), true
				}
			}
			return "", false
		}
		s = s[i+len(name):]
	}
}

// xmlUnescape decodes the references a pseudo-attribute may hold.
func xmlUnescape(s string) string {
	var v struct {
		Text string `xml:",chardata"`
	}
	if xml.Unmarshal([]byte("<x>"+s+"</x>"), &v) != nil {
		return s
	}
	return v.Text
}
