package pipeline

import (
	"slices"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Logical assignments to plain variables. esbuild's minifier prints a = a ?? b, a = a || b and
// a = a && b as written; Oxc's, and so Vite's build, prints a ??= b, a ||= b, a &&= b. For a
// binding the module declares and may assign (a var, a let, a parameter, a function's or a
// catch clause's name), the two are the same program: a is read once either way, b is
// evaluated only where the operator does not short-circuit, and where it does, writing a's
// own value back to a binding (no setter, no property of the global object) is not seen. The
// value of the expression is the same. Left as written: a const, a class's name (bound in the
// class as a constant), a function or class expression's own name (a constant in it), an
// import (a live binding of another module), a global (a property of the global object, which
// may have a setter), a name the parse binds otherwise than the language (localnames' keep), a
// target inside a destructuring pattern ([a = a ?? b] = o: a default, not an assignment), a
// right side whose operator is not the first after a (a = a || b ? c : d), and a module with a
// direct eval or a with. The places of the targets come from localnames' alignment of the
// parse with the text (RenameAt), which the local names read too.
//
// Likewise a op (a = b), which esbuild prints as written, for such a variable, and o.p op
// (o.p = b) and o[literal] op (o[literal] = b) where o is this or a binding the module declares
// and never assigns again (placeFinder, as logicalassign.go decides for a package's module):
// written a op= b, o.p op= b. The property is read once and written once only where op does
// not short-circuit, as written; o, evaluated twice as written and once after, is the same
// object both times (a getter that assigned o between the two would be seen; the module is
// strict, so no arguments object aliases a parameter). The expression must stand where an
// assignment may (assignmentPlace): a || (a = b) || c is left. The property's places are its
// key's token's; the closing parenthesis's is found by lexing from the opening one
// (Program.Closing).

// logicalVars finds, in p, the assignments a = a op b of plain variables that nameEdits
// writes as a op= b: the slot of each target, and each operator; and the properties
// o.p op (o.p = b) it writes o.p op= b (props).
func logicalVars(p *localnames.Program) (slots []*js.IExpr, ops []js.TokenType, props []logicalProp) {
	if !p.Known() {
		return nil, nil, nil
	}
	f := &logicalVarFinder{p: p, fixed: map[*js.Var]bool{}}
	js.Walk(f, p.AST)
	for i, slot := range f.slots {
		if v := resolved((*slot).(*js.Var)); !f.fixed[v] {
			slots, ops = append(slots, slot), append(ops, f.ops[i])
		}
	}
	// The variables a op (a = b): their two slots after those of a = a op b.
	for _, prop := range f.props {
		if prop.vars == nil {
			props = append(props, prop)
		} else if !f.fixed[resolved((*prop.vars[0]).(*js.Var))] {
			slots = append(slots, prop.vars[:]...)
			prop.slot = len(slots) - 2
			props = append(props, prop)
		}
	}
	return slots, ops, props
}

// logicalProp is o.p op (o.p = b), or o[literal]: the key's token of each o.p (a name or a
// literal of the parse), and op; or a op (a = b) of a variable: the slots of each a (vars),
// slot the first's index in logicalVars' slots.
type logicalProp struct {
	read, write []byte
	indexed     bool
	op          js.TokenType
	vars        *[2]*js.IExpr
	slot        int
}

// logicalVarFinder finds the assignments a = a op b, and the bindings that may not be
// assigned: each const's and each class's name (fixed); and the properties o.p op (o.p = b)
// (places: the module's writes and imports, once one is met).
type logicalVarFinder struct {
	p      *localnames.Program
	fixed  map[*js.Var]bool
	stack  []js.INode
	slots  []*js.IExpr
	ops    []js.TokenType
	places *logicalFinder
	props  []logicalProp
}

func (f *logicalVarFinder) Enter(n js.INode) js.IVisitor {
	f.stack = append(f.stack, n)
	switch n := n.(type) {
	case *js.BinaryExpr:
		if n.Op == js.EqToken && f.assigns(n) {
			f.slots, f.ops = append(f.slots, &n.X), append(f.ops, n.Y.(*js.BinaryExpr).Op)
		}
		if _, ok := logicalOps[n.Op]; ok && len(f.stack) > 1 && assignmentPlace(f.stack[len(f.stack)-2], n) {
			f.property(n)
		}
	case *js.VarDecl:
		if n.TokenType != js.VarToken && n.TokenType != js.LetToken {
			for i := range n.List {
				localnames.AddBindings(f.fixed, n.List[i].Binding)
			}
		}
	case *js.ClassDecl:
		if n.Name != nil {
			f.fixed[n.Name] = true
		}
	}
	return f
}

func (f *logicalVarFinder) Exit(js.INode) { f.stack = f.stack[:len(f.stack)-1] }

// assigns reports whether b, an =, is a = a op b of a plain variable, not in a pattern.
func (f *logicalVarFinder) assigns(b *js.BinaryExpr) bool {
	a, ok := b.X.(*js.Var)
	if !ok {
		return false
	}
	y, ok := b.Y.(*js.BinaryExpr)
	if !ok || y.Op != js.NullishToken && y.Op != js.OrToken && y.Op != js.AndToken {
		return false
	}
	read, ok := y.X.(*js.Var)
	if !ok || resolved(read) != resolved(a) {
		return false
	}
	if !f.assignable(a) {
		return false
	}
	// Inside a destructuring target ([a = a ?? b] = o, for ([a = a || b] of l)) the = is a
	// default.
	for i := len(f.stack) - 2; i >= 0; i-- {
		child := f.stack[i+1]
		switch p := f.stack[i].(type) {
		case *js.BinaryExpr:
			if p.Op == js.EqToken && p.X == child {
				return false
			}
		case *js.ForInStmt:
			if p.Init == child {
				return false
			}
		case *js.ForOfStmt:
			if p.Init == child {
				return false
			}
		}
	}
	return true
}

// property adds b to props when it is o.p op (o.p = v) of one place (sameProperty).
func (f *logicalVarFinder) property(b *js.BinaryExpr) {
	set := loweredSet(b)
	if set == nil {
		return
	}
	switch x := b.X.(type) {
	case *js.Var:
		if y, ok := set.X.(*js.Var); ok && resolved(x) == resolved(y) && f.assignable(x) {
			f.props = append(f.props, logicalProp{op: b.Op, vars: &[2]*js.IExpr{&b.X, &set.X}})
		}
		return
	case *js.DotExpr, *js.IndexExpr:
	default:
		return
	}
	for _, o := range []js.IExpr{b.X, set.X} {
		var obj js.IExpr
		switch o := o.(type) {
		case *js.DotExpr:
			obj = o.X
		case *js.IndexExpr:
			obj = o.X
		}
		if v, ok := obj.(*js.Var); ok && f.p.Kept(string(resolved(v).Data)) {
			return
		}
	}
	if f.places == nil {
		f.places = placeFinder(f.p.AST)
	}
	if read, write, indexed := f.places.sameProperty(b.X, set.X); read != nil {
		f.props = append(f.props, logicalProp{read: read, write: write, indexed: indexed, op: b.Op})
	}
}

// assignable reports whether a names a binding the module declares and may assign, as the
// parse binds it (the const's and classes' names are found apart: fixed).
func (f *logicalVarFinder) assignable(a *js.Var) bool {
	v := resolved(a)
	switch v.Decl {
	case js.VariableDecl, js.LexicalDecl, js.ArgumentDecl, js.FunctionDecl, js.CatchDecl:
	default:
		return false
	}
	return !f.p.Kept(string(v.Data))
}

// nameEdits returns the edits over p, the parse of src, of the local names (rename;
// renameLocals, module its top level too) and of the logical assignments of plain variables
// (assign), from one alignment of the parse with src; sorted by place.
func nameEdits(p *localnames.Program, src string, module, rename, assign bool) []localnames.Edit {
	var slots []*js.IExpr
	var ops []js.TokenType
	var props []logicalProp
	if assign {
		slots, ops, props = logicalVars(p)
	}
	if !rename && len(slots) == 0 && len(props) == 0 {
		return nil
	}
	edits, at := p.RenameAt(module, rename, slots)
	for _, prop := range props {
		if prop.vars == nil {
			edits = logicalPropEdits(p, src, prop, edits, -1, -1)
		} else if at != nil && at[prop.slot] >= 0 && at[prop.slot+1] >= 0 {
			n := len(resolved((*prop.vars[0]).(*js.Var)).Data)
			edits = logicalPropEdits(p, src, prop, edits, at[prop.slot]+n, at[prop.slot+1]+n)
		}
	}
	for i, s := range at[:min(len(at), len(ops))] {
		if s < 0 {
			continue
		}
		// The text from the target: a=a??, each a the same name (renamed or not, the
		// rename edits say), written a??=.
		name := string(resolved((*slots[i]).(*js.Var)).Data)
		op := ops[i].String()
		n, end := len(name), s+2*len(name)+1+len(op)
		if end > len(src) || src[s:s+n] != name || src[s+n] != '=' || src[s+n+1:s+2*n+1] != name || src[s+2*n+1:end] != op {
			continue
		}
		// The read's new name goes with it.
		edits = slices.DeleteFunc(edits, func(e localnames.Edit) bool { return e.Start > s+n && e.Start < end })
		edits = append(edits, localnames.Edit{Start: s + n, End: end, Text: op + "="})
	}
	sortEdits(edits)
	return edits
}

// logicalPropEdits adds to edits those that write prop, o.p op (o.p = v) in src, o.p op= v
// (or a op (a = v), where readEnd and writeEnd are the ends of the two a's):
// op (o.p = becomes op=, the closing parenthesis goes, and the edits of the names in the
// second o.p with them (o is written once, as the first is); edits as they were where the
// text is not so (a space, a comment).
func logicalPropEdits(p *localnames.Program, src string, prop logicalProp, edits []localnames.Edit, readEnd, writeEnd int) []localnames.Edit {
	end := func(key []byte) int {
		e := p.Offset(key) + len(key)
		if prop.indexed {
			e++ // ]
		}
		return e
	}
	op := prop.op.String()
	if prop.vars == nil {
		readEnd, writeEnd = end(prop.read), end(prop.write)
	}
	open := readEnd + len(op)
	n := writeEnd - (open + 1) // the length of o.p as written
	if n <= 0 || readEnd-n < 0 || writeEnd >= len(src) || src[readEnd:open+1] != op+"(" ||
		src[readEnd-n:readEnd] != src[open+1:writeEnd] || src[writeEnd] != '=' {
		return edits
	}
	closing := p.Closing(open)
	if closing < 0 {
		return edits
	}
	edits = slices.DeleteFunc(edits, func(e localnames.Edit) bool { return e.Start >= readEnd && e.Start <= writeEnd })
	return append(edits, localnames.Edit{Start: readEnd, End: writeEnd + 1, Text: op + "="}, localnames.Edit{Start: closing, End: closing + 1})
}
