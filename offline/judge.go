package offline

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/miniapp/bundle/markup"
)

// The rules for one element, whichever reader found it: an HTML tree (html.go) or an XML
// document (xml.go).

// elem is one element as the rules read it.
type elem struct {
	name string // local name as the document's tree has it: lower case in HTML, foreignObject
	// foreign is set for SVG, MathML and other XML namespaces: their presentation
	// attributes take CSS values.
	foreign bool
	// attrs are the attributes in effect, then (dup) the duplicates the tokenizer dropped:
	// Chromium loads a later duplicate in SVG.
	attrs []attr
	// text is the text of the element's text children (a style's sheet, a script's source).
	text    string
	hasText bool
}

type attr struct {
	name  string // "href", "xlink:href"
	value string // decoded as its language decodes it
	dup   bool
	src   *markup.Attr // where an HTML tree's attribute is written; nil in XML
}

// textTarget is the target of hits in an element's text, as opposed to one of its attributes.
const textTarget = -1

// sink takes the hits of one element's targets: an attribute (its index in elem.attrs) or
// the text. Offsets are into the target's decoded value or text.
type sink interface {
	add(target int, hits []hit)
	addLater(target, size int, check func() []hit)
}

// get returns the value of the attribute in effect named name.
func (e *elem) get(name string) (string, bool) {
	for _, a := range e.attrs {
		if a.name == name && !a.dup {
			return a.value, true
		}
	}
	return "", false
}

// needsText reports whether the rules read the element's text.
func needsText(e *elem) bool { return e.name == "style" || e.name == "script" }

// element judges one element: every attribute that loads or navigates, its text where it is a
// stylesheet or a script, and what it declares (refresh).
func (c *checker) element(e *elem, sc scope, s sink) {
	c.handlerHits(e, sc, s)
	for i, a := range e.attrs {
		switch a.name {
		case "href":
			// An HTML element's href loads or navigates only on a, area, link and base (an
			// <image href> in HTML is an img, which has none).
			if e.foreign || e.name == "a" || e.name == "area" || e.name == "link" || e.name == "base" {
				s.add(i, c.urlAttr(e, a.name, a.value, sc))
			}
		case "src", "action", "formaction", "poster", "data", "background", "icon",
			"manifest", "xlink:href", "lowsrc", "dynsrc", "codebase":
			s.add(i, c.urlAttr(e, a.name, a.value, sc))
		case "srcset", "imagesrcset":
			s.add(i, c.list(e.name, a.name, markup.Srcset(a.value), sc))
		case "ping", "attributionsrc":
			hits := c.list(e.name, a.name, spaceURLs(a.value), sc)
			for i := range hits {
				hits[i].note = notePing
			}
			s.add(i, hits)
		case "style":
			hits := c.checkCSS(a.value, sc)
			for i := range hits {
				hits[i].place += ` in style=""`
			}
			s.add(i, hits)
		case "srcdoc":
			if e.name == "iframe" && !e.foreign {
				s.add(i, c.nestedDoc(a.value, -1, 0, "<iframe srcdoc>", sc))
			}
		default:
			// SVG and MathML presentation attributes (fill, filter, mask, clip-path, cursor…)
			// take CSS values, and url() in them can reference an external document.
			if e.foreign && !strings.HasPrefix(a.name, "data-") && strings.IndexByte(a.value, '(') >= 0 {
				s.add(i, c.checkCSS(a.value, sc))
			}
		}
	}
	if e.foreign {
		c.animation(e, sc, s)
	}
	switch e.name {
	case "style":
		if !e.hasText {
			return
		}
		text := e.text
		s.addLater(textTarget, len(text), func() []hit {
			hits := c.checkCSS(text, sc)
			for i := range hits {
				hits[i].place += " in <style>"
			}
			return hits
		})
	case "script":
		kind := scriptKindOf(e)
		text := e.text
		if !e.hasText || strings.TrimSpace(text) == "" {
			return
		}
		s.addLater(textTarget, len(text), func() []hit { return c.scriptHits(kind, text, sc) })
	case "meta":
		if e.foreign {
			return
		}
		if he, ok := e.get("http-equiv"); ok && asciiEqualFold(strings.Trim(he, " \t\n\f\r"), "refresh") {
			content, _ := e.get("content")
			u, hasURL := refreshURL(content)
			h := hit{off: -1, place: `<meta http-equiv="refresh">`, url: u, note: noteRefresh}
			if !hasURL {
				h.text = `<meta http-equiv="refresh"> reloads the page from its server`
			}
			target := textTarget
			for i, a := range e.attrs {
				if a.name == "content" && !a.dup || target == textTarget && a.name == "http-equiv" {
					target = i
				}
			}
			s.add(target, []hit{h})
		}
	}
}

// scriptKindOf is what a script element's type and language make of it.
func scriptKindOf(e *elem) ScriptKind {
	typ, hasType := e.get("type")
	lang, hasLang := e.get("language")
	k, _ := KindOfScript(typ, hasType, lang, hasLang)
	return k
}

// refreshURL extracts the URL of a refresh declaration (HTML Standard, "shared declarative
// refresh steps").
func refreshURL(content string) (string, bool) {
	s := strings.TrimLeft(content, " \t\n\f\r")
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	s = strings.TrimLeft(s[i:], " \t\n\f\r")
	if s == "" || (s[0] != ';' && s[0] != ',') {
		return "", false
	}
	s = strings.TrimLeft(s[1:], " \t\n\f\r")
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		rest := strings.TrimLeft(s[3:], " \t\n\f\r")
		if strings.HasPrefix(rest, "=") {
			s = strings.TrimLeft(rest[1:], " \t\n\f\r")
		}
	}
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		s = s[1:]
		if j := strings.IndexByte(s, q); j >= 0 {
			s = s[:j]
		}
	}
	if s == "" {
		return "", false
	}
	return s, true
}

// list judges a list of URLs (srcset, ping, an animation's values), each at its offset.
func (c *checker) list(tag, name string, urls []markup.Span, sc scope) []hit {
	var hits []hit
	for _, u := range urls {
		place := fmt.Sprintf("<%s %s>", tag, name)
		if !isOwn(u.Text) {
			hits = append(hits, hit{off: u.Off, length: len(u.Text), place: place, url: u.Text})
		} else if sc.depth == 0 && (name == "srcset" || name == "imagesrcset") {
			hits = append(hits, c.policyHit("img-src", u.Off, len(u.Text), place, u.Text)...)
		}
	}
	return hits
}

// animation judges the values an SVG animation element (<set>, <animate>) gives an href:
// Chromium loads the image an <image> or <feImage> is animated to, with no script. to, from
// and by each hold one value; values is a list, split at every ';'.
func (c *checker) animation(e *elem, sc scope, s sink) {
	name, _ := e.get("attributename")
	if name == "" {
		name, _ = e.get("attributeName")
	}
	if !strings.HasSuffix(strings.ToLower(strings.TrimSpace(name)), "href") {
		return
	}
	for i, a := range e.attrs {
		var urls []markup.Span
		switch strings.ToLower(a.name) {
		case "to", "from", "by":
			if v := strings.Trim(a.value, " \t\n\f\r"); v != "" {
				urls = []markup.Span{{Off: strings.Index(a.value, v), Text: v}}
			}
		case "values":
			urls = splitURLs(a.value, ';')
		default:
			continue
		}
		hits := c.list(e.name, strings.ToLower(a.name), urls, sc)
		for i := range hits {
			switch {
			case isRemote(hits[i].url):
			case strings.Contains(strings.ToLower(a.value), "data:"):
				hits[i].note = noteValuesSplit
			default:
				hits[i].note = noteAnimation
			}
		}
		for _, u := range urls {
			if isData(u.Text) && strings.ToLower(a.name) != "values" {
				// The document an animation sets (a <use> takes elements from) is read.
				hits = append(hits, c.nested(u.Off, len(u.Text), fmt.Sprintf("<%s %s>", e.name, a.name), u.Text, docHTML, sc, fallback{})...)
			}
		}
		s.add(i, hits)
	}
}

// urlAttr judges one attribute that holds a single URL.
func (c *checker) urlAttr(e *elem, name, v string, sc scope) []hit {
	tag := e.name
	place := fmt.Sprintf("<%s %s>", tag, name)
	sch, _ := scheme(cleanURL(v))
	if sch == "javascript" && (name == "href" && (tag == "a" || tag == "area") || name == "action" || name == "formaction") {
		if hits := c.javascriptHit(place, v, sc); hits != nil {
			return hits
		}
	}
	switch {
	case name == "href" && (tag == "a" || tag == "area"):
		if sch == "javascript" && sc.depth == 0 {
			return c.policyHit("script-src-elem", -1, 0, place, v)
		}
		if isData(v) {
			// A click navigates a frame (the link's target) to the document.
			return c.nested(-1, 0, place, v, docHTML, sc, fallback{})
		}
		if isOwn(v) || linkAllowed(v, c.opts.LinkDomains) {
			return nil
		}
		if sch == "" {
			return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s links to %q, a page beside the bundle, which has none", place, v), note: noteLinkRelative}}
		}
		return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s links to %q, which is not an allowed link host", place, v), note: noteLink}}
	case (tag == "iframe" || tag == "frame") && name == "src" || (tag == "object" && name == "data") || (tag == "embed" && name == "src"):
		if sch == "javascript" {
			// The URL's script runs as the frame loads, and the document it returns (a
			// string) is the frame's: neither is markup the check can read.
			return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s runs a javascript: URL as the page loads, whose document may load anything", place), note: noteJavascriptFrame}}
		}
	case tag == "base" && name == "href":
		if cleanURL(v) == "" {
			return nil
		}
		return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("<base href> points every relative URL at %q", v), note: noteBase}}
	case name == "action" || name == "formaction":
		if isOwn(v) {
			return nil
		}
		return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s submits to %q, outside the bundle", place, v), note: noteForm}}
	}
	rel, _ := e.get("rel")
	rel = strings.ToLower(rel)
	if !isOwn(v) {
		h := hit{off: -1, place: place, url: v, rel: rel}
		switch {
		case tag == "link" && (strings.Contains(rel, "preconnect") || strings.Contains(rel, "dns-prefetch")):
			h.note = notePreconnect
		case tag == "script":
			h.note = noteImport
		case (tag == "iframe" || tag == "frame") && name == "src" && !isRemote(v):
			h.note = noteFrameRelative
		case tag == "html" && name == "manifest":
			h.note = noteManifest
		case tag == "object" && name == "data" || tag == "embed" && name == "src":
			h.note = notePlugin
		}
		return []hit{h}
	}
	var hits []hit
	if sc.depth == 0 {
		hits = c.policyHit(directiveOf(tag, name, rel), -1, 0, place, v)
		if len(hits) > 0 {
			return hits
		}
	}
	if !isData(v) {
		return nil
	}
	// A data: URL whose payload is itself a document, a stylesheet or a module can load from
	// the network in turn.
	cs, _ := e.get("charset")
	fb := fallback{attr: cs}
	switch tag {
	case "iframe", "frame", "object", "embed":
		return c.nested(-1, 0, place, v, docHTML, sc, fb)
	case "use":
		if e.foreign {
			// <use> clones elements of the document into the page, where they load.
			return c.nested(-1, 0, place, v, docHTML, sc, fb)
		}
	case "script":
		switch scriptKindOf(e) {
		case ScriptModule:
			return c.nested(-1, 0, place, v, docModule, sc, fb)
		case ScriptClassic:
			return c.nested(-1, 0, place, v, docClassic, sc, fb)
		}
	case "link":
		rel = " " + rel + " "
		if strings.Contains(rel, "modulepreload") {
			return c.nested(-1, 0, place, v, docModule, sc, fb)
		}
		if strings.Contains(rel, "stylesheet") || strings.Contains(rel, "preload") {
			return c.nested(-1, 0, place, v, docCSS, sc, fb)
		}
	}
	return nil
}

// scriptHits checks the text of a script element of the given kind.
func (c *checker) scriptHits(kind ScriptKind, text string, sc scope) []hit {
	var hits []hit
	switch kind {
	case ScriptClassic:
		hits = c.checkScript(text, false, "<script>", sc)
		hits = append(hits, c.connectHits(text, false, "<script>", sc)...)
	case ScriptModule:
		hits = c.checkScript(text, true, `<script type="module">`, sc)
		hits = append(hits, c.connectHits(text, true, `<script type="module">`, sc)...)
	case ScriptImportMap:
		hits = c.checkImportMap(text)
	case ScriptSpeculationRules:
		hits = c.checkSpeculationRules(text)
		for i := range hits {
			hits[i].note = noteSpeculation
		}
	case ScriptWebBundle:
		hits = checkWebBundle(text)
	}
	for i := range hits {
		if hits[i].note == "" {
			hits[i].note = noteImport
		}
	}
	return hits
}

// checkWebBundle judges <script type="webbundle">: its rule's "source" is a bundle the
// browser fetches (Chromium shipped it behind a flag), whose resources then load from it.
// A rule that is not JSON is ignored by the browser.
func checkWebBundle(src string) []hit {
	var rule struct {
		Source *string `json:"source"`
	}
	if json.Unmarshal([]byte(src), &rule) != nil || rule.Source == nil {
		return nil
	}
	at, n := findSpecifier(src, jsonEscape(*rule.Source), 0)
	return []hit{{off: at, length: n, place: `<script type="webbundle">`, url: *rule.Source,
		text: fmt.Sprintf(`<script type="webbundle"> loads the web bundle %q`, *rule.Source), note: noteWebBundle}}
}
