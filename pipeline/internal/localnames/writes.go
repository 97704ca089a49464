package localnames

import "github.com/tdewolff/parse/v2/js"

// writes finds which bindings a program writes other than by the one declaration that gives
// its value: an assignment (=, +=, ||=, …), an update (++, --), a pattern's element (in an
// assignment or a declaration), a for-in/of head, and a second declaration with an
// initializer (var d = a; var d = b). A binding none of these write holds its declaration's
// value wherever it is read after it.
type writes struct {
	written map[*js.Var]bool
	inits   map[*js.Var]int
}

func (w *writes) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.BinaryExpr:
		if assignOps[n.Op] {
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
	case *js.VarDecl:
		for _, b := range n.List {
			if v, ok := b.Binding.(*js.Var); ok {
				if b.Default != nil {
					w.inits[resolve(v)]++
				}
				continue
			}
			w.mark(b.Binding)
		}
	}
	return w
}

func (*writes) Exit(js.INode) {}

// mark records the bindings a target names: itself, or each one a pattern or a for-in/of
// head's declaration names (a property's write, o.p = …, writes no binding).
func (w *writes) mark(target js.INode) {
	switch t := target.(type) {
	case nil, *js.DotExpr, *js.IndexExpr:
	case *js.Var:
		w.written[resolve(t)] = true
	case *js.GroupExpr:
		w.mark(t.X)
	default:
		js.Walk(patternWrites{w}, t)
	}
}

type patternWrites struct{ w *writes }

func (p patternWrites) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok {
		p.w.written[resolve(v)] = true
	}
	return p
}

func (patternWrites) Exit(js.INode) {}

// assignOps are the assignment operators.
var assignOps = map[js.TokenType]bool{js.EqToken: true, js.AddEqToken: true, js.SubEqToken: true, js.MulEqToken: true,
	js.DivEqToken: true, js.ModEqToken: true, js.ExpEqToken: true, js.LtLtEqToken: true, js.GtGtEqToken: true,
	js.GtGtGtEqToken: true, js.BitAndEqToken: true, js.BitOrEqToken: true, js.BitXorEqToken: true,
	js.AndEqToken: true, js.OrEqToken: true, js.NullishEqToken: true}
