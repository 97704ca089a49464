package markup

import "strings"

// Creating and inserting nodes (HTML Standard §13.2.6.1).

// newNode returns a zero node from the parser's slab, recorded in Document.Nodes.
func (p *parser) newNode(t NodeType) *Node {
	if len(p.nodes) == 0 {
		// Blocks grow with the page, so that a small page does not pay for a big block.
		p.slab = min(max(2*p.slab, 16), 512)
		p.nodes = make([]Node, p.slab)
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	n.Type = t
	p.doc.Nodes = append(p.doc.Nodes, n)
	return n
}

// newElement creates an element for the start tag token t in namespace ns (§13.2.6.1,
// "create an element for a token"), adjusting SVG and MathML names and attributes.
func (p *parser) newElement(t *token, ns Namespace) *Node {
	n := p.newNode(ElementNode)
	n.Namespace, n.Name, n.atom, n.Tag = ns, t.data, t.a, t.r
	n.Attr, n.Dropped = t.attr, t.dropped
	if t.selfClosing {
		n.Flags |= SelfClosing
	}
	if t.r.IsEmpty() {
		n.Flags |= Implied
	}
	if ns != HTML {
		if ns == SVG {
			if s, ok := svgTagNames[t.data]; ok {
				n.Name = s
			}
		}
		n.Attr = p.adjustForeign(n.Attr, ns)
		if len(n.Dropped) > 0 {
			n.Dropped = p.adjustForeign(n.Dropped, ns)
		}
		if ns == MathML && n.atom == aAnnotationXML {
			n.ipt = isIntegrationEncoding(n)
		}
	}
	for i := range n.Dropped {
		a := &n.Dropped[i]
		p.doc.Repairs = append(p.doc.Repairs, Repair{Kind: DuplicateAttr, Node: n, Code: "duplicate-attribute",
			At: Range{a.NameRange.Start, max(a.ValueRange.End, a.NameRange.End)}})
	}
	if n.atom == aTemplate && ns == HTML {
		n.Content = &Node{Type: FragmentNode, Parent: n}
	}
	return n
}

// adjustForeign adjusts attribute names for an SVG or MathML element (§13.2.6.1): a copy
// when anything changes, since a clone shares its original's attributes.
func (p *parser) adjustForeign(attrs []Attr, ns Namespace) []Attr {
	var out []Attr
	for i := range attrs {
		a := attrs[i]
		changed := false
		if ns == SVG {
			if s, ok := svgAttrNames[a.Name]; ok {
				a.Name, changed = s, true
			}
		} else if a.Name == "definitionurl" {
			a.Name, changed = "definitionURL", true
		}
		if f, ok := foreignAttrs[a.Name]; ok {
			a.Namespace, a.Name, changed = f.ns, f.local, true
		}
		if changed && out == nil {
			out = append([]Attr(nil), attrs...)
		}
		if out != nil {
			out[i] = a
		}
	}
	if out == nil {
		return attrs
	}
	return out
}

func (n *Node) appendChild(c *Node) {
	c.Parent = n
	c.PrevSibling = n.LastChild
	c.NextSibling = nil
	if n.LastChild != nil {
		n.LastChild.NextSibling = c
	} else {
		n.FirstChild = c
	}
	n.LastChild = c
}

// insertBefore inserts c into n before ref (nil: at the end).
func (n *Node) insertBefore(c, ref *Node) {
	if ref == nil {
		n.appendChild(c)
		return
	}
	c.Parent = n
	c.NextSibling = ref
	c.PrevSibling = ref.PrevSibling
	if ref.PrevSibling != nil {
		ref.PrevSibling.NextSibling = c
	} else {
		n.FirstChild = c
	}
	ref.PrevSibling = c
}

func (n *Node) removeChild(c *Node) {
	if c.PrevSibling != nil {
		c.PrevSibling.NextSibling = c.NextSibling
	} else {
		n.FirstChild = c.NextSibling
	}
	if c.NextSibling != nil {
		c.NextSibling.PrevSibling = c.PrevSibling
	} else {
		n.LastChild = c.PrevSibling
	}
	c.Parent, c.PrevSibling, c.NextSibling = nil, nil, nil
}

// detach removes n from its parent, if it has one.
func (n *Node) detach() {
	if n.Parent != nil {
		n.Parent.removeChild(n)
	}
}

// place is where a node goes: inside parent, before before (nil: at the end).
type place struct {
	parent, before *Node
	fostered       bool
}

// appropriatePlace is the appropriate place for inserting a node (§13.2.6.1), into target
// (nil: the current node), with foster parenting when it is on and target is a table part.
func (p *parser) appropriatePlace(target *Node) place {
	if target == nil {
		target = p.current()
	}
	var pl place
	if p.fostering && target.Namespace == HTML {
		switch target.atom {
		case aTable, aTbody, aTfoot, aThead, aTr:
			pl.fostered = true
			last := p.st.resolve(p.st.top, cTableTemplate)
			switch {
			case last != nil && last.n.atom == aTemplate:
				pl.parent = last.n.Content
			case last == nil:
				pl.parent = p.st.root.n
			case last.n.Parent != nil:
				pl.parent, pl.before = last.n.Parent, last.n
			default:
				pl.parent = last.prev.n
			}
			return pl
		}
	}
	pl.parent = target
	if target.Content != nil {
		pl.parent = target.Content
	}
	return pl
}

// insert puts n at pl.
func (p *parser) insert(n *Node, pl place) {
	pl.parent.insertBefore(n, pl.before)
	if pl.fostered {
		n.Flags |= Fostered
		at := Range{}
		if p.tok != nil {
			at = p.tok.r
		}
		p.repair(FosterParented, at, n)
	}
}

// insertElement inserts an element for t at the appropriate place and pushes it (§13.2.6.1,
// "insert a foreign element" and "insert an HTML element").
func (p *parser) insertElement(t *token, ns Namespace) *Node {
	n := p.newElement(t, ns)
	p.insert(n, p.appropriatePlace(nil))
	p.deep(n, t.r)
	p.push(n)
	return n
}

// chromiumDepth is the number of open elements past which Chromium stops nesting new ones
// (HTMLConstructionSite::kMaximumHTMLParserDOMTreeDepth; it tests StackDepth() > 512, one
// version "> 513": the repair is made from 512 on).
const chromiumDepth = 512

// deep records that n was inserted at a depth where Chromium's tree is not the standard's.
func (p *parser) deep(n *Node, at Range) {
	if p.st.depth >= chromiumDepth {
		p.repair(TooDeep, at, n)
	}
}

// insertHTML inserts an HTML element for t.
func (p *parser) insertHTML(t *token) *Node { return p.insertElement(t, HTML) }

// implied returns a start tag token for an element the parser makes without a tag.
func implied(a atom) *token {
	return &token{kind: tStart, data: atomNames[a], a: a}
}

// insertComment inserts a comment for t at pl (§13.2.6.1, "insert a comment").
func (p *parser) insertComment(t *token, pl place) {
	n := p.newNode(CommentNode)
	n.Data = t.data
	n.Raw = []Range{t.r}
	p.insert(n, pl)
}

// insertText inserts the characters data, read from the bytes r, at the appropriate place
// (§13.2.6.1, "insert a character"): into the text node there if there is one.
func (p *parser) insertText(data string, r Range, st TokenState) {
	if data == "" {
		return
	}
	pl := p.appropriatePlace(nil)
	if pl.parent.Type == DocumentNode {
		return
	}
	prev := pl.parent.LastChild
	if pl.before != nil {
		prev = pl.before.PrevSibling
	}
	if pl.fostered && pl.parent.Type == FragmentNode && (prev != nil && prev.Type == TextNode || strings.IndexByte(data, '<') >= 0) {
		p.fosterMerges++
	}
	if prev != nil && prev.Type == TextNode {
		p.appendText(prev, data, r)
		return
	}
	n := p.newNode(TextNode)
	n.Data, n.State = data, st
	n.Raw = []Range{r}
	p.insert(n, pl)
}

// appendText adds characters to the text node n.
func (p *parser) appendText(n *Node, data string, r Range) {
	last := &n.Raw[len(n.Raw)-1]
	b, dirty := p.textBuf[n]
	if !dirty && last.End == r.Start && p.src[last.Start:r.End] == n.Data+data {
		// Still the source's own bytes: no copy.
		n.Data = p.src[last.Start:r.End]
		last.End = r.End
		return
	}
	if !dirty {
		b = append(make([]byte, 0, 2*(len(n.Data)+len(data))), n.Data...)
	}
	p.textBuf[n] = append(b, data...)
	if last.End == r.Start {
		last.End = r.End
	} else if r.End > r.Start {
		n.Raw = append(n.Raw, r)
	}
}
