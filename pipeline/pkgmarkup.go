package pipeline

import (
	"github.com/tdewolff/parse/v2/js"
)

// Markup given to a package. The checks read the app's own scripts; a package's code
// (node_modules) is the package's, and what it does with a value it is given (jQuery's
// $(markup), .html(markup), .append(markup) set an element's innerHTML; another package's
// .text(markup) does not) the build does not follow: inside the package the markup is a
// parameter, a value only the run knows. Where the app's code gives a call of a package's
// binding (a name imported from a module not of the app's folder: not "./", "../" or "/")
// a constant holding markup with what the bundle's policy blocks (an inline event handler,
// a javascript: URL, read by the fragment parsing algorithm as for innerHTML), the page as
// written runs it once the package parses it into the page, and the built page does not:
// an error at the value (refuseUnread), with the fix that works either way, since whether
// the package parses it the build cannot say, and a build never passes it silently.

// checkPackageMarkup refuses a constant argument holding blocked markup given to the call
// whose '(' is the significant token i, where the callee is a package's binding or reached
// from one ($(el).html(…): the chain of calls and members starts at $).
func (r *rewrite) checkPackageMarkup(i int) {
	s := r.s
	if !s.is(i, "(") || i == 0 {
		return
	}
	root, ok := s.chainRoot(i - 1)
	if !ok {
		return
	}
	imp, imported := r.imports()[s.text(root)]
	if !imported {
		// An object a package's function made: const editor = create(el); editor.set(…).
		if init, ok := s.constInitAt(root); ok && init[1] > init[0] {
			if from, ok := s.chainRoot(init[1] - 1); ok && from != root {
				imp, imported = r.imports()[s.text(from)]
				imported = imported && !s.global(from)
			}
		}
	}
	if !imported || s.global(root) || isAppSpec(imp.module) {
		return
	}
	r.refuseUnread(s.args(i), imp.module+"'s "+s.calleeText(i-1)+"(…)", "the build does not read what the package's code does with it")
}

// chainRoot returns the name that starts the callee whose last significant token is end: a
// chain of members (a.b, a?.b, a[k]) and calls (a(…)) back to a name of its own, or this.
func (s *script) chainRoot(end int) (int, bool) {
	k, group, ok := s.chainStart(end)
	return k, ok && !group
}

// chainStart walks the callee whose last significant token is end back through its members
// and calls, as chainRoot, to the name or this that starts it, or (group true) to the opening
// token of the group or array literal it is read from ((c ? a : b).put, [a][0].put).
func (s *script) chainStart(end int) (start int, group, ok bool) {
	for k := end; k >= 0; {
		t := s.tok(k)
		switch {
		case js.IsIdentifierName(t.tt) && (s.is(k-1, ".") || s.is(k-1, "?.")):
			k -= 2
		case js.IsIdentifier(t.tt) || t.tt == js.ThisToken:
			return k, false, true
		case t.tt == js.CloseParenToken || t.tt == js.CloseBracketToken:
			open := s.opener(k)
			if open < 0 {
				return 0, false, false
			}
			if open == 0 {
				return open, true, true
			}
			p := s.tok(open - 1).tt
			if (!js.IsIdentifierName(p) && p != js.CloseParenToken && p != js.CloseBracketToken || js.IsReservedWord(p)) && p != js.ThisToken {
				return open, true, true // a group or an array literal: not a call's callee
			}
			k = open - 1
			if s.is(k, "?.") {
				k--
			}
		default:
			return 0, false, false
		}
	}
	return 0, false, false
}
