package localnames

import (
	"cmp"
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// Constant is a binding Substitute writes as its value: Decl is its one declaration, whose
// name stays, and Value the text of a literal (!1, void 0, 42).
type Constant struct {
	Decl  *js.BindingElement
	Value string
}

// Substitute returns the edits that write, at every place of a name of the bindings choose
// picks from src's parse (its declaration aside), the binding's value in parentheses: a
// shorthand property { a } as { a: (!1) }. The choice is the caller's: that the program reads
// the same at each place (the binding is never written, and no read can run before its
// declaration). Nil when src does not parse, calls eval directly, has a with statement or a
// name written with escapes, or when the parse and the text do not line up (the package's
// guarantees); a picked binding whose name the parse binds otherwise than the language (a
// class expression's name, a block function, a static block's var: see keep) is left alone.
func Substitute(src string, choose func(*js.AST) map[*js.Var]Constant) []Edit {
	p := Parse(src)
	if p == nil {
		return nil
	}
	return p.Substitute(choose)
}

// Substitute is the package's Substitute over p.
func (p *Program) Substitute(choose func(*js.AST) map[*js.Var]Constant) []Edit {
	if p.r.bad {
		return nil
	}
	r, ast := p.fresh(), p.AST
	picked := choose(ast)
	if len(picked) == 0 {
		return nil
	}
	top := &ast.BlockStmt.Scope
	var values []string
	for _, v := range top.Declared {
		c, ok := picked[v]
		if !ok || r.kept[top][string(v.Data)] || v.Link != nil || !plainName(v.Data) {
			continue
		}
		r.index[v] = len(r.vars)
		r.vars = append(r.vars, v)
		r.decls = append(r.decls, c.Decl)
		values = append(values, c.Value)
	}
	if len(r.vars) == 0 {
		return nil
	}
	occ, ok := r.align(ast)
	if !ok {
		return nil
	}
	edits := make([]Edit, 0, len(occ))
	for _, o := range occ {
		name := string(r.vars[o.v].Data)
		text := "(" + values[o.v] + ")"
		if o.shorthand {
			text = name + ":" + text
		}
		edits = append(edits, Edit{o.start, o.start + len(name), text})
	}
	slices.SortFunc(edits, func(a, b Edit) int { return cmp.Compare(a.Start, b.Start) })
	return edits
}
