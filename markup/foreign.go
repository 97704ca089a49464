package markup

import "strings"

// The rules for parsing tokens in foreign content (HTML Standard §13.2.6.5). foreign
// returns true when the token must then be processed by the current insertion mode's rules.
func (p *parser) foreign(t *token) bool {
	switch t.kind {
	case tText:
		d := t.data
		if strings.IndexByte(d, 0) >= 0 {
			d = strings.ReplaceAll(d, "\x00", "\uFFFD")
		}
		if p.framesetOK {
			for i := 0; i < len(t.data); i++ {
				if c := t.data[i]; c != 0 && !isWS(c) {
					p.framesetOK = false
					break
				}
			}
		}
		p.insertText(d, t.r, t.state)
	case tComment:
		p.insertComment(t, p.appropriatePlace(nil))
	case tDoctype:
		p.ignored(t)
	case tStart:
		if breaksOut(t) {
			return p.breakout(t)
		}
		// A foreign element's text is markup, even a <title>'s or a <style>'s: the
		// tokenizer stays in the data state.
		p.insertElement(t, p.adjustedCurrent().Namespace)
		if t.selfClosing {
			p.pop()
			p.ackSelfClose = true
		}
	case tEnd:
		if t.a == aBr || t.a == aP {
			return p.breakout(t)
		}
		return p.foreignEnd(t)
	}
	return false
}

// breaksOut reports whether a start tag leaves foreign content.
func breaksOut(t *token) bool {
	if atomProps[t.a]&pBreakout != 0 {
		return true
	}
	if t.a == aFont {
		for _, a := range t.attr {
			if a.Name == "color" || a.Name == "face" || a.Name == "size" {
				return true
			}
		}
	}
	return false
}

// breakout pops the foreign elements above the nearest HTML element or integration point,
// for an HTML tag written inside SVG or MathML.
func (p *parser) breakout(t *token) bool {
	var closed *Node
	for {
		n := p.current()
		if n.Namespace == HTML || isMathText(n) || isHTMLIntegration(n) {
			break
		}
		closed = n
		p.pop()
	}
	p.repair(Breakout, t.r, closed)
	return true
}

// foreignEnd is "any other end tag" in foreign content: close the topmost SVG or MathML
// element of the token's name (in any case) if no HTML element is open above it.
func (p *parser) foreignEnd(t *token) bool {
	cur := p.current()
	if cur.Namespace == HTML {
		// The fragment case: the html element alone on the stack.
		p.ignored(t)
		return false
	}
	e := p.topmost(p.lookupKey(t.data, t.a, true))
	if e != nil && p.clear(e, cHTML) {
		e.n.EndTag = t.r
		p.popUntil(e.n)
		return false
	}
	return true
}
