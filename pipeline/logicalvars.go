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

// logicalVars finds, in p, the assignments a = a op b of plain variables that nameEdits
// writes as a op= b: the slot of each target, and each operator.
func logicalVars(p *localnames.Program) (slots []*js.IExpr, ops []js.TokenType) {
	if !p.Known() {
		return nil, nil
	}
	f := &logicalVarFinder{p: p, fixed: map[*js.Var]bool{}}
	js.Walk(f, p.AST)
	for i, slot := range f.slots {
		if v := resolved((*slot).(*js.Var)); !f.fixed[v] {
			slots, ops = append(slots, slot), append(ops, f.ops[i])
		}
	}
	return slots, ops
}

// logicalVarFinder finds the assignments a = a op b, and the bindings that may not be
// assigned: each const's and each class's name (fixed).
type logicalVarFinder struct {
	p     *localnames.Program
	fixed map[*js.Var]bool
	stack []js.INode
	slots []*js.IExpr
	ops   []js.TokenType
}

func (f *logicalVarFinder) Enter(n js.INode) js.IVisitor {
	f.stack = append(f.stack, n)
	switch n := n.(type) {
	case *js.BinaryExpr:
		if n.Op == js.EqToken && f.assigns(n) {
			f.slots, f.ops = append(f.slots, &n.X), append(f.ops, n.Y.(*js.BinaryExpr).Op)
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
	v := resolved(a)
	switch v.Decl {
	case js.VariableDecl, js.LexicalDecl, js.ArgumentDecl, js.FunctionDecl, js.CatchDecl:
	default:
		return false
	}
	if f.p.Kept(string(v.Data)) {
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

// nameEdits returns the edits over p, the parse of src, of the local names (rename;
// renameLocals, module its top level too) and of the logical assignments of plain variables
// (assign), from one alignment of the parse with src; sorted by place.
func nameEdits(p *localnames.Program, src string, module, rename, assign bool) []localnames.Edit {
	var slots []*js.IExpr
	var ops []js.TokenType
	if assign {
		slots, ops = logicalVars(p)
	}
	if !rename && len(slots) == 0 {
		return nil
	}
	edits, at := p.RenameAt(module, rename, slots)
	for i, s := range at {
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
