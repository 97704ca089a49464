package pipeline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
	"golang.org/x/net/html/atom"
)

// The page as the walk reads it: markup's tree (the HTML Standard's tree construction, as
// Chromium builds it), never a token stream. Every verdict the assembler takes about an
// element comes from the tree: whether a <script> or <style> is raw text (an HTML one) or
// markup (an SVG one), whether it is live or inert (template contents), and where <head> and
// <body> begin and end. Edits are replacements of the bytes of an element's tags as the tree
// ranges them; every other byte is copied as written.

// element is one element of the page the walk visits, with the document whose ranges it
// holds.
type element struct {
	n *markup.Node
	d *markup.Document
	// off is added to the node's ranges to make them the page's: 0 for the page's tree, the
	// offset of a <noscript>'s text for the elements read from it.
	off int
	// inert: the element never runs in the page a host shows: it is in a template's
	// contents, or it was read from a <noscript>'s text (markup only where scripts do not
	// run, and every host's frame runs them).
	inert bool
	// noscript: read from a <noscript>'s text, which what the build writes there must not end.
	noscript bool
}

// page returns the tree of the page, built once; a page that is not UTF-8 (a fuzzer's: a
// build refuses one before) becomes the text the browser decodes, which the walk copies.
func (a *assembler) page() *markup.Document {
	if a.doc == nil {
		a.doc = markup.Parse(a.src, markup.Options{})
		if a.doc.Src != string(a.src) {
			a.src = []byte(a.doc.Src)
			a.lines = diag.NewLines(a.src)
		}
	}
	return a.doc
}

// elements returns the elements of the page that have a start tag of their own, in source
// order: the page's tree's (template contents included), and after each <noscript> the
// elements of its text read as the markup it is where scripts do not run (the offline check
// reads it so too, and its images are inlined as anywhere else). Copies the tree builder made
// of formatting elements, elements it implied and elements made by end tags are not visited:
// they have no start tag of their own. The slice is computed once.
func (a *assembler) elements() []element {
	if a.elems != nil {
		return a.elems
	}
	d := a.page()
	a.elems = []element{}
	for _, n := range d.Nodes {
		if !ownTag(n) {
			continue
		}
		a.elems = append(a.elems, element{n: n, d: d, inert: n.Inert()})
		if n.Is(markup.HTML, "noscript") && n.FirstChild != nil && n.FirstChild.IsRawText() {
			r := textRange(n)
			f := markup.ParseFragment([]byte(d.Src[r.Start:r.End]), n, markup.Options{NoScripting: true})
			for _, c := range f.Nodes {
				if ownTag(c) {
					a.elems = append(a.elems, element{n: c, d: f, off: r.Start, inert: true, noscript: true})
				}
			}
		}
	}
	return a.elems
}

// ownTag reports whether n is an element made from a start tag of its own.
func ownTag(n *markup.Node) bool {
	return n.Type == markup.ElementNode && n.Flags&(markup.Implied|markup.Clone|markup.ByEndTag) == 0 && !n.Tag.IsEmpty()
}

// textRange is the range of an element's text children, as written: for a raw text element
// (an HTML script or style), its whole text; empty at the end of its start tag when it has
// none.
func textRange(n *markup.Node) markup.Range {
	r := markup.Range{Start: n.Tag.End, End: n.Tag.End}
	first := true
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != markup.TextNode || len(c.Raw) == 0 {
			continue
		}
		if first {
			r.Start, first = c.Raw[0].Start, false
		}
		r.End = c.Raw[len(c.Raw)-1].End
	}
	return r
}

// tag returns e's start tag as the walk's handlers read it: its name and the first of each
// attribute (as the browser keeps them), names lower-cased as written (xlink:href), values
// decoded, each placed at its value in the page (at its name when it has none).
func (e element) tag() *tag {
	n, src := e.n, e.d.Src
	t := &tag{name: strings.ToLower(n.Name), off: e.off + n.Tag.Start, raw: []byte(src[n.Tag.Start:n.Tag.End]),
		selfClosing: n.Flags&markup.SelfClosing != 0}
	for _, at := range n.Attr {
		r := at.ValueRange
		if r.IsEmpty() && at.Quote == 0 && r.Start == at.NameRange.End {
			r = at.NameRange // written without a value
		}
		t.attrs = append(t.attrs, attr{key: strings.ToLower(src[at.NameRange.Start:at.NameRange.End]), val: at.Value,
			off: e.off + r.Start, n: max(r.Len(), 1)})
	}
	return t
}

// text returns the text of a raw text element as written (an HTML script's or style's), its
// offset in the page, its end tag as written ("" when the input ended first), and the range of
// the whole element, start tag to end tag.
func (e element) text() (text string, textOff int, end string, whole markup.Range) {
	n, src := e.n, e.d.Src
	r := textRange(n)
	whole = markup.Range{Start: e.off + n.Tag.Start, End: e.off + max(r.End, n.Tag.End)}
	if !n.EndTag.IsEmpty() {
		end = src[n.EndTag.Start:n.EndTag.End]
		whole.End = e.off + n.EndTag.End
	}
	return src[r.Start:r.End], e.off + r.Start, end, whole
}

// isScript reports whether e is a script element the browser runs or may run: HTML or SVG,
// live (not in template contents nor a <noscript>'s text).
func (e element) isLiveScript() bool {
	return !e.inert && (e.n.Is(markup.HTML, "script") || e.n.Is(markup.SVG, "script"))
}

// Where the build's own markup goes, by the tree.

// endOf is the end of the bytes n was made from: an element's end tag, else its start tag; a
// text's, comment's or doctype's last token.
func endOf(n *markup.Node) int {
	if n.Type == markup.ElementNode {
		return max(n.Tag.End, n.EndTag.End)
	}
	if len(n.Raw) == 0 {
		return 0
	}
	return n.Raw[len(n.Raw)-1].End
}

// lastByte is the end of the last bytes of the nodes below n (template contents included),
// or 0 when there are none.
func lastByte(n *markup.Node) int {
	end := 0
	for c := range n.Descendants() {
		end = max(end, endOf(c))
	}
	return end
}

// headStart is where an element written first in <head> goes: after <head> as written, or,
// when the head is implied, after everything the tree builder read before it implied the
// head (a byte order mark, the doctype, comments, <html>), so that the element's own tag is
// what implies it.
func headStart(d *markup.Document) int {
	head := d.Head()
	if head != nil && !head.Tag.IsEmpty() {
		return head.Tag.End
	}
	at := 0
	if strings.HasPrefix(d.Src, "\uFEFF") {
		at = len("\uFEFF")
	}
	html := d.HTML()
	for c := d.Root.FirstChild; c != nil && c != html; c = c.NextSibling {
		at = max(at, endOf(c))
	}
	if html != nil {
		at = max(at, html.Tag.End)
		for c := html.FirstChild; c != nil && c != head; c = c.NextSibling {
			at = max(at, endOf(c))
		}
	}
	return at
}

// headEnd is where an element written last in <head> goes: before </head> as written, else
// after the head's last child (the token after it is what closed the head), else where its
// first child goes.
func headEnd(d *markup.Document) int {
	head := d.Head()
	if head == nil {
		return headStart(d)
	}
	if !head.EndTag.IsEmpty() {
		return head.EndTag.Start
	}
	return max(headStart(d), lastByte(head))
}

// bodyEnd is where an element written last in <body> goes: before </body> as written, else
// after the body's last bytes (before </html>, or at the end of the page). A body that
// holds nothing and was implied needs its tag (what implied it would put the element in
// the head): open is "<body>" then, written before its </body>, or after the last bytes of
// the document element.
func bodyEnd(d *markup.Document) (at int, open string) {
	body := d.Body()
	if body == nil {
		return len(d.Src), ""
	}
	last := lastByte(body)
	if body.Tag.IsEmpty() && last == 0 {
		open = "<body>"
	}
	if !body.EndTag.IsEmpty() {
		return body.EndTag.Start, open
	}
	if at = max(body.Tag.End, last); at > 0 {
		return at, ""
	}
	return max(headStart(d), lastByte(d.HTML())), open
}

// sdkAtBodyEnd reports whether the SDK's script may go at the end of <body>, at (bodyEnd's
// place, where the body's tag is its own), instead of before the page's first script: no
// element of the page can run code while the browser parses it (runsWhileParsing), so a
// classic script parsed last still runs before all the page's code, which waits for the end
// of parsing; and a <script> written there is a live HTML script of <body>, as the tree
// builder reads it (not in a template's contents, SVG, a <noscript> or other raw text, which
// an element the page leaves open would make it), right after a script element (the page's
// module script, as Vite's template ends <body>), so that the element that was its parent's
// last child, which CSS's :last-child matches, is still a script, never a shown element. The
// SDK then follows the app's code that calls it, which the page's compressor reads it
// against (131 to 257 B of gzip on each official MCP Apps example, 331 B on order-book's
// page).
func sdkAtBodyEnd(d *markup.Document, at int) bool {
	if slices.ContainsFunc(d.Nodes, runsWhileParsing) {
		return false
	}
	const probe = "<script></script>"
	p := markup.ParseString(d.Src[:at]+probe+d.Src[at:], markup.Options{})
	for _, n := range p.Nodes {
		if n.Type != markup.ElementNode || n.Tag.Start != at || n.Tag.IsEmpty() {
			continue
		}
		if !n.Is(markup.HTML, "script") || n.Inert() || n.Flags&markup.Unclosed != 0 || n.Tag.End != at+len("<script>") {
			return false
		}
		prev := n.PrevSibling
		for prev != nil && prev.Type != markup.ElementNode {
			prev = prev.PrevSibling
		}
		return prev != nil && prev.Is(markup.HTML, "script") && descends(n, p.Body())
	}
	return false
}

// runsWhileParsing reports whether n, an element live in the page's tree, can run code
// before the browser has parsed the whole page: an HTML script that is not a module script
// without async (a classic script, inline or not, runs where the parser meets it; an async
// module script as soon as it is ready; a script of another type, a data block, is counted
// too), an SVG script (run at its end tag), or a navigable container (an iframe, frame,
// object, embed or fencedframe: its document's scripts run while the page is parsed). A
// module script (offline.KindOfScript) without async is deferred: it runs once parsing is done, in order with the
// others (HTML § 4.12.1.1, "prepare the script element"), after every classic script the
// parser ran.
func runsWhileParsing(n *markup.Node) bool {
	if n.Type != markup.ElementNode || n.Inert() {
		return false
	}
	switch {
	case n.Is(markup.SVG, "script"):
		return true
	case n.Is(markup.HTML, "script"):
		typ, hasType := n.AttrValue("type")
		lang, hasLang := n.AttrValue("language")
		k, _ := offline.KindOfScript(typ, hasType, lang, hasLang)
		_, async := n.AttrValue("async")
		return async || k != offline.ScriptModule
	}
	for _, c := range []string{"iframe", "frame", "object", "embed", "fencedframe"} {
		if n.Is(markup.HTML, c) {
			return true
		}
	}
	return false
}

// windowName is a name an element gives the page's Window: the element as its attribute
// says it (<form name="f">, for messages), and whether the name is a frame's (an iframe's or
// a frame's name is the target name of the navigable it holds: the name reads the frame's
// window, not the element).
type windowName struct {
	name, el string
	frame    bool
	// controls are a form's named properties (formControls): its listed elements' (and
	// images') ids and names, each the element as its attribute says it.
	controls map[string]formControl
	control  bool // a form's control, by the form's named property
}

// formControl is an element a form's named getter reads by its id or name: the element as
// its attribute says it, and whether it is an image (the form's own named properties hold
// its images; form.elements, the listed elements alone, do not).
type formControl struct {
	el  string
	img bool
}

// windowNames returns the names the element t gives the page's Window as its named
// properties (HTML § 7.2.3.5, "Named access on the Window object"): the value of a non-empty
// name attribute of an embed, form, img or object, the target name an iframe's (or a frame's)
// name gives the navigable it holds, and a non-empty id (the spec says an HTML element's;
// Chromium's is any element's, and so is the build's); only of the elements in the
// document's tree, not a template's contents (another document's) nor a <noscript>'s text (a
// page that runs scripts parses it as text). A name no script gives that is one of these
// reads the element (or the frame's window): the page's own global.
func (e element) windowNames(t *tag) []windowName {
	if e.inert {
		return nil
	}
	var out []windowName
	if e.n.Namespace == markup.HTML && windowNamed[atom.Lookup([]byte(t.name))] {
		if n, ok := t.get("name"); ok && n.val != "" {
			out = append(out, windowName{name: n.val, el: "<" + t.name + " name=" + strconv.Quote(n.val) + ">", frame: t.name == "iframe" || t.name == "frame"})
		}
	}
	if id, ok := t.get("id"); ok && id.val != "" {
		out = append(out, windowName{name: id.val, el: "<" + t.name + " id=" + strconv.Quote(id.val) + ">"})
	}
	if t.name == "form" && e.n.Namespace == markup.HTML {
		controls := formControls(e.n)
		for k := range out {
			out[k].controls = controls
		}
	}
	return out
}

// listedElements are the form-associated elements a form's elements collection lists (HTML §
// 4.10.2, "listed"), whose ids and names its named getter reads (an input of type image
// aside); an img is read by the getter too (its past names map aside).
var listedElements = map[string]bool{"button": true, "fieldset": true, "input": true, "object": true, "output": true, "select": true, "textarea": true}

// formControls returns the names the form f's named getter reads its elements by: the id and
// name of each listed element and img in f's tree whose form owner f is (no form attribute,
// which names another owner), the first in tree order for each name.
func formControls(f *markup.Node) map[string]formControl {
	out := map[string]formControl{}
	for c := range f.Descendants() {
		if c.Type != markup.ElementNode || c.Namespace != markup.HTML || !listedElements[c.Name] && c.Name != "img" {
			continue
		}
		if _, other := c.AttrValue("form"); other {
			continue
		}
		if ty, _ := c.AttrValue("type"); c.Name == "input" && strings.EqualFold(strings.TrimSpace(ty), "image") {
			continue
		}
		for _, a := range []string{"id", "name"} {
			if v, ok := c.AttrValue(a); ok && v != "" {
				if _, had := out[v]; !had {
					out[v] = formControl{"<" + c.Name + " " + a + "=" + strconv.Quote(v) + ">", c.Name == "img"}
				}
			}
		}
	}
	return out
}

// unseenMember says of a call of a member of what the name reads, path the callee's path (nil
// where its chain holds a call or an index), why the build cannot read which function it
// calls, and the fix; "" where it can. An element's member is one of Chromium's elements
// (platformElementNames) or one a script gives the element where the build cannot read it
// (document.forms.f.put = …); a frame's window's is the platform's (postMessage) or one the
// frame's document gives (its scripts' globals, its document's members), which the build does
// not read as the page's; so is an element's contentWindow's (an iframe's by its id), and an
// element's contentDocument's members are the frame's document's.
func (n windowName) unseenMember(path []string) (why, fix string) {
	if len(path) == 1 {
		return "", "" // the element, or the window, called: a TypeError as written and as built
	}
	switch {
	case n.frame:
	case path[1] == "contentWindow":
		// <iframe id="child">: child.contentWindow is the frame's window, as child is where
		// the name is the frame's.
		n.frame, n.name, path = true, n.name+".contentWindow", path[1:]
	case path[1] == "contentDocument" && len(path) > 2:
		return n.name + ".contentDocument is the document of the page's " + n.el + "'s frame, whose members the build does not read as the page's",
			"post the frame a message (" + n.name + ".contentWindow.postMessage(…)) that a script of the page in the frame reads, or call a function a script of the page gives"
	}
	if n.frame {
		if framePlatformCall(path[1:]) {
			return "", ""
		}
		return n.name + " is the window of the page's " + n.el + " (the Window's named property), whose members but the platform's are what the frame's document gives, which the build does not read as the page's",
			"post the frame a message (" + n.name + ".postMessage(…)) that a script of the page in the frame reads, or call a function a script of the page gives"
	}
	if path == nil {
		return "", ""
	}
	// A form's control, by the form's named getter (f.email; it overrides the form's own
	// members, [LegacyOverrideBuiltIns]) or its elements collection's (f.elements.email): an
	// element, whose members are an element's.
	control, ok := n.controls[path[1]]
	name := n.name
	if !ok && len(path) > 2 && path[1] == "elements" {
		control, ok = n.controls[path[2]]
		ok = ok && !control.img
		name, path = name+".elements", path[1:]
	}
	if ok {
		return windowName{name: name + "." + path[1], el: control.el, control: true}.unseenMember(path[1:])
	}
	if isElementMember(path[1]) {
		return "", ""
	}
	whose := " (the Window's named property)"
	if n.control {
		whose = " (the form's named property)"
	}
	return n.name + " is the page's " + n.el + whose + ", and Chromium's elements have no member " + path[1] + ": a script gives it where the build cannot read which function it is",
		"give the function in a script of the page by its name (function " + path[1] + "(…) { … }, or window." + path[1] + " = …) and call it so"
}

// framePlatformCall reports whether keys, the path of a call from a same-origin frame's window
// (child.document.body.append), is the platform's all the way, and none of the calls the
// page's sink checks read only on the page's own objects: each key but the last a page object
// of the frame's (its document, body, location), as the page's are (member), and the last a
// member of the last object's interface as Chromium has it (an element's, the window's), not
// document.write or a location's method. A sink whatever its object (insertAdjacentHTML,
// setAttribute("onclick", …)) is the page's sink checks'.
func framePlatformCall(keys []string) bool {
	if len(keys) == 0 || !isPlatformGlobal(keys[0]) {
		return false
	}
	obj := pageWindow
	for _, k := range keys[:len(keys)-1] {
		if obj = member(obj, k); obj == notPageObject {
			return false
		}
	}
	method := keys[len(keys)-1]
	switch obj {
	case pageWindow:
		return isPlatformGlobal(method)
	case pageRoot, pageRootChild:
		return isElementMember(method)
	case pageDocument:
		return method != "write" && method != "writeln" && isElementMember(method)
	}
	return false
}
