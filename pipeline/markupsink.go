package pipeline

import (
	"fmt"
	"strings"

	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Markup a script gives the HTML parser. What the page's own HTML may not hold (an inline
// event handler, a javascript: URL, a script the policy has no hash of), markup a script
// parses into the page may not either: the page as written runs it, the bundle's policy
// blocks it. Read as the browser reads it, by the fragment parsing algorithm (x/net/html,
// in a <body>), where the markup is a constant the build can read (tagname.go: literals,
// concatenations, templates, choices, a const of the file):
//   - an inline event handler or a javascript: URL, for every sink (innerHTML, outerHTML,
//     insertAdjacentHTML, setHTMLUnsafe, createContextualFragment, document.write): the
//     element lands in the page and its handler runs there;
//   - a <script>, for the sinks whose scripts run: a fragment createContextualFragment made
//     (its scripts run when it is inserted) and document.write (the parser's own); innerHTML
//     and the others mark a script they parse as already started, so it never runs.
// What is inside a <template> is inert until the page clones it, and not read. An iframe's
// srcdoc, set as a property, by setAttribute, or in markup, is a document of its own that the
// frame parses and whose scripts run, under the page's policy (the frame inherits it).

// markupSink reads the call or assignment at the significant token i: the sink's name and
// the markup's tokens, and whether its scripts run.
func (s *script) markupSink(i int) (sink string, arg [2]int, runs, ok bool) {
	member := s.is(i-1, ".") || s.is(i-1, "?.")
	switch {
	case member && (s.is(i, "innerHTML", "=") || s.is(i, "outerHTML", "=") || s.is(i, "innerHTML", "+=")):
		return s.text(i), [2]int{i + 2, s.expressionEnd(i + 2)}, false, true
	case member && s.is(i, "insertAdjacentHTML", "("):
		if args := s.args(i + 1); len(args) == 2 {
			return s.text(i), args[1], false, true
		}
	case member && (s.is(i, "setHTMLUnsafe", "(") || s.is(i, "createContextualFragment", "(")):
		if args := s.args(i + 1); len(args) >= 1 {
			return s.text(i), args[0], s.text(i) == "createContextualFragment", true
		}
	case member && s.is(i, "srcdoc", "="):
		// A frame's srcdoc: a document of its own, whose scripts run (srcdocSink).
		end := s.expressionEnd(i + 2)
		return srcdocSink, [2]int{i + 2, end}, true, true
	case member && s.is(i, "setAttribute", "("):
		// setAttribute("srcdoc", markup): the same; its other names are attributes (attrSink).
		if args := s.args(i + 1); len(args) == 2 {
			if names, known := s.names(args[0][0], args[0][1], 0); known && len(names) == 1 && strings.EqualFold(names[0], "srcdoc") {
				return srcdocSink, args[1], true, true
			}
		}
	case (s.is(i-2, "document", ".") || s.is(i-2, "contentDocument", ".") || s.is(i-2, "contentDocument", "?.")) && (s.is(i, "write", "(") || s.is(i, "writeln", "(")):
		// A frame's document too (frame.contentDocument.write): a same-origin frame
		// (about:blank) has the page's policy.
		if args := s.args(i + 1); len(args) == 1 {
			return s.text(i-2) + "." + s.text(i), args[0], true, true
		}
	}
	return "", arg, false, false
}

// srcdocSink names the sinks whose markup is a frame's document (an iframe's srcdoc, set as
// a property or by setAttribute): parsed as a whole document, whose scripts run.
const srcdocSink = "an iframe's srcdoc"

// expressionEnd returns the significant token that ends the expression from i: a comma,
// semicolon or closing bracket outside the brackets it opens, or the end.
func (s *script) expressionEnd(i int) int {
	end := i
	for ; end < len(s.sig); end++ {
		if p := s.pair[end]; p > end {
			end = p
			continue
		}
		if tt := s.tok(end).tt; tt == js.CommaToken || tt == js.SemicolonToken || tt == js.CloseBraceToken || tt == js.CloseParenToken || tt == js.CloseBracketToken {
			break
		}
	}
	return end
}

// markupFinding is what markup given to a sink holds that the bundle's policy blocks.
type markupFinding struct {
	what, note string
}

// blockedInMarkup returns what the markup holds that cannot run under the bundle's policy:
// the first inline event handler, javascript: URL, or (runs) script, outside <template>s.
func blockedInMarkup(markup string, runs bool) (markupFinding, bool) {
	nodes, err := html.ParseFragment(strings.NewReader(markup), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return markupFinding{}, false
	}
	return blockedIn(nodes, runs)
}

// blockedInDocument is blockedInMarkup for markup a frame parses as its document (an
// iframe's srcdoc), whose scripts run: the frame's document inherits the page's policy.
func blockedInDocument(markup string) (markupFinding, bool) {
	doc, err := html.Parse(strings.NewReader(markup))
	if err != nil {
		return markupFinding{}, false
	}
	return blockedIn([]*html.Node{doc}, true)
}

// blockedIn is blockedInMarkup's walk over parsed nodes: an <iframe>'s srcdoc among them is a
// document of its own, read as one.
func blockedIn(nodes []*html.Node, runs bool) (markupFinding, bool) {
	var found *markupFinding
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if found != nil || n.Type == html.ElementNode && n.DataAtom == atom.Template && n.Namespace == "" {
			return
		}
		if n.Type == html.ElementNode {
			if runs && n.Data == "script" && (n.Namespace == "" || n.Namespace == "svg") {
				found = &markupFinding{"a <script>, which runs when the markup is parsed into the page, and cannot run under the bundle's policy (its text has no hash in it, and a src names no file of the one-file page)",
					"import the code (import './x.js', or import('./x.js') to load it later), which bundle bundles"}
				return
			}
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				if key == "srcdoc" && a.Namespace == "" && n.DataAtom == atom.Iframe && n.Namespace == "" {
					if f, blocked := blockedInDocument(a.Val); blocked {
						found = &markupFinding{"an <iframe srcdoc> whose document holds " + f.what, f.note}
						return
					}
				}
				if f, blocked := blockedAttr(a.Key, a.Val); blocked {
					found = &f
					return
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	if found == nil {
		return markupFinding{}, false
	}
	return *found, true
}

// blockedAttr returns what an attribute (key as written, val) holds that cannot run under
// the bundle's policy: an inline event handler, or a javascript: URL where one runs.
func blockedAttr(key, val string) (markupFinding, bool) {
	lower := strings.ToLower(key)
	switch {
	case len(lower) > 2 && strings.HasPrefix(lower, "on"):
		return markupFinding{fmt.Sprintf("the inline event handler %s=%q, which cannot run under the bundle's policy", key, val),
			fmt.Sprintf("attach it in a script once the element is in the page: element.addEventListener(%q, …)", strings.TrimPrefix(lower, "on"))}, true
	case (lower == "href" || lower == "src" || lower == "action" || lower == "formaction") && offline.Scheme(val) == "javascript":
		return markupFinding{fmt.Sprintf("a javascript: URL (%s=%q), which cannot run under the bundle's policy", key, val),
			"attach the behaviour in a script instead: element.addEventListener(\"click\", …); for a link that goes nowhere, use a <button>"}, true
	}
	return markupFinding{}, false
}

// attrSink reads the call or assignment at the significant token i that sets an attribute
// the page's own HTML could hold: setAttribute(name, value) with a constant name (other than
// srcdoc, a markup sink), or a URL property (href, src, action, formAction) assigned. It
// returns the attribute's name and the value's tokens.
func (s *script) attrSink(i int) (name string, arg [2]int, ok bool) {
	member := s.is(i-1, ".") || s.is(i-1, "?.")
	switch {
	case member && s.is(i, "setAttribute", "("):
		if args := s.args(i + 1); len(args) == 2 {
			if names, known := s.names(args[0][0], args[0][1], 0); known && len(names) == 1 && !strings.EqualFold(names[0], "srcdoc") {
				return names[0], args[1], true
			}
		}
	case member && (s.is(i, "href", "=") || s.is(i, "src", "=") || s.is(i, "action", "=") || s.is(i, "formAction", "=")):
		return s.text(i), [2]int{i + 2, s.expressionEnd(i + 2)}, true
	}
	return "", arg, false
}

// checkAttr refuses, at its place, an attribute a script sets (attrSink, at the significant
// token i) that holds what the bundle's policy blocks: the page as written runs the handler
// or follows the javascript: URL, the bundle's policy blocks it.
func (r *rewrite) checkAttr(i int) {
	s := r.s
	name, arg, ok := s.attrSink(i)
	if !ok || arg[0] >= arg[1] {
		return
	}
	values, known := s.names(arg[0], arg[1], 0)
	if !known {
		return
	}
	for _, v := range values {
		if f, blocked := blockedAttr(name, v); blocked {
			r.errAt(arg[0], "the attribute a script sets holds "+f.what+", where the page as written runs it", f.note)
			return
		}
	}
}

// checkMarkup refuses, at its place, markup a script gives a sink (at the significant token
// i) that holds what the bundle's policy blocks.
func (r *rewrite) checkMarkup(i int) {
	s := r.s
	sink, arg, runs, ok := s.markupSink(i)
	if !ok || arg[0] >= arg[1] {
		return
	}
	values, known := s.names(arg[0], arg[1], 0)
	if !known {
		return
	}
	for _, v := range values {
		f, blocked := blockedInMarkup(v, runs)
		if sink == srcdocSink {
			f, blocked = blockedInDocument(v)
		}
		if blocked {
			r.errAt(arg[0], "the markup given to "+sink+" holds "+f.what+", where the page as written runs it", f.note)
			return
		}
	}
}
