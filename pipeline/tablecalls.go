package pipeline

import (
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// Tables that call. A module-level object literal whose values are mostly the module's own
// functions and some calls (@cfworker/json-schema's format table, in the official MCP client:
// date, uri, email … and bind(URIREF), time.bind(void 0, false)) is kept whole by esbuild when
// nothing reads it, with every function it names and what they reach (2 KB of validators and
// regular expressions in every MCP Apps example), since the calls are effects. Rolldown, and so
// Vite's build, keeps only the calls. In a package's module, the values of such a declaration
// that could do something when evaluated are given to esbuild as declarations of their own,
// just before it in the same declaration list, and the object reads them:
//
//	const format = { date, time: time.bind(void 0, false), uri }
//	→ const format$0 = time.bind(void 0, false), format = { date, time: format$0, uri }
//
// which esbuild reads as a call it keeps and an object of bindings it drops when unused. What
// the page does is unchanged: the values are evaluated in their order, and the ones left in
// the object (literals, functions, bindings the module declares before the table, arrays and
// objects of them) can neither throw nor do anything, so evaluating them after the calls
// rather than between them is not observable. The object must be plain (no spread, accessor,
// computed key or __proto__) and not exported (its new declarations would be); the new names
// are the binding's own with a suffix the module's text does not hold.

// tableCallEdits gives the edits that declare on their own the calls of m's tables of
// functions; none when there are none.
func tableCallEdits(m *pkgModule) []edit {
	// A declaration's initializer follows an =: a module without one (an index of re-exports,
	// an icon's one call) is not parsed for this.
	if !strings.Contains(m.src, "=") || !strings.Contains(m.src, "(") || !strings.Contains(m.src, "{") || m.callsEval() {
		return nil
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	return topLevelDecls(ast, func(v *js.Var, init js.IExpr) []edit {
		if o, ok := init.(*js.ObjectExpr); ok && plainObject(o) {
			return tableCalls(m, v, o)
		}
		return nil
	})
}

// topLevelDecls gives the edits f gives for each declaration of a name with a value in the
// module's top-level var, let and const statements (not exported ones: the declarations the
// passes add before them would be exported too).
func topLevelDecls(ast *js.AST, f func(v *js.Var, init js.IExpr) []edit) []edit {
	var edits []edit
	for _, s := range ast.BlockStmt.List {
		d, ok := s.(*js.VarDecl)
		if !ok {
			continue
		}
		for _, e := range d.List {
			if v, ok := e.Binding.(*js.Var); ok && e.Default != nil {
				edits = append(edits, f(v, e.Default)...)
			}
		}
	}
	return edits
}

// tableCalls gives the edits for the declaration of v = o: its values that may do something
// declared before it, when there are some and o also names the module's functions or bindings.
func tableCalls(m *pkgModule, v *js.Var, o *js.ObjectExpr) []edit {
	at := m.offset(v.Data)
	p := &purity{m: m, before: at}
	calls := make([]bool, len(o.List))
	some, names := false, false
	for i, prop := range o.List {
		if _, ok := prop.Value.(*js.MethodDecl); ok {
			names = true
			continue
		}
		if p.expr(prop.Value) {
			switch prop.Value.(type) {
			case *js.Var, *js.ArrowFunc, *js.FuncDecl:
				names = true
			}
			continue
		}
		if prop.Name == nil { // { a }: a binding that is not pure is a global or declared after
			return nil
		}
		calls[i], some = true, true
	}
	if !some || !names {
		return nil
	}
	start, end, ok := tableSpan(m.src, at+len(v.Data))
	if !ok {
		return nil
	}
	values, ok := propertyValues(m.src, start, end, len(o.List))
	if !ok {
		return nil
	}
	name := freshName(m.src, string(v.Data))
	var decls strings.Builder
	var edits []edit
	n := 0
	for i, call := range calls {
		if !call || values[i][0] < 0 {
			if call {
				return nil
			}
			continue
		}
		tmp := name + strconv.Itoa(n)
		n++
		decls.WriteString(tmp + " = " + m.src[values[i][0]:values[i][1]] + ", ")
		edits = append(edits, edit{values[i][0], values[i][1], tmp})
	}
	return append(edits, edit{at, at, decls.String()})
}

// propertyValues finds the span of each property's value in the object literal src[start:end]
// ({ … }), -1 for a property that has no name: value form (a shorthand, a method); ok is false
// when the count of properties is not want.
func propertyValues(src string, start, end, want int) ([][2]int, bool) {
	var spans [][2]int
	depth := 0
	cur := [2]int{-1, -1}
	colon, empty := false, true
	done := false
	lexSource(src, start, func(tt js.TokenType, s, e int) bool {
		if s >= end {
			return false
		}
		switch tt {
		case js.OpenParenToken, js.OpenBraceToken, js.OpenBracketToken, js.TemplateStartToken:
			depth++
			if depth == 1 {
				return true // the object's {
			}
		case js.CloseParenToken, js.CloseBraceToken, js.CloseBracketToken, js.TemplateEndToken:
			depth--
			if depth == 0 { // the object's }
				if !empty {
					spans = append(spans, cur)
				}
				done = true
				return false
			}
		}
		if depth == 1 {
			switch {
			case tt == js.CommaToken:
				spans = append(spans, cur)
				cur, colon, empty = [2]int{-1, -1}, false, true
				return true
			case tt == js.ColonToken && !colon:
				colon, empty = true, false
				return true
			}
		}
		empty = false
		if colon {
			if cur[0] < 0 {
				cur[0] = s
			}
			cur[1] = e
		}
		return true
	})
	return spans, done && len(spans) == want
}

// freshName returns base followed by as many "$" as make a name the module's text does not
// hold, for the declarations the table and pure-call passes add.
func freshName(src, base string) string {
	name := base + "$"
	for strings.Contains(src, name) {
		name += "$"
	}
	return name
}
