package markup

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"
	xatom "golang.org/x/net/html/atom"
)

// xnetDeviation is a class of input on which x/net/html's html.Parse departs from the HTML
// Standard (and from this package, which the html5lib suite shows to follow it there).
type xnetDeviation struct {
	name, why string
}

var (
	xnetDepth = xnetDeviation{"depth", "html.Parse refuses more than 512 open elements (parse.go, " +
		"insertOpenElement); the standard has no limit"}
	xnetTemplateForeign = xnetDeviation{"template-in-foreign", "html.Parse ignores everything after a " +
		"<template> read while an SVG or MathML element is open (inHeadIM's TODO, " +
		"ignoreTheRemainingTokens); html5lib's template.dat has such cases"}
	xnetCommentRefs = xnetDeviation{"refs-in-comment", "html.Parse decodes character references " +
		"in comments, doctypes and CDATA sections (token.go, Text: unescape unless textIsRaw); " +
		"the standard keeps their text as written"}
	xnetIgnoredRawTag = xnetDeviation{"ignored-raw-text-tag", "html.Parse's tokenizer reads raw " +
		"text after a <script>, <style>, <title>, <textarea>, <xmp>, <iframe>, <noembed>, " +
		"<noframes> or <plaintext> tag by itself (token.go, rawTag), even where the tree builder " +
		"ignores the tag (in a frameset); the standard's tokenizer changes state only when the " +
		"element is inserted"}
	xnetScriptEscape = xnetDeviation{"script-escape-lt", "in a script's \"<!--\" section, " +
		"html.Parse leaves the section at a '<' followed by neither a letter nor '/' (token.go, " +
		"readScript, scriptDataEscapedLessThanSign goes to scriptData); the standard stays in " +
		"the section, so a later \"<script\" double-escapes"}
	xnetNamespaceBlind = xnetDeviation{"namespace-blind-table", "in the table insertion modes " +
		"html.Parse tests elements by name alone (parse.go, clearStackToContext and the " +
		"checks of the current node), so an SVG or MathML element named html, table, template, " +
		"tbody, thead, tfoot, tr, td, th, caption or colgroup stands for the HTML one; the " +
		"standard means HTML elements"}
	xnetEmptyEndTag = xnetDeviation{"empty-end-tag", "html.Parse makes an empty comment of \"</>\" " +
		"(token.go, readTag); the standard makes nothing of it"}
	xnetDoctypeAfterBody = xnetDeviation{"doctype-after-body", "html.Parse reopens the body for " +
		"a doctype after </body> (parse.go, afterBodyIM has no DoctypeToken case); the standard " +
		"ignores it"}
	xnetFosterTemplateText = xnetDeviation{"foster-template-text", "html.Parse appends text " +
		"foster parented into a template's contents as a new text node instead of adding it " +
		"to the text before it (parse.go, fosterParent: template.AppendChild), and its " +
		"tokenizer splits text at a '<' that starts no tag"}
	xnetSearch = xnetDeviation{"search-not-special", "html.Parse does not count <search> as " +
		"special (const.go, isSpecialElementMap), so an end tag or <li> looks past it; the " +
		"standard stops there"}
	xnetColgroupText = xnetDeviation{"colgroup-text", "html.Parse drops a whole text token " +
		"(up to the next tag, NUL included) in a column group that is not in a colgroup element " +
		"(a <template> after <col>) once it has a character that is not whitespace; the " +
		"standard drops those characters one by one and keeps the whitespace"}
	xnetPreNewline = xnetDeviation{"pre-newline", "html.Parse drops a newline at the start of " +
		"a <pre>, <listing> or <textarea> that is still empty however far it comes after the " +
		"tag (it tests FirstChild == nil); the standard drops it only in the token right after " +
		"the tag"}
	xnetDoctypeSpace = xnetDeviation{"doctype-no-space", "html.Parse reads <!DOCTYPEhtml> (no " +
		"space before the name) as a quirks mode doctype; the standard reads the name html"}
	xnetDoctypeCase = xnetDeviation{"doctype-case", "html.Parse compares a doctype's name with " +
		"\"html\" as written (doctype.go: \"The comparison to html is case-sensitive\"), so " +
		"<!DOCTYPE HTML> is quirks mode, and then lowers it by Unicode rules; the standard's " +
		"tokenizer lowers ASCII letters only, first"}
	xnetTemplateTableText = xnetDeviation{"template-table-text", "html.Parse reads text in a " +
		"table mode whose current node is a <template> with the \"in body\" rules (reopening " +
		"formatting elements) instead of as table text (parse.go, inTableIM lists table, tbody, " +
		"tfoot, thead, tr but not template)"}
	xnetFramesetOK = xnetDeviation{"frameset-ok-reset", "html.Parse sets frameset-ok back to " +
		"\"ok\" when it implies a <body> (parse.go, afterHeadIM), so a later <frameset> replaces " +
		"a body the standard keeps (a <template> had set it to \"not ok\")"}
	xnetCaptionTh = xnetDeviation{"caption-th", "html.Parse ignores a <th> in a caption " +
		"(parse.go, inCaptionIM lists td but not th); the standard closes the caption and " +
		"reads the th in the table"}
	xnetCDATANUL = xnetDeviation{"cdata-nul", "html.Parse's tokenizer makes NUL in a CDATA " +
		"section U+FFFD (token.go, convertNUL); the standard keeps U+0000, which the tree " +
		"builder then drops in HTML content"}
	xnetDoctypeIDs = xnetDeviation{"doctype-ids", "html.Parse reads a doctype's identifiers " +
		"itself (doctype.go), and takes some the standard reads as no quirks (an empty public " +
		"identifier) for quirks mode"}
	xnetInnerLoop = xnetDeviation{"adoption-inner-loop", "html.Parse's adoption agency leaves on " +
		"the stack a formatting element its inner loop takes out of the list after three " +
		"rounds (parse.go, inBodyEndTagFormatting: continue before p.oe.remove); the standard " +
		"removes it from the stack too"}
	xnetForeignPEnd = xnetDeviation{"foreign-p-br-end", "html.Parse does not treat </p> and </br> " +
		"in SVG or MathML as breakouts (parse.go, parseForeignContent); the standard closes the " +
		"foreign elements first"}
	xnetDoctypeNUL = xnetDeviation{"doctype-nul", "html.Parse keeps NUL in a doctype (token.go, " +
		"readDoctype); the standard's tokenizer makes it U+FFFD"}
	xnetNULName = xnetDeviation{"nul-attr-name", "html.Parse finds duplicate attributes before " +
		"it makes NUL in their names U+FFFD (token.go), so <a \\0 \\uFFFD> keeps both; the " +
		"standard's names are equal and the second is dropped"}
	xnetTableTextSplit = xnetDeviation{"table-text-split", "html.Parse decides each of its text " +
		"tokens in a table on its own (parse.go, inTableIM: whitespace goes in, the rest is " +
		"foster parented) and splits text at a '<' that starts no tag; the standard collects " +
		"the characters up to the next tag and foster parents all of them if one is not " +
		"whitespace"}
	xnetSelectedcontent = xnetDeviation{"selectedcontent", "html.Parse does not copy the selected " +
		"option into <selectedcontent> (its test skips webkit02.dat's cases: \"we don't support " +
		"element insertion steps\")"}
)

var xnetDeviations = []xnetDeviation{xnetDepth, xnetTemplateForeign, xnetCommentRefs,
	xnetIgnoredRawTag, xnetScriptEscape, xnetNamespaceBlind, xnetEmptyEndTag, xnetDoctypeAfterBody,
	xnetFosterTemplateText, xnetSearch, xnetColgroupText, xnetPreNewline, xnetDoctypeSpace, xnetDoctypeCase,
	xnetTemplateTableText, xnetFramesetOK, xnetCaptionTh, xnetCDATANUL,
	xnetDoctypeIDs, xnetInnerLoop, xnetForeignPEnd, xnetDoctypeNUL, xnetNULName,
	xnetTableTextSplit, xnetSelectedcontent}

// xnetWatch notes, while Parse reads a page, whether the page falls in a class of
// xnetDeviation.
type xnetWatch struct {
	hit     map[xnetDeviation]bool
	seen    int
	prevPre bool // the previous token was a <pre>, <listing> or <textarea> tag
}

func (w *xnetWatch) options() Options {
	w.hit = map[xnetDeviation]bool{}
	return Options{before: func(p *parser, t *token) {
		if t.kind == tStart && t.a == aTemplate {
			for e := p.st.root; e != nil; e = e.next {
				if e.n.Namespace != HTML {
					w.hit[xnetTemplateForeign] = true
				}
			}
		}
		if p.st.depth >= 511 {
			w.hit[xnetDepth] = true
		}
		if (t.kind == tComment || t.kind == tDoctype || t.state == CDATAState) && strings.IndexByte(p.src[t.r.Start:t.r.End], '&') >= 0 {
			w.hit[xnetCommentRefs] = true
		}
		switch p.mode {
		case inTable, inTableBody, inRow, inCell, inCaption, inColumnGroup, inTableText:
			for e := p.st.root; e != nil; e = e.next {
				if e.n.Namespace != HTML {
					switch e.n.atom {
					case aHTML, aTable, aTemplate, aTbody, aThead, aTfoot, aTr, aTd, aTh, aCaption, aColgroup:
						w.hit[xnetNamespaceBlind] = true
					}
				}
			}
		}
		if (t.kind == tEnd || t.kind == tStart && (t.a == aLi || t.a == aDd || t.a == aDt)) && p.topmost(int32(aSearch)) != nil {
			w.hit[xnetSearch] = true
		}
		if t.kind == tText && p.mode == inColumnGroup && !isHTML(p.current(), aColgroup) && wsPrefix(t.data) < len(t.data) {
			w.hit[xnetColgroupText] = true
		}
		if t.kind == tDoctype && strings.IndexByte(p.src[t.r.Start:t.r.End], 0) >= 0 {
			w.hit[xnetDoctypeNUL] = true
		}
		if (t.kind == tStart || t.kind == tEnd) && strings.IndexByte(p.src[t.r.Start:t.r.End], 0) >= 0 {
			w.hit[xnetNULName] = true
		}
		if t.kind == tDoctype && (t.doctype.HasPublicID || t.doctype.HasSystemID) {
			w.hit[xnetDoctypeIDs] = true
		}
		if t.kind == tEnd && (t.a == aP || t.a == aBr) && p.foreignRules(t) {
			w.hit[xnetForeignPEnd] = true
		}
		if t.kind == tText && strings.HasPrefix(t.data, "\n") && !w.prevPre {
			if c := p.current(); c != nil && c.FirstChild == nil && (isHTML(c, aPre) || isHTML(c, aListing) || isHTML(c, aTextarea)) {
				w.hit[xnetPreNewline] = true
			}
		}
		w.prevPre = t.kind == tStart && (t.a == aPre || t.a == aListing || t.a == aTextarea)
		if t.kind == tDoctype {
			name := strings.TrimLeft(p.src[t.r.Start+len("<!doctype"):t.r.End], " \t\n\f\r")
			if i := strings.IndexAny(name, " \t\n\f\r>"); i >= 0 {
				name = name[:i]
			}
			if ASCIILower(name) != name || strings.ContainsFunc(name, func(r rune) bool { return r >= 0x80 }) {
				w.hit[xnetDoctypeCase] = true
			}
		}
		if t.kind == tText && (p.mode == inTable || p.mode == inTableBody || p.mode == inRow || p.mode == inTableText) &&
			strings.Contains(t.data, "<") && strings.ContainsAny(t.data, " \t\n\f\r") {
			w.hit[xnetTableTextSplit] = true
		}
		if t.kind == tText && (p.mode == inTable || p.mode == inTableBody || p.mode == inRow) && isHTML(p.current(), aTemplate) {
			w.hit[xnetTemplateTableText] = true
		}
		if t.kind == tText && t.state == CDATAState && strings.IndexByte(t.data, 0) >= 0 {
			w.hit[xnetCDATANUL] = true
		}
		if t.kind == tStart && t.a == aTh && p.mode == inCaption {
			w.hit[xnetCaptionTh] = true
		}
		if t.kind == tStart && t.a == aFrameset && !p.framesetOK {
			w.hit[xnetFramesetOK] = true
		}
		if t.kind == tDoctype && p.mode == afterBody {
			w.hit[xnetDoctypeAfterBody] = true
		}
		for _, r := range p.doc.Repairs[w.seen:] {
			switch r.Code {
			case "missing-end-tag-name":
				w.hit[xnetEmptyEndTag] = true
			case "missing-whitespace-before-doctype-name":
				w.hit[xnetDoctypeSpace] = true
			}
		}
		w.seen = len(p.doc.Repairs)
		if t.kind == tText && t.state == ScriptState && escapedLtOther(t.data) {
			w.hit[xnetScriptEscape] = true
		}
	}, after: func(p *parser) {
		if p.copies > 0 {
			w.hit[xnetSelectedcontent] = true
		}
		if p.innerDrops > 0 {
			w.hit[xnetInnerLoop] = true
		}
		if p.fosterMerges > 0 {
			w.hit[xnetFosterTemplateText] = true
		}
		if t := p.tok; t.kind == tStart {
			switch t.a {
			case aScript, aStyle, aTitle, aTextarea, aXmp, aIframe, aNoembed, aNoframes, aNoscript, aPlaintext:
				rs := p.doc.Repairs
				if len(rs) > 0 && rs[len(rs)-1].Kind == IgnoredStartTag && rs[len(rs)-1].At == t.r {
					w.hit[xnetIgnoredRawTag] = true
				}
			}
		}
	}}
}

// escapedLtOther walks a script's text through the script data states (§13.2.5.4, 15-31)
// and reports whether, inside a "<!--" section, a '<' is followed by neither a letter nor
// '/' (where html.Parse leaves the section).
func escapedLtOther(s string) bool {
	const (
		data = iota
		esc
		escDash
		escDashDash
		dbl
	)
	st := data
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch st {
		case data:
			if strings.HasPrefix(s[i:], "<!--") {
				st, i = escDashDash, i+3
			}
		case esc, escDash, escDashDash:
			switch {
			case c == '-' && st == esc:
				st = escDash
			case c == '-':
				st = escDashDash
			case c == '>' && st == escDashDash:
				st = data
			case c == '<':
				if i+1 < len(s) && !isAlpha(s[i+1]) && s[i+1] != '/' {
					return true
				}
				st = esc
				j := i + 1
				for j < len(s) && isAlpha(s[j]) {
					j++
				}
				if j < len(s) && (isSpace(s[j]) || s[j] == '/' || s[j] == '>') && strings.EqualFold(s[i+1:j], "script") {
					st = dbl
				}
				i = j - 1
			default:
				st = esc
			}
		case dbl:
			// Whether a later '<' in the section leaves it matters only through
			// "</script": treat the rest as escaped.
			if strings.HasPrefix(s[i:], "-->") {
				st, i = data, i+2
			} else if len(s)-i >= 9 && s[i] == '<' && s[i+1] == '/' && strings.EqualFold(s[i+2:i+8], "script") {
				if d := s[i+8]; isSpace(d) || d == '/' || d == '>' {
					st, i = esc, i+8
				}
			}
		}
	}
	return false
}

// dumpXNet writes x/net/html's tree in the suite's format (template children as contents).
func dumpXNet(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node, level int, content bool)
	indent := func(l int) {
		b.WriteString("| ")
		b.WriteString(strings.Repeat("  ", l))
	}
	walk = func(n *html.Node, l int, content bool) {
		indent(l)
		switch n.Type {
		case html.ElementNode:
			if n.Namespace != "" {
				b.WriteString("<" + n.Namespace + " " + n.Data + ">\n")
			} else {
				b.WriteString("<" + n.Data + ">\n")
			}
			var attrs []string
			for _, a := range n.Attr {
				k := a.Key
				if a.Namespace != "" {
					k = a.Namespace + " " + a.Key
				}
				attrs = append(attrs, k+"=\""+a.Val+"\"")
			}
			sort.Strings(attrs)
			for _, a := range attrs {
				indent(l + 1)
				b.WriteString(a + "\n")
			}
		case html.TextNode:
			b.WriteString("\"" + n.Data + "\"\n")
		case html.CommentNode:
			b.WriteString("<!-- " + n.Data + " -->\n")
		case html.DoctypeNode:
			b.WriteString("<!DOCTYPE " + n.Data)
			var pub, sys string
			for _, a := range n.Attr {
				switch a.Key {
				case "public":
					pub = a.Val
				case "system":
					sys = a.Val
				}
			}
			if pub != "" || sys != "" {
				b.WriteString(" \"" + pub + "\" \"" + sys + "\"")
			}
			b.WriteString(">\n")
		}
		child := l + 1
		if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == xatom.Template {
			indent(l + 1)
			b.WriteString("content\n")
			child = l + 2
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, child, false)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, 0, false)
	}
	return b.String()
}

// differ parses b with both parsers and returns the deviation class the page falls in, or
// an error when the trees differ and no class explains it.
func differ(b []byte) (*xnetDeviation, error) {
	var w xnetWatch
	d := Parse(b, w.options())
	// A difference on a page in a class where x/net departs from the standard is that
	// class's; any other is a failure.
	explain := func(err error) (*xnetDeviation, error) {
		for _, dev := range xnetDeviations {
			if w.hit[dev] {
				return &dev, nil
			}
		}
		return nil, err
	}
	src := d.Src
	if strings.HasPrefix(src, "\uFEFF") {
		src = src[3:]
	}
	theirs, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return explain(fmt.Errorf("html.Parse: %v", err))
	}
	ours, want := dumpTree(d.Root), dumpXNet(theirs)
	if ours != want {
		return explain(fmt.Errorf("trees differ:\nours:\n%sx/net:\n%s", ours, want))
	}
	return nil, nil
}

// FuzzParse: for any bytes, Parse does not panic, every range is right (checkSpans), the
// stack's indexes agree with the standard's walks after every token, and the tree is
// html.Parse's unless the page is in a class where x/net departs from the standard.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(html5libDir(f), "tree-construction", "*.dat"))
	for _, file := range files {
		for _, c := range readTreeCases(f, file) {
			if c.context == "" {
				f.Add([]byte(c.data))
			}
		}
	}
	for _, mk := range pathological {
		f.Add([]byte(mk(20)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		opts := Options{}
		if len(b) < 1<<12 {
			opts.after = verifyIndexes
		}
		d := Parse(b, opts)
		if err := checkSpans(d); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		if _, err := differ(b); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
	})
}

// minimize shrinks s, removing ever smaller chunks, while fails(s) holds.
func minimize(s string, fails func(string) bool) string {
	for chunk := len(s) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(s); {
			if t := s[:i] + s[i+chunk:]; fails(t) {
				s = t
			} else {
				i += chunk
			}
		}
	}
	return s
}

// TestDifferential compares Parse with html.Parse on the real pages (this repository's, x/net's
// go1.html, the realistic 5 MB page) and on random pages built from the pieces of html5lib's
// tree construction inputs. Every difference must fall in a class
// where x/net departs from the standard (the rows of xnetDeviations, counted); any other
// is reported, minimized.
func TestDifferential(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	files, _ := filepath.Glob(filepath.Join(html5libDir(t), "tree-construction", "*.dat"))
	var pieces []string
	for _, f := range files {
		for _, c := range readTreeCases(t, f) {
			pieces = append(pieces, splitPieces(c.data)...)
		}
	}
	counts := map[string]int{}
	same := 0
	for name, b := range realPages(t) {
		switch dev, err := differ(b); {
		case err != nil:
			t.Errorf("real page %s differs from html.Parse in no known class:\n%v", name, err)
		case dev != nil:
			t.Logf("real page %s: x/net's %s", name, dev.name)
		}
	}
	rng := rand.New(rand.NewPCG(7, 9))
	for i := 0; i < n; i++ {
		page := randomPage(rng, pieces, 1+rng.IntN(50))
		dev, err := differ([]byte(page))
		switch {
		case err != nil:
			m := minimize(page, func(s string) bool { d, err := differ([]byte(s)); return err != nil && d == nil })
			_, err := differ([]byte(m))
			t.Errorf("page %d differs from html.Parse in no known class; minimized to %q:\n%v", i, m, err)
		case dev != nil:
			counts[dev.name]++
		default:
			same++
		}
	}
	t.Logf("%d random pages: %d trees equal to html.Parse's; x/net's departures from the standard:", n, same)
	for _, d := range xnetDeviations {
		t.Logf("  %-22s %5d  %s", d.name, counts[d.name], d.why)
	}
}

// fuzzContexts are the context elements FuzzParseFragment reads fragments in: the contexts
// of html5lib's fragment cases.
var fuzzContexts = []*Node{
	{Type: ElementNode, Name: "body"}, {Type: ElementNode, Name: "div"}, {Type: ElementNode, Name: "table"},
	{Type: ElementNode, Name: "tr"}, {Type: ElementNode, Name: "td"}, {Type: ElementNode, Name: "select"},
	{Type: ElementNode, Name: "template"}, {Type: ElementNode, Name: "textarea"}, {Type: ElementNode, Name: "script"},
	{Type: ElementNode, Name: "html"}, {Type: ElementNode, Name: "head"}, {Type: ElementNode, Name: "colgroup"},
	{Type: ElementNode, Name: "frameset"}, {Type: ElementNode, Name: "plaintext"}, {Type: ElementNode, Name: "noscript"},
	{Type: ElementNode, Namespace: SVG, Name: "svg"}, {Type: ElementNode, Namespace: SVG, Name: "foreignObject"},
	{Type: ElementNode, Namespace: SVG, Name: "desc"}, {Type: ElementNode, Namespace: MathML, Name: "math"},
	{Type: ElementNode, Namespace: MathML, Name: "mi"}, {Type: ElementNode, Namespace: MathML, Name: "annotation-xml"},
}

// FuzzParseFragment: for any bytes in any of the suite's contexts, ParseFragment does not
// panic, its ranges are right, and the stack's indexes agree with the standard's walks.
func FuzzParseFragment(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(html5libDir(f), "tree-construction", "*.dat"))
	for _, file := range files {
		for _, c := range readTreeCases(f, file) {
			for i, ctx := range fuzzContexts {
				if ctx.Name == strings.TrimPrefix(strings.TrimPrefix(c.context, "svg "), "math ") {
					f.Add(byte(i), []byte(c.data))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, which byte, b []byte) {
		ctx := *fuzzContexts[int(which)%len(fuzzContexts)]
		opts := Options{}
		if len(b) < 1<<12 {
			opts.after = verifyIndexes
		}
		d := ParseFragment(b, &ctx, opts)
		if err := checkSpans(d); err != nil {
			t.Fatalf("%q in %v: %v", b, ctx.Name, err)
		}
	})
}
