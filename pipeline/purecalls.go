package pipeline

import (
	"strconv"
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Pure calls whose arguments do something. A call annotated /* @__PURE__ */ may be dropped when
// its value is unused; what its arguments do is not the call's, and Rollup and Rolldown, and so
// Vite's build, keep it: an unused var x = /* @__PURE__ */ f(g()) is left as g(). esbuild keeps
// the whole declaration when an argument could do something, and so the function called: a
// package bundled by Rolldown or esbuild imports a CommonJS module as
// var import_x = /* @__PURE__ */ __toESM(require_x(), 1), and the official MCP client's
// import of content-type, which nothing of an MCP App uses, kept __toESM and its five helpers
// (200 B of gzip in every MCP Apps example). In a package's module, the arguments of such a
// module-level declaration, up to the last that could do something, are given to esbuild as
// declarations of their own, just before it in the same declaration list, and the call reads
// them:
//
//	var import_x = /* @__PURE__ */ __toESM(require_x(), 1)
//	→ var import_x$0 = require_x(), import_x = /* @__PURE__ */ __toESM(import_x$0, 1)
//
// which esbuild reads as a call it keeps and a pure call of bindings it drops when unused.
// What the page does is unchanged: the callee is a binding of the module (a function, or a
// binding declared before) that no code assigns, whose read can do nothing and whose value an
// argument cannot change (wrap(init()), where init assigns wrap, calls the wrap before), and
// the arguments are evaluated in their order before the call, as they were; those left in
// place (literals, or anything after the last that could do something, which can do nothing)
// cannot see the difference, nor functions left in place, which are made reading nothing (a
// declaration would name them); a class without a name among them leaves the call as it is
// (declared, it would be named; esbuild's minifier drops a (0, …) around it). The call must
// have no spread argument, the callee no optional chain, and the declaration not be exported
// (its new declarations would be); the new names are the binding's own with a suffix the
// module's text does not hold, as tablecalls.go names its own.

// pureCallEdits gives the edits that declare on their own the arguments of m's pure calls
// that could do something; none when there are none.
func pureCallEdits(m *pkgModule) []edit {
	if !strings.Contains(m.src, "__PURE__") || m.callsEval() {
		return nil
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	// The module's imports: the parser declares none of their bindings.
	imported := map[string]bool{}
	for _, s := range ast.BlockStmt.List {
		if is, ok := s.(*js.ImportStmt); ok {
			if is.Default != nil {
				imported[string(is.Default)] = true
			}
			for _, a := range is.List {
				imported[string(a.Binding)] = true
			}
		}
	}
	writes := localnames.WritesOf(ast)
	return topLevelDecls(ast, func(v *js.Var, init js.IExpr) []edit {
		return pureCallArgs(m, v, init, imported, writes)
	})
}

// pureCallArgs gives the edits for the declaration of v = init: the arguments of init, a
// pure-annotated call or new of a binding of the module, up to the last that could do
// something, declared before it; none when init is another expression or no argument could
// do anything.
func pureCallArgs(m *pkgModule, v *js.Var, init js.IExpr, imported map[string]bool, writes *localnames.Writes) []edit {
	var callee js.IExpr
	var args js.Args
	isNew := false
	switch c := init.(type) {
	case *js.CallExpr:
		if c.Optional {
			return nil
		}
		callee, args = c.X, c.Args
	case *js.NewExpr:
		if c.Args == nil {
			return nil // new F: no arguments
		}
		callee, args, isNew = c.X, *c.Args, true
	default:
		return nil
	}
	f, ok := callee.(*js.Var)
	if !ok {
		return nil
	}
	at := m.offset(v.Data)
	p := &purity{m: m, before: at}
	if !p.expr(f) && !(resolved(f).Decl == js.NoDecl && imported[string(f.Data)]) {
		return nil // a global (missing, or a getter) or a binding declared after
	}
	if writes.Assigned(resolved(f)) {
		return nil // an argument could call what assigns it: read after them, another value
	}
	last := -1
	for i, a := range args.List {
		if a.Rest {
			return nil
		}
		if !p.expr(a.Value) {
			last = i
		}
	}
	if last < 0 {
		return nil // esbuild drops the whole call when unused
	}
	calleeEnd, ok := pureCallee(m.src, at+len(v.Data), string(f.Data), isNew)
	if !ok {
		return nil
	}
	spans, ok := argumentSpans(m.src, calleeEnd, len(args.List))
	if !ok {
		return nil
	}
	name := freshName(m.src, string(v.Data))
	var decls strings.Builder
	var edits []edit
	for i := 0; i <= last; i++ {
		if _, lit := args.List[i].Value.(*js.LiteralExpr); lit {
			continue // a literal reads nothing an argument before it could change
		}
		switch definition(args.List[i].Value) {
		case "function":
			continue // made, reading nothing; declared, it would be named
		case "class":
			return nil // declared, it would be named, and esbuild drops a (0, …) around it
		}
		tmp := name + strconv.Itoa(len(edits))
		decls.WriteString(tmp + " = " + m.src[spans[i][0]:spans[i][1]] + ", ")
		edits = append(edits, edit{spans[i][0], spans[i][1], tmp})
	}
	return append(edits, edit{at, at, decls.String()})
}

// definition reports whether e, in groups or not, is a function or arrow function
// ("function") or a class without a name ("class"): bound by a declaration, one without a name
// takes the binding's (ECMAScript's NamedEvaluation), where given as an argument its name is
// "".
func definition(e js.IExpr) string {
	switch e := unGroup(e).(type) {
	case *js.ArrowFunc, *js.FuncDecl:
		return "function"
	case *js.ClassDecl:
		if e.Name == nil {
			return "class"
		}
	}
	return ""
}

// pureCallee finds the callee of a binding's initializer from the binding's end (from): the
// end of the callee, named name, when the initializer's tokens before it are = (and new, when
// isNew), and the comments among them hold the annotation /* @__PURE__ */ (or #__PURE__, which
// esbuild and Rollup read too).
func pureCallee(src string, from int, name string, isNew bool) (end int, ok bool) {
	want := []js.TokenType{js.EqToken}
	if isNew {
		want = append(want, js.NewToken)
	}
	start := -1
	lexSource(src, from, func(tt js.TokenType, s, e int) bool {
		if len(want) > 0 {
			if tt != want[0] {
				return false
			}
			want = want[1:]
			return true
		}
		if tt == js.IdentifierToken && src[s:e] == name {
			start, end = s, e
		}
		return false
	})
	if start < 0 {
		return 0, false
	}
	text := src[from:start]
	return end, strings.Contains(text, "@__PURE__") || strings.Contains(text, "#__PURE__")
}

// argumentSpans finds the span of each argument of the call whose callee ends at from (its
// next token the ( of the arguments); ok is false when the count of arguments is not want.
func argumentSpans(src string, from, want int) ([][2]int, bool) {
	var spans [][2]int
	depth := 0
	cur := [2]int{-1, -1}
	done := false
	lexSource(src, from, func(tt js.TokenType, s, e int) bool {
		switch tt {
		case js.OpenParenToken, js.OpenBraceToken, js.OpenBracketToken, js.TemplateStartToken:
			depth++
			if depth == 1 {
				if tt != js.OpenParenToken {
					return false
				}
				return true // the call's (
			}
		case js.CloseParenToken, js.CloseBraceToken, js.CloseBracketToken, js.TemplateEndToken:
			depth--
			if depth == 0 { // the call's )
				if cur[0] >= 0 {
					spans = append(spans, cur)
				}
				done = true
				return false
			}
		}
		if depth == 0 {
			return false // a token before the (
		}
		if depth == 1 && tt == js.CommaToken {
			spans = append(spans, cur)
			cur = [2]int{-1, -1}
			return true
		}
		if cur[0] < 0 {
			cur[0] = s
		}
		cur[1] = e
		return true
	})
	return spans, done && len(spans) == want
}
