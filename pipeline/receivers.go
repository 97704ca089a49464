package pipeline

import (
	"math"
	"strconv"

	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"github.com/tdewolff/parse/v2/js"
)

// Which of the page's own objects a script's expression reads: its window, its document, its
// location (or a same-origin frame's, which has the page's policy), by the names' bindings,
// not their spelling. The sinks whose effect depends on the object they are called on
// (document.write, location.assign, window.open, location = …) are sinks only on these:
// a parameter or a local named document is not the page's document
// (function f(document) { document.write(x) } writes into whatever f is given), and a const
// bound once to one of them is it (const d = document; d.write(…)), and so is a let or var
// declared so and written nowhere else (var d = document, in a classic script). The bindings are the
// parse's scopes (localnames.Resolve); where they are not known (a direct eval, a with
// statement), a name is read as the global it spells, which errs on the side of refusing.

// pageObject is which of the page's objects an expression reads.
type pageObject int

const (
	notPageObject pageObject = iota
	pageWindow
	pageDocument
	pageLocation
	pageRoot      // the document's element, <html>
	pageRootChild // the document's body or head, whose parent is the root
	pageRootList  // a list of the document's elements whose first is the root (document.children)
)

// globalObjects are the global names of the page's objects: the window's properties that
// hold it (a top-level page's top and parent are its window), its document and location.
var globalObjects = map[string]pageObject{
	"window": pageWindow, "self": pageWindow, "globalThis": pageWindow, "top": pageWindow, "parent": pageWindow, "frames": pageWindow,
	"document": pageDocument, "location": pageLocation,
}

// member returns which page object obj's property prop holds. A frame's contentDocument and
// contentWindow, and a node's ownerDocument, are a document and a window whatever the object:
// a same-origin frame (about:blank) has the page's policy.
func member(obj pageObject, prop string) pageObject {
	switch prop {
	case "contentDocument", "ownerDocument":
		return pageDocument
	case "contentWindow":
		return pageWindow
	}
	switch obj {
	case pageRootChild:
		if prop == "parentElement" || prop == "parentNode" {
			return pageRoot
		}
	case pageWindow:
		if o, ok := globalObjects[prop]; ok {
			return o
		}
		if arrayIndex(prop) {
			// window[0], frames[0]: the window of the page's frame of that index (WindowProxy's
			// [[GetOwnProperty]]), a same-origin one's (about:blank) with the page's policy.
			return pageWindow
		}
	case pageDocument:
		switch prop {
		case "location":
			return pageLocation
		case "defaultView":
			return pageWindow
		case "documentElement", "firstElementChild", "lastElementChild":
			return pageRoot // the document's one element child
		case "scrollingElement":
			// CSSOM View: the root, but in quirks mode the body (or null), where a <body>
			// tag's handler given to its innerHTML is dropped: read as the root, that page's
			// code is refused for what it could not run anyway.
			return pageRoot
		case "body", "head":
			return pageRootChild
		case "children":
			return pageRootList // the document's element children: the root alone
		case "all":
			return pageRootList // the document's elements in tree order (HTMLAllCollection): the root first
		}
	case pageRootList:
		if prop == "0" {
			return pageRoot
		}
	}
	return notPageObject
}

// called returns which page object the call of obj's method prop with the arguments args
// (their tokens) returns: the document's querySelector of a selector the root matches (the
// first element in tree order that matches is the root), and its querySelectorAll's and
// getElementsByTagName's list, whose first is the root, for "html" (lowercased, as an HTML
// document matches its HTML elements' names) or "*"; such a list's item(0).
func (s *script) called(obj pageObject, prop string, args [][2]int) pageObject {
	if len(args) != 1 {
		return notPageObject
	}
	switch {
	case obj == pageRootList && prop == "item":
		if args[0][1] == args[0][0]+1 && s.is(args[0][0], "0") {
			return pageRoot
		}
		return notPageObject
	case obj != pageDocument:
		return notPageObject
	}
	names, known := s.names(args[0][0], args[0][1], 0)
	if !known || len(names) != 1 {
		return notPageObject
	}
	switch {
	case prop == "getElementsByTagName" && (markup.ASCIILower(names[0]) == "html" || names[0] == "*"),
		prop == "querySelectorAll" && selectsRoot(names[0]):
		return pageRootList
	case prop == "querySelector" && selectsRoot(names[0]):
		return pageRoot
	}
	return notPageObject
}

// arrayIndex reports whether prop is an array index: the canonical string of an integer
// below 2^32-1 ("0", "12", not "01" or "1.0"), which a window reads as its frame of that index.
func arrayIndex(prop string) bool {
	v, err := strconv.ParseUint(prop, 10, 32)
	return err == nil && v < 1<<32-1 && strconv.FormatUint(v, 10) == prop
}

// binding returns what the name at the significant token i resolves to; known is false where
// the script's scopes are not known.
func (s *script) binding(i int) (n localnames.Name, known bool) {
	if !s.resolved {
		s.resolved = true
		s.bindings, s.bindingsKnown = localnames.Resolve(string(s.js))
	}
	if !s.bindingsKnown {
		return n, false
	}
	n, known = s.bindings[s.tok(i).start]
	return n, known
}

// global reports whether the name at the significant token i reads the global object's
// property of that name: no declaration of the script binds it (or the scopes are not known;
// a token the scopes do not hold is no name's reference: a method's name, a property's).
func (s *script) global(i int) bool {
	n, known := s.binding(i)
	if !known {
		return !s.bindingsKnown
	}
	return n.Free
}

// memberAt reads a property access whose name is at the significant token i: obj.name,
// obj?.name, obj["name"], obj?.["name"] (a constant the build reads). It returns the name,
// the last token of the object's expression, and the token after the access.
func (s *script) memberAt(i int) (prop string, objEnd, after int, ok bool) {
	t := s.tok(i)
	switch {
	case js.IsIdentifierName(t.tt) && (s.is(i-1, ".") || s.is(i-1, "?.")):
		return s.text(i), i - 2, i + 1, true
	case t.tt == js.OpenBracketToken && s.pair[i] > i+1:
		objEnd = i - 1
		if s.is(i-1, "?.") {
			objEnd = i - 2
		}
		if e := s.tok(objEnd).tt; !js.IsIdentifierName(e) && e != js.CloseParenToken && e != js.CloseBracketToken {
			return "", 0, 0, false // an array literal
		}
		names, known := s.names(i+1, s.pair[i], 0)
		if !known || len(names) != 1 {
			return "", 0, 0, false
		}
		return names[0], objEnd, s.pair[i] + 1, true
	}
	return "", 0, 0, false
}

// callAt returns the arguments of the call whose '(' (or '?.(') is the significant token
// after, as after a member (memberAt).
func (s *script) callAt(after int) ([][2]int, bool) {
	switch {
	case s.is(after, "("):
		return s.args(after), true
	case s.is(after, "?.", "("):
		return s.args(after + 1), true
	}
	return nil, false
}

// methodCall reads the call of the method whose name is at the significant token i (a member,
// memberAt): obj.m(…), obj?.m?.(…), and obj.m.call(self, …) or obj.m.apply(self, [ … ])
// (Function.prototype's, which call the method on self: document.write.call(document, …),
// Document.prototype.write.call(doc, …)), Reflect.apply(obj.m, self, [ … ]) (at apply), and
// the function obj.m.bind(self, …) makes, called at once or through a const bound to it (at
// the name called: boundCall). It returns the method's name, the last token of
// the expression it is called on, and the arguments; apply's are read where its array is
// written in place.
func (s *script) methodCall(i int) (prop string, recvEnd int, args [][2]int, ok bool) {
	if js.IsIdentifier(s.tok(i).tt) && !s.is(i-1, ".") && !s.is(i-1, "?.") {
		return s.boundCall(i)
	}
	prop, objEnd, after, member := s.memberAt(i)
	if !member {
		return "", 0, nil, false
	}
	if args, call := s.callAt(after); call {
		if prop == "apply" && s.is(objEnd, "Reflect") && !s.is(objEnd-1, ".") && !s.is(objEnd-1, "?.") && s.global(objEnd) {
			return s.reflectApply(args)
		}
		return prop, objEnd, args, true
	}
	if s.is(after, ".", "bind", "(") {
		// obj.m.bind(self, …)(…): the bound function called at once.
		open := after + 2
		if bound, call := s.callAt(s.pair[open] + 1); call && s.pair[open] > open {
			return s.boundArgs(prop, open, bound)
		}
		return "", 0, nil, false
	}
	if !s.is(after, ".") || !s.is(after+1, "call", "(") && !s.is(after+1, "apply", "(") {
		return "", 0, nil, false
	}
	all := s.args(after + 2)
	if len(all) == 0 {
		return "", 0, nil, false
	}
	recvEnd = all[0][1] - 1
	if s.text(after+1) == "call" {
		return prop, recvEnd, all[1:], true
	}
	if len(all) != 2 || !s.is(all[1][0], "[") || s.pair[all[1][0]] != all[1][1]-1 {
		return "", 0, nil, false
	}
	return prop, recvEnd, s.split(all[1][0]+1, all[1][1]-1), true
}

// reflectApply reads Reflect.apply(obj.m, self, [ … ]) (args, its arguments), which calls the
// method on self as apply does: the method's name, the last token of self, and the
// arguments, where the array is written in place.
func (s *script) reflectApply(args [][2]int) (prop string, recvEnd int, out [][2]int, ok bool) {
	if len(args) != 3 || !s.is(args[2][0], "[") || s.pair[args[2][0]] != args[2][1]-1 {
		return "", 0, nil, false
	}
	prop, _, after, member := s.memberAt(args[0][1] - 1)
	if !member || after != args[0][1] {
		return "", 0, nil, false
	}
	return prop, args[1][1] - 1, s.split(args[2][0]+1, args[2][1]-1), true
}

// boundArgs reads the call (its arguments, call) of obj.prop.bind(self, …), whose '(' is the
// significant token open: the method called on self with bind's other arguments first.
func (s *script) boundArgs(prop string, open int, call [][2]int) (string, int, [][2]int, bool) {
	bind := s.args(open)
	if len(bind) == 0 {
		return "", 0, nil, false
	}
	return prop, bind[0][1] - 1, append(append([][2]int{}, bind[1:]...), call...), true
}

// boundCall reads the call of the name at the significant token i, where its binding is a
// const (or a let or var written nowhere else) whose value is a method bound to an object
// (const w = document.write.bind(document); w(…)): as boundArgs reads it.
func (s *script) boundCall(i int) (prop string, recvEnd int, args [][2]int, ok bool) {
	call, isCall := s.callAt(i + 1)
	if !isCall {
		return "", 0, nil, false
	}
	if s.bound == 0 {
		s.bound = 1
		for k := range s.sig {
			if s.is(k, ".", "bind", "(") {
				s.bound = 2
				break
			}
		}
	}
	if s.bound == 1 {
		return "", 0, nil, false // no method is bound: the name's binding is not looked up
	}
	init, known := s.constInitAt(i)
	// The initializer ends with .bind( … ), nothing after it.
	if !known || !s.is(init[1]-1, ")") {
		return "", 0, nil, false
	}
	open := s.opener(init[1] - 1)
	if open < 4 || !s.is(open-2, ".", "bind") {
		return "", 0, nil, false
	}
	prop, _, after, member := s.memberAt(open - 3)
	if !member || after != open-2 {
		return "", 0, nil, false
	}
	return s.boundArgs(prop, open, call)
}

// objectAt returns which page object the expression whose last significant token is end
// reads: a name (a global's, or a const bound to one), a member of one, a group whose last
// part is one ((0, document)).
func (s *script) objectAt(end, depth int) pageObject {
	if end < 0 || depth > 8 {
		return notPageObject
	}
	t := s.tok(end)
	switch {
	case js.IsIdentifierName(t.tt) && (s.is(end-1, ".") || s.is(end-1, "?.")):
		return member(s.objectAt(end-2, depth+1), s.text(end))
	case js.IsIdentifier(t.tt):
		if obj := s.withObject(end); obj != notPageObject {
			return member(obj, s.text(end))
		}
		if s.global(end) {
			return globalObjects[s.text(end)]
		}
		if init, ok := s.constInitAt(end); ok {
			return s.objectAt(init[1]-1, depth+1)
		}
		if key, init, ok := s.constPatternAt(end); ok {
			return member(s.objectAt(init[1]-1, depth+1), key)
		}
	case t.tt == js.CloseBracketToken:
		if open := s.opener(end); open > 0 {
			if prop, objEnd, _, ok := s.memberAt(open); ok {
				return member(s.objectAt(objEnd, depth+1), prop)
			}
			// A window's index by a number (frames[0]): the key is the number's string (a
			// legacy octal, 010, is not read).
			num := s.text(open + 1)
			if e := s.tok(open - 1).tt; end == open+2 && (s.tok(open+1).tt == js.IntegerToken || s.tok(open+1).tt == js.DecimalToken) && (len(num) == 1 || num[0] != '0') && (js.IsIdentifierName(e) || e == js.CloseParenToken || e == js.CloseBracketToken) {
				if v, err := strconv.ParseFloat(num, 64); err == nil && v >= 0 && v < 1<<32-1 && v == math.Trunc(v) {
					return member(s.objectAt(open-1, depth+1), strconv.FormatUint(uint64(v), 10))
				}
			}
		}
	case t.tt == js.CloseParenToken:
		// A group, not a call's arguments: what is before its '(' is an operator or nothing.
		if open := s.opener(end); open >= 0 {
			if p := s.tok(open - 1).tt; open == 0 || !js.IsIdentifierName(p) && p != js.CloseParenToken && p != js.CloseBracketToken && p != js.TemplateEndToken && p != js.TemplateToken {
				return s.objectAt(end-1, depth+1)
			}
			// A method of the document's, or of a list of its elements (called).
			if open > 2 && js.IsIdentifierName(s.tok(open-1).tt) && (s.is(open-2, ".") || s.is(open-2, "?.")) {
				if o := s.called(s.objectAt(open-3, depth+1), s.text(open-1), s.args(open)); o != notPageObject {
					return o
				}
			}
			// Function("return this")(): the global object (codesink.go's globalObject).
			if s.pair[open] == open+1 && s.is(open-1, ")") && s.returnsGlobal(s.opener(open-1), depth) {
				return pageWindow
			}
			// window.open(…)'s window: about:blank, or the page's origin, which has the
			// page's policy (its policy container is the opener's), as a frame's does.
			if open > 0 && s.is(open-1, "open") {
				if s.is(open-2, ".") || s.is(open-2, "?.") {
					if s.objectAt(open-3, depth+1) == pageWindow {
						return pageWindow
					}
				} else if js.IsIdentifier(s.tok(open-1).tt) && s.global(open-1) {
					return pageWindow
				}
			}
		}
	}
	return notPageObject
}

// constInitAt returns the initializer of the binding of the name at the significant token
// i, when it is a const declared as name = …, or a let or var so declared once and written
// nowhere else (localnames' Written: var d = document; d.write(…) in a classic script) (by
// the scopes; where they are not known, a const by the name: constInit).
func (s *script) constInitAt(i int) ([2]int, bool) {
	if !s.constNamed(s.text(i)) {
		return [2]int{}, false // no const spells the name: its binding is none (nothing to resolve)
	}
	n, known := s.binding(i)
	if !known {
		if s.bindingsKnown {
			return [2]int{}, false // a property's name, a label
		}
		return s.constInit(s.text(i))
	}
	if n.Free || n.Written || n.Decl != js.LexicalDecl && n.Decl != js.VariableDecl {
		return [2]int{}, false
	}
	for k := range s.sig {
		if !js.IsIdentifier(s.tok(k).tt) || !s.is(k+1, "=") || !declares(s, k) {
			continue
		}
		if m, ok := s.binding(k); ok && m.Binding == n.Binding {
			return [2]int{k + 2, s.expressionEnd(k + 2)}, true
		}
	}
	return [2]int{}, false
}

// constPatternAt returns, for a name a const's object pattern binds (const { document: d }
// = window, const { location } = window), the property it is bound to and the
// initializer's tokens.
func (s *script) constPatternAt(i int) (key string, init [2]int, ok bool) {
	if !s.constNamed(s.text(i)) {
		return "", init, false
	}
	n, known := s.binding(i)
	if !known || n.Free || n.Decl != js.LexicalDecl {
		return "", init, false
	}
	for k := range s.sig {
		if !js.IsIdentifier(s.tok(k).tt) {
			continue
		}
		if m, ok := s.binding(k); !ok || m.Binding != n.Binding {
			continue
		}
		open := -1
		for m := k - 1; m >= 0; m-- {
			if s.pair[m] > k {
				open = m
				break
			}
		}
		if open < 1 || !s.is(open-1, "const") || !s.is(open, "{") || !s.is(s.pair[open]+1, "=") {
			continue
		}
		switch {
		case s.is(k-1, ":") && js.IsIdentifierName(s.tok(k-2).tt) && (s.is(k-3, "{") || s.is(k-3, ",")):
			key = s.text(k - 2)
		case s.is(k-1, "{") || s.is(k-1, ","):
			key = s.text(k)
		default:
			continue
		}
		return key, [2]int{s.pair[open] + 2, s.expressionEnd(s.pair[open] + 2)}, true
	}
	return "", init, false
}

// declares reports whether the name at the significant token k is the first of a const, let
// or var declaration's list, or follows a comma in one (const a = 1, d = document).
func declares(s *script, k int) bool {
	if s.is(k-1, "const") || s.is(k-1, "let") || s.is(k-1, "var") {
		return true
	}
	if !s.is(k-1, ",") {
		return false
	}
	// Back over the list's earlier declarations, outside brackets, to its keyword.
	for m := k - 2; m >= 0; m-- {
		if s.tok(m).tt == js.CloseParenToken || s.tok(m).tt == js.CloseBracketToken || s.tok(m).tt == js.CloseBraceToken || s.tok(m).tt == js.TemplateEndToken {
			if o := s.opener(m); o >= 0 {
				m = o
				continue
			}
			return false
		}
		switch {
		case s.tok(m).tt == js.SemicolonToken || s.tok(m).tt == js.OpenBraceToken || s.tok(m).tt == js.OpenParenToken || s.tok(m).tt == js.OpenBracketToken:
			return false
		case s.is(m, "const") || s.is(m, "let") || s.is(m, "var"):
			return js.IsIdentifier(s.tok(m+1).tt) || s.is(m+1, "{") || s.is(m+1, "[")
		}
	}
	return false
}

// constNamed reports whether a declaration of the script may bind name to a value: the name
// follows const, let or var (or a comma in such a list), or stands in an object pattern that
// follows const. Only then is a name's binding resolved for its initializer (the scopes are
// read once, and only where needed).
func (s *script) constNamed(name string) bool {
	if s.consts == nil {
		s.consts = map[string]bool{}
		for k := range s.sig {
			switch {
			case js.IsIdentifier(s.tok(k).tt) && s.is(k+1, "=") && declares(s, k):
				s.consts[s.text(k)] = true
			case s.is(k, "const", "{") && s.pair[k+1] > k+1:
				for m := k + 2; m < s.pair[k+1]; m++ {
					if js.IsIdentifier(s.tok(m).tt) {
						s.consts[s.text(m)] = true
					}
				}
			}
		}
	}
	return s.consts[name]
}

// selectsRoot reports whether the document's querySelector given the selector list sel gives
// the document's element, or nothing (and then the member read after it throws): one of its
// selectors is a compound that matches the root whatever its attributes and children (type
// selectors html, in any case, as an HTML document matches its HTML elements' names, or *,
// and :root and :scope, the root where the scoping root is the document: the root is first
// in tree order), or each is one whose subject can only be the root (html or :root narrowed
// by more: html[lang], :root.dark; :root after a combinator, which matches nothing). A
// selector the build does not read so (an id, a class, a combinator's subject) is not the
// root's.
func selectsRoot(sel string) bool {
	l := css.NewLexer(parse.NewInputString(sel))
	// always: the compound read so far matches the root whatever it holds; only: it matches
	// no element but the root; combined: a combinator came before it; empty: the selector is
	// empty; space: whitespace follows it, which another part makes a combinator; depth: the
	// brackets open (an attribute selector's, a pseudo-class's arguments).
	always, only, combined, empty, space, depth := true, false, false, true, false, 0
	anyAlways, allOnly := false, true
	for {
		tt, data := l.Next()
		if depth > 0 && tt != css.ErrorToken {
			switch tt {
			case css.LeftBracketToken, css.LeftParenthesisToken, css.FunctionToken:
				depth++
			case css.RightBracketToken, css.RightParenthesisToken:
				depth--
			}
			continue
		}
		if tt == css.ErrorToken || tt == css.CommaToken {
			if empty || depth > 0 {
				return false // no selector, or an unclosed one: querySelector throws
			}
			anyAlways, allOnly = anyAlways || always, allOnly && (always || only)
			if tt == css.ErrorToken {
				return anyAlways || allOnly
			}
			always, only, combined, empty, space = true, false, false, true, false
			continue
		}
		if tt == css.WhitespaceToken {
			space = !empty
			continue
		}
		if space || tt == css.DelimToken && (string(data) == ">" || string(data) == "+" || string(data) == "~") {
			always, only, combined, space = false, false, true, false
		}
		switch {
		case tt == css.IdentToken && markup.ASCIILower(string(data)) == "html":
			only = only || !combined // an html element a script puts inside another is no root
		case tt == css.DelimToken && string(data) == "*":
		case tt == css.DelimToken && (string(data) == ">" || string(data) == "+" || string(data) == "~"):
		case tt == css.ColonToken:
			t, d := l.Next()
			switch {
			case t == css.IdentToken && (markup.ASCIILower(string(d)) == "root" || markup.ASCIILower(string(d)) == "scope"):
				only = true
			case t == css.FunctionToken:
				always, depth = false, 1
			default:
				always = false
			}
		case tt == css.LeftBracketToken:
			always, depth = false, 1
		default:
			always = false
		}
		empty = false
	}
}

// returnsGlobal reports whether the call whose '(' is the significant token open makes the
// function Function("return this") makes: Function, the global's (or the window's,
// grouped: (0, Function)), given the one argument whose code is return this; called with
// no this, that function returns the global object (OrdinaryCallBindThis, sloppy whatever
// the code around it).
func (s *script) returnsGlobal(open, depth int) bool {
	if open < 1 || depth > 8 {
		return false
	}
	args := s.args(open)
	if len(args) != 1 {
		return false
	}
	callee := open - 1
	if s.is(callee, ")") { // a group: (Function), (0, Function)
		g := s.opener(callee)
		if g < 0 || g > 0 && (js.IsIdentifierName(s.tok(g-1).tt) || s.is(g-1, ")") || s.is(g-1, "]")) {
			return false
		}
		callee--
	}
	switch {
	case !s.is(callee, "Function"):
		return false
	case s.is(callee-1, ".") || s.is(callee-1, "?."):
		if s.objectAt(callee-2, depth+1) != pageWindow {
			return false
		}
	case !s.global(callee):
		return false
	}
	code, known := s.names(args[0][0], args[0][1], 0)
	return known && len(code) == 1 && bodyReturnsThis(code[0])
}
