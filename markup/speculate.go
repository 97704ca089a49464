package markup

import (
	"slices"
	"strings"
)

// Speculate reads the page d was parsed from as Chromium's preload scanner does: ahead of the tree builder, to fetch
// early what the page will need (HTMLPreloadScanner). Its requests are real, and they follow
// its own reading, not the tree: a token stream whose tokenizer is steered by tag names alone,
// as if every element were HTML. After the start tag of a textarea or title it reads RCDATA;
// of a script, script data; of a style, iframe, xmp, noembed, noframes (and noscript, with
// scripting on), raw text; of a plaintext, the rest of the input; except, for all but
// textarea, title and script, between a <select> and the input, keygen, textarea or
// </select> that ends it (an older scanner's reading: Chromium 156 reads a select's content
// as any other, and both readings are given). It knows no foreign content: a CDATA section is a bogus comment,
// and <svg><style> is raw text, where the tree reads text and markup. So Chromium 156
// fetches the <img> of `<svg><![CDATA[ ><img src=x> ]]>` and of
// `<svg><style><!--</style><img src=x>`, which no tree holds (TestSpeculate, and the offline
// check's Chromium tests, record it), and an <img> that the tree builder ignores (after a
// <frameset>) all the same.
//
// It returns, in source order, the elements of that reading that the tree d does not hold as
// they are: a start tag no element of d came from, or a style's or script's whose text is
// not the text the tree gives it. Each is in the HTML namespace with its attributes as the
// tokenizer read them (Attr, Dropped, Tag) and, for a style or a script, the text the
// tokenizer read after the tag as its one child; an element between <template> and
// </template> is InTemplate (the scanner fetches nothing there). A reader of the page judges
// these besides the tree's. For a page the tree builder reads as written there are none.
// opts.NoScripting reads <noscript> as the scanner of a page without scripts does: d should
// then be the tree built so too.
func (d *Document) Speculate(opts Options) []*Node {
	out := d.speculate(opts, true)
	// Chromium 156 parses a <select>'s content as any other (customizable select): its
	// scanner read <select><svg><style><!--</style><img src=x> as a style's raw text and
	// fetched the <img>, which the tree holds in a comment. Which way a scanner of another
	// version reads <select> is not known here: both readings are given.
	seen := map[[2]Range]bool{}
	for _, n := range out {
		seen[[2]Range{n.Tag, textRange(n)}] = true
	}
	for _, n := range d.speculate(opts, false) {
		if !seen[[2]Range{n.Tag, textRange(n)}] {
			out = append(out, n)
		}
	}
	slices.SortStableFunc(out, func(a, b *Node) int { return a.Tag.Start - b.Tag.Start })
	return out
}

// speculate is one reading of Speculate's; selects says whether a <select> keeps the
// tokenizer from switching state for the elements in it.
func (d *Document) speculate(opts Options, selects bool) []*Node {
	s := d.Src
	z := newTokenizer(s)
	if strings.HasPrefix(s, "\uFEFF") {
		z.pos = len("\uFEFF")
	}
	var out []*Node
	k := 0 // the tree's next node, in source order as the scanner's
	// differs reports whether the tree holds no element made from n's tag with n's text.
	differs := func(n *Node) bool {
		for k < len(d.Nodes) && (d.Nodes[k].Type != ElementNode || d.Nodes[k].Flags&(Clone|Implied) != 0 || d.Nodes[k].Tag.Start < n.Tag.Start) {
			k++
		}
		return k >= len(d.Nodes) || d.Nodes[k].Tag.Start != n.Tag.Start || textRange(d.Nodes[k]) != textRange(n)
	}
	inSelect, templates := false, 0
	var open *Node // the style or script element whose text the tokenizer reads
	var text []byte
	var textNode *Node
	flush := func() {
		if textNode != nil && text != nil {
			textNode.Data = string(text)
		}
		textNode, text = nil, nil
	}
	var t token
	for {
		z.allowCDATA = false
		z.next(&t)
		if t.kind != tText && open != nil {
			if flush(); differs(open) {
				out = append(out, open)
			}
			open = nil
		}
		switch t.kind {
		case tEOF:
			return out
		case tStart:
			n := &Node{Type: ElementNode, Name: t.data, atom: t.a, Attr: t.attr, Dropped: t.dropped, Tag: t.r}
			if t.selfClosing {
				n.Flags |= SelfClosing
			}
			if templates > 0 {
				n.Flags |= InTemplate
			}
			st := DataState
			switch t.data {
			case "textarea", "title":
				st = RCDATAState
			case "script":
				st = ScriptState
			case "plaintext":
				if !inSelect {
					st = PlaintextState
				}
			case "style", "iframe", "xmp", "noembed", "noframes":
				if !inSelect {
					st = RawTextState
				}
			case "noscript":
				if !inSelect && !opts.NoScripting {
					st = RawTextState
				}
			case "template":
				templates++
			}
			switch t.data {
			case "select":
				inSelect = selects
			case "input", "keygen", "textarea":
				inSelect = false
			}
			if st != DataState {
				z.state = st
				if t.data == "style" || t.data == "script" {
					open = n
					continue // judged with its text, at the next token
				}
			}
			if differs(n) {
				out = append(out, n)
			}
		case tEnd:
			switch t.data {
			case "template":
				templates = max(templates-1, 0)
			case "select":
				inSelect = false
			}
		case tText:
			if open == nil || t.state == DataState {
				continue
			}
			if textNode != nil {
				if text == nil {
					text = append([]byte(nil), textNode.Data...)
				}
				text = append(text, t.data...)
				textNode.Raw = append(textNode.Raw, t.r)
				continue
			}
			textNode = &Node{Type: TextNode, State: t.state, Data: t.data, Raw: []Range{t.r}}
			open.appendChild(textNode)
		}
	}
}

// textRange is the source of a style's or script's text children, which a reader of the page
// judges: where two readings give it other text, they differ.
func textRange(n *Node) Range {
	if n.Name != "style" && n.Name != "script" {
		return Range{}
	}
	var r Range
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == TextNode {
			if src := c.Source(); r.IsEmpty() {
				r = src
			} else {
				r.End = src.End
			}
		}
	}
	return r
}
