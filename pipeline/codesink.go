package pipeline

import (
	"fmt"
	"path/filepath"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Code compiled from a string, which the bundle's policy refuses without 'unsafe-eval'
// (ECMAScript's HostEnsureCanCompileStrings, CSP 3's "EnsureCSPDoesNotBlockStringCompilation"):
// the global eval, called directly or not, the global Function constructor, called or
// constructed (Function(…) is new Function(…)), and setTimeout or setInterval given a string
// (HTML's "timer initialization steps" compile it as eval does). Each is the global's by the
// binding of the name it is reached through, as the page's other objects are (receivers.go):
// a name no declaration binds (eval, Function), a member of the page's window (window.eval,
// globalThis["Function"], self.setTimeout, through a const bound to it), a group whose last
// part is one ((0, eval)(…), the indirect eval). A local function named setTimeout, a
// method named eval, are not the page's.

// compiledGlobals are the globals that compile a string as code.
var compiledGlobals = map[string]bool{"eval": true, "Function": true, "setTimeout": true, "setInterval": true}

// globalCall reads the call of one of compiledGlobals whose name (or computed member, its
// '[') is the significant token i: the global's name, the token the message is placed at
// (new, where the call constructs), the first token of the call (its new, or the ( of the
// outermost group around the callee), and the call's arguments.
func (s *script) globalCall(i int) (name string, at, start int, args [][2]int, ok bool) {
	after := i + 1
	if prop, objEnd, a, member := s.memberAt(i); member {
		if !compiledGlobals[prop] || s.objectAt(objEnd, 0) != pageWindow {
			return "", 0, 0, nil, false
		}
		name, after = prop, a
		at = objEnd
		for at > 0 && (s.is(at-1, ".") || s.is(at-1, "?.")) && js.IsIdentifierName(s.tok(at-2).tt) {
			at -= 2 // the first name of window.eval, a.b.c
		}
	} else {
		name, at = s.text(i), i
		if !js.IsIdentifier(s.tok(i).tt) || !compiledGlobals[name] || s.is(i-1, ".") || s.is(i-1, "?.") || !s.global(i) {
			return "", 0, 0, nil, false
		}
	}
	// (eval)(…), (0, eval)(…), (0, window.eval)(…), ((0, eval))(…): a group whose last part
	// the callee (from start) is, called.
	start = at
	for s.is(after, ")") && (s.is(start-1, "(") || s.is(start-1, ",")) {
		open := s.opener(after)
		if open < 0 || !s.group(open) {
			return "", 0, 0, nil, false
		}
		start = open
		after++
	}
	args, call := s.callAt(after)
	if !call {
		return "", 0, 0, nil, false
	}
	if s.is(at-1, "new") {
		at--
	}
	if s.is(start-1, "new") {
		start--
	}
	return name, at, start, args, true
}

// group reports whether the '(' at the significant token open opens a group, not a call's
// arguments: what is before it is an operator, a keyword, or nothing.
func (s *script) group(open int) bool {
	if open == 0 {
		return true
	}
	p := s.tok(open - 1).tt
	return !js.IsIdentifierName(p) && p != js.CloseParenToken && p != js.CloseBracketToken && p != js.TemplateEndToken && p != js.TemplateToken ||
		js.IsReservedWord(p) && p != js.ThisToken && p != js.SuperToken
}

// checkCompiled refuses, at its place, code compiled from a string (globalCall, at the
// significant token i), unless the manifest says eval = true: the page as written runs it,
// the bundle's policy throws an EvalError (a timer's string: the timer never runs).
func (r *rewrite) checkCompiled(i int) {
	s := r.s
	if r.b.m.Eval {
		return
	}
	name, at, start, args, ok := s.globalCall(i)
	if !ok {
		return
	}
	switch name {
	case "setTimeout", "setInterval":
		if len(args) == 0 || !s.stringExpr(args[0][0], args[0][1], 0) {
			return
		}
		r.errAt(args[0][0], name+" given a string compiles it as eval does, which the bundle's policy refuses: the timer never runs",
			fmt.Sprintf("pass a function, %s(() => { … }, ms), or set eval = true in %s: the policy then allows 'unsafe-eval', and hosts see it in the registry entry", name, filepath.Base(r.b.m.File)))
	default:
		if name == "Function" && r.globalObject(start, args) {
			return
		}
		r.errAt(at, "eval and new Function cannot run under the bundle's policy",
			fmt.Sprintf("avoid them, or set eval = true in %s: the policy then allows 'unsafe-eval', and hosts see it in the registry entry", filepath.Base(r.b.m.File)))
	}
}

// stringExpr reports whether the expression of the significant tokens [i, j) may be a string
// by its form: a string or template literal, an addition one of whose operands may be one
// (+ concatenates once either side is a string), a choice (?:, ||, ??) of which one side may
// be, a group of one, a const bound to one.
func (s *script) stringExpr(i, j, depth int) bool {
	if i >= j || depth > 8 {
		return false
	}
	if q := s.topLevel(i, j, js.QuestionToken); q > 0 {
		c := s.colon(q, j)
		return c > 0 && (s.stringExpr(q+1, c, depth+1) || s.stringExpr(c+1, j, depth+1))
	}
	for _, op := range []js.TokenType{js.OrToken, js.NullishToken, js.AndToken} {
		if k := s.topLevel(i, j, op); k > 0 {
			return s.stringExpr(i, k, depth+1) || s.stringExpr(k+1, j, depth+1)
		}
	}
	if k := s.topLevel(i, j, js.AddToken); k > 0 {
		return s.stringExpr(i, k, depth+1) || s.stringExpr(k+1, j, depth+1)
	}
	t := s.tok(i)
	switch {
	case j == i+1 && (t.tt == js.StringToken || t.tt == js.TemplateToken):
		return true
	case t.tt == js.TemplateStartToken:
		return s.pair[i] == j-1
	case t.tt == js.OpenParenToken && s.pair[i] == j-1:
		return s.stringExpr(i+1, j-1, depth+1)
	case j == i+1 && js.IsIdentifier(t.tt):
		if init, ok := s.constInitAt(i); ok {
			return s.stringExpr(init[0], init[1], depth+1)
		}
	}
	return false
}

// globalObject rewrites Function("return this")(), the global object's idiom, to globalThis,
// which it is: a function the Function constructor makes is sloppy whatever the code around
// it, and called without a this its this is the global object (ECMAScript's
// OrdinaryCallBindThis). The call of the Function call whose first token (its new, or the
// group around Function) is the significant token at, and whose arguments are args, is one
// argument, a constant whose code is that one statement, and is called at once with no
// arguments, which are not a new's before it (new new Function("return this")() constructs
// the function made: an object, where new globalThis throws). It reports whether it rewrote
// it.
func (r *rewrite) globalObject(at int, args [][2]int) bool {
	s := r.s
	if len(args) != 1 || s.is(at-1, "new") {
		return false
	}
	code, known := s.names(args[0][0], args[0][1], 0)
	if !known || len(code) != 1 || !bodyReturnsThis(code[0]) {
		return false
	}
	close := args[0][1]
	if s.is(close, ",") {
		close++
	}
	if !s.is(close, ")", "(", ")") {
		return false
	}
	start, end, ok := r.groupedSpan(at, close+2)
	if !ok {
		return false // refused, as code compiled from a string
	}
	r.replaceSpan(start, end, close+2, "globalThis")
	r.classic = append(r.classic, r.edits[len(r.edits)-1])
	return true
}

// groupedSpan is span's source of the expression of the significant tokens [i, close], with
// the groups around its start that the source holds and esbuild's output does not: esbuild
// drops a group's parentheses where they change nothing, and the source of
// (Function)("return this")() from Function on closes a group it does not open. Its openers
// are the ( just before the span; ok is false where the source has fewer.
func (r *rewrite) groupedSpan(i, close int) (start, end int, ok bool) {
	src := r.s.src
	if start, end, ok = r.span(i, close); !ok {
		return 0, 0, false
	}
	depth, unopened := 0, 0
	lexSource(src, start, func(tt js.TokenType, s, _ int) bool {
		if s >= end {
			return false
		}
		switch {
		case tt == js.OpenParenToken:
			depth++
		case tt == js.CloseParenToken && depth > 0:
			depth--
		case tt == js.CloseParenToken:
			unopened++
		}
		return true
	})
	if unopened == 0 {
		return start, end, true
	}
	// The openers, nearest first, on the span's line (a comment or a line break before it:
	// none read, refused).
	for k := start - 1; k >= 0 && unopened > 0; k-- {
		switch src[k] {
		case '(':
			start = k
			unopened--
		case ' ', '\t':
		default:
			return 0, 0, false
		}
	}
	return start, end, unopened == 0
}

// bodyReturnsThis reports whether code, a function's body, is return this alone (no
// directive: "use strict" makes this undefined), as a parse reads it.
func bodyReturnsThis(code string) bool {
	ast, err := js.Parse(parse.NewInputString("function f() {"+code+"\n}"), js.Options{})
	if err != nil || len(ast.List) != 1 {
		return false
	}
	f, ok := ast.List[0].(*js.FuncDecl)
	if !ok || len(f.Body.List) != 1 {
		return false
	}
	ret, ok := f.Body.List[0].(*js.ReturnStmt)
	if !ok {
		return false
	}
	lit, ok := ret.Value.(*js.LiteralExpr)
	return ok && lit.TokenType == js.ThisToken
}
