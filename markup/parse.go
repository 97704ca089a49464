package markup

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Document is the tree of a page or fragment, as the HTML Standard's tree construction
// builds it, with the repairs it made on the way.
type Document struct {
	// Root is the DocumentNode of a page; for a fragment, a FragmentNode holding its nodes.
	Root *Node
	// Src is the input as a string, and every Range indexes it: the input itself when it is
	// valid UTF-8 (a leading byte order mark stays in Src, outside every node); otherwise
	// as the browser decodes it, each invalid sequence made U+FFFD.
	Src string
	// Quirks is the mode the doctype put the page in.
	Quirks QuirksMode
	// Repairs are the parse errors and repairs, in source order (At.Start; those at one
	// place in the order the parser met them).
	Repairs []Repair
	// Nodes holds every node the parser made, in the order it made them: elements from tags
	// in the order of their tags (so in source order), implied and cloned ones where the
	// parser made them, text in the order of its first characters.
	Nodes []*Node
}

// QuirksMode is a Document's mode (HTML Standard, DOM's "document mode").
type QuirksMode uint8

const (
	NoQuirks QuirksMode = iota
	LimitedQuirks
	Quirks
)

// Options changes how a page is read. The zero value reads it as Chromium does a page that
// may run scripts.
type Options struct {
	// NoScripting reads the page with the scripting flag off (§13.2.4.5): <noscript> is
	// markup, not raw text, as in a browser that runs no scripts.
	NoScripting bool

	after  func(*parser)         // tests: called after each token
	before func(*parser, *token) // tests: called before each token
}

// Parse builds the tree of a page by the HTML Standard's tree construction (§13.2). It
// never fails: every input makes a tree, as in a browser. src is read as UTF-8 (decoding is
// the caller's concern) and copied: the Document does not keep it.
func Parse(src []byte, opts Options) *Document {
	s, b, bom := decodeInput(src)
	return parse(s, b, bom, opts)
}

// ParseString is Parse of a string: when src is valid UTF-8 the Document's Src is src itself,
// not a copy, so that a reader of a large page holds it once.
func ParseString(src string, opts Options) *Document {
	b := unsafe.Slice(unsafe.StringData(src), len(src)) // read, never written
	if !utf8.ValidString(src) {
		return Parse(b, opts)
	}
	bom := 0
	if strings.HasPrefix(src, "\uFEFF") {
		bom = 3
	}
	return parse(src, b, bom, opts)
}

func parse(s string, b []byte, bom int, opts Options) *Document {
	p := newParser(s, opts)
	p.tz.pos = bom
	inputErrors(b, bom, p.tz.report)
	p.doc.Root = &Node{Type: DocumentNode}
	p.root = p.doc.Root
	p.mode = initial
	p.run()
	return p.finish()
}

// ParseFragment builds the nodes of src as the HTML fragment parsing algorithm (§13.4) does
// for the inner HTML of the element context: an element with Type ElementNode, a Namespace
// and a Name (and, for an annotation-xml context, its encoding attribute; a form pointer is
// taken from context or its Ancestors). The Document's Root is a FragmentNode holding them.
func ParseFragment(src []byte, context *Node, opts Options) *Document {
	s, b, _ := decodeInput(src)
	p := newParser(s, opts)
	inputErrors(b, 0, p.tz.report)
	p.doc.Root = &Node{Type: DocumentNode}
	p.root = p.doc.Root
	c := *context // the parser notes things on it; the caller's node stays as it was
	context = &c
	p.fragment, p.context = true, context
	if context.atom == aNone {
		context.atom = lookupAtom(context.lowerName())
	}
	if context.Namespace == HTML {
		switch context.atom {
		case aTitle, aTextarea:
			p.tz.state = RCDATAState
		case aStyle, aXmp, aIframe, aNoembed, aNoframes:
			p.tz.state = RawTextState
		case aScript:
			p.tz.state = ScriptState
		case aNoscript:
			if p.scripting {
				p.tz.state = RawTextState
			}
		case aPlaintext:
			p.tz.state = PlaintextState
		}
	} else if context.Namespace == MathML && context.atom == aAnnotationXML {
		context.ipt = isIntegrationEncoding(context)
	}
	html := p.newElement(&token{kind: tStart, data: "html", a: aHTML}, HTML)
	html.Flags |= Implied
	p.root.appendChild(html)
	p.push(html)
	if isHTML(context, aTemplate) {
		p.templateModes = append(p.templateModes, inTemplate)
	}
	p.resetMode()
	for n := context; n != nil; n = n.Parent {
		if isHTML(n, aForm) {
			p.form = n
			break
		}
	}
	p.run()
	d := p.finish()
	frag := &Node{Type: FragmentNode}
	for c := html.FirstChild; c != nil; {
		next := c.NextSibling
		html.removeChild(c)
		frag.appendChild(c)
		c = next
	}
	d.Root = frag
	return d
}

// insertionMode is one of the insertion modes of §13.2.4.1.
type insertionMode uint8

const (
	initial insertionMode = iota
	beforeHTML
	beforeHead
	inHead
	inHeadNoscript
	afterHead
	inBody
	text
	inTable
	inTableText
	inCaption
	inColumnGroup
	inTableBody
	inRow
	inCell
	inTemplate
	afterBody
	inFrameset
	afterFrameset
	afterAfterBody
	afterAfterFrameset
)

type parser struct {
	src  string
	tz   *tokenizer
	doc  *Document
	root *Node

	st          stack
	fl          fmtList
	htmlKeys    map[string]int32
	foreignKeys map[string]int32

	mode, original insertionMode
	templateModes  []insertionMode
	head, form     *Node
	framesetOK     bool
	fostering      bool
	scripting      bool
	fragment       bool
	context        *Node
	skipLF         bool // the next token's first character is dropped if it is a newline

	tok          *token // the token being processed
	ackSelfClose bool   // the token's self-closing flag was acknowledged
	pending      []token
	pendingWS    bool

	textBuf map[*Node][]byte
	stamp   uint32
	// selectedcontent (§4.10.10): the selected option and the first selectedcontent of
	// each select, while it is open
	selects map[*Node]*selectState
	clones  int  // budget of elements made by reconstruction and selectedcontent copies
	limited bool // the budget ran out (one Limit repair says where)
	work    int  // steps of loops whose length is not fixed, for the linearity test
	after   func(*parser)
	before  func(*parser, *token)
	copies  int // options copied into a selectedcontent
	// fosterMerges counts text foster parented into a template's contents and added to the
	// text before it, or holding a '<' (html.Parse splits such text there and does not add
	// it to the text before: the differential test must know)
	fosterMerges int
	// innerDrops counts formatting elements the adoption agency's inner loop took out of the
	// list and the stack (html.Parse leaves them on the stack)
	innerDrops int
	merged     map[*Node]map[string]bool // the attribute names of html and body, once merged into
	nodes      []Node
	slab       int
}

func newParser(src string, opts Options) *parser {
	p := &parser{
		src:         src,
		tz:          newTokenizer(src),
		doc:         &Document{Src: src},
		htmlKeys:    map[string]int32{},
		foreignKeys: map[string]int32{},
		scripting:   !opts.NoScripting,
		after:       opts.after,
		before:      opts.before,
		framesetOK:  true,
		textBuf:     map[*Node][]byte{},
		clones:      len(src)/4 + 1<<12,
	}
	p.st.heads = make([]*entry, numAtoms, numAtoms+16)
	p.st.work = &p.work
	p.fl.heads = map[int32]*fmtEntry{}
	p.fl.groups = map[noahKey][]*fmtEntry{}
	p.tz.report = func(code string, at int) {
		if code == "duplicate-attribute" {
			return // a DuplicateAttr repair with the attribute's range says it
		}
		p.doc.Repairs = append(p.doc.Repairs, Repair{Kind: ParseError, At: Range{at, at}, Code: code})
	}
	p.tz.dropped = func(r Range) {
		p.repair(DroppedAtEOF, r, nil)
	}
	return p
}

func (p *parser) repair(k RepairKind, r Range, n *Node) {
	p.doc.Repairs = append(p.doc.Repairs, Repair{Kind: k, At: r, Node: n})
}

// run feeds the tokens to the tree construction dispatcher (§13.2.6) until the end.
func (p *parser) run() {
	var t token
	for {
		a := p.adjustedCurrent()
		p.tz.allowCDATA = a != nil && a.Namespace != HTML
		p.tz.next(&t)
		if p.skipLF {
			p.skipLF = false
			if t.kind == tText && len(t.data) > 0 && t.data[0] == '\n' {
				if len(t.data) == 1 {
					continue
				}
				t.data = t.data[1:]
				t.r.Start = p.rawAfter(t.r.Start, 1, t.ref)
			}
		}
		p.tok = &t
		p.ackSelfClose = false
		if p.before != nil {
			p.before(p, &t)
		}
		p.dispatch(&t)
		if p.after != nil {
			p.after(p)
		}
		if t.kind == tStart && t.selfClosing && !p.ackSelfClose {
			p.doc.Repairs = append(p.doc.Repairs, Repair{Kind: SelfClosingNonVoid, At: t.r, Code: "non-void-html-element-start-tag-with-trailing-solidus"})
		}
		if t.kind == tEOF {
			return
		}
	}
}

// rawAfter returns where the raw text of a text token starting at start is after its first n
// characters (a CR LF is one).
func (p *parser) rawAfter(start, n int, ref bool) int {
	if ref {
		return start // a character reference: keep its bytes whole
	}
	i := start
	for ; n > 0 && i < len(p.src); n-- {
		if p.src[i] == '\r' && i+1 < len(p.src) && p.src[i+1] == '\n' {
			i++
		}
		i++
	}
	return i
}

// dispatch is the tree construction dispatcher: the rules for foreign content or those of
// the insertion mode, again while they ask for the token to be reprocessed.
func (p *parser) dispatch(t *token) {
	for {
		var again bool
		if p.foreignRules(t) {
			again = p.foreign(t) && p.step(p.mode, t)
		} else {
			again = p.step(p.mode, t)
		}
		if !again {
			return
		}
	}
}

// adjustedCurrent is the adjusted current node (§13.2.4.2): the context element when the
// stack holds only the html element of a fragment.
func (p *parser) adjustedCurrent() *Node {
	if p.fragment && p.st.depth == 1 {
		return p.context
	}
	return p.current()
}

// foreignRules reports whether t is processed by the rules for foreign content.
func (p *parser) foreignRules(t *token) bool {
	n := p.adjustedCurrent()
	if n == nil || n.Namespace == HTML || t.kind == tEOF {
		return false
	}
	if isMathText(n) {
		if t.kind == tText || t.kind == tStart && t.a != aMglyph && t.a != aMalignmark {
			return false
		}
	}
	if n.Namespace == MathML && n.atom == aAnnotationXML && t.kind == tStart && t.a == aSvg {
		return false
	}
	if isHTMLIntegration(n) && (t.kind == tStart || t.kind == tText) {
		return false
	}
	return true
}

func isMathText(n *Node) bool {
	if n.Namespace != MathML {
		return false
	}
	switch n.atom {
	case aMi, aMo, aMn, aMs, aMtext:
		return true
	}
	return false
}

func isHTMLIntegration(n *Node) bool {
	switch n.Namespace {
	case MathML:
		return n.ipt
	case SVG:
		return n.atom == aForeignObject || n.atom == aDesc || n.atom == aTitle
	}
	return false
}

// isIntegrationEncoding reports whether an annotation-xml element's encoding makes it an HTML
// integration point.
func isIntegrationEncoding(n *Node) bool {
	v, ok := n.AttrValue("encoding")
	if !ok {
		return false
	}
	return asciiEqualFold(v, "text/html") || asciiEqualFold(v, "application/xhtml+xml")
}

// asciiEqualFold compares s with lower-case t in ASCII case only, as the standard does
// (strings.EqualFold would also fold ſ to s and K to k).
func asciiEqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != t[i] {
			return false
		}
	}
	return true
}

// finish stops parsing (§13.2.7): pops what is left, fills in text, and marks what the
// Document's readers ask of each node.
func (p *parser) finish() *Document {
	for p.st.top != nil {
		p.pop()
	}
	if p.after != nil {
		p.after(p)
	}
	for n, b := range p.textBuf {
		n.Data = string(b)
	}
	p.textBuf = nil
	d := p.doc
	slices.SortStableFunc(d.Repairs, func(a, b Repair) int { return a.At.Start - b.At.Start })
	// Mark template contents, and what the tree no longer holds.
	for n := range d.Root.Descendants() {
		n.Flags &^= Detached | InTemplate
		if par := n.Parent; par != nil {
			inert := par.Flags&InTemplate != 0
			if t := par.Parent; par.Type == FragmentNode && t != nil {
				// A template's contents: inert, unless the template is a declarative
				// shadow root (and not itself inside an inert template).
				inert = t.Flags&Shadow == 0 || t.Flags&InTemplate != 0
			}
			if inert {
				n.Flags |= InTemplate
			}
		}
		n.seen = true
	}
	for _, n := range d.Nodes {
		if !n.seen && n.Type != FragmentNode {
			n.Flags |= Detached
		}
		n.seen = false
	}
	return d
}
