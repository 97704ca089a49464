package pipeline

import (
	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Private methods nothing calls. A private name (#commit) is read only inside the class that
// declares it (ECMA-262 15.7.1: a reference to a private name resolves, as a lexical one, to
// the class body around it), so a private method whose name no code of the class reaches
// can never run nor be read: the class is the same without it. esbuild keeps every class
// element; Oxc, and so Vite's build, drops an unused private member. The calls of one are
// often in code that only the unwritten bindings' folding (unwritten.go) shows dead: Svelte's
// Batch has #commit called where async_mode_flag, a flag nothing writes, is true; what the
// method alone called (its functions, and so on) goes with it when esbuild minifies the
// module again.
//
// A method is reached from code of the class that is not in a private method, or from a
// private method reached: a method called only by another unused one goes too. Only methods
// and accessors go (a field's initializer runs when an instance is made), and of a class that
// extends another only its static ones: an instance private method puts the class's brand on
// each object its constructor makes (PrivateMethodOrAccessorAdd), which throws a TypeError on
// an object that has it, and a derived class's object is the one its parent's constructor
// returns, which can be one made before (class B extends A, A's constructor returning o, new B
// twice throws: without the method it would not).

// unusedPrivateMethods returns the edits that take out of the print mp each private method no
// code reaches, sorted by place; nil when there is none or the module's references are not
// known (a direct eval can name nothing private, but the places come from the same tokens as
// the other passes').
func unusedPrivateMethods(mp *minifiedPrint) []localnames.Edit {
	p, src := mp.p, mp.src
	f := &privateFinder{edges: map[*js.Var][]*js.Var{}, owner: map[*js.MethodDecl]*js.ClassDecl{}}
	js.Walk(f, p.AST)
	if len(f.methods) == 0 {
		return nil
	}
	live := map[*js.Var]bool{}
	stack := append([]*js.Var(nil), f.edges[nil]...)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if live[v] {
			continue
		}
		live[v] = true
		stack = append(stack, f.edges[v]...)
	}
	var dead []*js.MethodDecl
	for _, m := range f.methods {
		if !m.Static && f.owner[m] != nil && f.owner[m].Extends != nil {
			continue
		}
		if !live[resolved(m.Name.Private)] {
			dead = append(dead, m)
		}
	}
	if len(dead) == 0 {
		return nil
	}
	tokens, ok := mp.tokens()
	if !ok {
		return nil
	}
	var edits []localnames.Edit
	for _, m := range dead {
		// The name's place: the declaration's name, where the method is declared before its
		// name is used (the parse's node is the first it read); otherwise left.
		name := resolved(m.Name.Private).Data
		i, ok := mp.at(p.Offset(name))
		if !ok || tokens[i].tt != js.PrivateIdentifierToken || src[tokens[i].start:tokens[i].end] != string(name) ||
			i+1 >= len(tokens) || tokens[i+1].tt != js.OpenParenToken {
			continue
		}
		// Its modifiers before it, in the order the grammar takes them.
		var want []js.TokenType
		if m.Static {
			want = append(want, js.StaticToken)
		}
		if m.Async {
			want = append(want, js.AsyncToken)
		}
		if m.Generator {
			want = append(want, js.MulToken)
		}
		if m.Get {
			want = append(want, js.GetToken)
		}
		if m.Set {
			want = append(want, js.SetToken)
		}
		first := i - len(want)
		if first < 1 {
			continue
		}
		match := true
		for k, tt := range want {
			match = match && tokens[first+k].tt == tt
		}
		// An element before it ends with } or ; (or it is the first): nothing to join.
		switch tokens[first-1].tt {
		case js.OpenBraceToken, js.CloseBraceToken, js.SemicolonToken:
		default:
			match = false
		}
		params := closingToken(tokens, i+1)
		if !match || params < 0 || params+1 >= len(tokens) || tokens[params+1].tt != js.OpenBraceToken {
			continue
		}
		body := closingToken(tokens, params+1)
		if body < 0 {
			continue
		}
		edits = append(edits, localnames.Edit{Start: tokens[first].start, End: tokens[body].start + 1})
	}
	sortEdits(edits)
	return edits
}

// privateFinder finds the private methods of a program's classes and, for each, the private
// names its code reads (edges[method's name]); edges[nil] are those code outside any private
// method reads.
type privateFinder struct {
	methods []*js.MethodDecl
	owner   map[*js.MethodDecl]*js.ClassDecl // the class that declares each
	classes []*js.ClassDecl                  // the classes the walk is in, the innermost last
	in      []*js.Var                        // the private methods the walk is in, the innermost last
	edges   map[*js.Var][]*js.Var
}

func (f *privateFinder) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.ClassDecl:
		f.classes = append(f.classes, n)
	case *js.MethodDecl:
		if n.Name.Private != nil {
			f.methods = append(f.methods, n)
			if len(f.classes) > 0 {
				f.owner[n] = f.classes[len(f.classes)-1]
			}
			f.in = append(f.in, resolved(n.Name.Private))
		}
	case *js.Var:
		if v := resolved(n); v.Decl == js.PrivateDecl {
			var from *js.Var
			if len(f.in) > 0 {
				from = f.in[len(f.in)-1]
			}
			f.edges[from] = append(f.edges[from], v)
		}
	}
	return f
}

func (f *privateFinder) Exit(n js.INode) {
	switch n := n.(type) {
	case *js.ClassDecl:
		f.classes = f.classes[:len(f.classes)-1]
	case *js.MethodDecl:
		if n.Name.Private != nil {
			f.in = f.in[:len(f.in)-1]
		}
	}
}
