package markup

import "iter"

// Range is a half-open range [Start, End) of byte offsets into the page a Document was parsed
// from. An empty Range (Start == End) marks a place, not bytes: where a value would be, or no
// source at all for an implied element (see Node.Tag).
type Range struct{ Start, End int }

// Len returns the number of bytes in r.
func (r Range) Len() int { return r.End - r.Start }

// IsEmpty reports whether r covers no bytes.
func (r Range) IsEmpty() bool { return r.End <= r.Start }

// NodeType says what a Node is.
type NodeType uint8

const (
	DocumentNode NodeType = iota // the root of a parsed page
	FragmentNode                 // the root of a fragment's nodes, or of a template's contents
	ElementNode
	TextNode
	CommentNode
	DoctypeNode
)

// Namespace is an element's namespace. The zero value is HTML.
type Namespace uint8

const (
	HTML Namespace = iota
	SVG
	MathML
)

// AttrNamespace is an attribute's namespace: none, except for the xlink:, xml: and xmlns
// attributes of SVG and MathML elements (HTML Standard §13.2.6.1, "adjust foreign attributes").
type AttrNamespace uint8

const (
	NoNamespace AttrNamespace = iota
	XLink
	XML
	XMLNS
)

// Flags record how the tree builder came to put a node where it is.
type Flags uint16

const (
	// Implied: the element has no tag of its own in the source (html, head, body, tbody, tr,
	// colgroup made because content needed them, a p made by a </p>). Tag is empty.
	Implied Flags = 1 << iota
	// Clone: a copy of an earlier element, made by reconstructing the active formatting
	// elements, by the adoption agency, or by copying an option into a selectedcontent. Tag and
	// Attr are the original token's; Original is the element first made from it.
	Clone
	// Fostered: inserted before a table (foster parenting) instead of where the token was.
	Fostered
	// InTemplate: inside some template's contents, which the browser keeps inert.
	InTemplate
	// SelfClosing: the start tag ended with "/>".
	SelfClosing
	// ByEndTag: made by an end tag (`</br>` is read as `<br>`, `</p>` makes an empty p).
	ByEndTag
	// Moved: given a new parent after it was inserted (the adoption agency).
	Moved
	// Detached: no longer in the tree (a body that a <frameset> replaced, and what it held).
	Detached
	// Shadow: a template with a shadowrootmode attribute that the browser makes the
	// declarative shadow root of its parent element instead of an inert template: its
	// Content is live (not InTemplate). The browser keeps the template element itself out
	// of the tree; it is kept here, where it was written.
	Shadow
	// Unclosed: an element of raw text (script, style, title, textarea...) whose text ran to the
	// end of the input without its end tag. The browser does not run such a script.
	Unclosed
)

// Node is one node of the tree the HTML Standard's tree construction builds, with where it
// came from in the source. Nodes are made by Parse and ParseFragment; a Node's fields, and the
// slices they hold, belong to its Document and must not be modified.
type Node struct {
	Type      NodeType
	Namespace Namespace // elements only
	// State is the tokenizer state a text node's first characters were read in (DataState,
	// RCDATAState for title and textarea, RawTextState, ScriptState, PlaintextState,
	// CDATAState); only text nodes have one.
	State TokenState
	atom  atom // the element's name as an atom (lower-case token name for foreign elements)
	ipt   bool // an annotation-xml that is an HTML integration point
	sel   bool // option selectedness (HTML Standard §4.10.10)
	// hasShadow: a declarative shadow root was attached to this element
	hasShadow bool
	seen      bool // scratch mark of Document.finish
	Flags     Flags

	Parent, FirstChild, LastChild, PrevSibling, NextSibling *Node

	// Name is an element's local name as the tree has it: lower case, SVG names adjusted
	// (foreignObject). For a doctype, the doctype's name.
	Name string
	// Attr holds an element's attributes in source order, the first of each name; names are
	// lower case, adjusted in SVG and MathML (viewBox, xlink href).
	Attr []Attr
	// Dropped holds attributes the tokenizer dropped because an earlier one had the same name
	// (Chromium loads a later duplicate in some SVG cases: a reader that must not miss a URL
	// reads them too).
	Dropped []Attr

	// Tag is the start tag token an element came from, "<" to ">" inclusive; empty for an
	// implied element. A Clone's Tag is its original's.
	Tag Range
	// EndTag is the end tag token that closed the element, when one did (not an end tag that
	// closed it on the way to another element, nor the end of the input).
	EndTag Range

	// Data is a text node's text, character references decoded and newlines normalized; a
	// comment's text.
	Data string
	// Raw are the ranges of the tokens the node came from, in source order, adjacent ones
	// merged: for a text node its characters as written (a CDATA section with its
	// "<![CDATA[" and "]]>"), for a comment or a doctype the whole token.
	Raw []Range

	// Content is a template element's contents, a FragmentNode (the browser's
	// DocumentFragment): what the source wrote inside <template>...</template> is here, not
	// among the template's children.
	Content *Node
	// Original is, for a Clone, the element the parser first made from the same token.
	Original *Node

	// Doctype holds a doctype's identifiers; nil for other nodes.
	Doctype *Doctype

	open *entry // its entry in the stack of open elements, while it is there
	fmt  *fmtEntry
}

// Doctype is what a doctype token said.
type Doctype struct {
	PublicID, SystemID       string
	HasPublicID, HasSystemID bool // the identifier was written (it may be empty)
	ForceQuirks              bool
}

// Attr is one attribute of an element.
type Attr struct {
	Namespace AttrNamespace
	Name      string // lower case; adjusted in SVG and MathML
	Value     string // character references decoded, newlines normalized
	// NameRange is the name as written; ValueRange the value as written without its quotes.
	// An attribute written without a value has ValueRange empty at NameRange.End; one
	// written with "=" and nothing after it has it empty where the value would be.
	NameRange, ValueRange Range
	Quote                 byte // '"' or '\'' when the value was quoted, else 0
}

// AttrValue returns the value of the element's attribute named name (in no namespace) and whether
// it has one. name is compared as the tree has it (lower case; viewBox in SVG).
func (n *Node) AttrValue(name string) (string, bool) {
	for i := range n.Attr {
		if n.Attr[i].Name == name && n.Attr[i].Namespace == NoNamespace {
			return n.Attr[i].Value, true
		}
	}
	return "", false
}

// Is reports whether n is an element named name in namespace ns.
func (n *Node) Is(ns Namespace, name string) bool {
	return n != nil && n.Type == ElementNode && n.Namespace == ns && n.Name == name
}

// Children returns n's children in order.
func (n *Node) Children() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !yield(c) {
				return
			}
		}
	}
}

// Descendants returns the nodes below n in tree order (each before its children), a
// template's contents (a FragmentNode) before the template's own children. It uses no
// recursion: any depth is fine.
func (n *Node) Descendants() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for c := firstIn(n); c != nil; c = nextIn(c, n) {
			if !yield(c) {
				return
			}
		}
	}
}

// firstIn is where tree order goes down from n: a template's contents first.
func firstIn(n *Node) *Node {
	if n.Content != nil {
		return n.Content
	}
	return n.FirstChild
}

// nextIn is the node after c in tree order below stop, or nil.
func nextIn(c, stop *Node) *Node {
	if f := firstIn(c); f != nil {
		return f
	}
	for c != stop && c != nil {
		if p := c.Parent; p != nil && p.Content == c {
			if p.FirstChild != nil {
				return p.FirstChild
			}
		} else if c.NextSibling != nil {
			return c.NextSibling
		}
		c = c.Parent
	}
	return nil
}

// Ancestors returns n's parent, its parent, and so on up to the root. A template's contents
// have the template as their Parent (as the browser's host), though they are not among its
// children.
func (n *Node) Ancestors() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for p := n.Parent; p != nil; p = p.Parent {
			if !yield(p) {
				return
			}
		}
	}
}
