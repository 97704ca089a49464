package pipeline

import (
	"fmt"
	"strings"

	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Markup a script gives the HTML parser. What the page's own HTML may not hold (an inline
// event handler, a javascript: URL, a script the policy has no hash of), markup a script
// parses into the page may not either: the page as written runs it, the bundle's policy
// blocks it. Read as the browser reads it, by the fragment parsing algorithm (x/net/html,
// in a <body>), as the page's code wrote it (tagname.go's values: literals, concatenations,
// templates, choices, a const, each part only the run knows read as data, plain text; a
// value the run alone gives holds nothing refused):
//   - an inline event handler or a javascript: URL, for every sink (innerHTML, outerHTML,
//     insertAdjacentHTML, setHTMLUnsafe, createContextualFragment, document.write): the
//     element lands in the page and its handler runs there;
//   - a <script>, for the sinks whose scripts run: a fragment createContextualFragment made
//     (its scripts run when it is inserted) and document.write (the parser's own); innerHTML
//     and the others mark a script they parse as already started, so it never runs.
// What is inside a <template> is inert until the page clones it, and not read. An iframe's
// srcdoc, set as a property, by setAttribute, or in markup, is a document of its own that the
// frame parses and whose scripts run, under the page's policy (the frame inherits it).

// markupSink reads the call or assignment at the significant token i (a member's name: obj.name,
// obj?.name, obj["name"]): the sink's name, the markup's parts (document.write's arguments,
// concatenated; the others' one), and whether its scripts run. document.write and writeln
// are the page's document's (a frame's too: a same-origin frame, about:blank, has the page's
// policy), by the binding of the name the call is made on (receivers.go), not its spelling.
func (s *script) markupSink(i int) (sink string, parts [][2]int, runs, ok bool) {
	if s.htmlProp(i) {
		return "dangerouslySetInnerHTML", [][2]int{{i + 2, s.expressionEnd(i + 2)}}, false, true
	}
	if key, value, ok := s.assignedKey(i); ok {
		switch key {
		case "innerHTML", "outerHTML":
			return key, [][2]int{value}, false, true
		case "srcdoc":
			return srcdocSink, [][2]int{value}, true, true
		}
		return "", nil, false, false
	}
	prop, objEnd, after, member := s.memberAt(i)
	if !member && (s.is(i, "write") || s.is(i, "writeln")) && s.withObject(i) == pageDocument {
		// with (document) write(markup): the document's write, called on it.
		if args, call := s.callAt(i + 1); call && len(args) > 0 {
			return "document." + s.text(i), args, true, true
		}
	}
	args, call := s.callAt(after)
	assign := s.is(after, "=")
	switch {
	case !member:
	case call && (prop == "call" || prop == "apply") && len(args) == 2:
		// The setter __lookupSetter__ gives, called (lookedUpSetter).
		if key, ok := s.lookedUpSetter(objEnd, 0); ok && (key == "innerHTML" || key == "outerHTML") {
			if prop == "call" {
				return key, args[1:], false, true
			}
			if a := args[1]; s.is(a[0], "[") && s.pair[a[0]] == a[1]-1 {
				if elems := s.split(a[0]+1, a[1]-1); len(elems) > 0 {
					return key, elems[:1], false, true
				}
			}
		}
	case (assign || s.is(after, "+=")) && (prop == "innerHTML" || prop == "outerHTML"):
		return prop, [][2]int{{after + 1, s.expressionEnd(after + 1)}}, false, true
	case assign && prop == "srcdoc":
		// A frame's srcdoc: a document of its own, whose scripts run (srcdocSink).
		return srcdocSink, [][2]int{{after + 1, s.expressionEnd(after + 1)}}, true, true
	case call && prop == "parseFromString" && len(args) == 2:
		// DOMParser's document of HTML, whose elements run their handlers once adopted.
		if types, known := s.names(args[1][0], args[1][1], 0); known && len(types) == 1 && types[0] == "text/html" {
			return prop, args[:1], false, true
		}
	case call && prop == "parseHTMLUnsafe" && len(args) >= 1:
		return prop, args[:1], false, true
	case call && prop == "setAttribute" && len(args) == 2:
		// setAttribute("srcdoc", markup): the same; its other names are attributes (attrSink).
		if names, known := s.names(args[0][0], args[0][1], 0); known && len(names) == 1 && strings.EqualFold(names[0], "srcdoc") {
			return srcdocSink, args[1:], true, true
		}
	}
	prop, recvEnd, args, call := s.methodCall(i)
	if !call {
		return "", nil, false, false
	}
	// The element's and the range's methods, on whatever they are called on (el.m(…), or
	// Element.prototype.m.call(el, …) and apply, which call the same method on el).
	switch {
	case prop == "insertAdjacentHTML" && len(args) == 2:
		return prop, args[1:], false, true
	case (prop == "setHTMLUnsafe" || prop == "createContextualFragment") && len(args) >= 1:
		return prop, args[:1], prop == "createContextualFragment", true
	case prop == "set" && len(args) >= 1:
		// An accessor's setter called: Object.getOwnPropertyDescriptor(Element.prototype,
		// "innerHTML").set.call(el, markup) sets el's innerHTML as el.innerHTML = markup does.
		_, descEnd, after, _ := s.memberAt(i)
		if js.IsIdentifier(s.tok(descEnd).tt) && !s.is(descEnd-1, ".") && !s.is(descEnd-1, "?.") {
			if s.is(descEnd, "Reflect") && s.is(after, "(") && len(args) == 3 && s.global(descEnd) {
				// Reflect.set(el, "innerHTML", markup): el.innerHTML = markup.
				if names, known := s.names(args[1][0], args[1][1], 0); known && len(names) == 1 && (names[0] == "innerHTML" || names[0] == "outerHTML") {
					return names[0], args[2:], false, true
				}
				break
			}
			// A const bound to the descriptor: const d = Object.getOwnPropertyDescriptor(…).
			if init, ok := s.constInitAt(descEnd); ok && init[1] > init[0] {
				descEnd = init[1] - 1
			}
		}
		if s.is(descEnd, ")") {
			if key, ok := s.descriptorKey(s.opener(descEnd)); ok && (key == "innerHTML" || key == "outerHTML") {
				return key, args[:1], false, true
			}
		}
	}
	// document.write and writeln, called on the page's document (or through call or apply).
	if (prop == "write" || prop == "writeln") && len(args) > 0 && s.objectAt(recvEnd, 0) == pageDocument {
		sink := "document." + prop
		if s.is(recvEnd, "contentDocument") {
			sink = "contentDocument." + prop
		}
		return sink, s.writtenArgs(args), true, true
	}
	return "", nil, false, false
}

// markupContext returns the element whose context the fragment parsing algorithm parses the
// markup of the sink at the significant token i (markupSink) in: <html> where the markup goes
// into the page's document's element (document.documentElement.innerHTML = …, its
// setHTMLUnsafe, insertAdjacentHTML inside it) or beside one of its children, whose parent it
// is (document.body.outerHTML = …, insertAdjacentHTML("afterend", …) of the body or head);
// <body> otherwise; and 0 where the sink throws and parses nothing: the root's outerHTML, or
// insertAdjacentHTML beside it (DOM: its parent is a document, NoModificationAllowedError),
// or at a position of none of the four (SyntaxError).
func (s *script) markupContext(i int, sink string) atom.Atom {
	_, objEnd, after, member := s.memberAt(i)
	if !member {
		return atom.Body
	}
	var on pageObject
	var args [][2]int
	if s.is(after, "=") || s.is(after, "+=") {
		on = s.objectAt(objEnd, 0)
	} else if _, recvEnd, a, call := s.methodCall(i); call {
		on, args = s.objectAt(recvEnd, 0), a
	}
	beside := sink == "outerHTML" // the root's throws: it has no element parent
	if sink == "insertAdjacentHTML" && len(args) == 2 {
		where, known := s.names(args[0][0], args[0][1], 0)
		if !known || len(where) != 1 {
			return atom.Body
		}
		switch markup.ASCIILower(where[0]) {
		case "beforebegin", "afterend":
			beside = true
		case "afterbegin", "beforeend":
		default:
			return 0 // throws
		}
	}
	switch {
	case on == pageRoot && beside && (sink == "outerHTML" || sink == "insertAdjacentHTML"):
		return 0 // throws
	case on == pageRoot && !beside && (sink == "innerHTML" || sink == "setHTMLUnsafe" || sink == "insertAdjacentHTML"),
		on == pageRootChild && beside:
		return atom.Html
	}
	return atom.Body
}

// lookedUpSetter reads the expression whose last significant token is end as the setter
// __lookupSetter__ gives (Annex B's Object.prototype.__lookupSetter__, which looks the key up
// along the object's prototype chain: el.__lookupSetter__("innerHTML") is Element.prototype's
// innerHTML setter), called on an object or through call or apply
// (Object.prototype.__lookupSetter__.call(Element.prototype, "innerHTML")), or a const bound
// to one; it returns the key, a constant.
func (s *script) lookedUpSetter(end, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	if js.IsIdentifier(s.tok(end).tt) && !s.is(end-1, ".") && !s.is(end-1, "?.") { // set, get: names too
		if init, ok := s.constInitAt(end); ok && init[1] > init[0] {
			return s.lookedUpSetter(init[1]-1, depth+1)
		}
		return "", false
	}
	if !s.is(end, ")") {
		return "", false
	}
	open := s.opener(end)
	name := open - 1
	if s.is(open-1, "call") || s.is(open-1, "apply") {
		name = open - 3
	}
	if name < 2 || !s.is(name, "__lookupSetter__") {
		return "", false
	}
	prop, _, args, ok := s.methodCall(name)
	if !ok || prop != "__lookupSetter__" || len(args) != 1 {
		return "", false
	}
	keys, known := s.names(args[0][0], args[0][1], 0)
	if !known || len(keys) != 1 {
		return "", false
	}
	return keys[0], true
}

// descriptorKey reads the call whose '(' is the significant token open as the global
// Object's or Reflect's getOwnPropertyDescriptor(obj, key) with a constant key, and returns
// the key: the descriptor of the property, whose set is the property's setter.
func (s *script) descriptorKey(open int) (string, bool) {
	if open < 3 || !s.is(open, "(") || s.is(open-4, ".") || s.is(open-4, "?.") || !s.is(open-2, ".") || !s.is(open-1, "getOwnPropertyDescriptor") {
		return "", false
	}
	if !s.is(open-3, "Object") && !s.is(open-3, "Reflect") || !s.global(open-3) {
		return "", false
	}
	args := s.args(open)
	if len(args) != 2 {
		return "", false
	}
	names, known := s.names(args[1][0], args[1][1], 0)
	if !known || len(names) != 1 {
		return "", false
	}
	return names[0], true
}

// htmlProp reports whether the significant token i is the key __html of the object given
// as a dangerouslySetInnerHTML property ({ dangerouslySetInnerHTML: { __html: markup } },
// what JSX's <div dangerouslySetInnerHTML={{ __html: markup }} /> is): React DOM and Preact
// set an element's innerHTML to it (React DOM's setInitialProperties: domElement.innerHTML
// = value.__html).
func (s *script) htmlProp(i int) bool {
	if !s.isKey(i, "__html") {
		return false
	}
	open := i - 1
	for open >= 0 && s.pair[open] <= i { // the bracket around i
		open--
	}
	return open > 1 && s.is(open, "{") && s.is(open-1, ":") && s.isKey(open-2, "dangerouslySetInnerHTML")
}

// assignedKey reads the significant token i as a key of an object literal Object.assign
// copies onto its target (Object.assign(el, { href: url }), a source after the first
// argument): each key is set on the target as el.key = value is. It returns the key and the
// value's tokens.
func (s *script) assignedKey(i int) (key string, value [2]int, ok bool) {
	key, value, call, ok := s.assignedTo(i)
	if !ok || s.is(call+1, "{") || s.is(call+1, "[") {
		return "", value, false // a new object or array: no element, no location
	}
	return key, value, true
}

// assignedTo is assignedKey's reading, whatever the target: the key, the value's tokens, and
// the '(' of Object.assign's call.
func (s *script) assignedTo(i int) (key string, value [2]int, call int, ok bool) {
	t := s.tok(i)
	if !js.IsIdentifierName(t.tt) && t.tt != js.StringToken || !s.is(i+1, ":") || !s.is(i-1, "{") && !s.is(i-1, ",") {
		return "", value, 0, false
	}
	open := i - 1
	for open >= 0 && s.pair[open] <= i { // the object's brace
		open--
	}
	if open < 0 || !s.is(open, "{") || !s.is(open-1, ",") {
		return "", value, 0, false
	}
	call = open - 1
	for call >= 0 && s.pair[call] <= open { // the call's parenthesis
		call--
	}
	if call < 3 || !s.is(call, "(") || !s.is(call-3, "Object", ".", "assign") || s.is(call-4, ".") || s.is(call-4, "?.") || !s.global(call-3) {
		return "", value, 0, false
	}
	if js.IsIdentifierName(t.tt) {
		key = s.text(i)
	} else if key, ok = jsstring.Decode(s.text(i)); !ok {
		return "", value, 0, false
	}
	return key, [2]int{i + 2, s.expressionEnd(i + 2)}, call, true
}

// isKey reports whether the significant token i is an object literal's key name (an
// identifier name or a string) followed by its colon, the first of its object or after a
// comma.
func (s *script) isKey(i int, name string) bool {
	if i < 1 || !s.is(i+1, ":") || !s.is(i-1, "{") && !s.is(i-1, ",") {
		return false
	}
	t := s.tok(i)
	if js.IsIdentifierName(t.tt) {
		return s.text(i) == name
	}
	v, err := s.str(i)
	return t.tt == js.StringToken && err == nil && v == name
}

// srcdocSink names the sinks whose markup is a frame's document (an iframe's srcdoc, set as
// a property or by setAttribute): parsed as a whole document, whose scripts run.
const srcdocSink = "an iframe's srcdoc"

// parsedSinks are the sinks whose markup is a document of its own that runs no script
// (DOMParser's parseFromString(markup, "text/html"), Document.parseHTMLUnsafe: the parser's
// scripting is disabled), parsed as a whole document: its elements, once the page adopts
// them (append, importNode, replaceWith), are the page's, and their handlers and javascript:
// URLs run there under the page's policy.
var parsedSinks = map[string]bool{"parseFromString": true, "parseHTMLUnsafe": true}

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
	// at, where above 0, is the significant token of the argument that gives the value, where
	// the place a chain of call sites reads is a list the value is spread from (a rest
	// parameter's, the arguments object's: appliedlist.go).
	at int
}

// blockedInMarkup returns what the markup holds that cannot run under the bundle's policy:
// the first inline event handler, javascript: URL, or (runs) script, outside <template>s.
// The fragment is parsed in the context of the element it goes into, context: <body>, or
// <html> for the document's element, where a <body> tag is kept with its attributes.
func blockedInMarkup(markup string, runs bool, context atom.Atom) (markupFinding, bool) {
	nodes, err := html.ParseFragment(strings.NewReader(markup), &html.Node{Type: html.ElementNode, Data: context.String(), DataAtom: context})
	if err != nil {
		return markupFinding{}, false
	}
	return blockedIn(nodes, runs)
}

// blockedInDocument is blockedInMarkup for markup parsed as a whole document: a frame's (an
// iframe's srcdoc), whose scripts run (runs; the frame's document inherits the page's
// policy), or a parsed document's (parsedSinks), whose do not.
func blockedInDocument(markup string, runs bool) (markupFinding, bool) {
	doc, err := html.Parse(strings.NewReader(markup))
	if err != nil {
		return markupFinding{}, false
	}
	return blockedIn([]*html.Node{doc}, runs)
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
			if runs && n.Data == "script" && (n.Namespace == "" || n.Namespace == "svg") && elementScriptRuns(n) {
				found = &markupFinding{what: "a <script>, which runs when the markup is parsed into the page, and cannot run under the bundle's policy (its text has no hash in it, and a src names no file of the one-file page)",
					note: "import the code (import './x.js', or import('./x.js') to load it later), which bundle bundles"}
				return
			}
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				if key == "srcdoc" && a.Namespace == "" && n.DataAtom == atom.Iframe && n.Namespace == "" {
					if f, blocked := blockedInDocument(a.Val, true); blocked {
						found = &markupFinding{what: "an <iframe srcdoc> whose document holds " + f.what, note: f.note}
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

// elementScriptRuns reports whether the parsed <script> n runs (offline.ScriptRuns): a data
// block (type="application/json") holds no code the policy blocks.
func elementScriptRuns(n *html.Node) bool {
	var typ, lang string
	var hasType, hasLang bool
	for _, a := range n.Attr {
		switch {
		case a.Namespace == "" && a.Key == "type" && !hasType: // the parser keeps the first of a name
			typ, hasType = a.Val, true
		case a.Namespace == "" && a.Key == "language" && !hasLang:
			lang, hasLang = a.Val, true
		}
	}
	return offline.ScriptRuns(typ, hasType, lang, hasLang)
}

// blockedAttr returns what an attribute (key as written, val) holds that cannot run under
// the bundle's policy: an inline event handler, or a javascript: URL where one runs.
func blockedAttr(key, val string) (markupFinding, bool) {
	lower := strings.ToLower(key)
	switch {
	case len(lower) > 2 && strings.HasPrefix(lower, "on"):
		return markupFinding{what: fmt.Sprintf("the inline event handler %s=%q, which cannot run under the bundle's policy", key, val), note: fmt.Sprintf("attach it in a script once the element is in the page: element.addEventListener(%q, …)", strings.TrimPrefix(lower, "on"))}, true
	case (lower == "href" || lower == "src" || lower == "action" || lower == "formaction") && offline.Scheme(val) == "javascript":
		return markupFinding{what: fmt.Sprintf("a javascript: URL (%s=%q), which cannot run under the bundle's policy", key, val), note: "attach the behaviour in a script instead: element.addEventListener(\"click\", …); for a link that goes nowhere, use a <button>"}, true
	}
	return markupFinding{}, false
}

// attrSink reads the call or assignment at the significant token i that sets an attribute
// the page's own HTML could hold: setAttribute(name, value) with a constant name (other than
// srcdoc, a markup sink), setAttributeNS(namespace, name, value) (nsAttrName), or a URL property (href, src, action, formAction) assigned (a
// location's href is a navigation: navSink). It returns the attribute's name and the value's
// tokens.
func (s *script) attrSink(i int) (name string, arg [2]int, ok bool) {
	if name, value, ok := s.assignedAttr(i); ok {
		return name, value, true
	}
	if key, value, ok := s.assignedKey(i); ok {
		if key == "href" || key == "src" || key == "action" || key == "formAction" {
			return key, value, true
		}
		return "", arg, false
	}
	prop, objEnd, after, member := s.memberAt(i)
	if !member {
		return "", arg, false
	}
	args, call := s.callAt(after)
	switch {
	case call && prop == "setAttribute" && len(args) == 2:
		if names, known := s.names(args[0][0], args[0][1], 0); known && len(names) == 1 && !strings.EqualFold(names[0], "srcdoc") {
			return names[0], args[1], true
		}
	case call && prop == "setAttributeNS" && len(args) == 3:
		if name, ok := s.nsAttrName(args[0], args[1]); ok {
			return name, args[2], true
		}
	case s.is(after, "=") && (prop == "value" || prop == "nodeValue" || prop == "textContent"):
		// An attribute node's value: const a = document.createAttribute("onclick");
		// a.value = code; el.setAttributeNode(a).
		if name, ok := s.createdAttr(objEnd); ok {
			return name, [2]int{after + 1, s.expressionEnd(after + 1)}, true
		}
	case s.is(after, "=") && (prop == "href" || prop == "src" || prop == "action" || prop == "formAction"):
		if prop == "href" && s.objectAt(objEnd, 0) == pageLocation {
			return "", arg, false
		}
		return prop, [2]int{after + 1, s.expressionEnd(after + 1)}, true
	}
	return "", arg, false
}

// createdAttr reads the name at the significant token i as a const (or a let or var written
// nowhere else) bound to an attribute node, X.createAttribute(name) with a constant name,
// that the script gives an element (setAttributeNode, setAttributeNodeNS, or an element's
// attributes' setNamedItem and setNamedItemNS): it returns the attribute's name, lowercased
// as createAttribute does in an HTML document.
func (s *script) createdAttr(i int) (string, bool) {
	if !js.IsIdentifier(s.tok(i).tt) || s.is(i-1, ".") || s.is(i-1, "?.") {
		return "", false
	}
	init, ok := s.constInitAt(i)
	if !ok {
		return "", false
	}
	name, ok := s.attrNode(init)
	if !ok {
		return "", false
	}
	n, known := s.binding(i)
	if !known {
		return "", false
	}
	for k := 2; k+1 < len(s.sig); k++ {
		if !js.IsIdentifier(s.tok(k).tt) || !s.is(k-1, "(") || !s.is(k+1, ")") {
			continue
		}
		if !s.is(k-2, "setAttributeNode") && !s.is(k-2, "setAttributeNodeNS") && !s.is(k-2, "setNamedItem") && !s.is(k-2, "setNamedItemNS") {
			continue
		}
		if m, ok := s.binding(k); ok && m.Binding == n.Binding {
			return name, true
		}
	}
	return "", false
}

// attrNode reads the expression of the significant tokens expr as the making of an attribute
// node: X.createAttribute(name) with a constant name, lowercased as createAttribute does in
// an HTML document, or X.createAttributeNS(namespace, name), named as setAttributeNS names
// it (nsAttrName). It returns the attribute's name.
func (s *script) attrNode(expr [2]int) (string, bool) {
	if expr[1]-expr[0] < 4 || !s.is(expr[1]-1, ")") {
		return "", false
	}
	open := s.opener(expr[1] - 1)
	prop, _, after, member := s.memberAt(open - 1)
	if !member || after != open {
		return "", false
	}
	args := s.args(open)
	switch {
	case prop == "createAttribute" && len(args) == 1:
		names, known := s.names(args[0][0], args[0][1], 0)
		if !known || len(names) != 1 {
			return "", false
		}
		return markup.ASCIILower(names[0]), true
	case prop == "createAttributeNS" && len(args) == 2:
		return s.nsAttrName(args[0], args[1])
	}
	return "", false
}

// assignedAttr reads the significant token i as the key value, nodeValue or textContent of
// an object literal Object.assign copies onto an attribute node it is given in place, the
// call given at once to an element (el.setAttributeNode(Object.assign(
// document.createAttribute("onclick"), { value: code }))): the attribute's value set, as
// a.value = code is. It returns the attribute's name and the value's tokens.
func (s *script) assignedAttr(i int) (name string, value [2]int, ok bool) {
	key, value, call, ok := s.assignedTo(i)
	if !ok || key != "value" && key != "nodeValue" && key != "textContent" {
		return "", value, false
	}
	args := s.args(call)
	if len(args) < 2 || !s.is(call-4, "(") || s.pair[call-4] != s.pair[call]+1 {
		return "", value, false
	}
	switch s.text(call - 5) {
	case "setAttributeNode", "setAttributeNodeNS", "setNamedItem", "setNamedItemNS":
	default:
		return "", value, false
	}
	name, ok = s.attrNode(args[0])
	return name, value, ok
}

// xlinkNS is the XLink namespace, in which an SVG <a>'s href (xlink:href) is its link.
const xlinkNS = "http://www.w3.org/1999/xlink"

// nsAttrName returns the attribute setAttributeNS(namespace, qualifiedName, …) sets, given the
// tokens of its first two arguments, as the name blockedAttr reads: in no namespace (null,
// undefined or ""), the qualified name, which DOM does not lowercase (an element's onclick
// handler is its attribute onclick, not onClick; a prefix in no namespace throws), and
// xlink:href, a link. Another namespace's attribute is no handler and no link.
func (s *script) nsAttrName(ns, qname [2]int) (string, bool) {
	names, known := s.names(qname[0], qname[1], 0)
	if !known || len(names) != 1 {
		return "", false
	}
	name := names[0]
	space, known := "", ns[1] == ns[0]+1 && (s.is(ns[0], "null") || s.is(ns[0], "undefined"))
	if !known {
		var spaces []string
		spaces, known = s.names(ns[0], ns[1], 0)
		if !known || len(spaces) != 1 {
			return "", false
		}
		space = spaces[0]
	}
	switch {
	case space == "" && !strings.Contains(name, ":") && name == markup.ASCIILower(name):
		return name, true
	case space == xlinkNS && (name == "href" || strings.HasSuffix(name, ":href") && strings.Count(name, ":") == 1):
		return "href", true
	}
	return "", false
}

// checkAttr refuses, at its place, an attribute a script sets (attrSink, at the significant
// token i) that holds what the bundle's policy blocks: the page as written runs the handler
// or follows the javascript: URL, the bundle's policy blocks it.
func (r *rewrite) checkAttr(i int) {
	s := r.s
	name, arg, ok := s.attrSink(i)
	if !ok {
		r.checkAttrNamed(i)
		return
	}
	if arg[0] >= arg[1] {
		return
	}
	values, data, known := s.values(arg[0], arg[1])
	if !known {
		return
	}
	judge := func(values []string) (markupFinding, bool) {
		for _, v := range values {
			if f, blocked := blockedAttr(name, v); blocked {
				f.what += ", where the page as written runs it"
				return f, true
			}
		}
		return markupFinding{}, false
	}
	if f, blocked := judge(values); blocked {
		r.errAt(arg[0], "the attribute a script sets holds "+f.what+dataSaid(data), f.note)
	} else if data {
		r.checkParams("the attribute "+name, [][2]int{arg}, judge)
	}
}

// checkAttrNamed reads setAttribute(name, value) whose name is no constant (attrSink's) but
// built from a parameter of the app's own function, with what its calls give: an inline
// event handler's name, a link's, or srcdoc (a document whose scripts run), as the constant
// would be read.
func (r *rewrite) checkAttrNamed(i int) {
	s := r.s
	prop, _, after, member := s.memberAt(i)
	if !member || prop != "setAttribute" {
		return
	}
	args, call := s.callAt(after)
	if !call || len(args) != 2 || args[0][0] >= args[0][1] || args[1][0] >= args[1][1] {
		return
	}
	if _, known := s.names(args[0][0], args[0][1], 0); known {
		return // a constant name: attrSink's, or srcdoc, markupSink's
	}
	r.checkParamsBy("setAttribute", args, func() (markupFinding, bool) {
		names, _, known := s.values(args[0][0], args[0][1])
		if !known {
			return markupFinding{}, false
		}
		values, data, known := s.values(args[1][0], args[1][1])
		if !known {
			return markupFinding{}, false
		}
		for _, name := range names {
			if strings.EqualFold(name, "srcdoc") {
				if f, blocked := markupBlocked(srcdocSink, values, true, atom.Body); blocked {
					f.what = "an iframe's srcdoc, a document whose markup holds " + f.what + ", where the page as written runs it" + dataSaid(data)
					return f, true
				}
				continue
			}
			for _, v := range values {
				if f, blocked := blockedAttr(name, v); blocked {
					f.what += ", where the page as written runs it" + dataSaid(data)
					return f, true
				}
			}
		}
		return markupFinding{}, false
	})
}

// checkMarkup refuses, at its place, markup a script gives a sink (at the significant token
// i) that holds what the bundle's policy blocks.
func (r *rewrite) checkMarkup(i int) {
	s := r.s
	sink, parts, runs, ok := s.markupSink(i)
	if !ok || parts[0][0] >= parts[0][1] {
		return
	}
	values, data, known := s.concatenation(parts)
	if !known {
		return
	}
	context := s.markupContext(i, sink)
	if context == 0 {
		return // the call throws: nothing is parsed into the page
	}
	f, blocked := markupBlocked(sink, values, runs, context)
	if !blocked {
		if data {
			// Built from a parameter of the app's own function: read with what its calls give.
			r.checkParams(sink, parts, func(values []string) (markupFinding, bool) {
				f, blocked := markupBlocked(sink, values, runs, context)
				f.what += ", where the page as written runs it"
				return f, blocked
			})
		}
		return
	}
	where := ", where the page as written runs it"
	if parsedSinks[sink] {
		where += " once it adopts the element (the document parsed apart runs no script, the page does)"
	}
	r.errAt(parts[0][0], "the markup given to "+sink+" holds "+f.what+where+dataSaid(data), f.note)
}

// markupBlocked returns what one of the values given to sink holds that the bundle's policy
// blocks, each read as the sink's parser reads it.
func markupBlocked(sink string, values []string, runs bool, context atom.Atom) (markupFinding, bool) {
	for _, v := range values {
		f, blocked := blockedInMarkup(v, runs, context)
		if sink == srcdocSink || parsedSinks[sink] || strings.HasSuffix(sink, ".write") || strings.HasSuffix(sink, ".writeln") {
			// Read as a document: what document.write writes goes to the document's own
			// parser, in body, where a <body> or <html> tag's attributes (onload) are added
			// to the page's element, where a fragment's parser drops the tag.
			f, blocked = blockedInDocument(v, runs)
		}
		if blocked {
			return f, true
		}
	}
	return markupFinding{}, false
}

// dataSaid is what a message adds when a value was read with parts only the run knows
// (values): how they were read.
func dataSaid(data bool) string {
	if !data {
		return ""
	}
	return " (each part of the value only the run knows read as the text " + dataPart + ": the constants around it hold this whatever the run gives)"
}

// concatenation returns the values the expressions parts may have, concatenated in order
// (document.write's arguments are written one after the other), each read as values reads it.
func (s *script) concatenation(parts [][2]int) (out []string, data, ok bool) {
	out = []string{""}
	for _, p := range parts {
		if p[0] >= p[1] {
			return nil, false, false
		}
		values, d, known := s.values(p[0], p[1])
		data = data || d
		if !known || len(out)*len(values) > maxNames {
			return nil, false, false
		}
		var more []string
		for _, x := range out {
			for _, y := range values {
				more = append(more, x+y)
			}
		}
		out = more
	}
	return out, data, true
}
