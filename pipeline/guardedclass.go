package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Classes defined behind a guard. A library that may run outside a browser defines a class of
// a platform constructor only where the constructor exists, into a binding declared just
// before (Svelte's custom elements, 2.5 KB of a page that defines none):
//
//	let SvelteElement;
//	if (typeof HTMLElement === 'function') {
//		SvelteElement = class extends HTMLElement { … };
//	}
//
// Rolldown, and so Vite's build, drops the statement when nothing that is kept reads the
// binding; esbuild counts the assignment as an effect and keeps the class. In a package's
// module, such a pair is given to esbuild as one declaration whose initializer is a
// pure-annotated arrow function called at once, which esbuild drops when the binding is
// unused, and keeps, to run where the statement ran, when it is used:
//
//	let SvelteElement = /* @__PURE__ */ (() => { if (typeof HTMLElement === 'function') {
//		return class extends HTMLElement { … };
//	} })();
//
// What the page does is unchanged: the declaration has no initializer and the statement
// follows it at once (no code runs between them), the binding is written nowhere else, and
// what the arrow runs observes nothing and changes nothing. The guard is typeof of a global
// compared with "function" (typeof never throws); the class's heritage, if any, is that
// global, so that it names a function where the class is defined; the class has no computed
// key, no static block and no static field with a value, so that defining it runs no code of
// the module's. The one effect left is the read of the global function's prototype property
// that extends makes, which for a constructor of the platform is a plain data property.

// guardedClassEdits gives the edits that make m's guarded class definitions declarations
// esbuild may drop; none when there are none.
func guardedClassEdits(m *pkgModule) []edit {
	if !strings.Contains(m.src, "typeof") || !strings.Contains(m.src, "class") || m.callsEval() {
		return nil
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	list := ast.BlockStmt.List
	var pairs []*js.Var
	for i := 0; i+1 < len(list); i++ {
		d := topDecl(list[i])
		if d == nil || d.TokenType == js.ConstToken || len(d.List) != 1 || d.List[0].Default != nil {
			continue
		}
		v, ok := d.List[0].Binding.(*js.Var)
		if !ok {
			continue
		}
		if guardedClass(list[i+1], v) {
			pairs = append(pairs, v)
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	w := localnames.WritesOf(ast)
	var edits []edit
	for _, p := range pairs {
		if w.Other[p] || w.Plain[p] != 1 {
			continue
		}
		nameEnd := m.offset(p.Data) + len(p.Data)
		ifStart, at, eqEnd, end, ok := guardedSpan(m.src, nameEnd, string(p.Data))
		if !ok {
			continue
		}
		ret := "return"
		if c := m.src[eqEnd]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			ret += " "
		}
		edits = append(edits,
			edit{nameEnd, ifStart, " = /* @__PURE__ */ (() => { "},
			edit{at, eqEnd, ret},
			edit{end, end, " })();"})
	}
	return edits
}

// guardedClass reports whether s is if (typeof G === "function") v = class [extends G] { … },
// braced or not, with no else and a class whose definition runs no code.
func guardedClass(s js.IStmt, v *js.Var) bool {
	is, ok := s.(*js.IfStmt)
	if !ok || is.Else != nil {
		return false
	}
	g := typeofFunction(is.Cond)
	if g == nil {
		return false
	}
	body := is.Body
	if b, ok := body.(*js.BlockStmt); ok {
		if len(b.List) != 1 {
			return false
		}
		body = b.List[0]
	}
	es, ok := body.(*js.ExprStmt)
	if !ok {
		return false
	}
	set, ok := es.Value.(*js.BinaryExpr)
	if !ok || set.Op != js.EqToken {
		return false
	}
	target, ok := set.X.(*js.Var)
	if !ok || resolved(target) != v {
		return false
	}
	c, ok := unGroup(set.Y).(*js.ClassDecl)
	if !ok || !inertClass(c, g) {
		return false
	}
	return true
}

// typeofFunction returns the global G when e is typeof G === "function" (or ==, either way
// round); nil otherwise.
func typeofFunction(e js.IExpr) *js.Var {
	b, ok := unGroup(e).(*js.BinaryExpr)
	if !ok || b.Op != js.EqEqEqToken && b.Op != js.EqEqToken {
		return nil
	}
	t, s := unGroup(b.X), unGroup(b.Y)
	if _, ok := t.(*js.LiteralExpr); ok {
		t, s = s, t
	}
	u, ok := t.(*js.UnaryExpr)
	lit, ok2 := s.(*js.LiteralExpr)
	if !ok || !ok2 || u.Op != js.TypeofToken || lit.TokenType != js.StringToken {
		return nil
	}
	if str, ok := unquoteName(lit.Data); !ok || str != "function" {
		return nil
	}
	g, ok := unGroup(u.X).(*js.Var)
	if !ok || resolved(g).Decl != js.NoDecl {
		return nil
	}
	return g
}

// inertClass reports whether defining c runs no code: its heritage, if any, is the global g,
// and it has no computed key, no static block and no static field with a value.
func inertClass(c *js.ClassDecl, g *js.Var) bool {
	if c.Extends != nil {
		h, ok := unGroup(c.Extends).(*js.Var)
		if !ok || resolved(h).Decl != js.NoDecl || string(h.Data) != string(g.Data) {
			return false
		}
	}
	for _, el := range c.List {
		switch {
		case el.StaticBlock != nil:
			return false
		case el.Method != nil:
			if el.Method.Name.IsComputed() {
				return false
			}
		default:
			if el.Field.Name.IsComputed() || el.Field.Static && el.Field.Init != nil {
				return false
			}
		}
	}
	return true
}

// resolved returns the declaration a reference binds to (v itself for a global).
func resolved(v *js.Var) *js.Var {
	for v.Link != nil {
		v = v.Link
	}
	return v
}

// guardedSpan finds, from the end of the declaration of name, the if statement that follows:
// its start, the span of the name = that its body starts with, and the statement's end (after
// the block's }, or after the class's body and its ;).
func guardedSpan(src string, from int, name string) (ifStart, at, eqEnd, end int, ok bool) {
	ifStart, at, eqEnd, end = -1, -1, -1, -1
	depth, semis := 0, 0
	braced, condDone, closed := false, false, false
	lexSource(src, from, func(tt js.TokenType, s, e int) bool {
		switch {
		case ifStart < 0:
			if tt == js.SemicolonToken && semis == 0 {
				semis++
				return true
			}
			if tt == js.IfToken {
				ifStart = s
				return true
			}
			return false
		case closed: // the unbraced statement's class has closed: its ; if it has one
			if tt == js.SemicolonToken {
				end = e
			}
			ok = true
			return false
		case condDone && at < 0:
			if tt == js.OpenBraceToken && !braced {
				braced = true
				depth++
				return true
			}
			if tt != js.IdentifierToken || src[s:e] != name {
				return false
			}
			at = s
			return true
		case at >= 0 && eqEnd < 0:
			if tt != js.EqToken {
				return false
			}
			eqEnd = e
			return true
		}
		switch tt {
		case js.OpenParenToken, js.OpenBraceToken, js.OpenBracketToken, js.TemplateStartToken:
			depth++
		case js.CloseParenToken, js.CloseBraceToken, js.CloseBracketToken, js.TemplateEndToken:
			depth--
			if depth == 0 {
				if !condDone {
					condDone = true
					return true
				}
				if tt == js.CloseBraceToken {
					end = e
					if braced {
						ok = true
						return false
					}
					closed = true
				}
			}
		}
		return true
	})
	if closed {
		ok = true // the class ended the module
	}
	return ifStart, at, eqEnd, end, ok && ifStart >= 0 && eqEnd > 0 && end > 0
}
