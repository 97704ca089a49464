package pipeline

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// Tables that read a module's own data. Rolldown, and so Vite's build, leaves out a
// module-level declaration nothing uses and keeps only what its initializer does that could
// be observed; a read of a property of an object the module builds itself, and never hands
// out, is not observable (no getter can be on it). esbuild counts every property read as an
// effect and keeps the whole declaration: the official MCP client's INBOUND_VALIDATION_LADDER,
// an array of objects with a paragraph of prose each and codes read from the module's
// ProtocolErrorCode (a TypeScript enum as tsc and Rolldown emit it), 2 KB of gzip in every
// MCP Apps example that never validates a request.
//
// In a package's module, the initializer of a module-level declaration that is an array or
// object literal made only of literals, functions, bindings of the module, and reads of the
// module's own data objects, at least one, is wrapped in a pure-annotated arrow function
// called at once: /* @__PURE__ */ (() => (init))(). esbuild drops the call when the binding is
// unused, and, when it is used, inlines the arrow's body back (its minifier does), so that the
// page evaluates what it did, where it did.
//
// A data object is a module-level binding declared before the table, never assigned again,
// and bound to an object literal of plain properties (no spread, accessor, computed key or
// __proto__), an array literal (which a table may also spread: [...A, "b"], Svelte's lists of
// attributes and runes), or an enum as TypeScript compiles one: a function expression called
// with {} whose body only sets the parameter's properties to literals and returns it. Every other
// reference to it in the module must be a property read (not a write, a delete, an update,
// an optional or computed read, or the object itself handed to anything but a table's
// spread), so that nothing the module does can put a getter, or an iterator, on it.

// pureTableEdits gives the edits that wrap m's tables of its own data; none when there are
// none.
func pureTableEdits(m *pkgModule) []edit {
	// Only a parse says what a read is: a module without a module-level table and a dot has
	// none to wrap.
	if !strings.Contains(m.src, "=") || !strings.Contains(m.src, ".") || m.callsEval() {
		return nil
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	// The data objects: where each one's name is, and whether it is an enum.
	data := map[*js.Var]dataObject{}
	var tables []js.BindingElement
	var args []tableArg            // the literals given to pure calls
	literals := map[*js.Var]bool{} // the module-level const bound to a literal
	for _, s := range ast.BlockStmt.List {
		d := topDecl(s)
		if d == nil {
			continue
		}
		for _, e := range d.List {
			v, ok := e.Binding.(*js.Var)
			if !ok || e.Default == nil {
				continue
			}
			if d.TokenType == js.ConstToken && isLiteral(e.Default) {
				literals[v] = true
			}
			switch init := unGroup(e.Default).(type) {
			case *js.ObjectExpr:
				if plainObject(init) {
					data[v] = dataObject{at: m.offset(v.Data)}
				}
				tables = append(tables, e)
			case *js.ArrayExpr:
				data[v] = dataObject{at: m.offset(v.Data), array: true}
				tables = append(tables, e)
			case *js.CallExpr:
				if enumObject(init) {
					data[v] = dataObject{at: m.offset(v.Data), enum: true}
				}
				args = append(args, pureCallTables(m, v, init.X, init.Args, false)...)
			case *js.NewExpr:
				if init.Args != nil {
					args = append(args, pureCallTables(m, v, init.X, *init.Args, true)...)
				}
			}
		}
	}
	if len(data) == 0 || len(tables)+len(args) == 0 {
		return nil
	}
	// Each data object's references: all property reads, or it is not one.
	refs := &dataRefs{data: data, reads: map[*js.Var]int{}, bad: map[*js.Var]bool{}}
	js.Walk(refs, ast)
	for v := range data {
		if refs.bad[v] || refs.reads[v] != int(v.Uses)-1 {
			delete(data, v)
		}
	}
	if len(data) == 0 {
		return nil
	}
	var edits []edit
	for _, e := range tables {
		v := e.Binding.(*js.Var)
		at := m.offset(v.Data)
		p := &purity{m: m, data: data, literals: literals, before: at}
		if !p.expr(e.Default) || !p.reads {
			continue
		}
		start, end, ok := tableSpan(m.src, at+len(v.Data))
		if !ok {
			continue
		}
		edits = append(edits, edit{start, start, "/* @__PURE__ */ (() => ("}, edit{end, end, "))()"})
	}
	for _, a := range args {
		p := &purity{m: m, data: data, literals: literals, before: a.before}
		if p.expr(a.value) && p.reads {
			edits = append(edits, edit{a.start, a.start, "/* @__PURE__ */ (() => ("}, edit{a.end, a.end, "))()"})
		}
	}
	return edits
}

// tableArg is an array or object literal given to a pure-annotated call or new that a
// module-level declaration is bound to (Solid's Properties = /*#__PURE__*/ new Set([…,
// ...booleans])): esbuild drops the call when unused if it can drop each argument, which the
// same wrapping lets it do.
type tableArg struct {
	value      js.IExpr
	start, end int
	before     int // the offset of the declaration's name
}

// pureCallTables gives the array and object literals among the arguments of the call of
// callee (new, when isNew) that v is bound to, when the call is annotated pure; none else.
func pureCallTables(m *pkgModule, v *js.Var, callee js.IExpr, args js.Args, isNew bool) []tableArg {
	f, ok := callee.(*js.Var)
	if !ok || len(args.List) == 0 {
		return nil
	}
	at := m.offset(v.Data)
	calleeEnd, ok := pureCallee(m.src, at+len(v.Data), string(f.Data), isNew)
	if !ok {
		return nil
	}
	var spans [][2]int
	var out []tableArg
	for i, a := range args.List {
		switch a.Value.(type) {
		case *js.ArrayExpr, *js.ObjectExpr:
			if a.Rest {
				continue
			}
			if spans == nil {
				if spans, ok = argumentSpans(m.src, calleeEnd, len(args.List)); !ok {
					return nil
				}
			}
			out = append(out, tableArg{value: a.Value, start: spans[i][0], end: spans[i][1], before: at})
		}
	}
	return out
}

// dataObject is a data object: the offset of its name, and whether it is an enum (its
// properties are literals) or an array.
type dataObject struct {
	at    int
	enum  bool
	array bool // an array literal, whose spread calls the array's own iterator
}

// topDecl returns the declaration of a module-level statement: var, let or const, exported
// or not; nil for any other statement.
func topDecl(s js.IStmt) *js.VarDecl {
	if e, ok := s.(*js.ExportStmt); ok && !e.Default && e.Decl != nil {
		d, _ := e.Decl.(*js.VarDecl)
		return d
	}
	d, _ := s.(*js.VarDecl)
	return d
}

// unGroup returns e without the parentheses around it.
func unGroup(e js.IExpr) js.IExpr {
	for {
		g, ok := e.(*js.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

// plainObject reports whether o is an object literal of plain properties: each a name (an
// identifier, a string or a number), not __proto__, and a value; or a method.
func plainObject(o *js.ObjectExpr) bool {
	for _, p := range o.List {
		if md, ok := p.Value.(*js.MethodDecl); ok {
			if md.Get || md.Set {
				return false
			}
			continue
		}
		if p.Spread {
			return false
		}
		if p.Name == nil {
			continue // { a }
		}
		if p.Name.IsComputed() {
			return false
		}
		if name, ok := unquoteName(p.Name.Literal.Data); !ok || name == "__proto__" {
			return false
		}
	}
	return true
}

// enumObject reports whether c is an enum as TypeScript compiles one: function (E) {
// E[E["A"] = 0] = "A"; E["B"] = "b"; return E; }({}), each value a literal.
func enumObject(c *js.CallExpr) bool {
	f, ok := unGroup(c.X).(*js.FuncDecl)
	if !ok || f.Async || f.Generator || len(f.Params.List) != 1 || f.Params.Rest != nil || c.Optional || len(c.Args.List) != 1 {
		return false
	}
	if o, ok := c.Args.List[0].Value.(*js.ObjectExpr); !ok || c.Args.List[0].Rest || len(o.List) != 0 {
		return false
	}
	param, ok := f.Params.List[0].Binding.(*js.Var)
	if !ok || f.Params.List[0].Default != nil {
		return false
	}
	is := func(e js.IExpr) bool { v, ok := e.(*js.Var); return ok && v == param }
	// member is E.name or E["name"] (or E[<a literal>]); its object is the parameter.
	member := func(e js.IExpr) (js.IExpr, bool) {
		switch e := e.(type) {
		case *js.DotExpr:
			return nil, is(e.X) && !e.Optional
		case *js.IndexExpr:
			return e.Y, is(e.X) && !e.Optional
		}
		return nil, false
	}
	list := f.Body.List
	if len(list) == 0 {
		return false
	}
	if r, ok := list[len(list)-1].(*js.ReturnStmt); !ok || !is(r.Value) {
		return false
	}
	for _, s := range list[:len(list)-1] {
		es, ok := s.(*js.ExprStmt)
		if !ok {
			return false
		}
		set, ok := es.Value.(*js.BinaryExpr)
		if !ok || set.Op != js.EqToken {
			return false
		}
		if !isLiteral(set.Y) {
			return false
		}
		key, ok := member(set.X)
		if !ok {
			return false
		}
		switch k := key.(type) {
		case nil, *js.LiteralExpr:
		case *js.BinaryExpr: // E[E["A"] = 0]: the inner write's key and value literals
			inner, ok := member(k.X)
			if k.Op != js.EqToken || !ok || !isLiteral(k.Y) {
				return false
			}
			if _, ok := inner.(*js.LiteralExpr); inner != nil && !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isLiteral reports whether e is a literal, or a negative number.
func isLiteral(e js.IExpr) bool {
	if u, ok := e.(*js.UnaryExpr); ok && u.Op == js.NegToken {
		e = u.X
	}
	_, ok := e.(*js.LiteralExpr)
	return ok
}

// dataRefs counts, for each data object, the references that are property reads, and marks
// the objects referenced otherwise where a count alone could not tell: a read that is the
// target of a write, a delete or an update.
type dataRefs struct {
	data  map[*js.Var]dataObject
	reads map[*js.Var]int
	bad   map[*js.Var]bool
}

// object returns the data object e reads a property of (o.name, o["name"]), or nil.
func (r *dataRefs) object(e js.IExpr) *js.Var {
	var x js.IExpr
	switch e := e.(type) {
	case *js.DotExpr:
		if e.Optional {
			return nil
		}
		x = e.X
	case *js.IndexExpr:
		if _, ok := e.Y.(*js.LiteralExpr); !ok || e.Optional {
			return nil
		}
		x = e.X
	default:
		return nil
	}
	v, ok := x.(*js.Var)
	if !ok {
		return nil
	}
	for v.Link != nil {
		v = v.Link
	}
	if _, ok := r.data[v]; !ok {
		return nil
	}
	return v
}

// spread returns the data array an array literal's element spreads (...A), or nil.
func (r *dataRefs) spread(el js.Element) *js.Var {
	v, ok := el.Value.(*js.Var)
	if !el.Spread || !ok {
		return nil
	}
	for v.Link != nil {
		v = v.Link
	}
	if d, ok := r.data[v]; !ok || !d.array {
		return nil
	}
	return v
}

// spoil marks every data object whose property e, or a pattern of e, writes.
func (r *dataRefs) spoil(e js.IExpr) {
	js.Walk(spoiler{r}, e)
}

type spoiler struct{ r *dataRefs }

func (s spoiler) Enter(n js.INode) js.IVisitor {
	if e, ok := n.(js.IExpr); ok {
		if v := s.r.object(e); v != nil {
			s.r.bad[v] = true
		}
	}
	return s
}

func (spoiler) Exit(js.INode) {}

func (r *dataRefs) Enter(n js.INode) js.IVisitor {
	if t := writtenBy(n); t != nil {
		r.spoil(t)
	}
	switch n := n.(type) {
	case *js.ArrayExpr:
		for _, el := range n.List {
			if v := r.spread(el); v != nil {
				r.reads[v]++
			}
		}
	case js.IExpr:
		if v := r.object(n); v != nil {
			r.reads[v]++
		}
	}
	return r
}

func (*dataRefs) Exit(js.INode) {}

// purity says whether an expression is one esbuild could drop, but for its reads of data
// objects (declared before the offset before): reads says whether it has one.
type purity struct {
	m        *pkgModule
	data     map[*js.Var]dataObject
	literals map[*js.Var]bool
	before   int
	reads    bool
}

// expr reports whether e is made only of literals, functions, bindings of the module, array
// and object literals, and reads of data objects.
func (p *purity) expr(e js.IExpr) bool {
	switch e := e.(type) {
	case *js.LiteralExpr:
		return true
	case *js.ArrowFunc, *js.FuncDecl:
		return true // made, not called
	case *js.GroupExpr:
		return p.expr(e.X)
	case *js.Var:
		for e.Link != nil {
			e = e.Link
		}
		// A global may be missing, or a getter; a let, const or class declared after the
		// table throws when read before.
		return e.Decl != js.NoDecl && (e.Decl != js.LexicalDecl || p.m.offset(e.Data) < p.before)
	case *js.UnaryExpr:
		_, lit := e.X.(*js.LiteralExpr)
		return (e.Op == js.NegToken || e.Op == js.PosToken || e.Op == js.NotToken) && lit
	case *js.ArrayExpr:
		for _, el := range e.List {
			if el.Spread {
				r := &dataRefs{data: p.data}
				if v := r.spread(el); v == nil || p.data[v].at >= p.before {
					return false
				}
				p.reads = true
				continue
			}
			if el.Value != nil && !p.expr(el.Value) {
				return false
			}
		}
		return true
	case *js.ObjectExpr:
		for _, prop := range e.List {
			if md, ok := prop.Value.(*js.MethodDecl); ok { // made, not called; its name may be computed
				if md.Name.PropertyName.IsComputed() && !p.key(md.Name.PropertyName.Computed) {
					return false
				}
				continue
			}
			if prop.Spread {
				return false
			}
			if prop.Name == nil { // { a }: the binding's value
				if !p.expr(prop.Value) {
					return false
				}
				continue
			}
			if prop.Name.IsComputed() && !p.key(prop.Name.Computed) {
				return false
			}
			if prop.Init != nil || !p.expr(prop.Value) {
				return false
			}
		}
		return true
	case *js.TemplateExpr:
		return e.Tag == nil && len(e.List) == 0
	case *js.DotExpr, *js.IndexExpr:
		return p.read(e, false)
	}
	return false
}

// key reports whether a computed property name is a literal, a const bound to one, or a read
// of an enum's member, whose value is a literal: its conversion to a key calls nothing, where
// an object's toString could.
func (p *purity) key(e js.IExpr) bool {
	switch e := e.(type) {
	case *js.Var:
		return p.literals[e] && p.expr(e)
	case *js.LiteralExpr, *js.UnaryExpr:
		return isLiteral(e)
	case *js.DotExpr, *js.IndexExpr:
		return p.read(e, true)
	}
	return false
}

// read reports whether e reads a property of a data object declared before the table; of an
// enum, when enum is set.
func (p *purity) read(e js.IExpr, enum bool) bool {
	r := &dataRefs{data: p.data}
	v := r.object(e)
	if v == nil || p.data[v].at >= p.before || enum && !p.data[v].enum {
		return false
	}
	p.reads = true
	return true
}

// tableSpan finds, after the name of a declaration (its end at from), the span of its
// initializer: from its opening [ or { to the bracket that closes it.
func tableSpan(src string, from int) (start, end int, ok bool) {
	depth := 0
	step := 0 // 0: before =, 1: before the initializer, 2: in it
	lexSource(src, from, func(tt js.TokenType, s, e int) bool {
		switch step {
		case 0:
			if tt != js.EqToken {
				return false
			}
			step = 1
			return true
		case 1:
			if tt != js.OpenBracketToken && tt != js.OpenBraceToken {
				return false
			}
			start, step, depth = s, 2, 1
			return true
		}
		switch tt {
		case js.OpenBracketToken, js.OpenBraceToken, js.OpenParenToken, js.TemplateStartToken:
			depth++
		case js.CloseBracketToken, js.CloseBraceToken, js.CloseParenToken, js.TemplateEndToken:
			depth--
		}
		if depth == 0 {
			end, ok = e, true
			return false
		}
		return true
	})
	return start, end, ok
}
