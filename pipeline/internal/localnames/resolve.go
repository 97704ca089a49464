package localnames

import (
	"github.com/tdewolff/parse/v2/js"
)

// Name is what a name of a program resolves to (Resolve): the binding that declares it, or
// none (a global's, which no declaration of the program binds).
type Name struct {
	// Binding numbers the binding: each name of one binding has the same, its declaration's
	// and each reference's.
	Binding int
	// Free says no declaration of the program binds the name: it reads the global object's
	// property of that name (document, window, location), unless the page's other scripts
	// declare it.
	Free bool
	// Decl is how the binding is declared (js.LexicalDecl for let, const and class); NoDecl
	// when Free, and for an import's binding, which the parse does not declare (Free is
	// false).
	Decl js.DeclType
	// Written says the program writes the binding other than by the one declaration that
	// gives its value (writes): an assignment, an update, a pattern, a for-in/of head, another
	// declaration with an initializer. Where it is false, a let or var declared name = value
	// holds value wherever the name is read after it.
	Written bool
}

// Resolve returns, by offset in src, what each name of src that the parse takes for a binding
// or a reference to one resolves to, by the parse's scopes: a parameter or a local named
// document is not the global document. ok is false where that is not known: a program that
// calls eval directly or has a with statement (a name may then be read from an object or a
// binding made at run time), one that writes a name with escapes, or one whose parse and text
// do not line up token for token (as Rename). Property names, private names (#x) and the
// names of labels are not in the map.
func Resolve(src string) (names map[int]Name, ok bool) {
	p := Parse(src)
	if p == nil || p.r.bad {
		return nil, false
	}
	r, ast := p.fresh(), p.AST
	add := func(v *js.Var) {
		v = resolve(v)
		if _, dup := r.index[v]; dup || v.Decl == js.PrivateDecl {
			return
		}
		r.index[v] = len(r.vars)
		r.vars = append(r.vars, v)
	}
	top := &ast.BlockStmt.Scope
	for _, v := range top.Declared {
		add(v)
	}
	for _, v := range top.Undeclared {
		add(v)
	}
	for _, s := range r.scopes {
		for _, v := range s.Declared {
			add(v)
		}
		for _, v := range s.Undeclared {
			add(v)
		}
	}
	for _, v := range r.vars {
		if !plainName(v.Data) {
			return nil, false
		}
	}
	occ, ok := r.align(ast)
	if !ok {
		return nil, false
	}
	// The parse keeps an import's bindings as names of the statement alone, and takes their
	// references for free names: a module's import binds them in the whole module.
	imported := map[string]bool{}
	for _, st := range ast.BlockStmt.List {
		if im, ok := st.(*js.ImportStmt); ok {
			imported[string(im.Default)] = im.Default != nil
			for _, a := range im.List {
				if a.Binding != nil {
					imported[string(a.Binding)] = true
				} else if a.Name != nil {
					imported[string(a.Name)] = true
				}
			}
		}
	}
	w := WritesOf(ast)
	names = make(map[int]Name, len(occ))
	for _, o := range occ {
		v := r.vars[o.v]
		names[o.start] = Name{Binding: o.v, Free: v.Decl == js.NoDecl && !imported[string(r.src[o.start:o.start+len(v.Data)])], Decl: v.Decl,
			Written: w.written(v)}
	}
	return names, true
}
