package offline

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/miniapp/bundle/markup"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// maxDepth bounds documents nested in documents (srcdoc, data: frames, noscript, data:
// stylesheets and modules): deeper nesting is refused rather than followed.
const maxDepth = 8

// hit is one place that loads something, with an offset into the text that was checked
// (a document, a stylesheet, a script, an attribute value); off < 0 means unknown.
type hit struct {
	off, length int
	place       string // where, as a person names it: "<img src>", "CSS url() in <style>"
	url         string // the URL as written, after decoding by its language
	text, note  string // overrides of the default message and note
	// cond marks a string of a custom property, which loads only if the document reads a
	// custom property as a URL somewhere; marker marks such a place (var() inside
	// image-set()). checkDoc resolves both.
	cond, marker bool
}

// anchor names the source construct a hit is inside: an attribute of an element, or the text
// of an element (attr "#text"). occ counts earlier anchors with the same key, in tree order.
type anchor struct {
	tag, attr, value string
}

type found struct {
	anchor anchor
	occ    int
	hits   []hit // offsets relative to the anchor's value or text
	// later delivers hits checked on another core; checkDoc waits for it.
	later chan []hit
}

// checker holds the options of one Check call.
type checker struct {
	opts   Options
	policy policy // nil for none
}

// largeText is the size from which a stylesheet or a script is checked on another core while
// the tokenizer reads on.
const largeText = 16 << 10

// checkDoc checks an HTML document and returns its hits with offsets into src.
func (c *checker) checkDoc(src string, depth int) []hit {
	w := walker{c: c, depth: depth, occ: map[anchor]int{}}
	w.tokens(src)
	urlVar := false
	for i := range w.found {
		if f := &w.found[i]; f.later != nil {
			f.hits = <-f.later
		}
		urlVar = urlVar || hasURLVar(w.found[i].hits)
	}
	for i := range w.found {
		w.found[i].hits = resolveConditional(w.found[i].hits, urlVar)
	}
	kept := w.found[:0]
	for _, f := range w.found {
		if len(f.hits) > 0 {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return locate(src, kept)
}

// resolveConditional keeps the custom-property strings among hits when their document reads a
// custom property as a URL anywhere (urlVar: custom properties inherit across its stylesheets
// and style attributes), and drops the markers. Hits of nested documents were resolved in
// their own.
func resolveConditional(hits []hit, urlVar bool) []hit {
	kept := hits[:0]
	for _, h := range hits {
		if !h.marker && (!h.cond || urlVar) {
			h.cond = false // resolved: an enclosing document must not drop it again
			kept = append(kept, h)
		}
	}
	return kept
}

// hasURLVar reports whether hits mark a custom property read as a URL.
func hasURLVar(hits []hit) bool {
	for _, h := range hits {
		if h.marker {
			return true
		}
	}
	return false
}

type walker struct {
	c     *checker
	depth int
	found []found
	occ   map[anchor]int
}

func (w *walker) add(a anchor, hits []hit) {
	if len(hits) == 0 {
		return
	}
	w.addFound(a, found{hits: hits})
}

// addLater adds the hits of a check that may run on another core: a large text's, in the
// top-level document, when there is a core to spare.
func (w *walker) addLater(a anchor, size int, check func() []hit) {
	if size < largeText || w.depth > 0 || runtime.GOMAXPROCS(0) < 2 {
		w.add(a, check())
		return
	}
	ch := make(chan []hit, 1)
	go func() { ch <- check() }()
	w.addFound(a, found{later: ch})
}

func (w *walker) addFound(a anchor, f found) {
	// The tokenizer lower-cases names.
	a.tag, a.attr = strings.ToLower(a.tag), strings.ToLower(a.attr)
	f.anchor, f.occ = a, w.occ[a]
	w.occ[a] = f.occ + 1
	w.found = append(w.found, f)
}

// judged are the attributes the rules read, besides the CSS of foreign elements' attributes.
var judged = map[string]bool{"src": true, "href": true, "action": true, "formaction": true, "poster": true,
	"data": true, "background": true, "icon": true, "manifest": true, "xlink:href": true, "lowsrc": true,
	"dynsrc": true, "srcset": true, "imagesrcset": true, "ping": true, "attributionsrc": true, "style": true,
	"srcdoc": true, "rel": true, "type": true, "language": true, "http-equiv": true, "content": true,
	"attributename": true, "to": true, "from": true, "by": true, "values": true}

// tagNames interns common tag names, so that reading them allocates nothing.
var tagNames = map[string]string{}

func init() {
	for _, t := range strings.Fields("a abbr area article aside audio b base body br button canvas code col colgroup dd details dialog div dl dt em embed fieldset figure footer form frame frameset g h1 h2 h3 h4 h5 h6 head header hr html i iframe image img input label li link main math meta nav noscript object ol option p path picture pre rect script section select small source span strong style sub summary sup svg symbol table tbody td template textarea tfoot th thead title tr track u ul use video") {
		tagNames[t] = t
	}
}

// duplicates returns the later ones of duplicated attributes of a raw start tag that a rule
// reads. The tokenizer keeps only the first, as the HTML Standard says; Chromium, in SVG,
// loads a later one: every one is judged. Each value is decoded as text is (its character
// references), and also taken as written.
func duplicates(raw []byte, foreign bool) []html.Attribute {
	var out []html.Attribute
	seen := map[string]bool{}
	for _, ra := range markup.RawAttrs(raw) {
		if !seen[ra.Name] {
			seen[ra.Name] = true
			continue
		}
		v := string(raw[ra.ValOff : ra.ValOff+ra.ValLen])
		if judged[ra.Name] || foreign && strings.IndexByte(v, '(') >= 0 {
			d := html.UnescapeString(v)
			out = append(out, html.Attribute{Key: ra.Name, Val: d})
			if d != v {
				out = append(out, html.Attribute{Key: ra.Name, Val: v})
			}
		}
	}
	return out
}

// judgedAttrs reports whether a raw start tag names an attribute a rule reads, and how many
// attributes it writes (duplicates included), scanning its names as the tokenizer does,
// without allocating.
func judgedAttrs(raw []byte) (isJudged bool, count int) {
	var buf [16]byte
	markup.ScanAttrs(raw, func(ns, ne, _, _ int) {
		count++
		if ne-ns > len(buf) || isJudged {
			return
		}
		k := buf[:ne-ns]
		for j := range k {
			c := raw[ns+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			k[j] = c
		}
		isJudged = judged[string(k)]
	})
	return isJudged, count
}

// emittedAt returns the text of Options.Emitted that rest begins with, when the script data
// state would read exactly it as one text token: it holds nothing that changes that state
// (markup.BreaksScript) and no CR or NUL, which the tokenizer rewrites, and an end tag
// </script follows it (in any case, then a space, / or >). Else "".
func (c *checker) emittedAt(rest string) string {
	for text := range c.opts.Emitted {
		if text != "" && strings.HasPrefix(rest, text) && endsScript(rest[len(text):]) && plainScript(text) {
			return text
		}
	}
	return ""
}

// endsScript reports whether s begins with an end tag that closes a script's text.
func endsScript(s string) bool { return endsRaw(s, "</script") }

// endsRaw reports whether s begins with end, an end tag's "</" and name in lower case, in any
// case, then a space, / or >: the end tag that closes a raw text.
func endsRaw(s, end string) bool {
	if len(s) <= len(end) || !markup.HasPrefixFold(s, end) {
		return false
	}
	switch s[len(end)] {
	case ' ', '\t', '\n', '\f', '\r', '/', '>':
		return true
	}
	return false
}

// styleText returns the text of the style element whose start tag rest follows, when the
// tokenizer would read it as it stands: the bytes up to the first end tag </style (in any
// case, then a space, / or >; the rawtext state knows nothing else), none of them CR or NUL,
// which it rewrites. ok is false when the text is empty, has no end tag (it runs to the end of
// input) or holds a CR or NUL: the tokenizer reads it then.
func styleText(rest string) (text string, ok bool) {
	for i := 0; ; i += 2 {
		j := markup.IndexFold(rest[i:], "</style")
		if j < 0 {
			return "", false
		}
		if i += j; endsRaw(rest[i:], "</style") {
			text = rest[:i]
			break
		}
	}
	if text == "" || strings.IndexByte(text, '\r') >= 0 || strings.IndexByte(text, 0) >= 0 {
		return "", false
	}
	return text, true
}

// plainScript reports whether the script data state reads text as it is, as one token.
func plainScript(text string) bool {
	if strings.IndexByte(text, '\r') >= 0 || strings.IndexByte(text, 0) >= 0 {
		return false
	}
	for i := 0; ; i++ {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			return true
		}
		if i += j; markup.BreaksScript(text[i:]) {
			return false
		}
	}
}

// rawInForeign are the elements whose text the tokenizer reads as raw text or RCDATA by their
// name alone; in SVG and MathML their text is markup.
var rawInForeign = []string{"style", "script", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"}

// tokens visits every element of src as the tokenizer yields it, in document order. It stands
// in for a tree: every element the tree would hold is a start tag here (a misnested or
// reconstructed element repeats attributes the stream already holds), and no element is lost
// to depth, where x/net/html stops at 512 open elements and Chromium keeps parsing. The text
// of style, script and noscript is the element's child. In SVG and MathML, where those texts
// are markup, both readings are checked: the text as the element's, and the markup in it as
// elements; CDATA sections are text there, as in a browser. Inside them the tokens are judged
// both as HTML elements and, for their attributes' CSS, as foreign ones, since an HTML element
// breaks out of foreign content: every reading is checked.
func (w *walker) tokens(src string) {
	z := html.NewTokenizer(strings.NewReader(src))
	foreign := 0
	foreignText := "" // the raw-text element open in foreign content, whose text is markup
	var pending *html.Node
	off := 0 // the byte offset of the token just read: Raw lengths partition the input
	for {
		z.AllowCDATA(foreign > 0)
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		start := off
		off += len(z.Raw())
		if pending != nil {
			if tt == html.TextToken {
				// A raw text is its bytes, but for CR LF and NUL, which Text normalizes: read
				// it from src without copying when it holds neither.
				text := src[start:off]
				if strings.IndexByte(text, '\r') >= 0 || strings.IndexByte(text, 0) >= 0 {
					text = string(z.Text())
				}
				pending.AppendChild(&html.Node{Type: html.TextNode, Data: text})
			}
			w.element(pending, false)
			pending = nil
			if tt == html.TextToken {
				continue
			}
		}
		switch tt {
		case html.TextToken:
			if foreignText == "style" || foreignText == "script" {
				n := &html.Node{Type: html.ElementNode, Data: foreignText}
				n.AppendChild(&html.Node{Type: html.TextNode, Data: string(z.Text())})
				w.element(n, true)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			raw := z.Raw()
			name, hasAttr := z.TagName()
			tag, ok := tagNames[string(name)]
			if !ok {
				tag = string(name)
			}
			n := &html.Node{Type: html.ElementNode, Data: tag}
			inForeign := foreign > 0 || tag == "svg" || tag == "math"
			// Decoding attributes costs more than reading the tag: decode them only when the
			// raw tag holds one a rule reads (or, in foreign content, a parenthesis).
			if isJudged, count := judgedAttrs(raw); hasAttr && (inForeign && bytes.IndexByte(raw, '(') >= 0 || isJudged) {
				returned := 0
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					returned++
					if !judged[string(k)] && !(inForeign && bytes.IndexByte(v, '(') >= 0) {
						continue // only the attributes a rule reads are kept
					}
					n.Attr = append(n.Attr, html.Attribute{Key: string(k), Val: string(v)})
				}
				if returned < count {
					n.Attr = append(n.Attr, duplicates(raw, inForeign)...)
				}
			}
			if tt == html.StartTagToken {
				if n.Data == "svg" || n.Data == "math" {
					foreign++
				} else if foreign > 0 && slices.Contains(rawInForeign, n.Data) {
					z.NextIsNotRawText()
					foreignText = n.Data
				} else if n.Data == "style" || n.Data == "script" || n.Data == "noscript" {
					pending = n
					text, ok := "", false
					switch n.Data {
					case "script":
						// A script's text is taken here when it is one the caller emitted.
						text = w.c.emittedAt(src[off:])
						ok = text != ""
					case "style":
						// A stylesheet's end is found as the rawtext state finds it, but
						// by a search rather than a byte at a time (an inlined font makes it
						// the longest text of a page).
						text, ok = styleText(src[off:])
					}
					if ok {
						// The text is read here, and the tokenizer goes on from its end
						// tag, where the one reading it would be after the text token (in
						// the data state).
						pending.AppendChild(&html.Node{Type: html.TextNode, Data: text})
						w.element(pending, false)
						pending = nil
						off += len(text)
						z = html.NewTokenizer(strings.NewReader(src[off:]))
					}
					continue
				}
			}
			w.element(n, inForeign)
		case html.EndTagToken:
			name, _ := z.TagName()
			if (string(name) == "svg" || string(name) == "math") && foreign > 0 {
				foreign--
			}
			if string(name) == foreignText {
				foreignText = ""
			}
		}
	}
	if pending != nil {
		w.element(pending, false)
	}
}

// attrName returns an attribute's name as written, namespace prefix included. The parser has
// already lower-cased HTML names; SVG's adjusted names (viewBox) keep their case, and none of
// them is a name this package looks for.
func attrName(a html.Attribute) string {
	if a.Namespace != "" {
		return a.Namespace + ":" + a.Key
	}
	return a.Key
}

func getAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func textOf(n *html.Node) string {
	if n.FirstChild != nil && n.FirstChild == n.LastChild && n.FirstChild.Type == html.TextNode {
		return n.FirstChild.Data
	}
	var b strings.Builder
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.TextNode {
			b.WriteString(ch.Data)
		}
	}
	return b.String()
}

// element judges one element; foreign is set when it may be an SVG or MathML element, whose
// presentation attributes take CSS.
func (w *walker) element(n *html.Node, foreign bool) {
	tag := n.Data
	isHTML := true
	for _, a := range n.Attr {
		name := attrName(a)
		an := anchor{tag, name, a.Val}
		switch name {
		case "src", "href", "action", "formaction", "poster", "data", "background", "icon",
			"manifest", "xlink:href", "lowsrc", "dynsrc":
			w.add(an, w.urlAttr(n, tag, name, a.Val))
		case "srcset", "imagesrcset":
			w.add(an, w.list(tag, name, markup.Srcset(a.Val)))
		case "ping", "attributionsrc":
			hits := w.list(tag, name, spaceURLs(a.Val))
			for i := range hits {
				hits[i].note = "remove it: it reports to a server (a click, or an attribution), and a bundle has none"
			}
			w.add(an, hits)
		case "style":
			hits := w.c.checkCSS(a.Val, w.depth)
			for i := range hits {
				hits[i].place += ` in style=""`
			}
			w.add(an, hits)
		case "srcdoc":
			if tag == "iframe" && isHTML {
				w.add(an, w.c.nestedDoc(a.Val, -1, 0, "<iframe srcdoc>", w.depth))
			}
		default:
			// SVG and MathML presentation attributes (fill, filter, mask, clip-path, cursor…)
			// take CSS values, and url() in them can reference an external document.
			if foreign && !strings.HasPrefix(name, "data-") && strings.IndexByte(a.Val, '(') >= 0 {
				w.add(an, w.c.checkCSS(a.Val, w.depth))
			}
		}
	}
	if foreign {
		w.animation(n, tag)
	}
	switch {
	case tag == "style":
		text, depth := textOf(n), w.depth
		w.addLater(anchor{tag, "#text", text}, len(text), func() []hit {
			hits := w.c.checkCSS(text, depth)
			for i := range hits {
				hits[i].place += " in <style>"
			}
			return hits
		})
	case tag == "script":
		w.script(n)
	case tag == "noscript" && isHTML:
		// Scripting is on while we parse, so <noscript> holds raw text; a frame sandboxed
		// without scripts parses and renders that text as markup.
		text := textOf(n)
		w.add(anchor{tag, "#text", text}, w.c.nestedDoc(text, 0, len(text), "<noscript>", w.depth))
	case tag == "meta" && isHTML:
		if he, ok := getAttr(n, "http-equiv"); ok && strings.EqualFold(strings.TrimSpace(he), "refresh") {
			content, _ := getAttr(n, "content")
			u, hasURL := refreshURL(content)
			h := hit{off: -1, place: `<meta http-equiv="refresh">`, url: u,
				note: "remove it: a bundle never navigates itself; open links with the SDK's openLink"}
			if !hasURL {
				h.text = `<meta http-equiv="refresh"> reloads the page from its server`
			}
			w.add(anchor{tag, "content", content}, []hit{h})
		}
	}
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

func (w *walker) list(tag, name string, urls []markup.Span) []hit {
	var hits []hit
	for _, u := range urls {
		place := fmt.Sprintf("<%s %s>", tag, name)
		if !isOwn(u.Text) {
			hits = append(hits, hit{off: u.Off, length: len(u.Text), place: place, url: u.Text})
		} else if w.depth == 0 && (name == "srcset" || name == "imagesrcset") {
			hits = append(hits, w.c.policyHit("img-src", u.Off, len(u.Text), place, u.Text)...)
		}
	}
	return hits
}

const (
	noteInline = "inline it (bundle build does this for files inside the app) or use a data: URL; a bundle has no files beside it and no network"
	noteRemote = "download it into the app folder and name it by a relative path (bundle build inlines files inside the app), or remove it; a bundle has no network"
	noteLink   = "open links with the SDK's openLink, and name the host in the manifest's linkDomains (bundle check --link-domains HOST)"
	noteForm   = "a bundle cannot submit a form anywhere: handle the submit event in a script and call a tool or the SDK"
	noteImport = "bundle the module into the app (bundle build resolves imports from the app and node_modules) instead of loading it at run time"
)

// animation judges the values an SVG animation element (<set>, <animate>) gives an href:
// Chromium loads the image an <image> or <feImage> is animated to, with no script.
func (w *walker) animation(n *html.Node, tag string) {
	href := false
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, "attributename") && strings.HasSuffix(strings.ToLower(strings.TrimSpace(a.Val)), "href") {
			href = true
		}
	}
	if !href {
		return
	}
	for _, a := range n.Attr {
		switch name := strings.ToLower(a.Key); name {
		case "to", "from", "by", "values":
			hits := w.list(tag, name, splitURLs(a.Val, ';'))
			for i := range hits {
				switch {
				case isRemote(hits[i].url):
				case strings.Contains(strings.ToLower(a.Val), "data:"):
					hits[i].note = "the list is split at every ';', a data: URL's too (\";base64,\" leaves a relative URL): write the data: URL without ';', percent-encoded, or set the href from a script"
				default:
					hits[i].note = "bundle build does not inline what an animation sets: import the file in a script and set the href there, or write a data: URL"
				}
			}
			w.add(anchor{tag, name, a.Val}, hits)
		}
	}
}

// urlAttr judges one attribute that holds a single URL.
func (w *walker) urlAttr(n *html.Node, tag, name, v string) []hit {
	place := fmt.Sprintf("<%s %s>", tag, name)
	switch {
	case name == "href" && (tag == "a" || tag == "area"):
		if sch, _ := scheme(cleanURL(v)); sch == "javascript" && w.depth == 0 {
			return w.c.policyHit("script-src-elem", -1, 0, place, v)
		}
		if isData(v) {
			// A click navigates a frame (the link's target) to the document.
			return w.c.nested(-1, 0, place, v, docHTML, w.depth)
		}
		if isOwn(v) || linkAllowed(v, w.c.opts.LinkDomains) {
			return nil
		}
		if sch, _ := scheme(cleanURL(v)); sch == "" {
			return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s links to %q, a page beside the bundle, which has none", place, v),
				note: "link to a fragment (#section) inside the page, or open a full https: URL with the SDK's openLink"}}
		}
		return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s links to %q, which is not an allowed link host", place, v), note: noteLink}}
	case (tag == "iframe" || tag == "frame") && name == "src" || (tag == "object" && name == "data") || (tag == "embed" && name == "src"):
		if sch, _ := scheme(cleanURL(v)); sch == "javascript" {
			// The URL's script runs as the frame loads, and the document it returns (a
			// string) is the frame's: neither is markup the check can read.
			return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s runs a javascript: URL as the page loads, whose document may load anything", place),
				note: "write the frame's markup in srcdoc, which the check reads, or load about:blank and fill the frame from a script"}}
		}
	case tag == "base" && name == "href":
		if cleanURL(v) == "" {
			return nil
		}
		return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("<base href> points every relative URL at %q", v), note: "remove <base>: every URL in a bundle is inline"}}
	case name == "action" || name == "formaction":
		if isOwn(v) {
			return nil
		}
		return []hit{{off: -1, place: place, url: v, text: fmt.Sprintf("%s submits to %q, outside the bundle", place, v), note: noteForm}}
	}
	if !isOwn(v) {
		h := hit{off: -1, place: place, url: v}
		if tag == "link" {
			rel, _ := getAttr(n, "rel")
			rel = strings.ToLower(rel)
			if strings.Contains(rel, "preconnect") || strings.Contains(rel, "dns-prefetch") {
				h.note = "remove it: a bundle connects to nothing"
			}
		}
		if tag == "script" {
			h.note = noteImport
		}
		if (tag == "iframe" || tag == "frame") && name == "src" && !isRemote(v) {
			h.note = "a bundle has no pages beside it: put the frame's markup in srcdoc, or show it in the page itself"
		}
		if tag == "html" && name == "manifest" {
			h.note = "remove it: browsers dropped the application cache it names, and a bundle, one file, needs none"
		}
		if tag == "object" && name == "data" || tag == "embed" && name == "src" {
			h.note = "a bundle's policy allows no plugin content (object-src 'none'): show an image with <img src>, a page with <iframe srcdoc>, or remove it"
		}
		return []hit{h}
	}
	var hits []hit
	if w.depth == 0 {
		rel, _ := getAttr(n, "rel")
		hits = w.c.policyHit(directiveOf(tag, name, strings.ToLower(rel)), -1, 0, place, v)
		if len(hits) > 0 {
			return hits
		}
	}
	if !isData(v) {
		return nil
	}
	// A data: URL whose payload is itself a document, a stylesheet or a module can load from
	// the network in turn.
	switch tag {
	case "iframe", "frame", "object", "embed":
		return w.c.nested(-1, 0, place, v, docHTML, w.depth)
	case "script":
		typ, hasType := getAttr(n, "type")
		lang, hasLang := getAttr(n, "language")
		switch kindOfScript(typ, hasType, lang, hasLang) {
		case scriptModule:
			return w.c.nested(-1, 0, place, v, docModule, w.depth)
		case scriptClassic:
			return w.c.nested(-1, 0, place, v, docClassic, w.depth)
		}
	case "link":
		rel, _ := getAttr(n, "rel")
		rel = " " + strings.ToLower(rel) + " "
		if strings.Contains(rel, "modulepreload") {
			return w.c.nested(-1, 0, place, v, docModule, w.depth)
		}
		if strings.Contains(rel, "stylesheet") || strings.Contains(rel, "preload") {
			return w.c.nested(-1, 0, place, v, docCSS, w.depth)
		}
	}
	return nil
}

func (w *walker) script(n *html.Node) {
	typ, hasType := getAttr(n, "type")
	lang, hasLang := getAttr(n, "language")
	kind := kindOfScript(typ, hasType, lang, hasLang)
	text, depth := textOf(n), w.depth
	if strings.TrimSpace(text) == "" {
		return
	}
	w.addLater(anchor{"script", "#text", text}, len(text), func() []hit { return w.c.scriptHits(kind, text, depth) })
}

// scriptHits checks the text of a script element of the given kind.
func (c *checker) scriptHits(kind scriptKind, text string, depth int) []hit {
	var hits []hit
	switch kind {
	case scriptClassic:
		hits = c.checkScript(text, false, "<script>", depth)
	case scriptModule:
		hits = c.checkScript(text, true, `<script type="module">`, depth)
	case scriptImportMap:
		hits = c.checkImportMap(text)
	case scriptSpeculation:
		hits = c.checkSpeculationRules(text)
		for i := range hits {
			hits[i].note = "remove the speculation rules: a bundle has nothing to prefetch"
		}
	}
	for i := range hits {
		if hits[i].note == "" {
			hits[i].note = noteImport
		}
	}
	return hits
}

// docKind is where a data: URL is used, which decides what the browser makes of its payload.
type docKind int

const (
	docHTML    docKind = iota // a navigable place: iframe, frame, object, embed, a or area href
	docCSS                    // a stylesheet: <link rel=stylesheet>, @import
	docModule                 // a module script or an import
	docClassic                // a classic script
)

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

// decodeText decodes a payload in the charset its type names (UTF-8 when none).
func decodeText(payload []byte, cs string) string {
	if cs != "" {
		if e, name := charset.Lookup(cs); e != nil && name != "utf-8" {
			return decodeWith(payload, e, name, "").text
		}
	}
	return string(payload)
}

// nested decodes the data: URL u found at [at, at+n) and checks its payload as the browser
// reads it in that place: a document by its MIME type (HTML in every reading its bytes allow,
// XML for SVG and XHTML), a stylesheet, a module (CSS for a CSS module script), a classic
// script. A document of a type the check does not read is refused. Every hit inside is
// reported at the URL, since offsets inside an encoded payload name no place in the file.
func (c *checker) nested(at, n int, place, u string, kind docKind, depth int) []hit {
	mime, cs, payload, ok := dataURL(u)
	if !ok {
		return nil
	}
	if depth+1 > maxDepth {
		return []hit{{off: at, length: n, place: place, url: u, text: fmt.Sprintf("%s nests documents more than %d deep", place, maxDepth), note: "flatten the nesting; it is refused because it cannot be checked"}}
	}
	var inner []hit
	switch kind {
	case docHTML:
		switch {
		case mime == "text/html":
			for _, r := range readings(payload, cs) {
				inner = append(inner, c.checkDoc(r.text, depth+1)...)
			}
		case isXMLMIME(mime):
			inner = c.checkXML(payload, depth+1)
		case inertMIME(mime):
		default:
			return []hit{{off: at, length: n, place: place, url: u, text: fmt.Sprintf("%s shows a data: document of type %s, which the check does not read", place, mime),
				note: "use text/html or SVG, or put the markup in srcdoc; a document the check cannot read is refused"}}
		}
	case docCSS:
		inner = c.checkCSS(decodeText(payload, cs), depth+1)
	case docModule:
		switch {
		case mime == "text/css":
			inner = c.checkCSS(decodeText(payload, cs), depth+1) // a CSS module script
		case mime == "application/json" || strings.HasSuffix(mime, "+json"):
		default:
			inner = c.checkScript(decodeText(payload, cs), true, "module", depth+1)
		}
	case docClassic:
		if strings.HasPrefix(mime, "image/") || strings.HasPrefix(mime, "audio/") || strings.HasPrefix(mime, "video/") || mime == "text/csv" {
			return nil // the browser refuses to run these as scripts
		}
		inner = c.checkScript(decodeText(payload, cs), false, "script", depth+1)
	}
	for i := range inner {
		inner[i].off, inner[i].length = at, n
		inner[i].place += " inside the data: URL of " + place
		nestedNote(&inner[i])
	}
	return inner
}

// nestedNote says, of a file named in a nested document (srcdoc, a data: URL), that the build
// does not inline it there: the default note says it does.
func nestedNote(h *hit) {
	if h.note == "" && !isRemote(h.url) {
		h.note = "bundle build does not inline what a srcdoc or data: document names: write it there as a data: URL, or put the content in the page itself"
	}
}

// nestedDoc checks the document src held in an attribute or element text. When exact is true,
// src appears byte for byte in the file, so inner offsets stay valid relative to the anchor.
func (c *checker) nestedDoc(src string, at, n int, place string, depth int) []hit {
	if depth+1 > maxDepth {
		return []hit{{off: at, length: n, place: place, text: fmt.Sprintf("%s nests documents more than %d deep", place, maxDepth), note: "flatten the nesting; it is refused because it cannot be checked"}}
	}
	inner := c.checkDoc(src, depth+1)
	for i := range inner {
		inner[i].place += " inside " + place
		nestedNote(&inner[i])
	}
	return inner
}
