package markup

// What the checker, the build and verify ask of a Document.

// HTML returns the document element (the root html element), or nil for a fragment.
func (d *Document) HTML() *Node {
	if d.Root.Type != DocumentNode {
		return nil
	}
	for c := d.Root.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == ElementNode {
			return c
		}
	}
	return nil
}

// Head returns the document's head as the DOM has it (document.head): the first head
// element child of the html element, or nil.
func (d *Document) Head() *Node {
	return d.child(func(n *Node) bool { return n.Is(HTML, "head") })
}

// Body returns the document's body as the DOM has it (document.body): the first body or
// frameset element child of the html element, or nil.
func (d *Document) Body() *Node {
	return d.child(func(n *Node) bool { return n.Is(HTML, "body") || n.Is(HTML, "frameset") })
}

func (d *Document) child(ok func(*Node) bool) *Node {
	h := d.HTML()
	if h == nil {
		return nil
	}
	for c := h.FirstChild; c != nil; c = c.NextSibling {
		if ok(c) {
			return c
		}
	}
	return nil
}

// SourceOrder returns the nodes made from their own bytes (not Implied, not Clone), in the
// order of those bytes: elements by their start tags, text by its first characters. The
// slice is the caller's.
func (d *Document) SourceOrder() []*Node {
	out := make([]*Node, 0, len(d.Nodes))
	for _, n := range d.Nodes {
		if n.Flags&(Implied|Clone) == 0 && n.Type != DocumentNode && n.Type != FragmentNode {
			out = append(out, n)
		}
	}
	return out
}

// Source returns the bytes n was made from: an element's start tag (empty for an implied
// one), the whole of a text node's or comment's or doctype's ranges.
func (n *Node) Source() Range {
	if n.Type == ElementNode {
		return n.Tag
	}
	if len(n.Raw) == 0 {
		return Range{}
	}
	return Range{n.Raw[0].Start, n.Raw[len(n.Raw)-1].End}
}

// IsRawText reports whether n is text the tokenizer read as raw text, not markup (the text of
// an HTML script, style, title, textarea, xmp, iframe, noembed, noframes, plaintext, or
// noscript with scripting on).
func (n *Node) IsRawText() bool {
	return n.Type == TextNode && n.State != DataState && n.State != CDATAState
}

// Inert reports whether the browser keeps n out of the live page: it is inside a template's
// contents (not a declarative shadow root's), or no longer in the tree at all.
func (n *Node) Inert() bool { return n.Flags&(InTemplate|Detached) != 0 }
