package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// CommonJS imports read by key. esbuild imports a CommonJS module into an ES module through
// its runtime's __toESM (internal/runtime/runtime.go),
//
//	var import_react = __toESM(require_react(), 1)
//
// an object of the exports object's prototype with "default" (the exports object) and, for
// each own string key of the exports object when the call runs, a getter that reads that key
// of it (__copyProps: get: () => from[key]). Where the binding is read only as (0, X.k), the
// form esbuild prints a call of an import as, with k not "default", and k is an own key of
// the exports object when __toESM runs, X.k reads what the exports object's k reads, at any
// time: the call is written require_react() alone (Rolldown writes the import so), and
// __toESM and its helpers, then unused, go with the next minification. What is proved:
//   - the helpers are esbuild's own (their text is the runtime's, names aside, each binding
//     of Object's functions a top-level var of that value written nowhere else, and
//     Object.defineProperty not written), declared before the statement of the call;
//   - the require function is __commonJS's of one method, declared before too; the keys its
//     module writes are those of exports.k = v at the top of the method's body (in a comma
//     list too), the body returning nowhere, the exports parameter written nowhere; or, where
//     the module parameter is named once, in module.exports = require_y() at the top of the
//     body, those of require_y's module;
//   - X is a var of the top level, not exported, declared once by the call, and every other
//     name of it is (0, X.k) for such a k: no method call (this would be the copy), no write,
//     no other read, so the object itself is compared or handed on nowhere.
//
// Left: any other read of X, a key the module may not have written when the call runs (a
// write in a branch, a function, after a return), a module that sets module.exports
// otherwise, helpers of another text, a program whose references are not all known.

// esbuild's runtime helpers as esbuild minifies them: a lower-case name is the helper's own
// (any name, one for one), an upper-case letter a binding of the top level (checked for its
// value), a longer name itself.
const (
	cjsCommonJS  = `(e,t)=>function(){try{return t||(0,e[N(e)[0]])((t={exports:{}}).exports,t),t.exports}catch(n){throw t=0,n}}`
	cjsCopyProps = `(e,t,n,r)=>{if(t&&typeof t=="object"||typeof t=="function")for(let o of N(t))!O.call(e,o)&&o!==n&&D(e,o,{get:()=>t[o],enumerable:!(r=G(t,o))||r.enumerable});return e}`
	cjsToESM     = `(e,t,n)=>(n=e!=null?C(P(e)):{},B(t||!e||!e.__esModule?D(n,"default",{value:e,enumerable:!0}):n,e))`
)

// cjsObjectFns are the values of the templates' upper-case bindings other than B.
var cjsObjectFns = map[string]string{"N": "getOwnPropertyNames", "O": "prototype.hasOwnProperty", "G": "getOwnPropertyDescriptor", "D": "defineProperty", "C": "create", "P": "getPrototypeOf"}

// cjsDecl is a declarator of the program's top level, written nowhere else.
type cjsDecl struct {
	v          *js.Var
	init       js.IExpr
	stmt, decl int // its statement, and its place in the statement's list
}

// before reports whether d's declarator runs before the one at stmt, decl.
func (d cjsDecl) before(stmt, decl int) bool {
	return d.stmt < stmt || d.stmt == stmt && d.decl < decl
}

// cjsImports returns the edits that write the print m's CommonJS imports read by key as
// above; nil when there is none.
func cjsImports(m *minifiedPrint) []localnames.Edit {
	if !m.p.Known() || !strings.Contains(m.src, "__esModule") {
		return nil
	}
	ast := m.p.AST
	exported, ok := moduleExports(ast.List)
	if !ok {
		return nil
	}
	writes := localnames.WritesOf(ast)
	decls := map[string]cjsDecl{}
	twice := map[string]bool{}
	for k, s := range ast.List {
		switch s := s.(type) {
		case *js.VarDecl:
			for i, b := range s.List {
				v, ok := b.Binding.(*js.Var)
				if !ok {
					continue
				}
				name := string(v.Data)
				if _, ok := decls[name]; ok {
					twice[name] = true
				}
				if b.Default != nil && !writes.Assigned(resolved(v)) && writes.Inits[resolved(v)] == 1 && !exported[name] {
					decls[name] = cjsDecl{resolved(v), b.Default, k, i}
				}
			}
		case *js.FuncDecl:
			if s.Name != nil {
				twice[string(s.Name.Data)] = true
			}
		case *js.ClassDecl:
			if s.Name != nil {
				twice[string(s.Name.Data)] = true
			}
		}
	}
	for name := range twice {
		delete(decls, name)
	}
	prog := newNsProgram(ast)
	if !prog.globalKept("Object", "defineProperty", "create", "getPrototypeOf", "getOwnPropertyNames", "getOwnPropertyDescriptor", "hasOwnProperty") {
		return nil
	}
	tokens, ok := m.tokens()
	if !ok {
		return nil
	}
	c := &cjsChecker{m: m, tokens: tokens, decls: decls, writes: writes, helpers: map[string]string{}, keys: map[*js.Var]map[string]bool{}}
	// The bindings held by __toESM's calls, and their reads.
	var edits []localnames.Edit
	reads := cjsReads(ast, decls)
	for _, d := range decls {
		call, ok := d.init.(*js.CallExpr)
		if !ok || call.Optional || len(call.Args.List) == 0 || len(call.Args.List) > 2 {
			continue
		}
		h, ok := call.X.(*js.Var)
		req, ok2 := call.Args.List[0].Value.(*js.CallExpr)
		if !ok || !ok2 || req.Optional || len(req.Args.List) != 0 || call.Args.List[0].Rest {
			continue
		}
		r, ok := req.X.(*js.Var)
		if !ok || !c.is(string(h.Data), cjsToESM, d) {
			continue
		}
		if len(call.Args.List) == 2 {
			if l, ok := call.Args.List[1].Value.(*js.LiteralExpr); !ok || l.TokenType != js.IntegerToken && l.TokenType != js.DecimalToken || call.Args.List[1].Rest {
				continue
			}
		}
		keys, ok := c.moduleKeys(string(r.Data), d, 0)
		rd := reads[d.v]
		if !ok || rd == nil || m.count()[d.v] != 1+len(rd) {
			continue
		}
		all := true
		for _, k := range rd {
			all = all && keys[k]
		}
		if !all {
			continue
		}
		// X = H ( R ( ) [, n] ): H ( and [, n] go.
		x, ok := m.at(m.p.Offset(d.v.Data))
		i := x + 2
		if !ok || i+5 >= len(tokens) || tokens[x+1].tt != js.EqToken || m.src[tokens[i].start:tokens[i].end] != string(h.Data) || tokens[i+1].tt != js.OpenParenToken ||
			m.src[tokens[i+2].start:tokens[i+2].end] != string(r.Data) || tokens[i+3].tt != js.OpenParenToken || tokens[i+4].tt != js.CloseParenToken {
			continue
		}
		j := i + 5
		if tokens[j].tt == js.CommaToken {
			j += 2
		}
		if j >= len(tokens) || tokens[j].tt != js.CloseParenToken {
			continue
		}
		edits = append(edits, localnames.Edit{Start: tokens[i].start, End: tokens[i+1].end}, localnames.Edit{Start: tokens[i+4].end, End: tokens[j].end})
	}
	sortEdits(edits)
	return edits
}

type cjsChecker struct {
	m       *minifiedPrint
	tokens  []token
	decls   map[string]cjsDecl
	writes  *localnames.Writes
	helpers map[string]string // a helper's name: the template it was found to be ("" not)
	keys    map[*js.Var]map[string]bool
}

// is reports whether the top-level binding name is the helper of template tmpl, declared,
// with the bindings it names, before the declarator at. A failed check is remembered too.
func (c *cjsChecker) is(name, tmpl string, at cjsDecl) bool {
	d, ok := c.decls[name]
	if !ok || !d.before(at.stmt, at.decl) {
		return false
	}
	if t, ok := c.helpers[name]; ok {
		return t == tmpl
	}
	c.helpers[name] = ""
	free, ok := c.matches(d, tmpl)
	if !ok {
		return false
	}
	for tn, cn := range free {
		if tn == "B" {
			if !c.is(cn, cjsCopyProps, d) {
				return false
			}
			continue
		}
		fd, ok := c.decls[cn]
		if !ok || !fd.before(d.stmt, d.decl) {
			return false
		}
		path := strings.Split(cjsObjectFns[tn], ".")
		e := fd.init
		for i := len(path) - 1; i >= 0; i-- {
			dot, ok := e.(*js.DotExpr)
			if !ok || dot.Optional || !isName(dot.Y, path[i]) {
				return false
			}
			e = dot.X
		}
		if !isGlobal(e, "Object") {
			return false
		}
	}
	c.helpers[name] = tmpl
	return true
}

// matches reports whether the initializer of d is the text of tmpl, its names as tmpl says,
// and returns what tmpl's upper-case names are there.
func (c *cjsChecker) matches(d cjsDecl, tmpl string) (map[string]string, bool) {
	tp := localnames.Parse("var Z=" + tmpl + ";")
	if tp == nil {
		return nil, false
	}
	var want []token
	tp.Tokens(func(tt js.TokenType, start int, data []byte) bool {
		want = append(want, token{tt, start, start + len(data)})
		return true
	})
	tsrc := "var Z=" + tmpl + ";"
	want = want[3 : len(want)-1] // after var Z =, before ;
	i, ok := c.m.at(c.m.p.Offset(d.v.Data))
	if !ok || i+2+len(want) > len(c.tokens) || c.tokens[i+1].tt != js.EqToken {
		return nil, false
	}
	got := c.tokens[i+2 : i+2+len(want)]
	if i+2+len(want) < len(c.tokens) {
		if next := c.tokens[i+2+len(want)].tt; next != js.CommaToken && next != js.SemicolonToken {
			return nil, false
		}
	}
	to, from := map[string]string{}, map[string]string{}
	free := map[string]string{}
	for k, w := range want {
		g := got[k]
		ws, gs := tsrc[w.start:w.end], c.m.src[g.start:g.end]
		if w.tt != g.tt {
			return nil, false
		}
		if w.tt != js.IdentifierToken || len(ws) > 1 {
			if ws != gs {
				return nil, false
			}
			continue
		}
		if t, ok := to[ws]; ok && t != gs || from[gs] != "" && from[gs] != ws {
			return nil, false
		}
		to[ws], from[gs] = gs, ws
		if ws[0] >= 'A' && ws[0] <= 'Z' {
			free[ws] = gs
		}
	}
	return free, true
}

// moduleKeys returns the keys the module of the require function name has written on its
// exports object when the function returns, as the comment above says; false where that is
// not shown. depth bounds module.exports = require_y() chains.
func (c *cjsChecker) moduleKeys(name string, at cjsDecl, depth int) (map[string]bool, bool) {
	d, ok := c.decls[name]
	if !ok || depth > 16 || !d.before(at.stmt, at.decl) {
		return nil, false
	}
	if k, ok := c.keys[d.v]; ok {
		return k, k != nil
	}
	c.keys[d.v] = nil
	call, ok := d.init.(*js.CallExpr)
	if !ok || call.Optional || len(call.Args.List) != 1 || call.Args.List[0].Rest {
		return nil, false
	}
	cj, ok := call.X.(*js.Var)
	obj, ok2 := call.Args.List[0].Value.(*js.ObjectExpr)
	if !ok || !ok2 || len(obj.List) != 1 || !c.is(string(cj.Data), cjsCommonJS, d) {
		return nil, false
	}
	method, ok := obj.List[0].Value.(*js.MethodDecl)
	if !ok || obj.List[0].Spread || method.Async || method.Generator || method.Get || method.Set || method.Static ||
		len(method.Params.List) > 2 || method.Params.Rest != nil {
		return nil, false
	}
	var params []*js.Var
	for _, p := range method.Params.List {
		v, ok := p.Binding.(*js.Var)
		if !ok || p.Default != nil {
			return nil, false
		}
		params = append(params, resolved(v))
	}
	if returns(method.Body.List) {
		return nil, false
	}
	keys := map[string]bool{}
	counts := c.m.count()
	for _, s := range method.Body.List {
		es, ok := s.(*js.ExprStmt)
		if !ok {
			continue
		}
		list := []js.IExpr{es.Value}
		if ce, ok := es.Value.(*js.CommaExpr); ok {
			list = ce.List
		}
		for _, e := range list {
			for {
				a, ok := e.(*js.BinaryExpr)
				if !ok || a.Op != js.EqToken {
					break
				}
				dot, ok := a.X.(*js.DotExpr)
				if !ok || dot.Optional {
					break
				}
				v, ok := dot.X.(*js.Var)
				if !ok {
					break
				}
				key, isLit := dot.Y.(js.LiteralExpr)
				switch {
				case len(params) > 0 && resolved(v) == params[0] && isLit && string(key.Data) != "__proto__":
					keys[string(key.Data)] = true
				case len(params) > 1 && resolved(v) == params[1] && isName(dot.Y, "exports") && counts[params[1]] == 2:
					req, ok := a.Y.(*js.CallExpr)
					if !ok || req.Optional || len(req.Args.List) != 0 {
						return nil, false
					}
					r, ok := req.X.(*js.Var)
					if !ok {
						return nil, false
					}
					k, ok := c.moduleKeys(string(r.Data), d, depth+1)
					if !ok {
						return nil, false
					}
					c.keys[d.v] = k
					return k, true
				}
				e = a.Y
			}
		}
	}
	if len(params) > 1 && counts[params[1]] != 1 || len(params) > 0 && c.writes.Assigned(params[0]) {
		return nil, false
	}
	c.keys[d.v] = keys
	return keys, true
}

// returns reports whether a return statement stands in list outside the functions in it.
func returns(list []js.IStmt) bool {
	f := &returnFinder{}
	for _, s := range list {
		js.Walk(f, s)
	}
	return f.found
}

type returnFinder struct{ found bool }

func (f *returnFinder) Enter(n js.INode) js.IVisitor {
	switch n.(type) {
	case *js.ReturnStmt:
		f.found = true
		return nil
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
		return nil
	}
	return f
}

func (f *returnFinder) Exit(js.INode) {}

// cjsReads returns, for each top-level binding of decls, the keys of its names read as
// (0, X.k), k not "default".
func cjsReads(ast *js.AST, decls map[string]cjsDecl) map[*js.Var][]string {
	vars := map[*js.Var]bool{}
	for _, d := range decls {
		vars[d.v] = true
	}
	r := &cjsReader{vars: vars, reads: map[*js.Var][]string{}}
	js.Walk(r, ast)
	return r.reads
}

type cjsReader struct {
	vars  map[*js.Var]bool
	reads map[*js.Var][]string
}

func (r *cjsReader) Enter(n js.INode) js.IVisitor {
	if ce, ok := n.(*js.CommaExpr); ok && len(ce.List) > 1 {
		if dot, ok := ce.List[len(ce.List)-1].(*js.DotExpr); ok && !dot.Optional {
			key, isLit := dot.Y.(js.LiteralExpr)
			if v, ok := dot.X.(*js.Var); ok && isLit && r.vars[resolved(v)] && string(key.Data) != "default" {
				r.reads[resolved(v)] = append(r.reads[resolved(v)], string(key.Data))
			}
		}
	}
	return r
}

func (r *cjsReader) Exit(js.INode) {}
