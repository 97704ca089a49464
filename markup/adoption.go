package markup

// The active formatting elements: reconstruction and the adoption agency algorithm (HTML
// Standard §13.2.4.3, §13.2.6.4.7).

// cloneElement makes an element for the token orig was made for (a copy, without children).
func (p *parser) cloneElement(orig *Node) *Node {
	n := p.newNode(ElementNode)
	n.Namespace, n.Name, n.atom, n.Tag = orig.Namespace, orig.Name, orig.atom, orig.Tag
	n.Attr, n.Dropped, n.ipt = orig.Attr, orig.Dropped, orig.ipt
	n.Flags = orig.Flags&(SelfClosing|Implied|ByEndTag) | Clone
	n.Original = orig
	if orig.Original != nil {
		n.Original = orig.Original
	}
	return n
}

// limit records, once, that the copy budget ran out at r.
func (p *parser) limit(r Range) {
	if !p.limited {
		p.limited = true
		p.repair(Limit, r, nil)
	}
}

// reconstruct reconstructs the active formatting elements (§13.2.4.3): it reopens, in the
// current node, the formatting elements in the list that are no longer open.
func (p *parser) reconstruct() {
	e := p.fl.last
	if e == nil || e.n == nil || e.n.open != nil {
		return
	}
	// Rewind to the first entry after the last marker or open element. The copies are
	// budgeted: the standard's tree can have Θ(n²) of them (see Limit).
	count := 1
	for e.prev != nil && e.prev.n != nil && e.prev.n.open == nil {
		if count > p.clones {
			break
		}
		e = e.prev
		count++
		p.work++
	}
	if count > p.clones {
		p.clones = 0
		r := Range{}
		if p.tok != nil {
			r = p.tok.r
		}
		p.limit(r)
		return
	}
	p.clones -= count
	for ; e != nil; e = e.next {
		n := p.cloneElement(e.n)
		p.insert(n, p.appropriatePlace(nil))
		if p.tok != nil {
			p.deep(n, p.tok.r)
		}
		p.push(n)
		p.fmtReplace(e, n)
	}
}

// adoption runs the adoption agency algorithm for the token t whose tag name is subject.
func (p *parser) adoption(t *token, subject atom) {
	closing := func(n *Node) {
		if t.kind == tEnd {
			n.EndTag = t.r
		}
	}
	if cur := p.current(); isHTML(cur, subject) && cur.fmt == nil {
		closing(cur)
		p.pop()
		return
	}
	for outer := 0; outer < 8; outer++ {
		fe := p.lastFormatting(int32(subject))
		if fe == nil {
			p.anyOtherEndTag(t)
			return
		}
		fen := fe.n
		if fen.open == nil {
			p.fmtOut(fe)
			return
		}
		if !p.nodeInScope(fen, cScope) {
			return
		}
		// The furthest block: the first special element above the formatting element. The
		// elements passed on the way are then each removed or copied by the inner loop.
		var fb *entry
		for x := fen.open.next; x != nil; x = x.next {
			p.work++
			if x.mask&(1<<cSpecial) != 0 {
				fb = x
				break
			}
		}
		if fb == nil {
			closing(fen)
			p.popUntil(fen)
			p.fmtOut(fe)
			return
		}
		common := fen.open.prev.n
		p.stamp++
		bookmark := fe // the new element goes right after this entry
		node, last := fb, fb.n
		for inner := 1; ; inner++ {
			p.work++
			node = node.prev
			if node.n == fen {
				break
			}
			nn := node.n
			if inner > 3 && nn.fmt != nil {
				p.innerDrops++
				if bookmark == nn.fmt {
					bookmark = nn.fmt.prev
				}
				p.fmtOut(nn.fmt)
			}
			if nn.fmt == nil {
				// Removed entries keep their prev: the walk goes on from there.
				p.remove(nn)
				continue
			}
			clone := p.cloneElement(nn)
			p.fmtReplace(nn.fmt, clone)
			p.replace(node, clone)
			node.stamp = p.stamp
			if last == fb.n {
				bookmark = clone.fmt
			}
			last.detach()
			clone.appendChild(last)
			last.Flags |= Moved
			last = clone
		}
		last.detach()
		last.Flags |= Moved
		p.insert(last, p.appropriatePlace(common))
		p.repair(Adopted, t.r, last)

		n := p.cloneElement(fen)
		for c := fb.n.FirstChild; c != nil; {
			next := c.NextSibling
			p.work++
			fb.n.removeChild(c)
			n.appendChild(c)
			c.Flags |= Moved
			c = next
		}
		fb.n.appendChild(n)

		// The list: n takes fe's place, or the bookmark's.
		ne := &fmtEntry{n: n, key: fe.key, seg: fe.seg, sig: fe.sig}
		p.fmtAfter(ne, bookmark)
		p.fmtOut(fe)

		// The stack: n goes right above the furthest block. In its key's chain it goes above
		// fe's place and the copies the inner loop left between fe and the furthest block,
		// and below whatever of its name is open above the furthest block.
		lower := fen.open
		for lower.above != nil && lower.above.stamp == p.stamp {
			lower = lower.above
		}
		upper := lower.above
		if lower == fen.open {
			lower = fen.open.below
		}
		p.remove(fen)
		p.insertAbove(fb, n, lower, upper)
	}
}
