package pipeline

import (
	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Where a namespace object goes. As written, each property of the object is a getter without a
// setter, not configurable (Object.defineProperty's defaults): in a module (strict code) a
// write or a delete through the object throws, Object.getOwnPropertyDescriptor gives the
// getter, Object.freeze leaves it a getter. Written {key: x}, each is a data property,
// writable and configurable. Reading the object gives the same either way, and namespaceValues
// writes it so only where the parse sees every place the object goes and each place reads it:
//
//   - its properties read, o.k and o[k] (not written, deleted or a for-in/of head, and not
//     called as o.k(…), which gives the property's value the object as this, unless each
//     getter's binding is a function declared in the call's list that says neither this nor
//     super, a class, or an arrow);
//   - the object spread ({...o}, [...o], f(...o)), iterated by for (k in o) or for (x of o),
//     tested (if, !, ?:'s test, &&'s left), compared (===, !==, ==, !=), named by in or
//     typeof, void, a key o[x], a template's ${o}, a statement's value;
//   - given to Object.keys, values, entries, getOwnPropertyNames, getPrototypeOf, hasOwn,
//     Object.assign after its first argument, and JSON.stringify with one argument, where the
//     program writes no property of those names and neither writes nor hands on the global
//     Object or JSON (it only reads their properties, calls them, compares them, takes their
//     type, extends them, or gives them to a binding read only so), and where Object.prototype
//     is only read (a property of it read, it compared, a binding of it read so, given to new
//     WeakSet): JSON.stringify reads a toJSON there, ${o} and == a toString or valueOf, a
//     spread the iterator, each called with the object as this (a prototype reached by
//     __proto__ or Object.getPrototypeOf and written is not followed);
//   - held by a binding (var s = o, s = o, a || o, c ? o : p, (a, o)) whose every read is one
//     of these; pushed on an array each declaration of which gives it [] and whose only other
//     uses are push, length and reads of its elements, each one of these; returned by a function
//     declared in a statement list (neither async nor a generator) whose every other use is
//     a call, each call one of these.
//
// Any other place (an argument of another call, a property of another object, an element of
// an array literal, a thrown or yielded value, an export) leaves the object as written.
// Written through a key computed at run time (o[k] = v) the parse cannot see Object.keys
// patched; such a write onto the global Object itself (Object[k] = v) leaves every object.

// nsKnownCalls are the functions of Object that read an object's own enumerable properties
// (or its prototype) and hand none of it on.
var nsKnownCalls = map[string]bool{"keys": true, "values": true, "entries": true, "getOwnPropertyNames": true, "getPrototypeOf": true, "hasOwn": true, "assign": true}

// nsGlobals are the globals whose functions the rule above takes at their word (WeakSet's:
// new WeakSet([Object.prototype, …]) keeps Object.prototype where no code gets it back, as the
// MCP SDK's prebuilt code makes one).
var nsGlobals = map[string]bool{"Object": true, "JSON": true, "WeakSet": true}

// nsProgram is what one walk of a program finds for the rule: the property reads written
// (targets) or called (callees), the property names written, and the globals of nsGlobals
// written or handed on (changed).
type nsProgram struct {
	targets map[js.INode]bool
	callees map[js.INode]bool
	written map[string]bool
	changed map[string]bool
	aliases map[*js.Var]string // bindings given a global of nsGlobals (let P = o ?? Object)
	weakSet bool               // Object.prototype given to new WeakSet
	grew    bool
	stack   []js.INode
}

func newNsProgram(ast *js.AST) *nsProgram {
	p := &nsProgram{targets: map[js.INode]bool{}, callees: map[js.INode]bool{}, written: map[string]bool{}, changed: map[string]bool{}, aliases: map[*js.Var]string{}}
	for p.grew = true; p.grew; {
		p.grew = false
		js.Walk(p, ast)
	}
	return p
}

// globalKept reports whether name, a global of nsGlobals, holds the language's object with its
// properties of names as the language gives them.
func (p *nsProgram) globalKept(name string, names ...string) bool {
	if p.changed[name] || p.written[name] {
		return false
	}
	if name == "Object" && (p.changed[objectPrototype] || p.weakSet && !p.globalKept("WeakSet", "add")) {
		return false // new WeakSet([Object.prototype]) calls its add
	}
	for _, n := range names {
		if p.written[n] {
			return false
		}
	}
	return true
}

// target notes the property reads a write target e names: itself, or those of its pattern.
func (p *nsProgram) target(e js.INode) {
	switch e := e.(type) {
	case *js.DotExpr:
		p.targets[e] = true
		p.written[memberName(e)] = true
	case *js.IndexExpr:
		p.targets[e] = true
		if l, ok := e.Y.(*js.LiteralExpr); ok && l.TokenType == js.StringToken && len(l.Data) >= 2 {
			p.written[string(l.Data[1:len(l.Data)-1])] = true
		} else if v, ok := e.X.(*js.Var); ok && p.global(v) == "Object" {
			p.changed["Object"] = true // Object[k] = v: any of its functions
		}
	case *js.GroupExpr:
		p.target(e.X)
	case *js.ArrayExpr:
		for _, el := range e.List {
			p.target(el.Value)
		}
	case *js.ObjectExpr:
		for _, pr := range e.List {
			p.target(pr.Value)
		}
	case *js.BinaryExpr:
		if e.Op == js.EqToken { // a pattern's default
			p.target(e.X)
		}
	case *js.Var:
		if nsGlobals[string(e.Data)] && resolved(e).Decl == js.NoDecl {
			p.changed[string(e.Data)] = true
		}
	}
}

// writtenBy returns what n writes: an assignment's left side, the operand of an update or a
// delete, a for-in/of head; nil for another node.
func writtenBy(n js.INode) js.IExpr {
	switch n := n.(type) {
	case *js.BinaryExpr:
		if localnames.AssignOps[n.Op] {
			return n.X
		}
	case *js.UnaryExpr:
		switch n.Op {
		case js.DeleteToken, js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
			return n.X
		}
	case *js.ForInStmt:
		return n.Init
	case *js.ForOfStmt:
		return n.Init
	}
	return nil
}

// global returns the global of nsGlobals v names, itself or through an alias; "" for none.
func (p *nsProgram) global(v *js.Var) string {
	if nsGlobals[string(v.Data)] && resolved(v).Decl == js.NoDecl {
		return string(v.Data)
	}
	return p.aliases[resolved(v)]
}

func (p *nsProgram) Enter(n js.INode) js.IVisitor {
	if t := writtenBy(n); t != nil {
		p.target(t)
	}
	switch n := n.(type) {
	case *js.CallExpr:
		p.callees[unGroup(n.X)] = true
	case *js.TemplateExpr:
		if n.Tag != nil {
			p.callees[unGroup(n.Tag)] = true
		}
	case *js.Var:
		if g := p.global(n); g == objectPrototype {
			if !p.prototypeRead(n, len(p.stack)-1) {
				p.changed[g] = true
			}
		} else if g != "" && !p.readOnly(n, g) {
			p.changed[g] = true
		}
	}
	p.stack = append(p.stack, n)
	return p
}

func (p *nsProgram) Exit(js.INode) { p.stack = p.stack[:len(p.stack)-1] }

// readOnly reports whether v, naming the global g at the top of the walk, is only read there:
// a property of it read, it called, compared, named by typeof, instanceof or in, extended by a
// class, destructured, or given to a binding (an alias, itself read only so).
func (p *nsProgram) readOnly(v *js.Var, g string) bool {
	var e js.INode = v
	for i := len(p.stack) - 1; i >= 0; i-- {
		switch q := p.stack[i].(type) {
		case *js.GroupExpr:
		case *js.CondExpr:
			if js.INode(q.Cond) == e {
				return true
			}
		case *js.CommaExpr:
			if js.INode(q.List[len(q.List)-1]) != e {
				return true
			}
		case *js.DotExpr:
			if js.INode(q.X) != e || p.targets[q] {
				return false
			}
			// Object.prototype, every object's prototype: a property of it read, not
			// written, it compared, or a binding of it read so; not handed on.
			return g != "Object" || memberName(q) != "prototype" || p.prototypeRead(q, i-1)
		case *js.IndexExpr:
			return js.INode(q.X) == e && !p.targets[q]
		case *js.CallExpr:
			return js.INode(q.X) == e
		case *js.NewExpr:
			return js.INode(q.X) == e
		case *js.ClassDecl:
			return js.INode(q.Extends) == e
		case *js.ExprStmt:
			return true
		case *js.BinaryExpr:
			switch q.Op {
			case js.EqEqEqToken, js.NotEqEqToken, js.EqEqToken, js.NotEqToken, js.InstanceofToken, js.InToken:
				return true
			case js.OrToken, js.NullishToken, js.AndToken:
			case js.EqToken:
				x, ok := q.X.(*js.Var)
				if !ok || js.INode(x) == e {
					return ok
				}
				p.alias(x, g)
			default:
				return false
			}
		case *js.UnaryExpr:
			return q.Op == js.TypeofToken
		case *js.BindingElement:
			if x, ok := q.Binding.(*js.Var); ok && js.INode(x) != e {
				p.alias(x, g)
			}
			return true
		default:
			return false
		}
		e = p.stack[i]
	}
	return false
}

// objectPrototype is the name aliases give a binding of Object.prototype.
const objectPrototype = "Object.prototype"

// prototypeRead reports whether x, Object.prototype or a binding of it, whose parent is
// p.stack[i], is only read there: a property of it read, not written, it compared, given to a
// binding declared with it (var P = Object.prototype: an alias, itself read only so), or it an
// element of an array given to new WeakSet (which gives no member back).
func (p *nsProgram) prototypeRead(x js.INode, i int) bool {
	if i < 0 {
		return false
	}
	switch q := p.stack[i].(type) {
	case *js.BindingElement:
		if v, ok := q.Binding.(*js.Var); ok && js.INode(v) == x {
			return true // the alias's declaration
		}
		if v, ok := q.Binding.(*js.Var); ok && js.INode(q.Default) == x {
			p.alias(v, objectPrototype)
			return true
		}
	case *js.DotExpr:
		return q.X == x && !p.targets[q]
	case *js.IndexExpr:
		return q.X == x && !p.targets[q]
	case *js.BinaryExpr:
		switch q.Op {
		case js.EqEqEqToken, js.NotEqEqToken, js.EqEqToken, js.NotEqToken:
			return true
		}
	case *js.Element:
		if q.Spread || i < 4 {
			return false
		}
		_, isArray := p.stack[i-1].(*js.ArrayExpr)
		arg, isArg := p.stack[i-2].(*js.Arg)
		args, isArgs := p.stack[i-3].(*js.Args)
		n, isNew := p.stack[i-4].(*js.NewExpr)
		if isArray && isArg && isArgs && isNew && !arg.Rest && len(args.List) == 1 && isGlobal(n.X, "WeakSet") {
			p.weakSet = true
			return true
		}
	}
	return false
}

func (p *nsProgram) alias(v *js.Var, g string) {
	v = resolved(v)
	if old, ok := p.aliases[v]; !ok {
		p.aliases[v], p.grew = g, true
	} else if old != g {
		p.changed[old], p.changed[g] = true, true // one binding of two globals: both
	}
}

// memberName returns the name of the property o.name reads.
func memberName(d *js.DotExpr) string {
	switch y := d.Y.(type) {
	case js.LiteralExpr:
		return string(y.Data)
	case *js.LiteralExpr:
		return string(y.Data)
	case *js.Var:
		return string(y.Data)
	}
	return ""
}

// origins are the calls whose namespace objects a value may be.
type origins map[*js.CallExpr]bool

// nsFlow follows the namespace objects of calls through a program by the rule above: holders
// are the bindings that may hold them, arrays the arrays whose elements may be them, returns
// the functions that may return them; refused the calls whose objects reach other code.
type nsFlow struct {
	p        *nsProgram
	calls    map[*js.CallExpr]bool
	thisFree func(*js.CallExpr) bool

	holders, arrays, returns map[*js.Var]origins
	refused                  origins
	grew                     bool
	stack                    []js.INode
}

// namespacesKept returns the calls of calls (the helpers' calls namespaceValues would write)
// whose objects the rule above lets it write, walking ast until what holds them is all found.
func namespacesKept(ast *js.AST, p *nsProgram, calls []*js.CallExpr, exported map[string]bool, thisFree func(*js.CallExpr) bool) map[*js.CallExpr]bool {
	f := &nsFlow{p: p, calls: map[*js.CallExpr]bool{}, thisFree: thisFree,
		holders: map[*js.Var]origins{}, arrays: map[*js.Var]origins{}, returns: map[*js.Var]origins{}, refused: origins{}}
	for _, c := range calls {
		f.calls[c] = true
	}
	for f.grew = true; f.grew; {
		f.grew = false
		js.Walk(f, ast)
	}
	// A binding the module exports reaches its importers.
	for _, v := range ast.BlockStmt.Scope.Declared {
		if exported[string(v.Data)] {
			f.refuse(f.holders[v])
			f.refuse(f.arrays[v])
			f.refuse(f.returns[v])
		}
	}
	kept := map[*js.CallExpr]bool{}
	for _, c := range calls {
		if !f.refused[c] {
			kept[c] = true
		}
	}
	return kept
}

func (f *nsFlow) add(m map[*js.Var]origins, v *js.Var, o origins) {
	for c := range o {
		if m[v] == nil {
			m[v] = origins{}
		}
		if !m[v][c] {
			m[v][c] = true
			f.grew = true
		}
	}
}

func (f *nsFlow) refuse(o origins) {
	for c := range o {
		f.refused[c] = true
	}
}

func (f *nsFlow) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.Var:
		v := resolved(n)
		if o := f.holders[v]; o != nil && !f.valueKept(n, o) {
			f.refuse(o)
		}
		if o := f.arrays[v]; o != nil && !f.arrayKept(n) {
			f.refuse(o)
		}
		if o := f.returns[v]; o != nil && !f.calledOnly(n) {
			f.refuse(o)
		}
	case *js.CallExpr:
		if f.calls[n] {
			if o := (origins{n: true}); !f.valueKept(n, o) {
				f.refuse(o)
			}
		} else if g, ok := n.X.(*js.Var); ok && f.returns[resolved(g)] != nil {
			if o := f.returns[resolved(g)]; !f.valueKept(n, o) {
				f.refuse(o)
			}
		}
	case *js.IndexExpr:
		if r, ok := n.X.(*js.Var); ok && f.arrays[resolved(r)] != nil {
			if o := f.arrays[resolved(r)]; !f.valueKept(n, o) {
				f.refuse(o)
			}
		}
	}
	f.stack = append(f.stack, n)
	return f
}

func (f *nsFlow) Exit(js.INode) { f.stack = f.stack[:len(f.stack)-1] }

// valueKept reports whether the value of e, the node the walk is at, which may be the objects
// of o, goes only where the rule lets them go; it notes the bindings it is given to.
func (f *nsFlow) valueKept(e js.INode, o origins) bool {
	for i := len(f.stack) - 1; i >= 0; i-- {
		switch p := f.stack[i].(type) {
		case *js.GroupExpr:
		case *js.CommaExpr:
			if js.INode(p.List[len(p.List)-1]) != e {
				return true // read for nothing
			}
		case *js.CondExpr:
			if js.INode(p.Cond) == e {
				return true
			}
		case *js.BinaryExpr:
			switch p.Op {
			case js.OrToken, js.NullishToken:
			case js.AndToken:
				if js.INode(p.X) == e {
					return true // tested: an object is true
				}
			case js.EqEqEqToken, js.NotEqEqToken, js.EqEqToken, js.NotEqToken, js.InToken:
				return true
			case js.EqToken:
				if js.INode(p.X) == e {
					_, ok := e.(*js.Var)
					return ok // the binding written, not the object
				}
				switch x := p.X.(type) {
				case *js.Var:
					f.add(f.holders, resolved(x), o)
				case *js.ArrayExpr, *js.ObjectExpr:
					// read by the pattern; the assignment's value is the object
				default:
					return false
				}
			default:
				return false
			}
		case *js.UnaryExpr:
			return p.Op == js.NotToken || p.Op == js.TypeofToken || p.Op == js.VoidToken
		case *js.ExprStmt, *js.ForStmt, *js.ForInStmt, *js.ForOfStmt, *js.SwitchStmt, *js.CaseClause:
			// read for nothing, tested, iterated (its keys, or its iterator: none), a
			// binding written, compared
			return true
		case *js.IfStmt, *js.WhileStmt, *js.DoWhileStmt:
			return true // tested
		case *js.DotExpr:
			return js.INode(p.X) == e && f.readKept(p, o)
		case *js.IndexExpr:
			return js.INode(p.Y) == e || f.readKept(p, o)
		case *js.BindingElement:
			if v, ok := p.Binding.(*js.Var); ok && js.INode(v) != e {
				f.add(f.holders, resolved(v), o)
			}
			return true // declared, given to a binding, or read by a pattern
		case *js.FuncDecl:
			return js.INode(p.Name) == e
		case *js.ClassDecl:
			return js.INode(p.Name) == e
		case *js.TryStmt:
			return js.INode(p.Binding) == e
		case *js.BindingObject:
			return js.INode(p.Rest) == e
		case *js.Property:
			return p.Spread
		case *js.Element:
			return p.Spread
		case *js.Arg:
			return p.Rest || f.argKept(i, p, o)
		case *js.TemplatePart:
			t, ok := f.stack[i-1].(*js.TemplateExpr)
			return ok && t.Tag == nil
		case *js.ReturnStmt:
			return f.returned(i, o)
		default:
			return false
		}
		e = f.stack[i]
	}
	return false
}

// readKept reports whether the property read p of an object of o reads it: p is not written,
// and where p is called (this the object) each getter's function cannot read this.
func (f *nsFlow) readKept(p js.INode, o origins) bool {
	if f.p.targets[p] {
		return false
	}
	if f.p.callees[p] {
		for c := range o {
			if !f.thisFree(c) {
				return false
			}
		}
	}
	return true
}

// argKept reports whether the argument arg, at f.stack[i], is given to a function of the rule;
// one pushed on an array makes its elements hold o (arrayKept then checks each name of it).
func (f *nsFlow) argKept(i int, arg *js.Arg, o origins) bool {
	if i < 2 {
		return false
	}
	args, ok := f.stack[i-1].(*js.Args)
	call, isCall := f.stack[i-2].(*js.CallExpr)
	if !ok || !isCall {
		return false
	}
	d, ok := call.X.(*js.DotExpr)
	if !ok || d.Optional || call.Optional {
		return false
	}
	name := memberName(d)
	x, ok := d.X.(*js.Var)
	if !ok {
		return false
	}
	switch {
	case isGlobal(x, "Object") && nsKnownCalls[name] && f.p.globalKept("Object", name):
		return name != "assign" || arg != &args.List[0]
	case isGlobal(x, "JSON") && name == "stringify" && f.p.globalKept("JSON", name):
		return len(args.List) == 1
	case name == "push" && !f.p.written[name] && resolved(x).Decl != js.NoDecl:
		// an array of the program's if arrayKept holds for each of its names
		f.add(f.arrays, resolved(x), o)
		return true
	}
	return false
}

// returned reports whether the return statement at f.stack[i] returns from a function
// declared in a statement list, neither async nor a generator, whose calls then give o (each
// name of it is then a declaration or a call's: calledOnly).
func (f *nsFlow) returned(i int, o origins) bool {
	for j := i - 1; j > 0; j-- {
		switch fn := f.stack[j].(type) {
		case *js.FuncDecl:
			if _, inList := f.stack[j-1].(*js.BlockStmt); !inList || fn.Name == nil || fn.Async || fn.Generator {
				return false
			}
			f.add(f.returns, resolved(fn.Name), o)
			return true
		case *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
			return false
		}
	}
	return false
}

// arrayKept reports whether v, a name of an array of arrays, is used as the rule lets: its
// push called, its length or an element read, or a declaration that gives it a new array
// (var r = []; any other declaration or write may make it an array other code holds).
func (f *nsFlow) arrayKept(v *js.Var) bool {
	switch p := f.stack[len(f.stack)-1].(type) {
	case *js.DotExpr:
		name := memberName(p)
		return js.INode(p.X) == js.INode(v) && !f.p.targets[p] && (name == "length" && !f.p.callees[p] || name == "push" && f.p.callees[p] && !f.p.written[name])
	case *js.IndexExpr:
		return js.INode(p.X) == js.INode(v) && !f.p.targets[p] && !f.p.callees[p]
	case *js.BindingElement:
		a, ok := p.Default.(*js.ArrayExpr)
		return js.INode(p.Binding) == js.INode(v) && ok && len(a.List) == 0
	}
	return false
}

// calledOnly reports whether v, a name of a function of returns, is called there (or declared).
func (f *nsFlow) calledOnly(v *js.Var) bool {
	switch p := f.stack[len(f.stack)-1].(type) {
	case *js.CallExpr:
		return js.INode(p.X) == js.INode(v) && !p.Optional
	case *js.FuncDecl:
		return p.Name == v
	}
	return false
}
