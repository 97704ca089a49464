// Package markup is bundle's one reader of HTML. Parse builds a page's tree as the browser
// does, by the HTML Standard's tree construction (§13.2: every insertion mode, foster
// parenting, the adoption agency, the active formatting elements and the Noah's Ark clause,
// template contents, foreign content and its breakouts and integration points, quirks mode
// from the doctype, the scripting flag), and keeps with every node the bytes it came from.
// It is the reader the offline check, the build's assembler, policy placement and verify
// are to share (issue 21), so that every verdict about an element (raw text or markup, SVG
// or HTML, inert template contents or live, head or body) is the browser's, and every
// finding has a place.
//
//	d := markup.Parse(page, markup.Options{})
//	for n := range d.Root.Descendants() {
//		if n.Is(markup.HTML, "meta") && !n.Inert() {
//			equiv, _ := n.AttrValue("http-equiv")
//			_ = d.Src[n.Tag.Start:n.Tag.End] // the <meta ...> tag as written
//			_ = equiv
//		}
//	}
//	for _, r := range d.Repairs {
//		if r.Kind.MovesContent() {
//			// refuse: r.At is where, r.Kind says what the browser did instead
//		}
//	}
//
// # What a node keeps
//
// An element keeps its start tag (Tag: "<" to ">"; empty for one the parser implied; a
// copy's is its original's), each attribute's name and value as written with the decoded
// value (Attr, and the duplicates the tokenizer dropped in Dropped), and the end tag that
// closed it (EndTag). Text, comments and doctypes keep the ranges of the tokens they came
// from (Raw: a text node merges tokens, decodes character references, normalizes newlines).
// Flags say how the node got where it is (Implied, Clone, Fostered, Moved, ByEndTag,
// SelfClosing, Unclosed) and where it is (InTemplate, Detached, Shadow). Document.Repairs
// lists what the tree builder repaired, each with its kind, its range and its node, and the
// tokenizer's parse errors with the standard's codes. Document.Nodes holds the nodes in the
// order they were made, which for nodes with their own bytes is source order (SourceOrder).
//
// Document.TextOffsets and ValueOffsets map offsets in a decoded text or attribute value back
// to the bytes it was decoded from, so that a finding inside a value has a place.
// Document.Speculate gives the page as Chromium's preload scanner reads it, where that reading
// sees elements the tree does not hold (the scanner fetches from them). ParseString parses a
// string in place.
//
// The package also keeps the readers of raw attribute bytes the build and the check share
// (ScanAttrs, RawAttrs, Srcset, IndexFold, BreaksScript).
//
// # Guarantees
//
//   - The browser's tree: every case of html5lib-tests' tree construction suite passes
//     (documents and fragments, scripting on and off, templates, foreign content,
//     selectedcontent), and every case of its tokenizer suite that UTF-8 can hold, tokens and
//     parse errors (TestTreeConstruction, TestTokenizer). Pages where html.Parse of
//     golang.org/x/net differs are each in a named class where x/net departs from the
//     standard (TestDifferential, FuzzParse).
//   - Every range is right: in Src; a start tag's range is its "<...>"; an attribute's value
//     range is its value as written, which decodes to Value; a text node's ranges decode to
//     its text (TestSpans, FuzzParse).
//   - Any bytes: Parse never panics and never fails, and its time and memory grow linearly
//     with the input: no question the tree builder asks walks the stack of open elements or
//     the list of active formatting elements (stack.go), checked by doubling inputs built to
//     make a literal reading quadratic (TestLinear). One thing of the standard's tree is not
//     linear: copies of open formatting elements made before each new block can number
//     Θ(n²); past a budget proportional to the input the parser stops making them and
//     records a Limit repair there.
//   - No depth limit: every element is kept at any depth (TestDeep: 100,000 nested). Chromium
//     attaches an element inserted while 512 or more are open to its parent's parent
//     (kMaximumHTMLParserDOMTreeDepth), even one written in a template: the parser builds the
//     standard's tree and records a TooDeep repair for each such element, so that a reader
//     can refuse a page whose tree Chromium builds otherwise. Nothing here recurses.
//   - Deterministic: the same bytes give the same tree, ranges and repairs.
//   - A Document is read-only once made and safe for concurrent readers; Parse may run
//     concurrently on different inputs.
//
// Known limits: the input is read as UTF-8 (the browser's decoder, a byte order mark kept
// outside the tree); other encodings are the caller's to refuse or decode. Declarative
// shadow roots are recognized (Shadow) but the template stays in the tree where it was
// written. Scripts do not run: a tree is the parser's, before any document.write.
package markup
