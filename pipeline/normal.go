package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
)

// The normal form of a built page. The browser reads a page by the HTML Standard's tree
// construction, which repairs markup that does not say what it looks like: it moves
// elements, drops tags, makes the rest of the page the text of a <style/>. Every reader of a
// page that is not that algorithm (a checker, a host's verifier, a person) can then be told
// one thing by the bytes and another by the browser. So a built page holds none of it: the
// build refuses, at its place and with its fix, the source markup the tree builder repairs in
// a way that moves or hides content, and any <meta http-equiv="refresh">; and it writes the
// policy <meta> as the first child of <head>, whatever the source looked like, then checks
// that the tree of what it wrote is so (checkBuilt).

// refused reports whether the repair r of a page is one a built page must not hold. The
// list is markup's MovesContent, every kind of which moves, hides, or makes content from
// other bytes:
//   - ignored tags, text and doctypes (IgnoredStartTag, IgnoredEndTag, IgnoredText,
//     IgnoredDoctype): the browser drops bytes a reader of the source sees, among them the
//     </br>, </body> or </html> early in <head> that end it where the page does not look
//     ended, a <frameset> after content, a stray </head>, and what the template modes drop
//     (<template><col>x);
//   - self-closing non-void HTML elements (<style/>, <script/>, <div/>): the element stays
//     open and takes what follows, as text for a raw text element;
//   - breakouts from foreign content (<svg><p>): the tag closes the SVG or MathML elements
//     around it, which a reader counting <svg> tags does not see;
//   - elements made by end tags (</br>, </p>), the adoption agency's moves (<b><p></b>),
//     content fostered out of a table, what the body or the head takes back after it ended
//     (BodyReopened, HeadReopened: markup after </body> or </html>, a <meta> after </head>),
//     attributes a second <html> or <body> merges into the first, <image> read as <img>, a
//     body a <frameset> detached: each puts content where its bytes do not;
//   - a tag or raw text cut off by the end of the page (DroppedAtEOF, UnclosedRawText): the
//     rest of the page is lost or is the text, and a script there does not run;
//   - where the tree differs from Chromium's (Limit, TooDeep: more than 512 open elements).
//
// Not refused: the tokenizer's parse errors that change nothing a reader must see (a missing
// doctype, a character reference without its semicolon), duplicate attributes (the first
// counts, as every reader here takes it) and misnested elements of one kind (<a> in <a>),
// which close the first where the second opens; and what is no repair at all, which every
// page may have: an implied <html>, <head> or <body>, a missing </p> or </li>, whitespace
// and comments after </html>. Of the parse errors, those of a comment, a CDATA section, a
// doctype or a tag the end of the input cut off are refused: the rest of the page is inside
// it, and what the build writes after it would be too ("</" at the end reads "</<meta…>" as
// a comment). refuse also refuses a bogus comment (<!x, <?x, </ x) that the end cuts off.
func refused(r markup.Repair) bool {
	if r.Kind == markup.ParseError {
		switch r.Code {
		case "eof-in-comment", "eof-in-cdata", "eof-in-doctype", "eof-before-tag-name":
			return true
		}
		return false
	}
	return r.Kind.MovesContent()
}

// wellFormed reports whether the page needs none of what refuse refuses, which it reports
// (once) when it does. Without a bundler (Entries) nothing is reported, and the page is taken
// as it is.
func (a *assembler) wellFormed() bool {
	if !a.checked && a.b != nil {
		a.checked = true
		n := len(a.list)
		a.refuse(a.page())
		a.malformed = len(a.list) > n
	}
	return !a.malformed
}

// refuse reports what the normal form does not allow in the page d, each at its place with
// its fix: the repairs refused lists (one message per token), any <meta http-equiv="refresh">
// (a navigation no policy governs: anywhere, template contents and <noscript> included, its
// http-equiv compared as the browser does, ASCII case-insensitively and not trimmed), a
// <frameset> that is the page's body, <plaintext>, and a <template> never closed.
func (a *assembler) refuse(d *markup.Document) {
	at, deep := map[int]bool{}, false
	for _, r := range d.Repairs {
		if !refused(r) {
			continue
		}
		off, n := r.At.Start, r.At.Len()
		if r.Kind == markup.ParseError {
			off, n = cutOff(d, r)
		}
		if at[off] || r.Kind == markup.TooDeep && deep {
			continue // one message per token, and for the depth one for the page
		}
		at[off], deep = true, deep || r.Kind == markup.TooDeep
		text, note := refusal(d, r)
		a.errAt(off, max(n, 1), text, note)
	}
	for _, c := range d.Nodes {
		// A comment or doctype the end of the input cut off without a parse error of its
		// own: one that <!, <? or </ opened without -- (a bogus comment), or a doctype
		// whose identifiers went wrong, which ends at the next > and none came.
		if c.Type != markup.CommentNode && c.Type != markup.DoctypeNode || endOf(c) != len(d.Src) || strings.HasSuffix(d.Src, ">") || at[c.Raw[0].Start] {
			continue
		}
		if c.Type == markup.DoctypeNode {
			a.errAt(c.Raw[0].Start, 2, "the page ends inside its doctype", "write <!doctype html>, with its >")
			continue
		}
		a.errAt(c.Raw[0].Start, 2, "the page ends inside a comment: \"<!\", \"<?\" and \"</\" followed by no name open one that runs to the next >, and none comes",
			"end it with >, or write < as &lt;")
	}
	for _, e := range a.elements() {
		n := e.n
		if n.Namespace != markup.HTML || e.noscript && n.Name != "meta" {
			continue // a <meta> in a <noscript>'s text refreshes where scripts do not run
		}
		switch n.Name {
		case "meta":
			if v, ok := n.AttrValue("http-equiv"); ok && asciiFold(v, "refresh") {
				where := ""
				switch {
				case e.noscript:
					where = " where scripts do not run"
				case e.inert:
					where = " (here in a template's contents, which a script may make live)"
				}
				t := e.tag()
				at, _ := t.get("http-equiv")
				a.errAt(at.off, at.n, "<meta http-equiv=\"refresh\"> navigates the app's frame away from the bundle, and no Content-Security-Policy stops a navigation"+where,
					"remove it: to open a page, call openLink(url) from @miniapp/sdk (the host opens it when the manifest's linkDomains allow its host); to reload, call location.reload() in a script")
			}
		case "frameset":
			if n == d.Body() {
				a.errAt(e.off+n.Tag.Start, n.Tag.Len(), "<frameset> makes this a frameset page, which has no <body>: its frames load pages, which a bundle cannot hold",
					"remove the <frameset>; to show a page inside the app, use <iframe srcdoc=\"…\"> in its body")
			}
		case "plaintext":
			a.errAt(e.off+n.Tag.Start, n.Tag.Len(), "<plaintext> makes the rest of the page text: nothing after it is markup, and the build could add nothing after it",
				"use <pre>, with each < in it written &lt;")
		case "template":
			if n.EndTag.IsEmpty() && n.Flags&markup.SelfClosing == 0 {
				a.errAt(e.off+n.Tag.Start, n.Tag.Len(), "<template> is never closed: the rest of the page is its inert contents, which the browser does not show or run",
					"close it with </template>")
			}
		}
	}
}

// asciiFold reports whether s is lower, a lower-case ASCII word, in any ASCII case: as the
// browser compares keywords (Go's strings.EqualFold also folds U+017F to s and U+212A to k).
func asciiFold(s, lower string) bool {
	return len(s) == len(lower) && markup.HasPrefixFold(s, lower)
}

// cutOff places a parse error at the end of the input at the comment, CDATA section or
// doctype it cut off: the last node whose bytes end there.
func cutOff(d *markup.Document, r markup.Repair) (int, int) {
	for i := len(d.Nodes) - 1; i >= 0; i-- {
		n := d.Nodes[i]
		if n.Type != markup.ElementNode && len(n.Raw) > 0 && n.Raw[len(n.Raw)-1].End == r.At.Start {
			last := n.Raw[len(n.Raw)-1]
			return last.Start, min(last.Len(), 4)
		}
	}
	return r.At.Start, 0
}

// tokenName is the tag name of a tag token as written ("<Div class=a>", "</br>"), lower-cased.
func tokenName(tok string) string {
	tok = strings.TrimPrefix(strings.TrimPrefix(tok, "<"), "/")
	if i := strings.IndexAny(tok, " \t\n\f\r/>"); i >= 0 {
		tok = tok[:i]
	}
	return strings.ToLower(tok)
}

// nodeName names n in a message: <name> for an element, "text" for text.
func nodeName(n *markup.Node) string {
	switch {
	case n == nil:
		return "this"
	case n.Type == markup.ElementNode:
		return "<" + n.Name + ">"
	case n.Type == markup.TextNode:
		return "text"
	}
	return "this"
}

// rawTextNames are the HTML elements whose content is text (raw text, RCDATA), with
// scripting on.
var rawTextNames = []string{"iframe", "noembed", "noframes", "noscript", "script", "style", "textarea", "title", "xmp"}

// tableParts are the tags that belong inside a <table> only.
var tableParts = []string{"caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"}

// refusal says what the repair r did and how to write the page so that it needs none.
func refusal(d *markup.Document, r markup.Repair) (text, note string) {
	tok := d.Src[r.At.Start:r.At.End]
	name := tokenName(tok)
	switch r.Kind {
	case markup.ParseError:
		switch r.Code {
		case "eof-in-comment":
			return "this comment is never closed: the rest of the page is inside it", "close it with -->"
		case "eof-in-cdata":
			return "this CDATA section is never closed: the rest of the page is its text", "close it with ]]>"
		case "eof-before-tag-name":
			return "the page ends with the start of a tag", "remove it, or write < as &lt;"
		}
		return "the page ends inside its doctype", "write <!doctype html>, with its >"
	case markup.IgnoredStartTag:
		note = fmt.Sprintf("remove it, or move it where the HTML Standard allows a <%s>", name)
		switch {
		case name == "frameset":
			note = "remove it: a frameset cannot follow the page's content; to show a page inside the app, use <iframe srcdoc=\"…\">"
		case name == "head":
			note = "remove it: the page has one <head>, which content before this tag already opened or closed"
		case slices.Contains(tableParts, name):
			note = fmt.Sprintf("put the <%s> inside a <table> where it belongs (<td> in a <tr>, <col> in a <colgroup>), or remove it", name)
		}
		return fmt.Sprintf("<%s> here is dropped by the browser's tree builder: it makes no element, and its attributes go nowhere", name), note
	case markup.IgnoredEndTag:
		note = fmt.Sprintf("remove it, or open the <%s> it is meant to close", name)
		if name == "head" || name == "body" || name == "html" {
			note = fmt.Sprintf("remove it: the <%s> is already closed here, or was never opened where this could close it", name)
		}
		return fmt.Sprintf("</%s> closes nothing open here: the browser drops it", name), note
	case markup.IgnoredDoctype:
		return "a doctype after the start of the page is dropped by the browser", "remove it: the doctype is the first thing in the page"
	case markup.IgnoredText:
		return "this text is dropped by the browser: it is where no text can be (in a <frameset>, or in a <template> whose first element is a table part)",
			"remove it, or move it into an element that holds text"
	case markup.DroppedAtEOF:
		return "the page ends inside this tag, which the browser drops", "end the tag with >"
	case markup.SelfClosingNonVoid:
		text = fmt.Sprintf("<%s/> does not close the <%s>: in HTML \"/>\" closes only void elements (<br/>, <img/>, <meta/>), so the <%s> stays open and takes what follows", name, name, name)
		if slices.Contains(rawTextNames, name) {
			text += ", here as its text, to the end of the page"
		}
		return text, fmt.Sprintf("write <%s></%s>", name, name)
	case markup.Breakout:
		written, closed, end := "<"+name+">", "SVG or MathML elements", "their end tags"
		if strings.HasPrefix(tok, "</") {
			written = "</" + name + ">"
		}
		if r.Node != nil {
			closed, end = nodeName(r.Node), "</"+r.Node.Name+">"
		}
		return fmt.Sprintf("%s ends the %s open around it: in SVG and MathML, the browser closes them at an HTML tag and reads it as HTML", written, closed),
			fmt.Sprintf("close the %s before %s (with %s), or put HTML inside <foreignObject>", closed, written, end)
	case markup.EndTagCreated:
		if name == "br" {
			return "</br> is read as <br>", "write <br>"
		}
		return fmt.Sprintf("</%s> with no <%s> open makes an empty <%s>", name, name, name), fmt.Sprintf("remove the </%s>, or open the <%s> it closes", name, name)
	case markup.Adopted:
		return fmt.Sprintf("</%s> closes a <%s> that elements opened inside it are still open in: the browser moves them (the adoption agency algorithm)", name, name),
			"close elements in the reverse order they were opened: the inner ones' end tags first"
	case markup.FosterParented:
		return fmt.Sprintf("%s inside a <table> but outside its cells is moved before the table", nodeName(r.Node)),
			"put it inside a <td>, <th> or <caption>, or before the <table>"
	case markup.BodyReopened:
		what := "text"
		if strings.HasPrefix(tok, "<") {
			what = "<" + name + ">"
		}
		return what + " after </body> or </html> is put back in <body> by the browser",
			"move it before </body>; a </body> or </html> written in <head> ends the head and the body there: remove it"
	case markup.HeadReopened:
		return fmt.Sprintf("<%s> after </head> is put back in <head> by the browser", name), "move it before </head>"
	case markup.MergedAttrs:
		return fmt.Sprintf("a second <%s>: the browser gives its attributes to the <%s> already open (content before it opened one)", name, name),
			fmt.Sprintf("put the attributes on one <%s>, written before any content, and remove the other", name)
	case markup.Renamed:
		return "<image> is read as <img>", "write <img>"
	case markup.BodyDetached:
		return "<frameset> here replaces the page's body, which leaves the page with everything in it", "remove the <frameset>"
	case markup.UnclosedRawText:
		text = fmt.Sprintf("<%s> is never closed: the rest of the page is its text", name)
		if name == "script" {
			text += ", and the browser does not run it"
		}
		return text, fmt.Sprintf("close it with </%s>", name)
	case markup.Limit:
		return "the formatting elements misnested here make the browser copy them over and over, past what bundle follows",
			"close <b>, <i>, <a>, <font>… before opening a block inside them"
	case markup.TooDeep:
		return fmt.Sprintf("%s is inside 512 open elements: Chromium attaches it elsewhere than the HTML Standard", nodeName(r.Node)), "nest the page's elements less deeply"
	}
	return fmt.Sprintf("the browser repairs this markup (%v), moving or hiding content", r.Kind), "write it so that it needs no repair"
}

// checkBuilt checks the normal form on d, the tree of the page assemble wrote (b.page, with
// the SDK's text and the policy still placeholders, readBuilt): the policy <meta> is the
// first element of <head>, a <meta charset> the second; the SDK's script is in <head> or
// <body>, after nothing that runs code while the page is parsed (runsWhileParsing: a module
// script without async runs after it wherever it stands); the CSS is in <head>; what went at
// the end of <body> is live HTML there; and the tree builder repairs nothing it refuses in a source. It is
// called on a page whose source passed refuse. What the page's own markup causes (elements
// still open where the page ends, which would take what goes at the end of <body>) is a
// diag error at its place; anything else is the build's own failure.
func (a *assembler) checkBuilt(d *markup.Document, b *assembled) error {
	inBody := func(off int) bool { return b.body.Start <= off && off < b.body.End }
	for _, r := range d.Repairs {
		if !refused(r) {
			continue
		}
		if inBody(r.At.Start) {
			return a.bodyEndError(b.bodyAt, fmt.Sprintf("the browser would repair it (%v)", r.Kind))
		}
		return fmt.Errorf("the built page needs the tree builder's repair (%v) at byte %d: %.80q", r.Kind, r.At.Start, d.Src[r.At.Start:])
	}
	head := d.Head()
	if head == nil {
		return fmt.Errorf("the built page has no <head>")
	}
	var firsts []*markup.Node // head's first two elements
	for c := range head.Children() {
		if c.Type == markup.ElementNode && len(firsts) < 2 {
			firsts = append(firsts, c)
		}
	}
	if len(firsts) == 0 || firsts[0].Tag.Start != b.policy || !firsts[0].Is(markup.HTML, "meta") {
		return fmt.Errorf("the policy <meta> the build wrote is not the first element of <head>")
	}
	if len(firsts) < 2 || !firsts[1].Is(markup.HTML, "meta") || b.charset >= 0 && firsts[1].Tag.Start != b.charset || !isUTF8(attrOf(firsts[1], "charset")) {
		return fmt.Errorf("<head>'s second element is not a <meta charset> of UTF-8")
	}
	for _, n := range d.Nodes {
		if n.Type != markup.ElementNode || n.Tag.IsEmpty() || n.Flags&markup.Clone != 0 {
			continue
		}
		switch s := n.Tag.Start; {
		case s == b.css && (!n.Is(markup.HTML, "style") || n.Parent != head):
			return fmt.Errorf("the <style> of the CSS the page's scripts import is not in <head>")
		case s == b.sdk && (!n.Is(markup.HTML, "script") || n.Inert() || n.Parent != head && !descends(n, d.Body())):
			return fmt.Errorf("the SDK's <script> is not in <head> or <body>")
		case b.sdk >= 0 && s < b.sdk && s != b.dev && runsWhileParsing(n):
			return fmt.Errorf("<%s> at byte %d runs code before the SDK's script", n.Name, s)
		case inBody(s) && n != d.Body():
			if n.Inert() {
				return a.bodyEndError(b.bodyAt, fmt.Sprintf("in <%s>, they would be inert", n.Parent.Name))
			}
			if n.Name == "script" && n.Namespace != markup.HTML || n.Name == "svg" && n.Namespace != markup.SVG {
				return a.bodyEndError(b.bodyAt, fmt.Sprintf("in <%s>, they would be read as its markup", n.Parent.Name))
			}
		}
	}
	return nil
}

// descends reports whether n is a descendant of anc.
func descends(n, anc *markup.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
}

// attrOf is the value of n's attribute name, "" when it has none.
func attrOf(n *markup.Node, name string) string {
	v, _ := n.AttrValue(name)
	return v
}

// bodyEndError is the error for a page whose elements still open where it ends would take
// what the build puts at the end of <body>.
func (a *assembler) bodyEndError(at int, why string) error {
	d := diag.Message{File: a.b.display(a.file),
		Text: "the build puts the page's classic scripts with defer or async and its SVG sprites at the end of <body>, here, where the page's elements still open would take them: " + why,
		Note: "close the page's elements before its end (write their end tags), and end <body> with </body>"}
	d.PlaceIn(a.lines, written(a.edits, at), 1)
	return diag.List{d}.Err()
}
