package markup

// Customizable select: the parser copies the selected option's content into the select's
// selectedcontent element when the option is popped (HTML Standard §4.10.10, "the option
// HTML element popping steps", "maybe clone an option into selectedcontent").

type selectState struct {
	selected, content *Node
}

// nearestSelect is the option element's nearest ancestor select: null past a datalist, hr
// or option, or a second optgroup. The walk is budgeted with the copies.
func (p *parser) nearestSelect(n *Node) *Node {
	optgroup := false
	for a := n.Parent; a != nil && a.Type == ElementNode; a = a.Parent {
		if p.clones <= 0 {
			return nil
		}
		p.clones--
		p.work++
		if a.Namespace != HTML {
			continue
		}
		switch a.atom {
		case aDatalist, aHr, aOption:
			return nil
		case aOptgroup:
			if optgroup {
				return nil
			}
			optgroup = true
		case aSelect:
			return a
		}
	}
	return nil
}

func (p *parser) selectOf(sel *Node) *selectState {
	if p.selects == nil {
		p.selects = map[*Node]*selectState{}
	}
	s := p.selects[sel]
	if s == nil {
		s = &selectState{}
		p.selects[sel] = s
	}
	return s
}

// optionInserted runs the selectedness setting algorithm for a select of one line as an
// option is inserted: an option with selected is selected (and no earlier one); otherwise
// the first option that is not disabled is.
func (p *parser) optionInserted(n *Node) {
	sel := p.nearestSelect(n)
	if sel == nil {
		return
	}
	if _, multi := sel.AttrValue("multiple"); multi {
		return
	}
	s := p.selectOf(sel)
	if _, ok := n.AttrValue("selected"); ok {
		if s.selected != nil {
			s.selected.sel = false
		}
		n.sel, s.selected = true, n
		return
	}
	if s.selected == nil && !optionDisabled(n) {
		n.sel, s.selected = true, n
	}
}

func optionDisabled(n *Node) bool {
	if _, ok := n.AttrValue("disabled"); ok {
		return true
	}
	if g := n.Parent; isHTML(g, aOptgroup) {
		_, ok := g.AttrValue("disabled")
		return ok
	}
	return false
}

// selectedcontentInserted notes the first selectedcontent element of a select that is not
// disabled (§4.10.x, "the selectedcontent HTML element post-connection steps": one inside an
// option, inside another selectedcontent, or inside two selects is disabled).
func (p *parser) selectedcontentInserted(n *Node) {
	var sel *Node
	for a := n.Parent; a != nil && a.Type == ElementNode; a = a.Parent {
		if p.clones <= 0 {
			return
		}
		p.clones--
		p.work++
		if a.Namespace != HTML {
			continue
		}
		switch a.atom {
		case aSelect:
			if sel != nil {
				return
			}
			sel = a
		case aOption, aSelectedcontent:
			return
		}
	}
	if sel == nil {
		return
	}
	if _, multi := sel.AttrValue("multiple"); multi {
		return
	}
	if s := p.selectOf(sel); s.content == nil {
		s.content = n
	}
}

// popped runs the popping steps of an element leaving the stack of open elements.
func (p *parser) popped(n *Node) {
	if n.atom != aOption || n.Namespace != HTML || !n.sel || p.selects == nil {
		return
	}
	sel := p.nearestSelect(n)
	if sel == nil {
		return
	}
	s := p.selects[sel]
	if s == nil || s.content == nil || s.selected != n {
		return
	}
	// Replace the selectedcontent's children with copies of the option's.
	p.copies++
	for c := s.content.FirstChild; c != nil; {
		next := c.NextSibling
		s.content.removeChild(c)
		c = next
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if cp := p.deepCopy(c); cp != nil {
			s.content.appendChild(cp)
		}
	}
}

// deepCopy copies n and what is below it, within the copy budget (nil past it).
func (p *parser) deepCopy(n *Node) *Node {
	type pair struct{ from, to *Node }
	cp := func(x *Node) *Node {
		if p.clones <= 0 {
			return nil
		}
		p.clones--
		var c *Node
		if x.Type == ElementNode {
			c = p.cloneElement(x)
		} else {
			c = p.newNode(x.Type)
			c.Data, c.Raw, c.State, c.Name, c.Doctype = x.Data, x.Raw, x.State, x.Name, x.Doctype
			if b, ok := p.textBuf[x]; ok {
				c.Data = string(b)
			}
			c.Flags = Clone
		}
		if x.Content != nil {
			c.Content = &Node{Type: FragmentNode, Parent: c}
		}
		return c
	}
	root := cp(n)
	if root == nil {
		p.limit(n.Tag)
		return nil
	}
	work := []pair{{n, root}}
	for len(work) > 0 {
		w := work[len(work)-1]
		work = work[:len(work)-1]
		p.work++
		if w.from.Content != nil {
			for c := w.from.Content.FirstChild; c != nil; c = c.NextSibling {
				if d := cp(c); d != nil {
					w.to.Content.appendChild(d)
					work = append(work, pair{c, d})
				}
			}
		}
		for c := w.from.FirstChild; c != nil; c = c.NextSibling {
			if d := cp(c); d != nil {
				w.to.appendChild(d)
				work = append(work, pair{c, d})
			}
		}
	}
	return root
}
