package pipeline

import (
	"bytes"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Namespace objects written as values. A bundler writes a module's namespace object as getters,
// live bindings (ECMA-262 10.4.6: a namespace's property reads the binding when it is read):
// the runtime's export helper, here Rolldown's as prebuilt packages carry it (the MCP SDK's
// schemas: var t=H({AnnotationsSchema:()=>et,…}), 166 getters),
//
//	H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return t&&D(n,Symbol.toStringTag,{value:"Module"}),n}
//
// with D Object.defineProperty, makes a plain object (Object.prototype) with an enumerable getter
// per key, in the literal's order. Where each getter's binding can hold no other value than the
// one it has when the object is made, H({a:()=>x}) reads as {a:x}, as Rolldown writes it: a
// const, let or var given its value by a declaration before the call in the same statement list
// (an earlier statement, or an earlier name of the call's own declaration) and written nowhere
// else, a class declared so, or a function declared in that list; the call evaluated by that
// list's statement itself (not in a function in it), in a module whose references are known.
// A var counts only in a function's body or at the top level (a block in a loop runs its
// declaration again). Left: a binding declared after the call (its getter throws until then:
// TDZ) or written again, a case clause's list, the second argument (the toStringTag, not
// enumerable), a key computed, spread, named __proto__ or written with an escape, a call a
// statement starts with ({ there opens a block), a getter of another form. The
// properties become data properties, writable as Rolldown's are: only where the page reads the
// object and hands it to no other code (namespaceuses.go). The helper held by a var, let or
// const, and its D, hold their values wherever they are read (inlineUnwritten's rule: no code
// run before their declarations reaches a call of the helper, which as written throws), and
// nothing writes Object.defineProperty or the global Object (namespaceuses.go's nsProgram).

// namespaceValues returns the edits that write the print m's namespace objects as values as
// above, sorted by place; nil when there is none.
func namespaceValues(m *minifiedPrint) []localnames.Edit {
	if !m.p.Known() || !bytes.Contains([]byte(m.src), []byte("enumerable:!0")) {
		return nil
	}
	ast := m.p.AST
	exported, ok := moduleExports(ast.List)
	if !ok {
		return nil
	}
	f := &namespaceFinder{writes: localnames.WritesOf(ast), helpers: map[*js.Var]bool{}, bodies: map[*js.BlockStmt]bool{&ast.BlockStmt: true}, values: map[*js.Var]js.INode{}}
	define, at := f.findHelpers(ast)
	if len(f.helpers) == 0 {
		return nil
	}
	js.Walk(f, ast)
	if len(f.calls) == 0 {
		return nil
	}
	// The helper calls Object.defineProperty as the language gives it.
	prog := newNsProgram(ast)
	if !prog.globalKept("Object", "defineProperty") {
		return nil
	}
	// The helper and its binding of Object.defineProperty hold their values wherever they
	// are read (inlineUnwritten's rule): the code that runs before their declarations calls
	// nothing that calls the helper.
	tracked := map[*js.Var]bool{}
	for v := range at {
		tracked[v] = true
	}
	initialized := newUseGraph(ast, nil, tracked).readAfter(ast.List, at)
	calls := f.calls[:0]
	for _, c := range f.calls {
		h := resolved(c.X.(*js.Var))
		if _, ok := at[h]; ok && !initialized[h] || define[h] != nil && !initialized[define[h]] {
			continue
		}
		calls = append(calls, c)
	}
	kept := namespacesKept(ast, f.writes, prog, calls, exported, f.thisFree)
	tokens, ok := m.tokens()
	if !ok {
		return nil
	}
	var edits []localnames.Edit
	for _, c := range calls {
		if !kept[c] {
			continue
		}
		obj := c.Args.List[0].Value.(*js.ObjectExpr)
		var call []localnames.Edit
		for k, prop := range obj.List {
			i, ok := m.at(m.p.Offset(prop.Name.Literal.Data))
			target := prop.Value.(*js.ArrowFunc).Body.List[0].(*js.ReturnStmt).Value.(*js.Var)
			// key : ( ) => name, each a token as the print writes it.
			if !ok || i+5 >= len(tokens) || tokens[i+1].tt != js.ColonToken || tokens[i+2].tt != js.OpenParenToken ||
				tokens[i+3].tt != js.CloseParenToken || tokens[i+4].tt != js.ArrowToken ||
				m.src[tokens[i+5].start:tokens[i+5].end] != string(target.Data) {
				call = nil
				break
			}
			if k == 0 {
				// H ( { key
				if i < 3 || tokens[i-1].tt != js.OpenBraceToken || tokens[i-2].tt != js.OpenParenToken ||
					m.src[tokens[i-3].start:tokens[i-3].end] != string(c.X.(*js.Var).Data) {
					break
				}
				call = append(call, localnames.Edit{Start: tokens[i-3].start, End: tokens[i-2].end})
			}
			call = append(call, localnames.Edit{Start: tokens[i+2].start, End: tokens[i+4].end})
			if k == len(obj.List)-1 {
				// name } ), or name , } ).
				j := i + 6
				if j < len(tokens) && tokens[j].tt == js.CommaToken {
					j++
				}
				if j+1 >= len(tokens) || tokens[j].tt != js.CloseBraceToken || tokens[j+1].tt != js.CloseParenToken {
					call = nil
					break
				}
				call = append(call, localnames.Edit{Start: tokens[j+1].start, End: tokens[j+1].end})
				edits = append(edits, call...)
			}
		}
	}
	sortEdits(edits)
	return edits
}

// namespaceFinder finds the calls of the export helpers (helpers) that namespaceValues writes as
// values, in order (calls); bodies holds the lists that run once per call of their function
// (and the top level), where a var is declared once per run.
type namespaceFinder struct {
	writes  *localnames.Writes
	helpers map[*js.Var]bool
	bodies  map[*js.BlockStmt]bool
	calls   []*js.CallExpr
	values  map[*js.Var]js.INode // the value of each binding list found given one before a call
}

func (f *namespaceFinder) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.FuncDecl:
		f.bodies[&n.Body] = true
	case *js.MethodDecl:
		f.bodies[&n.Body] = true
	case *js.ArrowFunc:
		f.bodies[&n.Body] = true
	case *js.BlockStmt:
		f.list(n.List, f.bodies[n])
	}
	return f
}

func (f *namespaceFinder) Exit(js.INode) {}

// list looks in one statement list for the helpers' calls its statements evaluate themselves,
// and keeps those whose getters' bindings all have their one value before the call (body: the
// list is a function's body or the top level).
func (f *namespaceFinder) list(list []js.IStmt, body bool) {
	before := map[*js.Var]bool{} // bindings given their one value by the statements so far
	for _, s := range list {
		switch s := s.(type) {
		case *js.FuncDecl:
			// Hoisted; a var of its name given a value (Inits) may change it later.
			if s.Name != nil && f.writes.Inits[resolved(s.Name)] == 0 {
				before[resolved(s.Name)], f.values[resolved(s.Name)] = true, s
			}
		}
	}
	for _, s := range list {
		if d, ok := s.(*js.VarDecl); ok {
			for _, b := range d.List {
				f.calls = append(f.calls, f.callsIn(b.Default, before)...)
				if v, ok := b.Binding.(*js.Var); ok && b.Default != nil && (body || d.TokenType != js.VarToken) {
					before[resolved(v)], f.values[resolved(v)] = true, b.Default
				}
			}
			continue
		}
		f.calls = append(f.calls, f.callsIn(s, before)...)
		if c, ok := s.(*js.ClassDecl); ok && c.Name != nil {
			before[resolved(c.Name)], f.values[resolved(c.Name)] = true, c
		}
	}
}

// callsIn returns the helpers' calls n evaluates itself (none in its functions, classes or
// blocks: a block is a list of its own) whose getters read bindings of before, and none an
// expression statement starts with (H({…}) written {…} there is a block: the statement of
// the list, or one an if, else, loop or label holds).
func (f *namespaceFinder) callsIn(n js.INode, before map[*js.Var]bool) []*js.CallExpr {
	if n == nil {
		return nil
	}
	c := &callCollector{f: f, before: before, starts: map[*js.CallExpr]bool{}}
	js.Walk(c, n)
	return c.calls
}

type callCollector struct {
	f      *namespaceFinder
	before map[*js.Var]bool
	calls  []*js.CallExpr
	starts map[*js.CallExpr]bool // the calls a statement starts with
}

func (c *callCollector) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.FuncDecl, *js.MethodDecl, *js.ArrowFunc, *js.ClassDecl, *js.BlockStmt, *js.CaseClause:
		return nil
	case *js.ExprStmt:
		startCalls(n.Value, c.starts)
	case *js.CallExpr:
		if !c.starts[n] && c.f.isHelperCall(n) && c.f.valuesKept(n, c.before) {
			c.calls = append(c.calls, n)
		}
	}
	return c
}

func (c *callCollector) Exit(js.INode) {}

// isHelperCall reports whether c is a call of an export helper with one argument, an object.
func (f *namespaceFinder) isHelperCall(c *js.CallExpr) bool {
	h, ok := c.X.(*js.Var)
	if !ok || !f.helpers[resolved(h)] || c.Optional || len(c.Args.List) != 1 || c.Args.List[0].Rest {
		return false
	}
	_, ok = c.Args.List[0].Value.(*js.ObjectExpr)
	return ok
}

// valuesKept reports whether every property of c's object is key:()=>x, its key named, x a
// binding of before that nothing writes again.
func (f *namespaceFinder) valuesKept(c *js.CallExpr, before map[*js.Var]bool) bool {
	obj := c.Args.List[0].Value.(*js.ObjectExpr)
	if len(obj.List) == 0 {
		return false
	}
	for _, p := range obj.List {
		// A key named __proto__ sets the prototype of an object literal, and one written
		// with an escape may spell it ({\u005f_proto__: …}, {"\x5f_proto__": …}).
		if p.Name == nil || p.Spread || p.Init != nil || p.Name.IsComputed() || bytes.Contains(p.Name.Literal.Data, []byte("__proto__")) || bytes.IndexByte(p.Name.Literal.Data, '\\') >= 0 {
			return false
		}
		a, ok := p.Value.(*js.ArrowFunc)
		if !ok || a.Async || len(a.Params.List) != 0 || a.Params.Rest != nil || len(a.Body.List) != 1 {
			return false
		}
		r, ok := a.Body.List[0].(*js.ReturnStmt)
		if !ok {
			return false
		}
		v, ok := r.Value.(*js.Var)
		if !ok {
			return false
		}
		v = resolved(v)
		if !before[v] || f.writes.Assigned(v) || f.writes.Pattern[v] || f.writes.Inits[v] > 1 {
			return false
		}
	}
	return true
}

// thisFree reports whether no getter's function of c can read this when called as a method of
// the object (o.k()): each binding holds a function declared so that says neither this nor
// super, a class (it throws when called), or an arrow.
func (f *namespaceFinder) thisFree(c *js.CallExpr) bool {
	for _, p := range c.Args.List[0].Value.(*js.ObjectExpr).List {
		v := resolved(p.Value.(*js.ArrowFunc).Body.List[0].(*js.ReturnStmt).Value.(*js.Var))
		switch x := f.values[v].(type) {
		case *js.ClassDecl, *js.ArrowFunc:
		case *js.FuncDecl:
			found := false
			js.Walk(thisFinder{found: &found}, x)
			if found {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// startCalls puts in starts the calls whose text starts where e's does: those on its left
// edge (H({…}).k(), H({…})`…`, H({…}), x).
func startCalls(e js.IExpr, starts map[*js.CallExpr]bool) {
	for {
		switch x := e.(type) {
		case *js.CallExpr:
			starts[x] = true
			e = x.X
		case *js.CommaExpr:
			e = x.List[0]
		case *js.BinaryExpr:
			e = x.X
		case *js.CondExpr:
			e = x.Cond
		case *js.DotExpr:
			e = x.X
		case *js.IndexExpr:
			e = x.X
		case *js.TemplateExpr:
			if x.Tag == nil {
				return
			}
			e = x.Tag
		case *js.UnaryExpr:
			if x.Op != js.PostIncrToken && x.Op != js.PostDecrToken {
				return
			}
			e = x.X
		default:
			return
		}
	}
}

// findHelpers notes the bindings of ast that hold the export helper as above, given it by their
// one declaration and written nowhere else, and the binding each calls for
// Object.defineProperty (nil where it names Object.defineProperty itself); at are the places
// of the declarators of those and of the helpers a var, let or const holds.
func (f *namespaceFinder) findHelpers(ast *js.AST) (define map[*js.Var]*js.Var, at map[*js.Var]place) {
	defineProperty := map[*js.Var]bool{}
	define, at = map[*js.Var]*js.Var{}, map[*js.Var]place{}
	var fns []js.BindingElement
	var fnAt []place
	for k, s := range ast.List {
		switch s := s.(type) {
		case *js.VarDecl:
			for i, b := range s.List {
				v, ok := b.Binding.(*js.Var)
				if !ok || b.Default == nil || f.writes.Assigned(resolved(v)) || f.writes.Inits[resolved(v)] != 1 {
					continue
				}
				if d, ok := b.Default.(*js.DotExpr); ok && isGlobal(d.X, "Object") && isName(d.Y, "defineProperty") {
					defineProperty[resolved(v)] = true
					at[resolved(v)] = place{k, i}
				}
				fns, fnAt = append(fns, b), append(fnAt, place{k, i})
			}
		case *js.FuncDecl:
			if s.Name != nil && !f.writes.Assigned(resolved(s.Name)) && f.writes.Inits[resolved(s.Name)] == 0 {
				fns, fnAt = append(fns, js.BindingElement{Binding: s.Name, Default: s}), append(fnAt, place{-1, 0})
			}
		}
	}
	var called *js.Var // the binding the helper last tested calls
	isDefine := func(e js.IExpr) bool {
		if v, ok := e.(*js.Var); ok {
			called = resolved(v)
			return defineProperty[resolved(v)]
		}
		called = nil
		d, ok := e.(*js.DotExpr)
		return ok && isGlobal(d.X, "Object") && isName(d.Y, "defineProperty")
	}
	for k, b := range fns {
		var params js.Params
		var body js.BlockStmt
		switch fn := b.Default.(type) {
		case *js.ArrowFunc:
			params, body = fn.Params, fn.Body
		case *js.FuncDecl:
			if fn.Async || fn.Generator {
				continue
			}
			params, body = fn.Params, fn.Body
		default:
			continue
		}
		if isExportHelper(params, body.List, isDefine) {
			h := resolved(b.Binding.(*js.Var))
			f.helpers[h], define[h] = true, called
			if fnAt[k].stmt >= 0 { // a function declaration is made before any code runs
				at[h] = fnAt[k]
			}
		}
	}
	return define, at
}

// isExportHelper reports whether a function of params and body is the export helper: (e,t)=>{let
// n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return t&&…,n}, define telling D.
func isExportHelper(params js.Params, body []js.IStmt, define func(js.IExpr) bool) bool {
	if params.Rest != nil || len(params.List) == 0 || len(params.List) > 2 || len(body) != 3 {
		return false
	}
	var ps []*js.Var
	for _, p := range params.List {
		v, ok := p.Binding.(*js.Var)
		if !ok || p.Default != nil {
			return false
		}
		ps = append(ps, v)
	}
	d, ok := body[0].(*js.VarDecl)
	if !ok || len(d.List) != 1 {
		return false
	}
	n, ok := d.List[0].Binding.(*js.Var)
	if o, isObj := d.List[0].Default.(*js.ObjectExpr); !ok || !isObj || len(o.List) != 0 {
		return false
	}
	loop, ok := body[1].(*js.ForInStmt)
	if !ok || !sameVar(loop.Value, ps[0]) || len(loop.Body.List) != 1 {
		return false
	}
	var key *js.Var
	switch init := loop.Init.(type) {
	case *js.VarDecl:
		if len(init.List) == 1 && init.List[0].Default == nil {
			key, _ = init.List[0].Binding.(*js.Var)
		}
	case *js.Var:
		key = init
	}
	stmt, ok := loop.Body.List[0].(*js.ExprStmt)
	if key == nil || !ok {
		return false
	}
	call, ok := stmt.Value.(*js.CallExpr)
	if !ok || !define(call.X) || len(call.Args.List) != 3 || !sameVar(call.Args.List[0].Value, n) || !sameVar(call.Args.List[1].Value, key) {
		return false
	}
	desc, ok := call.Args.List[2].Value.(*js.ObjectExpr)
	if !ok || len(desc.List) != 2 || !propNamed(desc.List[0], "get") || !propNamed(desc.List[1], "enumerable") {
		return false
	}
	if get, ok := desc.List[0].Value.(*js.IndexExpr); !ok || !sameVar(get.X, ps[0]) || !sameVar(get.Y, key) || !isTrue(desc.List[1].Value) {
		return false
	}
	r, ok := body[2].(*js.ReturnStmt)
	if !ok || r.Value == nil {
		return false
	}
	ret := r.Value
	if comma, ok := ret.(*js.CommaExpr); ok {
		// t&&…, n: what it does with the second argument, which the calls rewritten leave out.
		for _, e := range comma.List[:len(comma.List)-1] {
			if and, ok := e.(*js.BinaryExpr); !ok || and.Op != js.AndToken || len(ps) != 2 || !sameVar(and.X, ps[1]) {
				return false
			}
		}
		ret = comma.List[len(comma.List)-1]
	}
	return sameVar(ret, n)
}

func sameVar(e js.IExpr, v *js.Var) bool {
	w, ok := e.(*js.Var)
	return ok && resolved(w) == resolved(v)
}

// isGlobal reports whether e is the global name, declared nowhere in the program.
func isGlobal(e js.IExpr, name string) bool {
	v, ok := e.(*js.Var)
	return ok && resolved(v).Decl == js.NoDecl && string(v.Data) == name
}

// isName reports whether e, a property read's name (o.name), is name.
func isName(e js.IExpr, name string) bool {
	l, ok := e.(js.LiteralExpr)
	return ok && string(l.Data) == name
}

func propNamed(p js.Property, name string) bool {
	return p.Name != nil && !p.Name.IsComputed() && !p.Spread && string(p.Name.Literal.Data) == name
}

// isTrue reports whether e is true or !0.
func isTrue(e js.IExpr) bool {
	if l, ok := e.(*js.LiteralExpr); ok {
		return l.TokenType == js.TrueToken
	}
	u, ok := e.(*js.UnaryExpr)
	if !ok {
		return false
	}
	l, isLit := u.X.(*js.LiteralExpr)
	return isLit && u.Op == js.NotToken && string(l.Data) == "0"
}
