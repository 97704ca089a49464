package localnames

import "github.com/tdewolff/parse/v2/js"

// Writes is how a program writes its bindings, each resolved to its declaration: the build's
// rules that take a binding for its one value (the unwritten bindings, the guarded classes,
// the logical assignments) and Resolve's Written read it. A property's write (o.p = …) writes
// no binding.
type Writes struct {
	// Plain counts the assignments name = … (parentheses around the name allowed).
	Plain map[*js.Var]int
	// Other holds the bindings written otherwise: a compound assignment (+=, ||=, …), an
	// update (++, --), an assignment's pattern, a for-in/of head (its var declaration too).
	Other map[*js.Var]bool
	// Pattern holds the bindings a declaration's pattern binds (var { a } = o), and Inits
	// counts each binding's declarations with an initializer (var d = a; var d = b: 2).
	Pattern map[*js.Var]bool
	Inits   map[*js.Var]int
}

// WritesOf walks n once for its bindings' writes.
func WritesOf(n js.INode) *Writes {
	w := &Writes{Plain: map[*js.Var]int{}, Other: map[*js.Var]bool{}, Pattern: map[*js.Var]bool{}, Inits: map[*js.Var]int{}}
	js.Walk(w, n)
	return w
}

// Assigned reports whether code writes v after its declarations: an assignment, an update,
// a pattern or a for-in/of head.
func (w *Writes) Assigned(v *js.Var) bool { return w.Plain[v] > 0 || w.Other[v] }

// written reports whether v may hold another value than its one declaration gives it: it is
// assigned, bound by a pattern, or declared with an initializer twice. A binding none of these
// write holds its declaration's value wherever it is read after it.
func (w *Writes) written(v *js.Var) bool { return w.Assigned(v) || w.Pattern[v] || w.Inits[v] > 1 }

// Enter is js.IVisitor's.
func (w *Writes) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.BinaryExpr:
		if !AssignOps[n.Op] {
			break
		}
		if v, ok := unGroup(n.X).(*js.Var); ok && n.Op == js.EqToken {
			w.Plain[resolve(v)]++
		} else {
			w.mark(w.Other, n.X)
		}
	case *js.UnaryExpr:
		switch n.Op {
		case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
			w.mark(w.Other, n.X)
		}
	case *js.ForInStmt:
		w.mark(w.Other, n.Init)
	case *js.ForOfStmt:
		w.mark(w.Other, n.Init)
	case *js.VarDecl:
		for _, b := range n.List {
			if v, ok := b.Binding.(*js.Var); ok {
				if b.Default != nil {
					w.Inits[resolve(v)]++
				}
				continue
			}
			w.mark(w.Pattern, b.Binding)
		}
	}
	return w
}

// Exit is js.IVisitor's.
func (*Writes) Exit(js.INode) {}

// mark puts in set the bindings a target names: itself, or each one a pattern or a for-in/of
// head's declaration names (a property read's object is not written: it stays out).
func (w *Writes) mark(set map[*js.Var]bool, target js.INode) {
	switch t := target.(type) {
	case nil, *js.DotExpr, *js.IndexExpr:
	case *js.Var:
		set[resolve(t)] = true
	case *js.GroupExpr:
		w.mark(set, t.X)
	default:
		AddBindings(set, t)
	}
}

// AddBindings puts in set every binding the pattern n names, resolved to its declaration.
func AddBindings(set map[*js.Var]bool, n js.INode) { js.Walk(patternWrites(set), n) }

// patternWrites puts every binding a pattern names in its set.
type patternWrites map[*js.Var]bool

func (p patternWrites) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok {
		p[resolve(v)] = true
	}
	return p
}

func (patternWrites) Exit(js.INode) {}

// AssignOps are the assignment operators.
var AssignOps = map[js.TokenType]bool{js.EqToken: true, js.AddEqToken: true, js.SubEqToken: true, js.MulEqToken: true,
	js.DivEqToken: true, js.ModEqToken: true, js.ExpEqToken: true, js.LtLtEqToken: true, js.GtGtEqToken: true,
	js.GtGtGtEqToken: true, js.BitAndEqToken: true, js.BitOrEqToken: true, js.BitXorEqToken: true,
	js.AndEqToken: true, js.OrEqToken: true, js.NullishEqToken: true}
