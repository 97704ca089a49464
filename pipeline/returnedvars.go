package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Variables returned at once. var x = e; return x; where x is named nowhere else is return e;
// (x, declared once, is read once, right after it is given e: no other code can see it).
// esbuild writes so a let or a const (its rule leaves a var, whose other uses it may not have
// seen yet); Oxc, and so Vite's build, a var too. The var statements are left so by the
// folding of what they guarded: Svelte's source(), var signal = {…}; if (DEV && tracing) …;
// return signal, its dev branch folded (unwritten.go). Only a declaration of one name with a
// value, directly followed in its list by the return of that name, in a module whose
// references are known (no direct eval, which could name x); not where the value is an
// anonymous function or class, which the declaration names x, nor where a line break follows
// the =, where ASI would end the return.

// returnedAtOnce returns the edits that write the print m's variables returned at once as
// above; nil when there is none. neverRuns asks for the places of the declarations with those of
// other passes: this is its two steps for one pass.
func returnedAtOnce(m *minifiedPrint) []localnames.Edit {
	decls := returnedVars(m)
	if decls == nil {
		return nil
	}
	_, at := m.p.Places(nil, decls)
	return returnedVarEdits(m, decls, at)
}

// returnedVars returns the declarations of the print m that returnedVarEdits writes as
// returns (the slots of their statements, for Places); nil when there is none.
func returnedVars(m *minifiedPrint) []*js.IStmt {
	if !m.p.Known() {
		return nil
	}
	f := &returnedVarFinder{count: m.count()}
	js.Walk(f, m.p.AST)
	return f.decls
}

// returnedVarEdits returns the edits that write each declaration of decls, whose places are at
// (Places, -1 where not known), and the return after it as return e; sorted by place.
func returnedVarEdits(m *minifiedPrint, decls []*js.IStmt, at []int) []localnames.Edit {
	if at == nil {
		return nil
	}
	tokens, ok := m.tokens()
	if !ok {
		return nil
	}
	var edits []localnames.Edit
	for k, d := range decls {
		i, ok := m.at(at[k])
		name := (*d).(*js.VarDecl).List[0].Binding.(*js.Var).Data
		// var x = e ; return x, each a token as the print writes it.
		if at[k] < 0 || !ok || i+2 >= len(tokens) || tokens[i+2].tt != js.EqToken ||
			m.src[tokens[i+1].start:tokens[i+1].end] != string(name) {
			continue
		}
		end := statementEnd(tokens, i)
		if end < 0 || tokens[end].tt != js.SemicolonToken || end+2 >= len(tokens) || tokens[end+1].tt != js.ReturnToken ||
			m.src[tokens[end+2].start:tokens[end+2].end] != string(name) {
			continue
		}
		// A line break between = and e (in a comment too, U+2028) would end return there (ASI).
		if strings.ContainsAny(m.src[tokens[i+2].end:tokens[i+3].start], "\n\r\u2028\u2029") {
			continue
		}
		edits = append(edits, localnames.Edit{Start: tokens[i].start, End: tokens[i+2].end, Text: "return "},
			localnames.Edit{Start: tokens[end].start, End: tokens[end+2].end})
	}
	return edits
}

// returnedVarFinder finds the declarations var x = e (let, const) of one name that the next
// statement of their list returns, x named nowhere else (count: the print's names).
type returnedVarFinder struct {
	count map[*js.Var]int
	decls []*js.IStmt
}

func (f *returnedVarFinder) Enter(n js.INode) js.IVisitor {
	list := statementList(n)
	for i := 0; i+1 < len(list); i++ {
		d, ok := list[i].(*js.VarDecl)
		if !ok || len(d.List) != 1 || d.List[0].Default == nil {
			continue
		}
		v, ok := d.List[0].Binding.(*js.Var)
		r, isReturn := list[i+1].(*js.ReturnStmt)
		if !ok || !isReturn || r.Value == nil || anonymousValue(d.List[0].Default) {
			continue
		}
		if read, ok := r.Value.(*js.Var); ok && resolved(read) == resolved(v) && f.count[resolved(v)] == 2 {
			f.decls = append(f.decls, &list[i])
		}
	}
	return f
}

func (f *returnedVarFinder) Exit(js.INode) {}
