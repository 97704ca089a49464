package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Logical assignments TypeScript lowered. tsc, targeting ES2020, writes o.p ??= v as
// (_a = o).p ?? (_a.p = v) with a var _a of its own (Zod's prebuilt code: fourteen in each
// MCP Apps example); esbuild prints it as written, and the var. Where the temporary n is a
// var or let of the function (or of the top level) the pair is in, and every name of n but
// its declaration is such a pair in that function itself (none in a function, arrow or class
// inside it), (n = X).p op (n.p = v) is X.p op= v (op ??, || or &&): X is evaluated once
// either way, p read once, v evaluated and p written only where op does not short-circuit,
// and the object written is the one read, since only code of that function could assign n
// between the two and none does (the getter of p is another function; a recursive call has
// its own n). n is then named nowhere and its declarator goes (var n,o; → var o;, var n; →
// nothing). Left: a module with a direct eval or a with, a var declared with a value or in a
// for head, a let with a pair before its declaration (which throws as written: the TDZ), a temporary named anywhere else, an X that would not read the same without its
// parentheses (a || b, new A, an optional chain: only a name, this, and property reads and
// calls of them), a computed key, and a pair standing where an assignment may not
// (assignmentPlace: (n = X).p ?? (n.p = v) ? a : b).

// loweredAssignments returns the edits of the pass over the print m, as above; nil when there
// is none. neverRuns asks for the places with those of other passes: this is its steps for
// one pass.
func loweredAssignments(m *minifiedPrint) []localnames.Edit {
	pairs, temps := loweredAssigns(m)
	if pairs == nil {
		return nil
	}
	var slots []*js.IExpr
	for _, pr := range pairs {
		slots = append(slots, pr.write, pr.obj)
	}
	var stmts []*js.IStmt
	for _, t := range temps {
		stmts = append(stmts, t.stmt)
	}
	slotAt, stmtAt := m.p.Places(slots, stmts)
	return loweredAssignEdits(m, pairs, temps, slotAt, stmtAt)
}

// loweredPair is one (n = X).p op (n.p = v) of the print: the slots of its two n.
type loweredPair struct {
	v     *js.Var
	write *js.IExpr // n in n = X
	obj   *js.IExpr // n in n.p = v
	key   string
	op    js.TokenType
}

// loweredDecl is a var or let statement of names, in a statement list, and those of its
// names declared without a value.
type loweredDecl struct {
	stmt  *js.IStmt
	names []*js.Var
}

// loweredAssigns returns the pairs of the print m that loweredAssignEdits writes X.p op= v, and
// the declarations of their temporaries; nil when there is none.
func loweredAssigns(m *minifiedPrint) ([]loweredPair, []loweredDecl) {
	p := m.p
	if !p.Known() {
		return nil, nil
	}
	top := true
	for _, s := range p.AST.BlockStmt.List {
		switch s.(type) {
		case *js.ImportStmt, *js.ExportStmt:
			top = false // a top-level temporary may be exported
		}
	}
	f := &loweredFinder{p: p, pairs: map[*js.Var][]loweredPair{}, decls: map[*js.Var]*loweredDecl{}, bad: map[*js.Var]bool{}}
	f.fns = []*js.Scope{&p.AST.BlockStmt.Scope}
	if !top {
		f.fns[0] = nil
	}
	js.Walk(f, p.AST)
	if len(f.pairs) == 0 {
		return nil, nil
	}
	count := m.count()
	var pairs []loweredPair
	var decls []loweredDecl
	seen := map[*loweredDecl]int{}
	for v, ps := range f.pairs {
		d := f.decls[v]
		if d == nil || f.bad[v] || count[v] != 1+2*len(ps) || p.Kept(string(v.Data)) {
			continue
		}
		pairs = append(pairs, ps...)
		if i, ok := seen[d]; ok {
			decls[i].names = append(decls[i].names, v)
		} else {
			seen[d] = len(decls)
			decls = append(decls, loweredDecl{stmt: d.stmt, names: []*js.Var{v}})
		}
	}
	return pairs, decls
}

// loweredFinder finds the pairs, each with the function (its body's scope) it stands in, and
// the declarations of simple names without values.
type loweredFinder struct {
	p     *localnames.Program
	stack []js.INode
	fns   []*js.Scope // the scopes of the functions around; nil for a class
	pairs map[*js.Var][]loweredPair
	decls map[*js.Var]*loweredDecl
	bad   map[*js.Var]bool // declared twice
}

func (f *loweredFinder) Enter(n js.INode) js.IVisitor {
	f.stack = append(f.stack, n)
	switch n := n.(type) {
	case *js.FuncDecl:
		f.fns = append(f.fns, &n.Body.Scope)
	case *js.ArrowFunc:
		f.fns = append(f.fns, &n.Body.Scope)
	case *js.MethodDecl:
		f.fns = append(f.fns, &n.Body.Scope)
	case *js.ClassDecl:
		f.fns = append(f.fns, nil)
	case *js.BlockStmt:
		f.declarations(n.List)
	case *js.BinaryExpr:
		f.pair(n)
	}
	return f
}

func (f *loweredFinder) Exit(n js.INode) {
	f.stack = f.stack[:len(f.stack)-1]
	switch n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
		f.fns = f.fns[:len(f.fns)-1]
	}
}

// declarations notes, in the var and let statements of list whose every declarator is a name,
// those declared without a value.
func (f *loweredFinder) declarations(list []js.IStmt) {
	for i := range list {
		d, ok := list[i].(*js.VarDecl)
		if !ok || d.TokenType != js.VarToken && d.TokenType != js.LetToken {
			continue
		}
		var names []*js.Var
		for _, b := range d.List {
			v, ok := b.Binding.(*js.Var)
			if !ok {
				names = nil
				break
			}
			if b.Default == nil {
				names = append(names, resolved(v))
			}
		}
		decl := &loweredDecl{stmt: &list[i], names: names}
		for _, v := range names {
			if f.decls[v] != nil {
				f.bad[v] = true
			}
			f.decls[v] = decl
		}
	}
}

// pair notes b when it is (n = X).p op (n.p = v) as above, n declared in the function it
// stands in.
func (f *loweredFinder) pair(b *js.BinaryExpr) {
	if _, ok := logicalOps[b.Op]; !ok || len(f.stack) < 2 || !assignmentPlace(f.stack[len(f.stack)-2], b) {
		return
	}
	read, ok := b.X.(*js.DotExpr)
	if !ok || read.Optional {
		return
	}
	g, ok := read.X.(*js.GroupExpr)
	if !ok {
		return
	}
	tmp, ok := g.X.(*js.BinaryExpr)
	if !ok || tmp.Op != js.EqToken || !memberChain(tmp.Y) {
		return
	}
	n, ok := tmp.X.(*js.Var)
	set := loweredSet(b)
	if !ok || set == nil {
		return
	}
	write, ok := set.X.(*js.DotExpr)
	if !ok || write.Optional || !sameVar(write.X, n) {
		return
	}
	rk, ok1 := read.Y.(js.LiteralExpr)
	wk, ok2 := write.Y.(js.LiteralExpr)
	if !ok1 || !ok2 || string(rk.Data) != string(wk.Data) {
		return
	}
	v := resolved(n)
	fn := f.fns[len(f.fns)-1]
	if fn == nil || !declaredIn(fn, v) {
		return
	}
	f.pairs[v] = append(f.pairs[v], loweredPair{v: v, write: &tmp.X, obj: &write.X, key: string(rk.Data), op: b.Op})
}

// declaredIn reports whether scope declares v.
func declaredIn(scope *js.Scope, v *js.Var) bool {
	for _, d := range scope.Declared {
		if d == v {
			return true
		}
	}
	return false
}

// memberChain reports whether e reads the same with .p after it as inside parentheses: a
// name, this, or a property read or call of one, no optional chain.
func memberChain(e js.IExpr) bool {
	switch e := e.(type) {
	case *js.Var:
		return true
	case js.LiteralExpr:
		return e.TokenType == js.ThisToken
	case *js.LiteralExpr:
		return e.TokenType == js.ThisToken
	case *js.DotExpr:
		return !e.Optional && memberChain(e.X)
	case *js.IndexExpr:
		return !e.Optional && memberChain(e.X)
	case *js.CallExpr:
		return !e.Optional && memberChain(e.X)
	}
	return false
}

// loweredAssignEdits returns the edits that write each pair X.p op= v and take its temporary
// out of its declaration, given the places of the pairs' slots (write, obj for each, in turn)
// and of the declarations (Places, -1 where not known). A temporary with a pair whose text is
// not as the parse says keeps its declaration and its pairs all.
func loweredAssignEdits(m *minifiedPrint, pairs []loweredPair, decls []loweredDecl, slotAt, stmtAt []int) []localnames.Edit {
	if slotAt == nil || stmtAt == nil {
		return nil
	}
	src := m.src
	byVar := map[*js.Var][]localnames.Edit{}
	failed := map[*js.Var]bool{}
	first := map[*js.Var]int{} // where the temporary's first pair starts
	for i, pr := range pairs {
		a, b := slotAt[2*i], slotAt[2*i+1]
		if at, ok := first[pr.v]; !ok || a < at {
			first[pr.v] = a
		}
		name := string(pr.v.Data)
		op := pr.op.String()
		if a < 1 || b < 0 || src[a-1] != '(' || !strings.HasPrefix(src[a:], name+"=") {
			failed[pr.v] = true
			continue
		}
		c := m.p.Closing(a - 1)
		mid := ")." + pr.key + op + "("
		if c < 0 || !strings.HasPrefix(src[c:], mid) || c+len(mid) != b || !strings.HasPrefix(src[b:], name+"."+pr.key+"=") {
			failed[pr.v] = true
			continue
		}
		d := m.p.Closing(b - 1)
		if d < 0 {
			failed[pr.v] = true
			continue
		}
		// return(n=e).p: the parenthesis parted a keyword from X.
		space := ""
		if a >= 2 && isIdentByte(src[a-2]) {
			space = " "
		}
		byVar[pr.v] = append(byVar[pr.v],
			localnames.Edit{Start: a - 1, End: a + len(name) + 1, Text: space},
			localnames.Edit{Start: c, End: c + 1},
			localnames.Edit{Start: c + 2 + len(pr.key), End: b + len(name) + len(pr.key) + 2, Text: op + "="},
			localnames.Edit{Start: d, End: d + 1})
	}
	var edits []localnames.Edit
	for i, d := range decls {
		gone := map[*js.Var]bool{}
		var own []localnames.Edit
		// A let's pair before its declaration throws as written (the TDZ): the pair and the
		// declaration are code of one function (or the top level), which runs in order.
		let := (*d.stmt).(*js.VarDecl).TokenType == js.LetToken
		for _, v := range d.names {
			if !failed[v] && byVar[v] != nil && (!let || first[v] > stmtAt[i]) {
				gone[v] = true
				own = append(own, byVar[v]...)
			}
		}
		if len(gone) == 0 || stmtAt[i] < 0 {
			continue
		}
		if out, ok := m.declaratorsOut((*d.stmt).(*js.VarDecl), stmtAt[i], gone); ok {
			edits = append(append(edits, own...), out...)
		}
	}
	sortEdits(edits)
	return edits
}

// declaratorsOut returns the edits that take out of the statement decl, a var or let of names
// that starts at at, the declarators of gone, which have no value: the statement where it is
// all; false where the print is not as the parse says.
func (m *minifiedPrint) declaratorsOut(decl *js.VarDecl, at int, gone map[*js.Var]bool) ([]localnames.Edit, bool) {
	toks, ok := m.tokens()
	if !ok {
		return nil, false
	}
	k, ok := m.at(at)
	if !ok || k+1 >= len(toks) {
		return nil, false
	}
	// The name token of each declarator and the comma before it: a declarator's value ends
	// at a comma outside brackets.
	names := make([]token, 0, len(decl.List))
	commas := make([]int, len(decl.List)) // the comma before each but the first
	k++
	for i, b := range decl.List {
		v := b.Binding.(*js.Var)
		if k >= len(toks) || m.src[toks[k].start:toks[k].end] != string(v.Data) {
			return nil, false
		}
		names = append(names, toks[k])
		k++
		if b.Default != nil {
			depth := 0
			for ; k < len(toks); k++ {
				switch toks[k].tt {
				case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
					depth++
				case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
					depth--
				}
				if depth == 0 && toks[k].tt == js.CommaToken || depth < 0 {
					break
				}
			}
		}
		if i < len(decl.List)-1 {
			if k >= len(toks) || toks[k].tt != js.CommaToken {
				return nil, false
			}
			commas[i+1] = toks[k].start
			k++
		}
	}
	out := func(i int) bool { return gone[resolved(decl.List[i].Binding.(*js.Var))] }
	last := len(decl.List) - 1
	var edits []localnames.Edit
	for i := 0; i <= last; i++ {
		if !out(i) {
			continue
		}
		j := i
		for j < last && out(j+1) {
			j++
		}
		switch {
		case i == 0 && j == last: // the statement
			return []localnames.Edit{{Start: at, End: names[last].end}}, true
		case i == 0: // a, b, up to the next one's name
			edits = append(edits, localnames.Edit{Start: names[0].start, End: names[j+1].start})
		default: // from the comma before
			edits = append(edits, localnames.Edit{Start: commas[i], End: names[j].end})
		}
		i = j
	}
	return edits, true
}
