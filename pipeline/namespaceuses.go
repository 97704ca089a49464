package pipeline

import (
	"strings"

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
//   - its own properties read, o.k and o[k] of a key the object has (a string, or the binding
//     of a for-of over a list of strings the parse knows: an array of them, a string's split,
//     a binding given one once and only iterated), not written, deleted or a for-in/of head,
//     and not called as o.k(…), which gives the property's value the object as this, unless
//     each getter's binding is a function declared in the call's list that says neither this
//     nor super, a class, or an arrow; read by an object pattern of its own keys;
//   - the object spread into an object ({...o}), its keys iterated by for (k in o), tested (if,
//     !, ?:'s test, &&'s left), compared (===, !==, and == or != with null or undefined), named
//     by typeof or void, a key's right side (k in o), a statement's value;
//   - given to Object.keys, values, entries, getOwnPropertyNames, hasOwn, Object.assign after
//     its first argument, or Object.getPrototypeOf whose result is only compared (=== or !==),
//     where the program writes no property of those names and neither writes nor hands on the
//     global Object (it only reads its properties, calls them, compares it, takes its type,
//     extends it, or gives it to a binding read only so), and Object.prototype is only read;
//   - held by a binding declared (var s = o, s = o, a || o, c ? o : p, (a, o); a global is
//     globalThis's property, which any code reads) whose every read is one
//     of these; pushed on an array each declaration of which gives it [] and whose only other
//     uses are push, length and reads of its elements, each one of these; returned by a function
//     declared in a statement list (neither async nor a generator) whose every other use is
//     a call, each call one of these.
//
// Nothing that reads a property the object has not reaches its prototype, Object.prototype,
// which code may reach unseen (__proto__, Object.getPrototypeOf of another object,
// constructor.prototype, a computed key) and give a getter, a toJSON, a toString or an
// iterator that reads the object's properties as they are written (a getter) or as values
// (Object.getOwnPropertyDescriptor): so JSON.stringify(o), `${o}`, o == "x", x[o], o in x,
// [...o], f(...o), for (x of o), an array pattern, a key o has not (o.hasOwnProperty,
// o.__lookupGetter__, o[k] of a key for-in gives) leave it as written. The list of strings is the
// language's where no code writes a property named split or Symbol.iterator by its name.
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
var nsGlobals = map[string]bool{"Object": true, "WeakSet": true}

// nsProgram is what one walk of a program finds for the rule: the property reads written
// (targets) or called (callees), the property names written, and the globals of nsGlobals
// written or handed on (changed).
type nsProgram struct {
	targets  map[js.INode]bool
	callees  map[js.INode]bool
	written  map[string]bool
	changed  map[string]bool
	aliases  map[*js.Var]string // bindings given a global of nsGlobals (let P = o ?? Object)
	weakSet  bool               // Object.prototype given to new WeakSet
	iterator bool               // Symbol.iterator written as a key, or defined
	grew     bool
	stack    []js.INode
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
		if isSymbolIterator(e.Y) {
			p.iterator = true
		}
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
		if d, ok := unGroup(n.X).(*js.DotExpr); ok && (memberName(d) == "defineProperty" || memberName(d) == "set") {
			for _, a := range n.Args.List {
				if isSymbolIterator(a.Value) {
					p.iterator = true // Object.defineProperty(o, Symbol.iterator, …), Reflect.set
				}
			}
		}
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

	ast    *js.AST
	writes *localnames.Writes   // the program's, namespaceFinder's
	lists  map[*js.Var]js.IExpr // listBindings', made when first asked

	holders, arrays, returns map[*js.Var]origins
	refused                  origins
	grew                     bool
	stack                    []js.INode
}

// namespacesKept returns the calls of calls (the helpers' calls namespaceValues would write)
// whose objects the rule above lets it write, walking ast until what holds them is all found.
func namespacesKept(ast *js.AST, writes *localnames.Writes, p *nsProgram, calls []*js.CallExpr, exported map[string]bool, thisFree func(*js.CallExpr) bool) map[*js.CallExpr]bool {
	f := &nsFlow{p: p, ast: ast, writes: writes, calls: map[*js.CallExpr]bool{}, thisFree: thisFree,
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
			case js.EqEqEqToken, js.NotEqEqToken:
				return true
			case js.EqEqToken, js.NotEqToken:
				// == of an object and a primitive calls the object's toPrimitive, toString
				// or valueOf, its prototype's: compared with null or undefined, none.
				other := p.Y
				if js.INode(p.Y) == e {
					other = p.X
				}
				return isNullish(other)
			case js.InToken:
				return js.INode(p.Y) == e // a key: its toString, the prototype's
			case js.EqToken:
				if js.INode(p.X) == e {
					_, ok := e.(*js.Var)
					return ok // the binding written, not the object
				}
				switch x := p.X.(type) {
				case *js.Var:
					if resolved(x).Decl == js.NoDecl {
						return false // a global: globalThis's property, read by any code
					}
					f.add(f.holders, resolved(x), o)
				case *js.ObjectExpr:
					// read by the pattern; the assignment's value is the object
					if !f.patternOwn(x, o) {
						return false
					}
				default:
					return false // an array pattern calls the object's iterator
				}
			default:
				return false
			}
		case *js.UnaryExpr:
			return p.Op == js.NotToken || p.Op == js.TypeofToken || p.Op == js.VoidToken
		case *js.ForOfStmt:
			return js.INode(p.Value) != e // iterated: the prototype's iterator
		case *js.ExprStmt, *js.ForStmt, *js.ForInStmt, *js.SwitchStmt, *js.CaseClause:
			// read for nothing, tested, its keys iterated, a binding written, compared
			return true
		case *js.IfStmt, *js.WhileStmt, *js.DoWhileStmt:
			return true // tested
		case *js.DotExpr:
			return js.INode(p.X) == e && f.own(o, memberName(p)) && f.readKept(p, o)
		case *js.IndexExpr:
			return js.INode(p.X) == e && f.ownKeys(o, f.keysOf(p.Y, i)) && f.readKept(p, o)
		case *js.BindingElement:
			switch b := p.Binding.(type) {
			case *js.Var:
				if js.INode(b) != e {
					f.add(f.holders, resolved(b), o)
				}
				return true // declared, or given to a binding
			case *js.BindingObject:
				return f.bindingOwn(b, o)
			}
			return false // an array pattern calls the object's iterator
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
		case *js.Arg:
			return !p.Rest && f.argKept(i, p, o)
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
		switch name {
		case "assign":
			return arg != &args.List[0]
		case "getPrototypeOf":
			return f.compared(i - 2) // the prototype, not handed on
		}
		return true
	case name == "push" && !f.p.written[name] && resolved(x).Decl != js.NoDecl:
		// an array of the program's if arrayKept holds for each of its names
		f.add(f.arrays, resolved(x), o)
		return true
	}
	return false
}

// own reports whether name is a key of every object of o, an own property, which a read finds
// without its prototype: Object.prototype, which other code may reach unseen (by __proto__,
// Object.getPrototypeOf, constructor.prototype, a computed key) and give a getter, a toJSON or a
// method that reads the object's properties as they are written (a getter or a value).
func (f *nsFlow) own(o origins, name string) bool {
	if name == "" {
		return false
	}
	for c := range o {
		found := false
		for _, p := range c.Args.List[0].Value.(*js.ObjectExpr).List {
			if k, ok := propKey(p); ok && k == name {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ownKeys reports whether keys, a list the parse knows, are all own keys of the objects of o.
func (f *nsFlow) ownKeys(o origins, keys []string) bool {
	for _, k := range keys {
		if !f.own(o, k) {
			return false
		}
	}
	return keys != nil
}

// keysOf returns the strings key, a property read's key at f.stack[i] or below, may be: a
// string; the binding of a for-of around it that says const, or let and its body writes it not,
// over a list of strings (an array of them, a string's split by a string, a binding given one
// once and only iterated); nil where the parse cannot say. The array's iterator and
// String.prototype.split are the language's where no code writes a property of those names.
func (f *nsFlow) keysOf(key js.IExpr, i int) []string {
	if k, ok := stringKey(key); ok {
		return []string{k}
	}
	v, ok := key.(*js.Var)
	if !ok || f.p.written["split"] || f.p.iterator {
		return nil
	}
	v = resolved(v)
	for ; i >= 0; i-- {
		loop, ok := f.stack[i].(*js.ForOfStmt)
		if !ok || loop.Await {
			continue
		}
		d, ok := loop.Init.(*js.VarDecl)
		if !ok || len(d.List) != 1 || d.TokenType == js.VarToken || d.List[0].Binding != js.IBinding(v) {
			continue
		}
		if d.TokenType == js.LetToken && localnames.WritesOf(loop.Body).Assigned(v) {
			return nil
		}
		return f.stringList(loop.Value, loop)
	}
	return nil
}

// stringList returns the strings of e, iterated by the for-of loop: an array of strings, a
// string's split by a string, or a binding declared once with one, never written and used
// nowhere but by such loops (so no code changes the array).
func (f *nsFlow) stringList(e js.IExpr, loop *js.ForOfStmt) []string {
	switch x := e.(type) {
	case *js.ArrayExpr:
		var list []string
		for _, el := range x.List {
			k, ok := stringKey(el.Value)
			if el.Spread || !ok {
				return nil
			}
			list = append(list, k)
		}
		return list
	case *js.CallExpr:
		d, ok := x.X.(*js.DotExpr)
		if !ok || memberName(d) != "split" || d.Optional || x.Optional || len(x.Args.List) != 1 || x.Args.List[0].Rest {
			return nil
		}
		text, ok := stringKey(d.X)
		sep, isSep := stringKey(x.Args.List[0].Value)
		if !ok || !isSep || sep == "" {
			return nil
		}
		return strings.Split(text, sep)
	case *js.Var:
		v := resolved(x)
		if f.lists == nil {
			f.lists = listBindings(f.ast, f.writes)
		}
		if l, ok := f.lists[v]; ok && l != nil {
			return f.stringList(l, loop)
		}
	}
	return nil
}

// listBindings returns, for each binding declared once with a value, never written, whose every
// other name is the iterated value of a for-of, that value; a binding named otherwise (a
// parameter of its name, which holds the argument until the var's declaration runs) maps to nil.
func listBindings(ast *js.AST, w *localnames.Writes) map[*js.Var]js.IExpr {
	lists := map[*js.Var]js.IExpr{}
	js.Walk(listWalker(func(n js.INode, parent js.INode) {
		switch x := n.(type) {
		case *js.BindingElement:
			if v, ok := x.Binding.(*js.Var); ok && x.Default != nil {
				v = resolved(v)
				if _, seen := lists[v]; !seen && !w.Assigned(v) && !w.Pattern[v] && w.Inits[v] == 1 {
					lists[v] = x.Default
				} else {
					lists[v] = nil
				}
			}
		case *js.Var:
			v := resolved(x)
			if loop, ok := parent.(*js.ForOfStmt); ok && loop.Value == js.IExpr(x) {
				return
			}
			if b, ok := parent.(*js.BindingElement); ok && b.Binding == js.IBinding(x) && b.Default != nil {
				return // a parameter of its name, or a declaration without a value, holds another
			}
			lists[v] = nil
		}
	}), ast)
	return lists
}

// listWalker calls its function with each node and its parent.
type listWalker func(n, parent js.INode)

func (l listWalker) Enter(n js.INode) js.IVisitor { return listChild{l, n} }
func (l listWalker) Exit(js.INode)                {}

type listChild struct {
	f      listWalker
	parent js.INode
}

func (c listChild) Enter(n js.INode) js.IVisitor {
	c.f(n, c.parent)
	return listChild{c.f, n}
}
func (c listChild) Exit(js.INode) {}

// patternOwn reports whether the assignment pattern x reads only own keys of the objects of o.
func (f *nsFlow) patternOwn(x *js.ObjectExpr, o origins) bool {
	for _, p := range x.List {
		if p.Spread {
			continue // the rest: own properties
		}
		k, ok := propKey(p)
		if p.Name == nil {
			v, isVar := p.Value.(*js.Var)
			if !isVar {
				return false
			}
			k, ok = string(v.Data), true
		}
		if !ok || !f.own(o, k) {
			return false
		}
	}
	return true
}

// bindingOwn reports whether the binding pattern b reads only own keys of the objects of o.
func (f *nsFlow) bindingOwn(b *js.BindingObject, o origins) bool {
	for _, item := range b.List {
		var k string
		ok := false
		switch {
		case item.Key == nil:
			if v, isVar := item.Value.Binding.(*js.Var); isVar {
				k, ok = string(v.Data), true
			}
		case !item.Key.IsComputed():
			k, ok = literalKey(item.Key.Literal)
		}
		if !ok || !f.own(o, k) {
			return false
		}
	}
	return true
}

// compared reports whether the value of the node at f.stack[i] is only compared (===, !==).
func (f *nsFlow) compared(i int) bool {
	for i--; i >= 0; i-- {
		switch p := f.stack[i].(type) {
		case *js.GroupExpr:
		case *js.BinaryExpr:
			return p.Op == js.EqEqEqToken || p.Op == js.NotEqEqToken
		default:
			return false
		}
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

// propKey returns the name of a property of an object literal, neither computed nor spread: an
// identifier, or a string without escapes.
func propKey(p js.Property) (string, bool) {
	if p.Spread || p.Name == nil || p.Name.IsComputed() {
		return "", false
	}
	return literalKey(p.Name.Literal)
}

// literalKey returns the key a literal property name gives: an identifier's name or a string's
// text, without escapes (unquoteName); not a number (its key is its canonical form).
func literalKey(l js.LiteralExpr) (string, bool) {
	if l.TokenType != js.IdentifierToken && l.TokenType != js.StringToken {
		return "", false
	}
	return unquoteName(l.Data)
}

// stringKey returns the text of e, a string literal without escapes (moduleSpec).
func stringKey(e js.IExpr) (string, bool) {
	l, ok := e.(*js.LiteralExpr)
	if !ok || l.TokenType != js.StringToken {
		return "", false
	}
	return moduleSpec(l.Data)
}

// isNullish reports whether e is null, undefined or void 0.
func isNullish(e js.IExpr) bool {
	switch x := e.(type) {
	case *js.LiteralExpr:
		return x.TokenType == js.NullToken
	case *js.Var:
		return string(x.Data) == "undefined" && resolved(x).Decl == js.NoDecl
	case *js.UnaryExpr:
		_, lit := x.X.(*js.LiteralExpr)
		return x.Op == js.VoidToken && lit
	}
	return false
}

// isSymbolIterator reports whether e is Symbol.iterator, Symbol the global.
func isSymbolIterator(e js.IExpr) bool {
	d, ok := unGroup(e).(*js.DotExpr)
	return ok && isGlobal(d.X, "Symbol") && memberName(d) == "iterator"
}
