package pipeline

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Feature tests. A name only another browser has (Safari's webkit, Firefox's InstallTrigger)
// is no global of Chromium's, whose table the build reads (platformglobals.go), so a call of
// it is refused as one what the build cannot see gives (checkGlobalCall); a page that tests
// for the name first calls it only where the browser has it, where it is that browser's:
//
//	if (typeof webkit !== "undefined") webkit.messageHandlers.host.postMessage(m)
//	if ("webkit" in window) { … }       window.webkit && webkit.…(m)
//	typeof InstallTrigger != "undefined" ? InstallTrigger.install(m) : …
//	window.webkit?.messageHandlers.host.postMessage(m)
//
// A script of the page that writes the global object by names the build does not read
// (Object.assign(window, { lib }), Object.defineProperty(window, name, …), window[name] = …)
// may give the name the test finds, and so may one that gives an element the name as its id
// or name (el.id = "lib", el.setAttribute("name", n): the Window's named properties make the
// element the global, windowNames): there the test says nothing of the browser, and the call
// is refused as before (givesUnseen).
//
// The test is read where the call's expression is: an if's condition whose consequent holds
// it (a block or one statement; not its else), or what comes before && or ? in the expression
// that holds it, each level of brackets out; a test of another name does not count.

// maxTestLevels bounds the brackets featureTested looks out through.
const maxTestLevels = 64

// featureTested reports whether the expression whose first significant token is k runs only
// where the global name exists, by a test before it (see above).
func (s *script) featureTested(k int, name string) bool {
	if globalWindows[s.text(k)] && s.global(k) && (s.is(k+1, ".") || s.is(k+1, "?.")) && s.is(k+2, name) && s.is(k+3, "?.") {
		return true // window.name?.…: the chain stops where the browser has none
	}
	for level := 0; k > 0 && level < maxTestLevels; level++ {
		open := s.enclosing(k)
		j := k - 1
	scan:
		for ; j > open; j-- {
			switch {
			case s.is(j, "&&") || s.is(j, "?"):
				if s.testsFor(s.exprStart(j, open), j, name) {
					return true
				}
			case s.is(j, ")"):
				o := s.opener(j)
				if o < 0 {
					return false
				}
				if s.is(o-1, "if") {
					// The if whose consequent the expression is (a statement after its
					// condition, or, below, a block).
					if s.testsFor(o+1, j, name) {
						return true
					}
					break scan
				}
				j = o
			case s.is(j, "]"):
				if j = s.opener(j); j < 0 {
					return false
				}
			case s.is(j, ";") || s.is(j, "}") || s.is(j, "{") || s.is(j, ","):
				break scan
			}
		}
		if open < 0 {
			return false
		}
		if s.is(open, "{") && s.is(open-1, ")") {
			// A block: the if's, when its condition is right before it.
			if o := s.opener(open - 1); o > 0 && s.is(o-1, "if") {
				if s.testsFor(o+1, open-1, name) {
					return true
				}
			}
		}
		k = open
	}
	return false
}

// exprStart returns the first significant token of the expression the token j is in,
// scanning back to a ';', ',', '{', '}' or the enclosing bracket open.
func (s *script) exprStart(j, open int) int {
	for k := j - 1; k > open; k-- {
		switch {
		case s.is(k, ")") || s.is(k, "]"):
			if k = s.opener(k); k < 0 {
				return j
			}
		case s.is(k, ";") || s.is(k, ",") || s.is(k, "{") || s.is(k, "}"):
			return k + 1
		}
	}
	return open + 1
}

// testsFor reports whether the significant tokens [from, to) hold a test that the global
// name exists: typeof name !== "undefined" (or != , either way round), typeof name ===
// "function" or "object", "name" in window (globalThis, self), or window.name read for its
// truth (before &&, ?, ')' or the end).
func (s *script) testsFor(from, to int, name string) bool {
	str := func(k int) string {
		if k < from || k >= to || s.tok(k).tt != js.StringToken {
			return ""
		}
		v, err := s.str(k)
		if err != nil {
			return ""
		}
		return v
	}
	typeOf := func(k int) bool {
		return k >= from && k+1 < to && s.is(k, "typeof") && s.is(k+1, name) && s.global(k+1)
	}
	for k := from; k < to; k++ {
		switch {
		case typeOf(k):
			if (s.is(k+2, "!==") || s.is(k+2, "!=")) && str(k+3) == "undefined" {
				return true
			}
			if (s.is(k+2, "===") || s.is(k+2, "==")) && (str(k+3) == "function" || str(k+3) == "object") {
				return true
			}
		case str(k) == "undefined" && (s.is(k+1, "!==") || s.is(k+1, "!=")) && typeOf(k+2):
			return true
		case str(k) == name && s.is(k+1, "in") && k+2 < to && globalWindows[s.text(k+2)] && s.global(k+2) && !s.is(k+3, "."):
			return true
		case globalWindows[s.text(k)] && s.global(k) && !s.is(k-1, "!") && (s.is(k+1, ".") || s.is(k+1, "?.")) && s.is(k+2, name) && k+2 < to:
			if k+3 == to || s.is(k+3, "&&") || s.is(k+3, "?") || s.is(k+3, ")") {
				return true
			}
		}
	}
	return false
}

// globalWriters are the functions that write the properties of the object their first
// argument is, by names the build does not read as assignments.
var globalWriters = map[string]bool{"assign": true, "defineProperty": true, "defineProperties": true, "set": true}

// writesGlobals reports whether the script writes properties of the global object other than
// by an assignment of a constant path (globalAssigns): Object.assign(window, …),
// Object.defineProperty(globalThis, …), Reflect.set(self, …), window[name] = ….
func (s *script) writesGlobals() bool {
	for k := range s.sig {
		if !globalWindows[s.text(k)] || !s.global(k) {
			continue
		}
		if s.is(k+1, "[") && s.pair[k+1] > 0 && s.is(s.pair[k+1]+1, "=") {
			return true
		}
		if s.is(k-1, "(") && s.is(k+1, ",") && globalWriters[s.text(k-2)] && s.is(k-3, ".") &&
			(s.is(k-4, "Object") || s.is(k-4, "Reflect")) && s.global(k-4) {
			return true
		}
	}
	return false
}

// givesUnseen reports whether the script may give the global name where the build does not
// read it: it writes the global object by names the build does not read (writesGlobals), or
// names an element name (namesElement).
func (s *script) givesUnseen(name string) bool {
	return s.writesGlobals() || s.namesElement(name)
}

// namesElement reports whether the script may give an element the id or name name, which the
// Window's named properties make a global once the element is in the document: el.id = …,
// el.name = …, el.setAttribute("id" or "name", …), whose value may be name (one the build
// cannot read may be any; an attribute's name it cannot read may be id); or markup it gives a
// sink (innerHTML, insertAdjacentHTML, document.write, …) holds such an element, or is markup
// the build cannot read whole (markupNames); name "" is any.
func (s *script) namesElement(name string) bool {
	if s.markupNames(name) {
		return true
	}
	for k := 1; k+1 < len(s.sig); k++ {
		if !s.is(k-1, ".") && !s.is(k-1, "?.") {
			continue
		}
		var v [2]int
		switch {
		case s.is(k, "name") && s.is(k+1, "=") && !s.mayBeNamedElement(k-2):
			continue // a plain object's name, not an element's name attribute
		case (s.is(k, "id") || s.is(k, "name")) && s.is(k+1, "="):
			v = [2]int{k + 2, s.expressionEnd(k + 2)}
		case s.is(k, "setAttribute") && s.is(k+1, "("):
			args := s.spreadArgs(s.args(k + 1))
			if len(args) < 2 {
				continue
			}
			attrs, known := s.names(args[0][0], args[0][1], 0)
			if known && !slices.ContainsFunc(attrs, func(a string) bool { a = strings.ToLower(a); return a == "id" || a == "name" }) {
				continue
			}
			v = args[1]
		default:
			continue
		}
		if values, known := s.names(v[0], v[1], 0); !known || name == "" || slices.Contains(values, name) {
			return true
		}
	}
	return false
}

// mayBeNamedElement reports whether the object whose expression's last significant token is
// end may be an element whose name property reflects a name attribute that names the Window's
// property (an embed, form, img, object, iframe or frame: windowNamed): not where the build
// reads it as another object, a name bound once (constInitAt) to an object or array literal,
// to new of a constructor but Image (the platform's, or the app's own class that extends
// nothing), or to document.createElement of another tag; nor this in a method of a class that
// extends nothing; nor the global object (its name is its frame's, no property of its own).
func (s *script) mayBeNamedElement(end int) bool {
	if s.is(end, "this") {
		if open, ok := s.ownFunction(end); ok {
			if brace := s.enclosing(open); brace > 0 && s.is(brace, "{") {
				if c, class := s.classOf(brace); class && s.ownThis(end, brace) && !s.is(c+1, "extends") && !s.is(brace-1, ")") && !s.is(brace-2, "extends") {
					return false
				}
			}
		}
		return true
	}
	if !js.IsIdentifier(s.tok(end).tt) || s.is(end-1, ".") || s.is(end-1, "?.") {
		return true
	}
	if globalWindows[s.text(end)] && s.global(end) {
		return false
	}
	init, ok := s.constInitAt(end)
	if !ok || init[1] <= init[0] {
		return true
	}
	switch v := init[0]; {
	case s.is(v, "{") && s.pair[v] == init[1]-1, s.is(v, "[") && s.pair[v] == init[1]-1:
		return false
	case s.is(v, "new") && js.IsIdentifier(s.tok(v+1).tt) && (s.is(v+2, "(") || v+2 == init[1]):
		c := v + 1
		if s.global(c) {
			return s.text(c) == "Image"
		}
		n, known := s.binding(c)
		if !known || n.Free {
			return true
		}
		for _, d := range s.references(n.Binding) {
			if s.is(d-1, "class") {
				return s.is(d+1, "extends") // class C extends HTMLFormElement: a customized form
			}
		}
		return true
	case s.is(init[1]-1, ")"):
		open := s.opener(init[1] - 1)
		prop := createElementAt(s, open-1)
		args := s.args(open)
		tag := 0
		if prop == "createElementNS" {
			tag = 1
		}
		if prop == "" || len(args) <= tag {
			return true
		}
		names, known := s.names(args[tag][0], args[tag][1], 0)
		return !known || slices.ContainsFunc(names, func(n string) bool { return windowNamed[atom.Lookup([]byte(strings.ToLower(n)))] })
	}
	return true
}

// markupNames reports whether markup the script gives a sink of the page (markupSink's, but
// a frame's srcdoc, a document of its own) may hold an element that gives the Window the
// name name (windowNames: an id, an embed's, form's, img's, object's or frame's name), read by
// the fragment parsing algorithm; markup the build cannot read whole (a part only the run
// knows, which may be markup) may hold any. name "" is any.
func (s *script) markupNames(name string) bool {
	for k := range s.sig {
		sink, parts, _, ok := s.markupSink(k)
		if !ok || sink == srcdocSink {
			continue
		}
		values, data, known := s.concatenation(parts)
		if !known || data {
			return true
		}
		for _, v := range values {
			nodes, err := html.ParseFragment(strings.NewReader(v), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
			if err != nil {
				return true
			}
			for _, n := range nodes {
				if namesIn(n, name) {
					return true
				}
			}
		}
	}
	return false
}

// namesIn reports whether the parsed node n, or an element in it (not a template's contents,
// another document's), gives the Window the name name ("" any), as windowNames reads it.
func namesIn(n *html.Node, name string) bool {
	if n.Type == html.ElementNode {
		if n.DataAtom == atom.Template && n.Namespace == "" {
			return false
		}
		for _, a := range n.Attr {
			named := a.Key == "id" || a.Key == "name" && n.Namespace == "" && windowNamed[n.DataAtom]
			if a.Namespace == "" && named && a.Val != "" && (name == "" || a.Val == name) {
				return true
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if namesIn(c, name) {
			return true
		}
	}
	return false
}

// windowNamed are the elements whose name attribute names the Window's property (windowNames).
var windowNamed = map[atom.Atom]bool{atom.Embed: true, atom.Form: true, atom.Img: true, atom.Object: true, atom.Iframe: true, atom.Frame: true}
