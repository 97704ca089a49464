package markup

// The insertion modes outside body and tables (HTML Standard §13.2.6.4). Each returns true
// when the token must be reprocessed (through the dispatcher, in the mode now current).

// step processes t by the rules of mode m.
func (p *parser) step(m insertionMode, t *token) bool {
	switch m {
	case initial:
		return p.initialMode(t)
	case beforeHTML:
		return p.beforeHTMLMode(t)
	case beforeHead:
		return p.beforeHeadMode(t)
	case inHead:
		return p.inHeadMode(t)
	case inHeadNoscript:
		return p.inHeadNoscriptMode(t)
	case afterHead:
		return p.afterHeadMode(t)
	case inBody:
		return p.inBodyMode(t)
	case text:
		return p.textMode(t)
	case inTable:
		return p.inTableMode(t)
	case inTableText:
		return p.inTableTextMode(t)
	case inCaption:
		return p.inCaptionMode(t)
	case inColumnGroup:
		return p.inColumnGroupMode(t)
	case inTableBody:
		return p.inTableBodyMode(t)
	case inRow:
		return p.inRowMode(t)
	case inCell:
		return p.inCellMode(t)
	case inTemplate:
		return p.inTemplateMode(t)
	case afterBody:
		return p.afterBodyMode(t)
	case inFrameset, afterFrameset:
		return p.framesetMode(m, t)
	case afterAfterBody:
		return p.afterAfterBodyMode(t)
	case afterAfterFrameset:
		return p.afterAfterFramesetMode(t)
	}
	return false
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// wsPrefix returns the length of the whitespace at the start of s.
func wsPrefix(s string) int {
	i := 0
	for i < len(s) && isWS(s[i]) {
		i++
	}
	return i
}

// cut splits the text token t after its first k characters: it returns the first part and
// leaves the rest in t.
func (p *parser) cut(t *token, k int) token {
	head := *t
	head.data = t.data[:k]
	mid := p.rawAfter(t.r.Start, k, t.ref)
	head.r.End = mid
	t.data = t.data[k:]
	t.r.Start = mid
	return head
}

// leadingWS handles the whitespace a text token begins with by calling ws on it (nil: drop
// it), and reports whether characters remain in t.
func (p *parser) leadingWS(t *token, ws func(h *token)) bool {
	k := wsPrefix(t.data)
	if k == 0 {
		return true
	}
	h := p.cut(t, k)
	if ws != nil {
		ws(&h)
	}
	return t.data != ""
}

// insertWS inserts whitespace characters.
func (p *parser) insertWS(h *token) { p.insertText(h.data, h.r, h.state) }

func (p *parser) ignored(t *token) {
	switch t.kind {
	case tStart:
		p.repair(IgnoredStartTag, t.r, nil)
	case tEnd:
		p.repair(IgnoredEndTag, t.r, nil)
	case tDoctype:
		p.repair(IgnoredDoctype, t.r, nil)
	case tText:
		p.repair(IgnoredText, t.r, nil)
	}
}

func (p *parser) initialMode(t *token) bool {
	switch t.kind {
	case tText:
		if !p.leadingWS(t, nil) {
			return false
		}
	case tComment:
		p.insertComment(t, place{parent: p.root})
		return false
	case tDoctype:
		n := p.newNode(DoctypeNode)
		n.Name, n.Doctype, n.Raw = t.data, t.doctype, []Range{t.r}
		p.root.appendChild(n)
		p.doc.Quirks = quirksOf(t.data, t.doctype)
		p.mode = beforeHTML
		return false
	}
	p.doc.Quirks = Quirks
	p.mode = beforeHTML
	return true
}

func (p *parser) beforeHTMLMode(t *token) bool {
	switch t.kind {
	case tDoctype:
		p.ignored(t)
		return false
	case tComment:
		p.insertComment(t, place{parent: p.root})
		return false
	case tText:
		if !p.leadingWS(t, nil) {
			return false
		}
	case tStart:
		if t.a == aHTML {
			n := p.newElement(t, HTML)
			p.root.appendChild(n)
			p.push(n)
			p.mode = beforeHead
			return false
		}
	case tEnd:
		switch t.a {
		case aHead, aBody, aHTML, aBr:
		default:
			p.ignored(t)
			return false
		}
	}
	n := p.newElement(implied(aHTML), HTML)
	p.root.appendChild(n)
	p.push(n)
	p.mode = beforeHead
	return true
}

func (p *parser) beforeHeadMode(t *token) bool {
	switch t.kind {
	case tText:
		if !p.leadingWS(t, nil) {
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
		case aHead:
			p.head = p.insertHTML(t)
			p.mode = inHead
			return false
		}
	case tEnd:
		switch t.a {
		case aHead, aBody, aHTML, aBr:
		default:
			p.ignored(t)
			return false
		}
	}
	p.head = p.insertHTML(implied(aHead))
	p.mode = inHead
	return true
}

// rawTextElement follows the generic raw text and RCDATA element parsing algorithms
// (§13.2.6.2).
func (p *parser) rawTextElement(t *token, st TokenState) *Node {
	n := p.insertHTML(t)
	p.tz.state = st
	p.original = p.mode
	p.mode = text
	return n
}

func (p *parser) inHeadMode(t *token) bool {
	switch t.kind {
	case tText:
		if !p.leadingWS(t, p.insertWS) {
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
		case aBase, aBasefont, aBgsound, aLink, aMeta:
			p.insertHTML(t)
			p.pop()
			p.ackSelfClose = true
			return false
		case aTitle:
			p.rawTextElement(t, RCDATAState)
			return false
		case aNoscript:
			if p.scripting {
				p.rawTextElement(t, RawTextState)
				return false
			}
			p.insertHTML(t)
			p.mode = inHeadNoscript
			return false
		case aNoframes, aStyle:
			p.rawTextElement(t, RawTextState)
			return false
		case aScript:
			p.rawTextElement(t, ScriptState)
			return false
		case aTemplate:
			p.startTemplate(t)
			return false
		case aHead:
			p.ignored(t)
			return false
		}
	case tEnd:
		switch t.a {
		case aHead:
			n := p.pop()
			n.EndTag = t.r
			p.mode = afterHead
			return false
		case aBody, aHTML, aBr:
		case aTemplate:
			p.endTemplate(t)
			return false
		default:
			p.ignored(t)
			return false
		}
	}
	p.pop()
	p.mode = afterHead
	return true
}

// startTemplate handles a template start tag in head (§13.2.6.4.4), with declarative shadow
// roots (a template with shadowrootmode becomes the shadow root of the element it is in).
func (p *parser) startTemplate(t *token) {
	p.pushMarker()
	p.framesetOK = false
	p.mode = inTemplate
	p.templateModes = append(p.templateModes, inTemplate)
	n := p.insertHTML(t)
	if host := shadowHost(p, n, t); host != nil {
		n.Flags |= Shadow
		host.hasShadow = true
	}
}

func (p *parser) endTemplate(t *token) {
	if p.st.templates == 0 {
		p.ignored(t)
		return
	}
	p.impliedEndThoroughly()
	n := p.popUntilAtom(aTemplate)
	if n != nil {
		n.EndTag = t.r
	}
	p.clearToMarker()
	p.templateModes = p.templateModes[:len(p.templateModes)-1]
	p.resetMode()
}

func (p *parser) inHeadNoscriptMode(t *token) bool {
	switch t.kind {
	case tDoctype:
		p.ignored(t)
		return false
	case tStart:
		switch t.a {
		case aHTML:
			return p.inBodyMode(t)
		case aBasefont, aBgsound, aLink, aMeta, aNoframes, aStyle:
			return p.inHeadMode(t)
		case aHead, aNoscript:
			p.ignored(t)
			return false
		}
	case tEnd:
		switch t.a {
		case aNoscript:
			n := p.pop()
			n.EndTag = t.r
			p.mode = inHead
			return false
		case aBr:
		default:
			p.ignored(t)
			return false
		}
	case tText:
		if !p.leadingWS(t, p.insertWS) {
			return false
		}
	case tComment:
		return p.inHeadMode(t)
	}
	p.pop()
	p.mode = inHead
	return true
}

func (p *parser) afterHeadMode(t *token) bool {
	switch t.kind {
	case tText:
		if !p.leadingWS(t, p.insertWS) {
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
		case aBody:
			p.insertHTML(t)
			p.framesetOK = false
			p.mode = inBody
			return false
		case aFrameset:
			p.insertHTML(t)
			p.mode = inFrameset
			return false
		case aBase, aBasefont, aBgsound, aLink, aMeta, aNoframes, aScript, aStyle, aTemplate, aTitle:
			// Put back into the head, though written after it.
			head := p.head
			p.push(head)
			n0 := len(p.doc.Nodes)
			r := p.inHeadMode(t)
			if len(p.doc.Nodes) > n0 {
				p.repair(HeadReopened, t.r, p.doc.Nodes[n0])
			}
			p.remove(head)
			return r
		case aHead:
			p.ignored(t)
			return false
		}
	case tEnd:
		switch t.a {
		case aTemplate:
			return p.inHeadMode(t)
		case aBody, aHTML, aBr:
		default:
			p.ignored(t)
			return false
		}
	}
	p.insertHTML(implied(aBody))
	p.mode = inBody
	return true
}

func (p *parser) textMode(t *token) bool {
	switch t.kind {
	case tText:
		p.insertText(t.data, t.r, t.state)
		return false
	case tEOF:
		n := p.pop()
		n.Flags |= Unclosed
		p.repair(UnclosedRawText, Range{n.Tag.Start, len(p.src)}, n)
		p.mode = p.original
		return true
	case tEnd:
		n := p.pop()
		n.EndTag = t.r
		p.mode = p.original
		return false
	}
	return false
}

func (p *parser) inTemplateMode(t *token) bool {
	switch t.kind {
	case tText, tComment, tDoctype:
		return p.inBodyMode(t)
	case tStart:
		var m insertionMode
		switch t.a {
		case aBase, aBasefont, aBgsound, aLink, aMeta, aNoframes, aScript, aStyle, aTemplate, aTitle:
			return p.inHeadMode(t)
		case aCaption, aColgroup, aTbody, aTfoot, aThead:
			m = inTable
		case aCol:
			m = inColumnGroup
		case aTr:
			m = inTableBody
		case aTd, aTh:
			m = inRow
		default:
			m = inBody
		}
		p.templateModes[len(p.templateModes)-1] = m
		p.mode = m
		return true
	case tEnd:
		if t.a == aTemplate {
			return p.inHeadMode(t)
		}
		p.ignored(t)
		return false
	case tEOF:
		if p.st.templates == 0 {
			return false
		}
		p.popUntilAtom(aTemplate)
		p.clearToMarker()
		p.templateModes = p.templateModes[:len(p.templateModes)-1]
		p.resetMode()
		return true
	}
	return false
}

func (p *parser) afterBodyMode(t *token) bool {
	switch t.kind {
	case tText:
		if !p.leadingWS(t, func(h *token) { p.inBodyMode(h) }) {
			return false
		}
	case tComment:
		p.insertComment(t, place{parent: p.st.root.n})
		return false
	case tDoctype:
		p.ignored(t)
		return false
	case tStart:
		if t.a == aHTML {
			return p.inBodyMode(t)
		}
	case tEnd:
		if t.a == aHTML {
			if p.fragment {
				p.ignored(t)
			} else {
				p.mode = afterAfterBody
			}
			return false
		}
	case tEOF:
		return false
	}
	p.repair(BodyReopened, t.r, nil)
	p.mode = inBody
	return true
}

// framesetMode is "in frameset" and "after frameset".
func (p *parser) framesetMode(m insertionMode, t *token) bool {
	switch t.kind {
	case tText:
		p.framesetText(t)
		return false
	case tComment:
		p.insertComment(t, p.appropriatePlace(nil))
		return false
	case tStart:
		switch {
		case t.a == aHTML:
			return p.inBodyMode(t)
		case t.a == aNoframes:
			return p.inHeadMode(t)
		case m == inFrameset && t.a == aFrameset:
			p.insertHTML(t)
			return false
		case m == inFrameset && t.a == aFrame:
			p.insertHTML(t)
			p.pop()
			p.ackSelfClose = true
			return false
		}
	case tEnd:
		switch {
		case m == inFrameset && t.a == aFrameset:
			if p.st.top == p.st.root {
				p.ignored(t)
				return false
			}
			n := p.pop()
			n.EndTag = t.r
			if !p.fragment && !isHTML(p.current(), aFrameset) {
				p.mode = afterFrameset
			}
			return false
		case m == afterFrameset && t.a == aHTML:
			p.mode = afterAfterFrameset
			return false
		}
	case tEOF:
		return false
	}
	p.ignored(t)
	return false
}

// framesetText inserts the whitespace of a text token in a frameset; the other characters
// are dropped.
func (p *parser) framesetText(t *token) {
	ws := wsOnly(t.data)
	if len(ws) < len(t.data) {
		p.repair(IgnoredText, t.r, nil)
	}
	p.insertText(ws, t.r, t.state)
}

// wsOnly returns the whitespace characters of s.
func wsOnly(s string) string {
	if wsPrefix(s) == len(s) {
		return s
	}
	ws := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if isWS(s[i]) {
			ws = append(ws, s[i])
		}
	}
	return string(ws)
}

func (p *parser) afterAfterBodyMode(t *token) bool {
	switch t.kind {
	case tComment:
		p.insertComment(t, place{parent: p.root})
		return false
	case tDoctype:
		return p.inBodyMode(t)
	case tText:
		if !p.leadingWS(t, func(h *token) { p.inBodyMode(h) }) {
			return false
		}
	case tStart:
		if t.a == aHTML {
			return p.inBodyMode(t)
		}
	case tEOF:
		return false
	}
	p.repair(BodyReopened, t.r, nil)
	p.mode = inBody
	return true
}

func (p *parser) afterAfterFramesetMode(t *token) bool {
	switch t.kind {
	case tComment:
		p.insertComment(t, place{parent: p.root})
		return false
	case tDoctype:
		return p.inBodyMode(t)
	case tText:
		// Whitespace goes in by the rules of "in body" (which reopen formatting elements);
		// the other characters are dropped.
		ws := wsOnly(t.data)
		if len(ws) < len(t.data) {
			p.repair(IgnoredText, t.r, nil)
		}
		if ws != "" {
			h := *t
			h.data = ws
			p.inBodyMode(&h)
		}
		return false
	case tStart:
		switch t.a {
		case aHTML:
			return p.inBodyMode(t)
		case aNoframes:
			return p.inHeadMode(t)
		}
	case tEOF:
		return false
	}
	p.ignored(t)
	return false
}

// resetMode resets the insertion mode appropriately (§13.2.4.1).
func (p *parser) resetMode() {
	e := p.st.resolve(p.st.top, cReset)
	n := e.n
	last := e == p.st.root
	if last && p.fragment {
		n = p.context
		if n.Namespace != HTML {
			p.mode = inBody
			return
		}
	}
	switch n.atom {
	case aTd, aTh:
		if !last {
			p.mode = inCell
			return
		}
	case aTr:
		p.mode = inRow
		return
	case aTbody, aThead, aTfoot:
		p.mode = inTableBody
		return
	case aCaption:
		p.mode = inCaption
		return
	case aColgroup:
		p.mode = inColumnGroup
		return
	case aTable:
		p.mode = inTable
		return
	case aTemplate:
		p.mode = p.templateModes[len(p.templateModes)-1]
		return
	case aHead:
		if !last {
			p.mode = inHead
			return
		}
	case aBody:
		p.mode = inBody
		return
	case aFrameset:
		p.mode = inFrameset
		return
	case aHTML:
		if p.head == nil {
			p.mode = beforeHead
		} else {
			p.mode = afterHead
		}
		return
	}
	p.mode = inBody
}
