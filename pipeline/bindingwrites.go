package pipeline

import "github.com/tdewolff/parse/v2/js"

// bindingWrites is how a module writes its bindings, each resolved to its declaration (not
// the declarations themselves): plain counts the assignments name = …, other holds those
// written otherwise (a compound assignment, an update, a pattern, a for-in/of head, var
// declarations there included). A property's write (o.p = …) writes no binding.
type bindingWrites struct {
	plain map[*js.Var]int
	other map[*js.Var]bool
}

// writesOf walks ast once for its bindings' writes.
func writesOf(ast *js.AST) *bindingWrites {
	w := &bindingWrites{plain: map[*js.Var]int{}, other: map[*js.Var]bool{}}
	js.Walk(w, ast)
	return w
}

// written reports whether any code of the module writes v after its declaration.
func (w *bindingWrites) written(v *js.Var) bool { return w.plain[v] > 0 || w.other[v] }

func (w *bindingWrites) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.BinaryExpr:
		if !assignOps[n.Op] {
			break
		}
		if v, ok := unGroup(n.X).(*js.Var); ok && n.Op == js.EqToken {
			w.plain[resolved(v)]++
		} else {
			w.mark(n.X)
		}
	case *js.UnaryExpr:
		switch n.Op {
		case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
			w.mark(n.X)
		}
	case *js.ForInStmt:
		w.mark(n.Init)
	case *js.ForOfStmt:
		w.mark(n.Init)
	}
	return w
}

func (*bindingWrites) Exit(js.INode) {}

// mark puts in other the bindings a target names: itself, or every one a pattern or a
// for-in/of head's declaration names (a property read's object is not written: it stays out).
func (w *bindingWrites) mark(target js.INode) {
	switch t := target.(type) {
	case nil:
	case *js.Var:
		w.other[resolved(t)] = true
	case *js.DotExpr, *js.IndexExpr:
	case *js.GroupExpr:
		w.mark(t.X)
	default:
		js.Walk(patternMarker{w}, t)
	}
}

type patternMarker struct{ w *bindingWrites }

func (p patternMarker) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok {
		p.w.other[resolved(v)] = true
	}
	return p
}

func (patternMarker) Exit(js.INode) {}
