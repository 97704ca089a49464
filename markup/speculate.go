package markup

import "strings"

// Speculate reads the page d was parsed from as Chromium's preload scanner does: ahead of the tree builder, to fetch
// early what the page will need (HTMLPreloadScanner). Its requests are real, and they follow
// its own reading, not the tree: a token stream whose tokenizer is steered by tag names alone,
// as if every element were HTML. After the start tag of a textarea or title it reads RCDATA;
// of a script, script data; of a style, iframe, xmp, noembed, noframes (and noscript, with
// scripting on), raw text; of a plaintext, the rest of the input; except, for all but
// textarea, title and script, between a <select> and the input, keygen, textarea or
// </select> that ends it. It knows no foreign content: a CDATA section is a bogus comment,
// and <svg><style> is raw text, where the tree reads text and markup. So Chromium 156
// fetches the <img> of `<svg><![CDATA[ ><img src=x> ]]>` and of
// `<svg><style><!--</style><img src=x>`, which no tree holds (TestSpeculate, and the offline
// check's Chromium tests, record it), and an <img> that the tree builder ignores (after a
// <frameset>) all the same.
//
// The Document's Nodes are an element for each start tag, in source order, each in the HTML
// namespace with its attributes as the tokenizer read them (Attr, Dropped, Tag), a style's or
// a script's text as the tokenizer read it after the tag as its one child. Root holds them
// as children, flat. An element between <template> and </template> is InTemplate (the
// scanner fetches nothing there). A reader of the page judges these elements besides the
// tree's.
//
// The Document shares d.Src; opts.NoScripting reads <noscript> as the scanner of a page
// without scripts does.
func (page *Document) Speculate(opts Options) *Document {
	s := page.Src
	z := newTokenizer(s)
	if strings.HasPrefix(s, "\uFEFF") {
		z.pos = len("\uFEFF")
	}
	d := &Document{Src: s, Root: &Node{Type: DocumentNode}}
	d.Nodes = append(d.Nodes, d.Root)
	inSelect, templates := false, 0
	var open *Node // the style or script element whose text the tokenizer reads
	var text []byte
	var textNode *Node
	flush := func() {
		if textNode != nil && text != nil {
			textNode.Data = string(text)
		}
		open, textNode, text = nil, nil, nil
	}
	var t token
	for {
		z.allowCDATA = false
		z.next(&t)
		if t.kind != tText {
			flush()
		}
		switch t.kind {
		case tEOF:
			return d
		case tStart:
			n := &Node{Type: ElementNode, Name: t.data, atom: t.a, Attr: t.attr, Dropped: t.dropped, Tag: t.r}
			if t.selfClosing {
				n.Flags |= SelfClosing
			}
			if templates > 0 {
				n.Flags |= InTemplate
			}
			d.Root.appendChild(n)
			d.Nodes = append(d.Nodes, n)
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
				inSelect = true
			case "input", "keygen", "textarea":
				inSelect = false
			}
			if st != DataState {
				z.state = st
				if t.data == "style" || t.data == "script" {
					open = n
				}
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
			d.Nodes = append(d.Nodes, textNode)
		}
	}
}
