package pipeline

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
)

// SVG sprites. <use href="icons.svg#home"> names an element of another document, which a
// bundle does not have beside it, and Chromium no longer takes a data: URL there (nor any
// other document's paint server, filter or marker: fill="url(paints.svg#g)"). The build puts
// the file's content in the page once, in a hidden <svg> at the end of <body>, and points
// each reference at the element's id in the page (#home), as authors inline a sprite by hand. A sprite is inlined only when that changes nothing else in the page: it has no
// <style> or <script> (which would apply to the whole page inlined), and none of its ids is
// an id of the page's or of another sprite's.

// sprite is an SVG file whose content the page holds.
type sprite struct {
	markup string          // the root <svg>'s content
	ids    map[string]bool // every id in it
}

// spriteUse rewrites the href of a <use> that names an element of a local SVG file to that
// element's id in the page; it returns false (with an error reported) when it cannot.
func (a *assembler) spriteUse(at attr) (string, bool) {
	u, frag, ok := local(at.val)
	if !ok {
		return "", false // the offline check judges it
	}
	if len(frag) < 2 {
		a.handled = append(a.handled, [2]int{at.off, at.off + at.n})
		a.errAt(at.off, at.n, fmt.Sprintf("<use> names the whole of %s, which a page cannot hold as a document", u), fmt.Sprintf("name one of its elements by id: href=\"%s#id\"", u))
		return "", false
	}
	rel, ok := a.resolve(u, at)
	if !ok {
		return "", false
	}
	s, err := a.loadSprite(rel)
	if _, seen := a.spriteAt[rel]; !seen && err == nil {
		a.spriteAt[rel] = [2]int{at.off, at.n}
	}
	if err != nil {
		a.errAt(at.off, at.n, fmt.Sprintf("<use> names %s, which cannot be put in the page: %v", u, err), "put the symbols in the page yourself, in an <svg> of its own, and write <use href=\"#id\">")
		return "", false
	}
	id := frag[1:]
	if !s.ids[id] {
		note := fmt.Sprintf("name an element of %s by its id", u)
		if best, near := diag.Suggest(id, slices.Sorted(maps.Keys(s.ids))); near {
			note = fmt.Sprintf("did you mean %q?", u+"#"+best)
		}
		a.errAt(at.off, at.n, fmt.Sprintf("%s has no element with id %q", u, id), note)
		return "", false
	}
	return frag, true
}

// spriteRef rewrites an SVG presentation attribute that names an element of a local SVG
// file, fill="url(paints.svg#g)", to the element's id in the page, as a <use> is: Chromium
// loads no paint server, filter or marker from another document.
func (a *assembler) spriteRef(at attr) (string, bool) {
	v := strings.TrimLeft(at.val, " \t\n\r\f")
	end := strings.IndexByte(v, ')')
	if !markup.HasPrefixFold(v, "url(") || end < 0 {
		return "", false
	}
	inner, ok := urlArg(v[:end+1])
	if !ok || !strings.Contains(inner, "#") {
		return "", false
	}
	frag, ok := a.spriteUse(attr{key: at.key, val: inner, off: at.off, n: at.n})
	if !ok {
		return "", false
	}
	return "url(" + frag + ")" + v[end+1:], true
}

// loadSprite reads the SVG file rel once per page.
func (a *assembler) loadSprite(rel string) (*sprite, error) {
	if s, ok := a.sprites[rel]; ok {
		return s, nil
	}
	if !strings.EqualFold(path.Ext(rel), ".svg") {
		return nil, errors.New("it is not an .svg file")
	}
	p, err := a.m.Resolve(rel)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	s, err := parseSprite(b)
	if err != nil {
		return nil, err
	}
	for _, id := range slices.Sorted(maps.Keys(s.ids)) {
		for _, other := range a.spriteOrder {
			if a.sprites[other].ids[id] {
				return nil, fmt.Errorf("its id %q is an id of %s too, and in one page the first would be found", id, other)
			}
		}
	}
	a.sprites[rel] = s
	a.spriteOrder = append(a.spriteOrder, rel)
	a.b.inputs[rel] += len(s.markup)
	return s, nil
}

// parseSprite reads an SVG document: its root <svg>'s content, as written, and its ids.
func parseSprite(b []byte) (*sprite, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	s := &sprite{ids: map[string]bool{}}
	depth, start := 0, -1
	for {
		before := int(d.InputOffset())
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("it is not well-formed XML (%v)", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if depth == 0 && (name != "svg" || start >= 0) {
				return nil, errors.New("its root element is not <svg>")
			}
			if name == "style" || name == "script" || name == "foreignobject" {
				return nil, fmt.Errorf("it has a <%s>, which would apply to the whole page", t.Name.Local)
			}
			for _, at := range t.Attr {
				if at.Name.Local == "id" && at.Name.Space == "" {
					s.ids[at.Value] = true
				}
				if strings.HasPrefix(strings.ToLower(at.Name.Local), "on") {
					return nil, fmt.Errorf("it has an event handler (%s)", at.Name.Local)
				}
			}
			if depth == 0 {
				start = int(d.InputOffset())
			}
			depth++
		case xml.EndElement:
			depth--
			if depth == 0 {
				s.markup = strings.TrimSpace(string(b[start:before]))
			}
		}
	}
	if start < 0 {
		return nil, errors.New("it has no <svg> element")
	}
	// In the page, the sprite is the content of an <svg>, which the HTML tree builder
	// reads, not an XML parser: an HTML tag there ends the SVG (a breakout), and an SVG
	// <title> or <desc> holds HTML. The sprite goes in only as SVG, moved nowhere.
	f := markup.ParseFragment([]byte(s.markup), &markup.Node{Type: markup.ElementNode, Namespace: markup.SVG, Name: "svg"}, markup.Options{})
	for _, n := range f.Nodes {
		if n.Type == markup.ElementNode && n.Namespace != markup.SVG && n.Flags&markup.Implied == 0 {
			return nil, fmt.Errorf("it has a <%s>, which a page reads as HTML", n.Name)
		}
	}
	for _, r := range f.Repairs {
		if refused(r) {
			return nil, fmt.Errorf("the HTML parser of a page would repair its markup (%v at byte %d of its content)", r.Kind, r.At.Start)
		}
	}
	return s, nil
}

// spriteMarkup is the hidden <svg> that holds the sprites not yet written, for the end of <body>;
// it reports an error for a sprite id that is an id of the page's.
func (a *assembler) spriteMarkup() string {
	order := a.spriteOrder[a.spritesWritten:]
	if len(order) == 0 {
		return ""
	}
	a.spritesWritten = len(a.spriteOrder)
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" style="position:absolute;overflow:hidden">`)
	for _, rel := range order {
		s := a.sprites[rel]
		for _, id := range slices.Sorted(maps.Keys(s.ids)) {
			if a.pageIDs[id] {
				at := a.spriteAt[rel]
				a.errAt(at[0], at[1], fmt.Sprintf("%s's id %q is an id of the page too: inlined, the page's would be found first", rel, id), "rename one of them")
			}
		}
		b.WriteString(s.markup)
	}
	b.WriteString("</svg>")
	return b.String()
}
