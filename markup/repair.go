package markup

// RepairKind says what the tree builder did to markup it had to repair. The HTML Standard
// calls each of these a parse error and says exactly what the browser does instead; the
// kinds a checker must refuse (content moved, hidden or made from other bytes) are the ones
// for which MovesContent is true.
type RepairKind uint8

const (
	// ParseError: the tokenizer's parse error Code (HTML Standard §13.2.2) at At.Start. The
	// token is read as the standard says; most change nothing that matters.
	ParseError RepairKind = iota
	// IgnoredStartTag, IgnoredEndTag, IgnoredDoctype: the tree builder dropped the token at
	// At (a <frameset> after content, a second <body> in a template, </div> with no div
	// open, a table tag outside a table...). Its attributes never reach the tree.
	IgnoredStartTag
	IgnoredEndTag
	IgnoredDoctype
	// IgnoredText: characters at At that are not whitespace were dropped (text in a
	// frameset, text in a <template> after <col>).
	IgnoredText
	// DroppedAtEOF: a tag or doctype at At was cut off by the end of the input and makes
	// no token.
	DroppedAtEOF
	// SelfClosingNonVoid: "/>" on an HTML element that is not void (<div/>, <style/>, <script/>):
	// the element stays open, and for raw text elements the rest of the page is its text.
	SelfClosingNonVoid
	// Breakout: a start tag at At (or </br>, </p>) closed the SVG or MathML elements open
	// around it and went into HTML; Node is the topmost element it closed.
	Breakout
	// EndTagCreated: an end tag at At made an element (</p> with no p open makes an empty p,
	// </br> makes a br). Node is the element.
	EndTagCreated
	// Adopted: the adoption agency (an end tag at At for a formatting element that other
	// elements were opened inside) moved Node to a new parent, and gave the children of a
	// block inside it to a copy of the formatting element. (Copies of formatting elements,
	// here and where the parser reopens them, are nodes with the Clone flag: they repeat an
	// earlier tag and move nothing, so they are not repairs.)
	Adopted
	// FosterParented: Node, from the token at At, was put before the table it was written inside.
	FosterParented
	// BodyReopened: the token at At came after </body> or </html>; the body took it.
	BodyReopened
	// HeadReopened: the element Node from At came after </head> but was put in the head.
	HeadReopened
	// DuplicateAttr: the attribute at At repeats a name on Node's tag; the first one counts.
	// The dropped one is in Node.Dropped. (Code is the standard's duplicate-attribute.)
	DuplicateAttr
	// MergedAttrs: a second <html> or <body> tag at At added its attributes to the element
	// Node that was already open.
	MergedAttrs
	// Renamed: the <image> tag at At made an img element Node.
	Renamed
	// BodyDetached: a <frameset> at At took the place of the body Node, which left the
	// document with everything in it.
	BodyDetached
	// UnclosedRawText: the input ended inside the raw text element Node (a script, style,
	// title...): its text runs to the end, and the browser does not run such a script.
	UnclosedRawText
	// Limit: the reconstruction of formatting elements at At would have made more copies
	// than the input's size allows (the standard's tree grows as the square of the input
	// there); the parser makes no more copies, so the tree differs from the browser's from
	// here on. Recorded once, where the budget ran out.
	Limit
	// TooDeep: Node, from the tag at At, was inserted while 512 or more elements were open.
	// Chromium attaches such an element to its parent's parent instead
	// (kMaximumHTMLParserDOMTreeDepth, html_construction_site.cc), before it sends content
	// into a template: past that depth its tree is not the standard's, and an element written
	// in a template can be live there.
	TooDeep
	// Misnested: a start tag at At closed an element of its own kind that was still open
	// (<a> in <a>, <nobr> in <nobr>, <select> in <select>, <table> in <table>, <button> in
	// <button>, <input> in <select>); Node is the element closed.
	Misnested
)

var repairNames = [...]string{
	"parse error", "ignored start tag", "ignored end tag", "ignored doctype", "ignored text",
	"dropped at end of input", "self-closing non-void element", "breakout from foreign content",
	"element made by an end tag", "adoption agency",
	"foster parented", "body reopened", "head reopened", "duplicate attribute",
	"attributes merged", "renamed", "detached", "unclosed raw text", "limit", "too deep", "misnested",
}

func (k RepairKind) String() string {
	if int(k) < len(repairNames) {
		return repairNames[k]
	}
	return "repair"
}

// MovesContent reports whether repairs of kind k put content somewhere other than where its
// source order puts it, hide it, or make it from other bytes: what a page meant to be read
// one way (by a checker that reads it in source order) must not contain.
func (k RepairKind) MovesContent() bool {
	switch k {
	case ParseError, DuplicateAttr, Misnested:
		return false
	}
	return true
}

// Repair is one thing the tree builder did that a well-formed page would not have needed.
type Repair struct {
	Kind RepairKind
	At   Range  // the bytes of the token that caused it (for ParseError, a place)
	Node *Node  // the element made, moved or affected, when there is one
	Code string // ParseError: the standard's code (eof-in-tag); SelfClosingNonVoid likewise
}
