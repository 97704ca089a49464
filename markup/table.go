package markup

// The table insertion modes (HTML Standard §13.2.6.4.9-15).

// clearTo pops elements until the current node is an HTML element among as, or template, or
// html (clear the stack back to a table, table body or table row context).
func (p *parser) clearTo(as ...atom) {
	for {
		n := p.current()
		if n.Namespace == HTML && (n.atom == aTemplate || n.atom == aHTML) {
			return
		}
		for _, a := range as {
			if isHTML(n, a) {
				return
			}
		}
		p.pop()
	}
}

func (p *parser) inTableMode(t *token) bool {
	switch t.kind {
	case tText:
		if n := p.current(); n.Namespace == HTML {
			switch n.atom {
			case aTable, aTbody, aTemplate, aTfoot, aThead, aTr:
				p.pending = p.pending[:0]
				p.original = p.mode
				p.mode = inTableText
				return true
			}
		}
	case tComment:
		p.insertComment(t, p.appropriatePlace(nil))
		return false
	case tDoctype:
		p.ignored(t)
		return false
	case tStart:
		switch t.a {
		case aCaption:
			p.clearTo(aTable)
			p.pushMarker()
			p.insertHTML(t)
			p.mode = inCaption
			return false
		case aColgroup:
			p.clearTo(aTable)
			p.insertHTML(t)
			p.mode = inColumnGroup
			return false
		case aCol:
			p.clearTo(aTable)
			p.insertHTML(implied(aColgroup))
			p.mode = inColumnGroup
			return true
		case aTbody, aTfoot, aThead:
			p.clearTo(aTable)
			p.insertHTML(t)
			p.mode = inTableBody
			return false
		case aTd, aTh, aTr:
			p.clearTo(aTable)
			p.insertHTML(implied(aTbody))
			p.mode = inTableBody
			return true
		case aTable:
			if !p.inScope(aTable, cTableScope) {
				p.ignored(t)
				return false
			}
			p.repair(Misnested, t.r, p.topmost(int32(aTable)).n)
			p.popUntilAtom(aTable)
			p.resetMode()
			return true
		case aStyle, aScript, aTemplate:
			return p.inHeadMode(t)
		case aInput:
			if v, ok := attrOf(t, "type"); ok && asciiEqualFold(v, "hidden") {
				p.insertHTML(t)
				p.pop()
				p.ackSelfClose = true
				return false
			}
		case aForm:
			if p.st.templates > 0 || p.form != nil {
				p.ignored(t)
				return false
			}
			p.form = p.insertHTML(t)
			p.pop()
			return false
		}
	case tEnd:
		switch t.a {
		case aTable:
			if !p.inScope(aTable, cTableScope) {
				p.ignored(t)
				return false
			}
			p.popUntilAtom(aTable).EndTag = t.r
			p.resetMode()
			return false
		case aBody, aCaption, aCol, aColgroup, aHTML, aTbody, aTd, aTfoot, aTh, aThead, aTr:
			p.ignored(t)
			return false
		case aTemplate:
			return p.inHeadMode(t)
		}
	case tEOF:
		return p.inBodyMode(t)
	}
	return p.fostered(t)
}

// fostered processes t by the rules of "in body" with foster parenting on (the "anything
// else" of "in table").
func (p *parser) fostered(t *token) bool {
	p.fostering = true
	r := p.inBodyMode(t)
	p.fostering = false
	return r
}

func (p *parser) inTableTextMode(t *token) bool {
	if t.kind == tText {
		d := t.data
		if rawNUL(t) {
			d = dropNUL(d)
		}
		if d != "" {
			x := *t
			x.data = d
			p.pending = append(p.pending, x)
			if wsPrefix(d) < len(d) {
				p.pendingWS = false
			}
		}
		return false
	}
	dirty := false
	for i := range p.pending {
		if wsPrefix(p.pending[i].data) < len(p.pending[i].data) {
			dirty = true
			break
		}
	}
	for i := range p.pending {
		x := &p.pending[i]
		if dirty {
			p.fostered(x)
		} else {
			p.insertText(x.data, x.r, x.state)
		}
	}
	p.pending = p.pending[:0]
	p.mode = p.original
	return true
}

func (p *parser) inCaptionMode(t *token) bool {
	switch {
	case t.kind == tEnd && t.a == aCaption,
		t.kind == tStart && (t.a == aCaption || t.a == aCol || t.a == aColgroup || t.a == aTbody ||
			t.a == aTd || t.a == aTfoot || t.a == aTh || t.a == aThead || t.a == aTr),
		t.kind == tEnd && t.a == aTable:
		if !p.inScope(aCaption, cTableScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(aNone)
		n := p.popUntilAtom(aCaption)
		p.clearToMarker()
		p.mode = inTable
		if t.kind == tEnd && t.a == aCaption {
			n.EndTag = t.r
			return false
		}
		return true
	case t.kind == tEnd && (t.a == aBody || t.a == aCol || t.a == aColgroup || t.a == aHTML ||
		t.a == aTbody || t.a == aTd || t.a == aTfoot || t.a == aTh || t.a == aThead || t.a == aTr):
		p.ignored(t)
		return false
	}
	return p.inBodyMode(t)
}

func (p *parser) inColumnGroupMode(t *token) bool {
	switch t.kind {
	case tText:
		if !p.leadingWS(t, p.insertWS) {
			return false
		}
		if !isHTML(p.current(), aColgroup) {
			// Each character that is not whitespace is dropped; the whitespace goes in.
			p.framesetText(t)
			return false
		}
	case tComment:
		p.insertComment(t, p.appropriatePlace(nil))
		return false
	case tDoctype:
		p.ignored(t)
		return false
	case tStart:
		switch t.a {
		case aHTML:
			return p.inBodyMode(t)
		case aCol:
			p.insertHTML(t)
			p.pop()
			p.ackSelfClose = true
			return false
		case aTemplate:
			return p.inHeadMode(t)
		}
	case tEnd:
		switch t.a {
		case aColgroup:
			if !isHTML(p.current(), aColgroup) {
				p.ignored(t)
				return false
			}
			p.pop().EndTag = t.r
			p.mode = inTable
			return false
		case aCol:
			p.ignored(t)
			return false
		case aTemplate:
			return p.inHeadMode(t)
		}
	case tEOF:
		return p.inBodyMode(t)
	}
	if !isHTML(p.current(), aColgroup) {
		p.ignored(t)
		return false
	}
	p.pop()
	p.mode = inTable
	return true
}

func (p *parser) inTableBodyMode(t *token) bool {
	switch t.kind {
	case tStart:
		switch t.a {
		case aTr:
			p.clearTo(aTbody, aTfoot, aThead)
			p.insertHTML(t)
			p.mode = inRow
			return false
		case aTh, aTd:
			p.clearTo(aTbody, aTfoot, aThead)
			p.insertHTML(implied(aTr))
			p.mode = inRow
			return true
		case aCaption, aCol, aColgroup, aTbody, aTfoot, aThead:
			return p.closeTableBody(t)
		}
	case tEnd:
		switch t.a {
		case aTbody, aTfoot, aThead:
			if !p.inScope(t.a, cTableScope) {
				p.ignored(t)
				return false
			}
			p.clearTo(aTbody, aTfoot, aThead)
			p.pop().EndTag = t.r
			p.mode = inTable
			return false
		case aTable:
			return p.closeTableBody(t)
		case aBody, aCaption, aCol, aColgroup, aHTML, aTd, aTh, aTr:
			p.ignored(t)
			return false
		}
	}
	return p.inTableMode(t)
}

func (p *parser) closeTableBody(t *token) bool {
	if !p.inScope(aTbody, cTableScope) && !p.inScope(aThead, cTableScope) && !p.inScope(aTfoot, cTableScope) {
		p.ignored(t)
		return false
	}
	p.clearTo(aTbody, aTfoot, aThead)
	p.pop()
	p.mode = inTable
	return true
}

func (p *parser) inRowMode(t *token) bool {
	switch t.kind {
	case tStart:
		switch t.a {
		case aTh, aTd:
			p.clearTo(aTr)
			p.insertHTML(t)
			p.mode = inCell
			p.pushMarker()
			return false
		case aCaption, aCol, aColgroup, aTbody, aTfoot, aThead, aTr:
			return p.closeRow(t, false)
		}
	case tEnd:
		switch t.a {
		case aTr:
			return p.closeRow(t, true)
		case aTable:
			return p.closeRow(t, false)
		case aTbody, aTfoot, aThead:
			if !p.inScope(t.a, cTableScope) {
				p.ignored(t)
				return false
			}
			return p.closeRow(t, false)
		case aBody, aCaption, aCol, aColgroup, aHTML, aTd, aTh:
			p.ignored(t)
			return false
		}
	}
	return p.inTableMode(t)
}

// closeRow closes the tr element in table scope; own is set for the </tr> that closes it.
func (p *parser) closeRow(t *token, own bool) bool {
	if !p.inScope(aTr, cTableScope) {
		p.ignored(t)
		return false
	}
	p.clearTo(aTr)
	n := p.pop()
	p.mode = inTableBody
	if own {
		n.EndTag = t.r
		return false
	}
	return true
}

func (p *parser) inCellMode(t *token) bool {
	switch t.kind {
	case tEnd:
		switch t.a {
		case aTd, aTh:
			if !p.inScope(t.a, cTableScope) {
				p.ignored(t)
				return false
			}
			p.impliedEnd(aNone)
			p.popUntilAtom(t.a).EndTag = t.r
			p.clearToMarker()
			p.mode = inRow
			return false
		case aBody, aCaption, aCol, aColgroup, aHTML:
			p.ignored(t)
			return false
		case aTable, aTbody, aTfoot, aThead, aTr:
			if !p.inScope(t.a, cTableScope) {
				p.ignored(t)
				return false
			}
			p.closeCell()
			return true
		}
	case tStart:
		switch t.a {
		case aCaption, aCol, aColgroup, aTbody, aTd, aTfoot, aTh, aThead, aTr:
			if !p.inScope(aTd, cTableScope) && !p.inScope(aTh, cTableScope) {
				p.ignored(t)
				return false
			}
			p.closeCell()
			return true
		}
	}
	return p.inBodyMode(t)
}

func (p *parser) closeCell() {
	p.impliedEnd(aNone)
	p.popUntilAtom(aTd, aTh)
	p.clearToMarker()
	p.mode = inRow
}
