package pipeline

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Shorter forms. Oxc's minifier, and so Vite's build, writes some expressions shorter than
// esbuild's does, the program the same; rewriteScript (unwritten.go) writes them in the page's
// module, from the parse the other passes read:
//
//   - new Error("x") as Error("x"), for the global Error, TypeError, RangeError, SyntaxError,
//     ReferenceError, EvalError, URIError and AggregateError: each, called as a function,
//     makes the error new makes (ECMA-262 20.5.1.1, 20.5.6.1.1, 20.5.7.1.1: "If NewTarget is
//     undefined, let newTarget be the active function object"). A name the module declares
//     is left, and so is new new Error() (the inner one is the callee of the outer new).
//   - (x & N) !== 0 as x & N, and (x & N) === 0 as !(x & N), where the value is read only as
//     true or false (an if's, a loop's or a ?:'s test, the operand of !, an operand of && or
//     || that is itself read so or not at all) and N is a number written as such: x & N is
//     then a number, zero or not (x a BigInt throws either way), which is the test.
//     esbuild keeps the comparison (Svelte's (effect.f & DESTROYED) !== 0, React's
//     (fiber.flags & Update) !== 0, a hundred in each runtime). Each place that reads a value
//     so takes any expression of &'s precedence or above (a test, an operand of ! in its
//     parentheses, of && or ||, of a comma, a statement): x & N needs no parentheses there.
//   - ["a", "b", …, "f"], an array literal of six or more strings, as "a.b.….f".split("."):
//     split makes a new array of the parts between the separators, in order (ECMA-262
//     22.1.3.23), each evaluation its own, as the literal does, where no string holds the
//     separator (the first of . , | - _ and space none holds) and the strings are written
//     alike (one quote, no escape). esbuild keeps the literal (the MCP client's list of its
//     schemas' names, 150 strings, in every MCP Apps example; Svelte's boolean attributes).
//     Left where it is the callee of new or the leftmost of it (new [] is not new "".split(),
//     new [].constructor(3) not new ("".split)(".")), and where the split form is not shorter.
//     split is looked up on String.prototype when the page runs: a page that replaces it sees
//     its calls.
//   - "use strict"; in a function of the module (or at its top): module code is strict
//     (ECMA-262 11.2.2), so the directive changes nothing but the function's source text,
//     which Oxc's print leaves it out of too (Rolldown drops it; ten in React's example, one
//     in each CommonJS module of react and react-dom). Kept where the page may compile text
//     (the manifest's eval = true): a function's text, String(f), given to new Function or
//     to an indirect eval runs as a script's code, sloppy without the directive.
//
// Each rule holds for any program; the module's parse says where each applies. Where the
// unwritten bindings are written too, esbuild minifies the result again (and prints
// if (!(x & 4)) f() as x & 4 || f()); elsewhere the edits are the whole change, with no
// second minify (which doubled order-book's build time).

// errorConstructors are the global constructors that make the same object called with new or
// without.
var errorConstructors = map[string]bool{"Error": true, "TypeError": true, "RangeError": true, "SyntaxError": true,
	"ReferenceError": true, "EvalError": true, "URIError": true, "AggregateError": true}

// shorterForms returns the edits that write src, a minified module whose parse is p, in the
// shorter forms above, sorted by place; nil when there are none. compiles: the page may
// compile text (the manifest's eval = true), and "use strict" is kept.
func shorterForms(p *localnames.Program, src string, compiles bool) []localnames.Edit {
	f := &formFinder{p: p, src: src, keepStrict: compiles}
	js.Walk(f, p.AST)
	edits := append(f.edits, newErrors(p, src)...)
	sortEdits(edits)
	return edits
}

// newErrors returns the edits that take new off each new Error(…) of src whose Error is the
// global one: the program, its references known, declares no binding of that name anywhere
// (the parse shares one node among a scope's references to a name and keeps no place of
// them, so the places are the tokens': new, the name, the opening parenthesis). new Error
// without arguments, and the callee of another new (new new Error()(), whose inner new takes
// the first arguments), are left.
func newErrors(p *localnames.Program, src string) []localnames.Edit {
	if !p.Known() {
		return nil
	}
	global := map[string]bool{}
	for name := range errorConstructors {
		if strings.Contains(src, "new "+name+"(") && !p.Declares(name) {
			global[name] = true
		}
	}
	if len(global) == 0 {
		return nil
	}
	var edits []localnames.Edit
	type token struct {
		tt    js.TokenType
		start int
		data  []byte
	}
	var last [3]token // the three tokens before, the nearest first
	if !p.Tokens(func(tt js.TokenType, start int, data []byte) bool {
		if tt == js.OpenParenToken && last[0].tt == js.IdentifierToken && global[string(last[0].data)] &&
			last[1].tt == js.NewToken && last[2].tt != js.NewToken {
			edits = append(edits, localnames.Edit{Start: last[1].start, End: last[0].start})
		}
		last[2], last[1], last[0] = last[1], last[0], token{tt, start, data}
		return true
	}) {
		return nil
	}
	return edits
}

// formFinder finds (x & N) !== 0 and (x & N) === 0 read as true or false, and the arrays of
// strings, keeping the nodes it is in.
type formFinder struct {
	p     *localnames.Program
	src   string
	stack []js.INode
	edits []localnames.Edit
	// keepStrict keeps "use strict": a function's text (String(f)) given to new Function or
	// indirect eval runs as a script, sloppy without it.
	keepStrict bool
}

func (f *formFinder) Enter(n js.INode) js.IVisitor {
	f.stack = append(f.stack, n)
	switch n := n.(type) {
	case *js.BinaryExpr:
		f.test(n)
	case *js.ArrayExpr:
		f.split(n)
	case *js.DirectivePrologueStmt:
		f.useStrict(n.Value)
	case *js.ExprStmt:
		// A method's directive is read as a statement of a string (the parse finds the
		// prologue of functions only); in a list of statements it does nothing either way.
		if l, ok := n.Value.(*js.LiteralExpr); ok && len(f.stack) > 1 {
			if _, inList := f.stack[len(f.stack)-2].(*js.BlockStmt); inList {
				f.useStrict(l.Data)
			}
		}
	}
	return f
}

// useStrict adds the edit that takes out the statement of value, a string, when it is "use
// strict": the module is strict code already (ECMA-262 11.2.2), and so is every function in
// it.
func (f *formFinder) useStrict(value []byte) {
	if v := string(value); f.keepStrict || v != `"use strict"` && v != `'use strict'` {
		return
	}
	start := f.p.Offset(value)
	end := start + len(value)
	if start < 0 || end > len(f.src) || f.src[start:end] != string(value) {
		return
	}
	if end < len(f.src) && f.src[end] == ';' {
		end++
	}
	f.edits = append(f.edits, localnames.Edit{Start: start, End: end})
}

func (f *formFinder) Exit(js.INode) { f.stack = f.stack[:len(f.stack)-1] }

// test adds the edits for b when it is (x & N) === 0 or !== 0 (== and != too) read only as a
// test: the comparison and, for !==, the parentheses go; === is written !(x & N).
func (f *formFinder) test(b *js.BinaryExpr) {
	negate := false
	switch b.Op {
	case js.EqEqEqToken, js.EqEqToken:
		negate = true
	case js.NotEqEqToken, js.NotEqToken:
	default:
		return
	}
	zero, ok := literal(b.Y)
	if !ok || !isNumber(zero.TokenType) || string(zero.Data) != "0" {
		return
	}
	g, ok := b.X.(*js.GroupExpr)
	if !ok {
		return
	}
	and, ok := g.X.(*js.BinaryExpr)
	if !ok || and.Op != js.BitAndToken {
		return
	}
	n, ok := literal(and.Y)
	if !ok || !isNumber(n.TokenType) {
		return
	}
	if !f.onlyTested(len(f.stack) - 2) {
		return
	}
	// The text from the group's ( to the 0: the operand x as printed (a name or a chain of
	// names), &, N, ), the operator. A shape printed otherwise is left.
	x, ok := chainText(and.X)
	src := f.src
	nAt, zeroAt := f.p.Offset(n.Data), f.p.Offset(zero.Data)
	open := nAt - 1 - len(x)
	if !ok || open < 1 || src[open-1] != '(' || src[open:nAt] != x+"&" || !strings.HasPrefix(src[nAt+len(n.Data):], ")") {
		return
	}
	op := strings.TrimSpace(src[nAt+len(n.Data)+1 : zeroAt])
	if op != "===" && op != "!==" && op != "==" && op != "!=" {
		return
	}
	if negate {
		f.edits = append(f.edits, localnames.Edit{Start: open - 1, End: open - 1, Text: "!"},
			localnames.Edit{Start: nAt + len(n.Data) + 1, End: zeroAt + 1})
		return
	}
	// A word before the parenthesis (else(x&1)!==0&&f()) keeps a space from x.
	paren := ""
	if open >= 2 && isIdentByte(src[open-2]) {
		paren = " "
	}
	f.edits = append(f.edits, localnames.Edit{Start: open - 1, End: open, Text: paren}, localnames.Edit{Start: nAt + len(n.Data), End: zeroAt + 1})
}

// onlyTested reports whether the value of the stack's node i+1, a child of node i, is read
// only as true or false, or not at all.
func (f *formFinder) onlyTested(i int) bool {
	if i < 0 {
		return false
	}
	child := f.stack[i+1]
	switch p := f.stack[i].(type) {
	case *js.IfStmt:
		return p.Cond == child
	case *js.WhileStmt:
		return p.Cond == child
	case *js.DoWhileStmt:
		return p.Cond == child
	case *js.ForStmt:
		return p.Cond == child || p.Init == child || p.Post == child
	case *js.CondExpr:
		return p.Cond == child
	case *js.UnaryExpr:
		return p.Op == js.NotToken
	case *js.ExprStmt:
		return true
	case *js.GroupExpr:
		return f.onlyTested(i - 1)
	case *js.CommaExpr:
		return p.List[len(p.List)-1] != child || f.onlyTested(i-1)
	case *js.BinaryExpr:
		return (p.Op == js.AndToken || p.Op == js.OrToken) && f.onlyTested(i-1)
	}
	return false
}

// splitSeparators are the separators an array of strings may be joined with, the first that
// no string holds taken (Oxc's is the first, .).
const splitSeparators = ".,|-_ "

// split adds the edit that writes a, an array literal of strings, as the strings joined and
// split again, where that is shorter (see the forms above): in src the literal must be as a
// minified print writes it, [ the strings , between them ].
func (f *formFinder) split(a *js.ArrayExpr) {
	if len(a.List) < 6 {
		return
	}
	// The callee of new, or the leftmost of the member expression that is (new [].constructor(3)
	// would be new ("".split)(".")).
	var child js.INode = a
	for k := len(f.stack) - 2; k >= 0; k-- {
		switch n := f.stack[k].(type) {
		case *js.DotExpr:
			if n.X != child {
				k = -1
			}
		case *js.IndexExpr:
			if n.X != child {
				k = -1
			}
		case *js.TemplateExpr:
			if n.Tag != child {
				k = -1
			}
		case *js.NewExpr:
			if n.X == child {
				return
			}
			k = -1
		default:
			k = -1
		}
		if k >= 0 {
			child = f.stack[k]
		}
	}
	parts := make([]string, len(a.List))
	var quote byte
	start, end := -1, -1
	for i, e := range a.List {
		l, ok := literal(e.Value)
		if !ok || e.Spread || l.TokenType != js.StringToken || len(l.Data) < 2 || bytes.IndexByte(l.Data, '\\') >= 0 {
			return
		}
		if i == 0 {
			quote = l.Data[0]
		}
		if l.Data[0] != quote {
			return
		}
		at := f.p.Offset(l.Data)
		// [ before the first, a comma between two, ] after the last: no space, no comment.
		if i == 0 && (at < 1 || f.src[at-1] != '[') || i > 0 && (at != end+1 || f.src[end] != ',') {
			return
		}
		if i == 0 {
			start = at - 1
		}
		end = at + len(l.Data)
		parts[i] = string(l.Data[1 : len(l.Data)-1])
	}
	if end >= len(f.src) || f.src[end] != ']' {
		return
	}
	for _, sep := range splitSeparators {
		if slices.ContainsFunc(parts, func(p string) bool { return strings.ContainsRune(p, sep) }) {
			continue
		}
		q := string(quote)
		text := q + strings.Join(parts, string(sep)) + q + ".split(" + q + string(sep) + q + ")"
		if len(text) < end+1-start {
			f.edits = append(f.edits, localnames.Edit{Start: start, End: end + 1, Text: text})
		}
		return
	}
}

// isNumber reports whether a literal's token is a number (not a BigInt: 1n).
func isNumber(tt js.TokenType) bool {
	return tt == js.IntegerToken || tt == js.DecimalToken || tt == js.HexadecimalToken || tt == js.BinaryToken || tt == js.OctalToken
}

// literal returns e as a literal.
func literal(e js.IExpr) (*js.LiteralExpr, bool) {
	switch l := e.(type) {
	case *js.LiteralExpr:
		return l, true
	case js.LiteralExpr:
		return &l, true
	}
	return nil, false
}

// chainText returns the text of e, a name or a chain of property reads by name (e.f, a.b.c),
// as a minified print writes it.
func chainText(e js.IExpr) (string, bool) {
	switch e := e.(type) {
	case *js.Var:
		return string(e.Data), true
	case *js.DotExpr:
		x, ok := chainText(e.X)
		name := propertyName(e.Y)
		if !ok || name == nil || e.Optional {
			return "", false
		}
		return x + "." + string(name), true
	}
	return "", false
}

// sortEdits sorts edits by place, an insertion before an edit that starts at its place.
func sortEdits(edits []localnames.Edit) {
	slices.SortStableFunc(edits, func(a, b localnames.Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
}
