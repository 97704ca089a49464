package markup

// The "in body" insertion mode (HTML Standard §13.2.6.4.7).

func (p *parser) inBodyMode(t *token) bool {
	switch t.kind {
	case tText:
		p.bodyText(t)
		return false
	case tComment:
		p.insertComment(t, p.appropriatePlace(nil))
		return false
	case tDoctype:
		p.ignored(t)
		return false
	case tStart:
		return p.bodyStart(t)
	case tEnd:
		return p.bodyEnd(t)
	case tEOF:
		if len(p.templateModes) > 0 {
			return p.inTemplateMode(t)
		}
	}
	return false
}

// bodyText inserts characters in body: NUL is dropped.
func (p *parser) bodyText(t *token) {
	data := t.data
	if rawNUL(t) {
		data = dropNUL(data)
	}
	if data == "" {
		return
	}
	p.reconstruct()
	p.insertText(data, t.r, t.state)
	if p.framesetOK && wsPrefix(data) < len(data) {
		p.framesetOK = false
	}
}

func dropNUL(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			b := make([]byte, 0, len(s))
			for j := 0; j < len(s); j++ {
				if s[j] != 0 {
					b = append(b, s[j])
				}
			}
			return string(b)
		}
	}
	return s
}

// closeP closes a p element (§13.2.6.4.7) if one is in button scope.
func (p *parser) closePInButtonScope() {
	if p.inScope(aP, cButtonScope) {
		p.closeP(nil)
	}
}

// closeP closes the p element in button scope; end is the </p> that did it, if one did.
func (p *parser) closeP(end *token) {
	p.impliedEnd(aP)
	n := p.popUntilAtom(aP)
	if n != nil && end != nil {
		n.EndTag = end.r
	}
}

// impliedEnd generates implied end tags, except for HTML elements named except.
func (p *parser) impliedEnd(except atom) {
	for {
		n := p.current()
		if n == nil || n.Namespace != HTML || atomProps[n.atom]&pImpliedEnd == 0 || n.atom == except {
			return
		}
		p.pop()
	}
}

// impliedEndThoroughly generates all implied end tags thoroughly.
func (p *parser) impliedEndThoroughly() {
	for {
		n := p.current()
		if n == nil || n.Namespace != HTML || atomProps[n.atom]&pImpliedEndThoro == 0 {
			return
		}
		p.pop()
	}
}

// mergeAttrs adds to n the attributes of t it does not have (a second <html> or <body>).
// The names n has are kept in a set, so that many such tags cost linear time.
func (p *parser) mergeAttrs(n *Node, t *token) {
	if len(t.attr) == 0 {
		return
	}
	if p.merged == nil {
		p.merged = map[*Node]map[string]bool{}
	}
	has := p.merged[n]
	if has == nil {
		has = make(map[string]bool, len(n.Attr))
		for _, a := range n.Attr {
			has[a.Name] = true
		}
		p.merged[n] = has
		n.Attr = append([]Attr(nil), n.Attr...) // n's own copy: the tag's may be shared
	}
	added := false
	for _, a := range t.attr {
		if !has[a.Name] {
			has[a.Name] = true
			n.Attr = append(n.Attr, a)
			added = true
		}
	}
	if added {
		p.repair(MergedAttrs, t.r, n)
	}
}

func (p *parser) bodyStart(t *token) bool {
	switch t.a {
	case aHTML:
		p.ignoredUnless(t, p.st.templates == 0)
		if p.st.templates == 0 {
			p.mergeAttrs(p.st.root.n, t)
		}
	case aBase, aBasefont, aBgsound, aLink, aMeta, aNoframes, aScript, aStyle, aTemplate, aTitle:
		return p.inHeadMode(t)
	case aBody:
		second := p.st.root.next
		if second == nil || !isHTML(second.n, aBody) || p.st.templates > 0 {
			p.ignored(t)
			return false
		}
		p.framesetOK = false
		p.mergeAttrs(second.n, t)
	case aFrameset:
		second := p.st.root.next
		if second == nil || !isHTML(second.n, aBody) || !p.framesetOK {
			p.ignored(t)
			return false
		}
		body := second.n
		body.detach()
		p.repair(BodyDetached, t.r, body)
		for p.st.top != p.st.root {
			p.pop()
		}
		p.insertHTML(t)
		p.mode = inFrameset
	case aAddress, aArticle, aAside, aBlockquote, aCenter, aDetails, aDialog, aDir, aDiv, aDl,
		aFieldset, aFigcaption, aFigure, aFooter, aHeader, aHgroup, aMain, aMenu, aNav, aOl, aP,
		aSearch, aSection, aSummary, aUl:
		p.closePInButtonScope()
		p.insertHTML(t)
	case aH1, aH2, aH3, aH4, aH5, aH6:
		p.closePInButtonScope()
		if n := p.current(); n.Namespace == HTML && aH1 <= n.atom && n.atom <= aH6 {
			p.pop()
		}
		p.insertHTML(t)
	case aPre, aListing:
		p.closePInButtonScope()
		p.insertHTML(t)
		p.skipLF = true
		p.framesetOK = false
	case aForm:
		if p.form != nil && p.st.templates == 0 {
			p.ignored(t)
			return false
		}
		p.closePInButtonScope()
		n := p.insertHTML(t)
		if p.st.templates == 0 {
			p.form = n
		}
	case aLi, aDd, aDt:
		p.framesetOK = false
		stop := p.nearest(cLiStop)
		if stop != nil && stop.Namespace == HTML &&
			(t.a == aLi && stop.atom == aLi || t.a != aLi && (stop.atom == aDd || stop.atom == aDt)) {
			p.impliedEnd(stop.atom)
			p.popUntilAtom(stop.atom)
		}
		p.closePInButtonScope()
		p.insertHTML(t)
	case aPlaintext:
		p.closePInButtonScope()
		p.insertHTML(t)
		p.tz.state = PlaintextState
	case aButton:
		if p.inScope(aButton, cScope) {
			p.repair(Misnested, t.r, p.topmost(int32(aButton)).n)
			p.impliedEnd(aNone)
			p.popUntilAtom(aButton)
		}
		p.reconstruct()
		p.insertHTML(t)
		p.framesetOK = false
	case aA:
		if e := p.lastFormatting(int32(aA)); e != nil {
			n := e.n
			p.repair(Misnested, t.r, n)
			p.adoption(t, aA)
			if n.fmt != nil {
				p.fmtOut(n.fmt)
			}
			p.remove(n)
		}
		p.reconstruct()
		p.pushFormatting(p.insertHTML(t), t)
	case aB, aBig, aCode, aEm, aFont, aI, aS, aSmall, aStrike, aStrong, aTt, aU:
		p.reconstruct()
		p.pushFormatting(p.insertHTML(t), t)
	case aNobr:
		p.reconstruct()
		if p.inScope(aNobr, cScope) {
			p.repair(Misnested, t.r, p.topmost(int32(aNobr)).n)
			p.adoption(t, aNobr)
			p.reconstruct()
		}
		p.pushFormatting(p.insertHTML(t), t)
	case aApplet, aMarquee, aObject:
		p.reconstruct()
		p.insertHTML(t)
		p.pushMarker()
		p.framesetOK = false
	case aTable:
		if p.doc.Quirks != Quirks {
			p.closePInButtonScope()
		}
		p.insertHTML(t)
		p.framesetOK = false
		p.mode = inTable
	case aArea, aBr, aEmbed, aImg, aKeygen, aWbr:
		p.reconstruct()
		p.insertHTML(t)
		p.pop()
		p.ackSelfClose = true
		p.framesetOK = false
	case aInput:
		if p.fragment && isHTML(p.context, aSelect) {
			p.ignored(t)
			return false
		}
		if p.inScope(aSelect, cScope) {
			p.repair(Misnested, t.r, p.topmost(int32(aSelect)).n)
			p.popUntilAtom(aSelect)
		}
		p.reconstruct()
		p.insertHTML(t)
		p.pop()
		p.ackSelfClose = true
		if v, ok := attrOf(t, "type"); !ok || !asciiEqualFold(v, "hidden") {
			p.framesetOK = false
		}
	case aParam, aSource, aTrack:
		p.insertHTML(t)
		p.pop()
		p.ackSelfClose = true
	case aHr:
		p.closePInButtonScope()
		if p.inScope(aSelect, cScope) {
			p.impliedEnd(aNone)
		}
		p.insertHTML(t)
		p.pop()
		p.ackSelfClose = true
		p.framesetOK = false
	case aImage:
		p.repair(Renamed, t.r, nil)
		t.data, t.a = "img", aImg
		return true
	case aTextarea:
		p.insertHTML(t)
		p.skipLF = true
		p.tz.state = RCDATAState
		p.original = p.mode
		p.framesetOK = false
		p.mode = text
	case aXmp:
		p.closePInButtonScope()
		p.reconstruct()
		p.framesetOK = false
		p.rawTextElement(t, RawTextState)
	case aIframe:
		p.framesetOK = false
		p.rawTextElement(t, RawTextState)
	case aNoembed:
		p.rawTextElement(t, RawTextState)
	case aNoscript:
		if p.scripting {
			p.rawTextElement(t, RawTextState)
			return false
		}
		p.reconstruct()
		p.insertHTML(t)
	case aSelect:
		if p.fragment && isHTML(p.context, aSelect) {
			p.ignored(t)
			return false
		}
		if p.inScope(aSelect, cScope) {
			p.ignored(t)
			p.popUntilAtom(aSelect)
			return false
		}
		p.reconstruct()
		p.insertHTML(t)
		p.framesetOK = false
	case aOption, aOptgroup:
		if p.inScope(aSelect, cScope) {
			if t.a == aOption {
				p.impliedEnd(aOptgroup)
			} else {
				p.impliedEnd(aNone)
			}
		} else if isHTML(p.current(), aOption) {
			p.pop()
		}
		p.reconstruct()
		n := p.insertHTML(t)
		if t.a == aOption {
			p.optionInserted(n)
		}
	case aRb, aRtc:
		if p.inScope(aRuby, cScope) {
			p.impliedEnd(aNone)
		}
		p.insertHTML(t)
	case aRp, aRt:
		if p.inScope(aRuby, cScope) {
			p.impliedEnd(aRtc)
		}
		p.insertHTML(t)
	case aMath, aSvg:
		p.reconstruct()
		ns := MathML
		if t.a == aSvg {
			ns = SVG
		}
		p.insertElement(t, ns)
		if t.selfClosing {
			p.pop()
			p.ackSelfClose = true
		}
	case aCaption, aCol, aColgroup, aFrame, aHead, aTbody, aTd, aTfoot, aTh, aThead, aTr:
		p.ignored(t)
	default:
		p.reconstruct()
		n := p.insertHTML(t)
		if t.a == aSelectedcontent {
			p.selectedcontentInserted(n)
		}
	}
	return false
}

func (p *parser) ignoredUnless(t *token, ok bool) {
	if !ok {
		p.ignored(t)
	}
}

func attrOf(t *token, name string) (string, bool) {
	for _, a := range t.attr {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

func (p *parser) bodyEnd(t *token) bool {
	switch t.a {
	case aTemplate:
		return p.inHeadMode(t)
	case aBody:
		if !p.inScope(aBody, cScope) {
			p.ignored(t)
			return false
		}
		p.topmost(int32(aBody)).n.EndTag = t.r
		p.mode = afterBody
	case aHTML:
		if !p.inScope(aBody, cScope) {
			p.ignored(t)
			return false
		}
		p.mode = afterBody
		return true
	case aAddress, aArticle, aAside, aBlockquote, aButton, aCenter, aDetails, aDialog, aDir,
		aDiv, aDl, aFieldset, aFigcaption, aFigure, aFooter, aHeader, aHgroup, aListing, aMain,
		aMenu, aNav, aOl, aPre, aSearch, aSection, aSelect, aSummary, aUl:
		if !p.inScope(t.a, cScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(aNone)
		p.popUntilAtom(t.a).EndTag = t.r
	case aForm:
		if p.st.templates == 0 {
			n := p.form
			p.form = nil
			if n == nil || !p.nodeInScope(n, cScope) {
				p.ignored(t)
				return false
			}
			p.impliedEnd(aNone)
			n.EndTag = t.r
			p.remove(n)
			return false
		}
		if !p.inScope(aForm, cScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(aNone)
		p.popUntilAtom(aForm).EndTag = t.r
	case aP:
		if !p.inScope(aP, cButtonScope) {
			n := p.insertHTML(implied(aP))
			n.Flags |= ByEndTag
			p.repair(EndTagCreated, t.r, n)
		}
		p.closeP(t)
	case aLi:
		if !p.inScope(aLi, cListScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(aLi)
		p.popUntilAtom(aLi).EndTag = t.r
	case aDd, aDt:
		if !p.inScope(t.a, cScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(t.a)
		p.popUntilAtom(t.a).EndTag = t.r
	case aH1, aH2, aH3, aH4, aH5, aH6:
		if !p.inScope(aH1, cScope) && !p.inScope(aH2, cScope) && !p.inScope(aH3, cScope) &&
			!p.inScope(aH4, cScope) && !p.inScope(aH5, cScope) && !p.inScope(aH6, cScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(aNone)
		p.popUntilAtom(aH1, aH2, aH3, aH4, aH5, aH6).EndTag = t.r
	case aA, aB, aBig, aCode, aEm, aFont, aI, aNobr, aS, aSmall, aStrike, aStrong, aTt, aU:
		p.adoption(t, t.a)
	case aApplet, aMarquee, aObject:
		if !p.inScope(t.a, cScope) {
			p.ignored(t)
			return false
		}
		p.impliedEnd(aNone)
		p.popUntilAtom(t.a).EndTag = t.r
		p.clearToMarker()
	case aBr:
		br := &token{kind: tStart, data: "br", a: aBr, r: t.r}
		p.reconstruct()
		n := p.insertHTML(br)
		n.Flags |= ByEndTag
		p.pop()
		p.repair(EndTagCreated, t.r, n)
		p.framesetOK = false
	default:
		p.anyOtherEndTag(t)
	}
	return false
}

// anyOtherEndTag is the "any other end tag" rule of "in body": close the topmost element of
// the token's name unless a special element is open above it.
func (p *parser) anyOtherEndTag(t *token) {
	e := p.topmost(p.lookupKey(t.data, t.a, false))
	if e == nil || !p.clear(e, cSpecial) {
		p.ignored(t)
		return
	}
	p.impliedEnd(e.n.atom)
	e.n.EndTag = t.r
	p.popUntil(e.n)
}

// rawNUL reports whether a text token can hold U+0000: one read in the data state or in a
// CDATA section (elsewhere the tokenizer made it U+FFFD).
func rawNUL(t *token) bool {
	return !t.ref && (t.state == DataState || t.state == CDATAState)
}
