package pipeline

import (
	"slices"
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Statements under a test that is always false. esbuild, folding a test to false, keeps the
// if statement where its body declares a var (if(0)var i;, if(y=e,0)var o,i;, if(0){…var a}),
// for the var's hoisting (ECMA-262 14.3.2: a var binds its name in the whole function), and
// so keeps whatever the body names (Svelte's dev checks, left by the unwritten bindings'
// folding, name four bindings and a warning). The body never runs: the statement is the
// expressions its test evaluates before the 0, and a var statement of the names the body
// declares that code outside it names (a name only the body names is read nowhere).
// Only an if with no else whose body is a block, a var statement, or a for loop whose body is
// empty or a var statement, that stands in a list of statements, is rewritten.

// neverRuns returns the edits that take out of src (parse p, a minified print) the code that
// never runs of unusedPrivateMethods, falseIfs and unreachable (unreachable.go), the writes
// nothing reads of unreadWrites (unread.go) and the variables returned at once of
// returnedAtOnce (returnedvars.go), the namespace objects written as values of
// namespaceValues (namespacevalues.go) and the logical assignments TypeScript lowered of
// loweredAssigns (loweredassign.go), sorted by place, an edit inside another left out; nil
// when there is none. The passes read one lexing of src and one alignment of the parse with
// it (localnames.Program.Places), for the places of unreadWrites' targets, unreachable's
// jumps and returnedAtOnce's declarations.
func neverRuns(p *localnames.Program, src string) []localnames.Edit {
	m := newMinifiedPrint(p, src)
	slots, tails, decls := unreadSlots(m), unreachableTails(m), returnedVars(m)
	pairs, temps := loweredAssigns(m)
	nUnread, nTails, nDecls := len(slots), len(tails), len(decls)
	stmts := append(jumps(tails), decls...)
	for _, pr := range pairs {
		slots = append(slots, pr.write, pr.obj)
	}
	for _, t := range temps {
		stmts = append(stmts, t.stmt)
	}
	var slotAt, stmtAt []int
	if slots != nil || stmts != nil {
		slotAt, stmtAt = p.Places(slots, stmts)
	}
	var unreadAt []int
	if slotAt != nil {
		unreadAt = slotAt[:nUnread]
	}
	edits := append(append(unusedPrivateMethods(m), falseIfs(m)...), unreadEdits(m, unreadAt)...)
	edits = append(edits, namespaceValues(m)...)
	if stmtAt != nil {
		edits = append(edits, unreachableEdits(m, tails, stmtAt[:nTails])...)
		edits = append(edits, returnedVarEdits(m, decls, stmtAt[nTails:nTails+nDecls])...)
		if slotAt != nil {
			edits = append(edits, loweredAssignEdits(m, pairs, temps, slotAt[nUnread:], stmtAt[nTails+nDecls:])...)
		}
	}
	return outerEdits(edits)
}

// outerEdits returns edits sorted by place, an edit inside another left out.
func outerEdits(edits []localnames.Edit) []localnames.Edit {
	sortEdits(edits)
	var outer []localnames.Edit
	for _, e := range edits {
		if n := len(outer); n > 0 && e.Start < outer[n-1].End {
			continue
		}
		outer = append(outer, e)
	}
	return outer
}

// minifiedPrint is a parse of a minified print (the module the unwritten bindings' pass
// minified again) and what the passes of neverRuns read of it besides: its tokens, lexed once,
// and how often the print names each binding, counted once.
type minifiedPrint struct {
	p      *localnames.Program
	src    string
	toks   []token
	lexed  bool // toks are lexed (nil where src does not lex so)
	counts map[*js.Var]int
}

func newMinifiedPrint(p *localnames.Program, src string) *minifiedPrint {
	return &minifiedPrint{p: p, src: src}
}

// tokens returns the tokens of the print (Program.Tokens), in order; false when the source
// does not lex so.
func (m *minifiedPrint) tokens() ([]token, bool) {
	if !m.lexed {
		m.lexed = true
		toks := make([]token, 0, len(m.src)/3)
		if m.p.Tokens(func(tt js.TokenType, start int, data []byte) bool {
			toks = append(toks, token{tt, start, start + len(data)})
			return true
		}) {
			m.toks = toks
		}
	}
	return m.toks, m.toks != nil
}

// at returns the index of the token that starts at offset start; false where none does.
func (m *minifiedPrint) at(start int) (int, bool) {
	return slices.BinarySearchFunc(m.toks, start, func(t token, start int) int { return t.start - start })
}

// count returns how often the print names each binding (resolved), its declarations too.
// The caller must not change the map.
func (m *minifiedPrint) count() map[*js.Var]int {
	if m.counts == nil {
		m.counts = map[*js.Var]int{}
		js.Walk(varCounter(m.counts), m.p.AST)
	}
	return m.counts
}

// falseIfs returns the edits that rewrite the print m's if statements whose test is always
// false as above, sorted by place; nil when there is none.
func falseIfs(m *minifiedPrint) []localnames.Edit {
	p, src := m.p, m.src
	if !strings.Contains(src, "0)") {
		return nil
	}
	f := &falseIfFinder{}
	js.Walk(f, p.AST)
	if len(f.ifs) == 0 {
		return nil
	}
	everywhere := m.count()
	tokens, ok := m.tokens()
	if !ok {
		return nil
	}
	var edits []localnames.Edit
	for _, s := range f.ifs {
		zero := falseTest(s.Cond)
		i, ok := m.at(p.Offset(zero.Data))
		if !ok || i+2 >= len(tokens) || tokens[i+1].tt != js.CloseParenToken {
			continue
		}
		open := opening(tokens, i+1)
		if open < 1 || tokens[open-1].tt != js.IfToken {
			continue
		}
		// The body's last token: a block's }, or the ; that ends it (or the token before
		// the } that closes the list, where the print leaves the ; out).
		body, last := i+2, -1
		if tokens[body].tt == js.OpenBraceToken {
			last = closingToken(tokens, body)
		} else {
			last = statementEnd(tokens, body)
		}
		if last < 0 {
			continue
		}
		// The test's expressions before the 0, as written.
		var text strings.Builder
		if before := strings.TrimSuffix(strings.TrimSpace(src[tokens[open].start+1:tokens[i].start]), ","); before != "" {
			// Grouped where a statement starting so would be read as another ({}[k]=f(),0 as
			// a block and a destructuring).
			if notAStatement(before) {
				before = "(" + before + ")"
			}
			text.WriteString(before + ";")
		}
		inBody := map[*js.Var]int{}
		js.Walk(varCounter(inBody), s.Body)
		declared := map[*js.Var]bool{}
		js.Walk(varDecls(declared), s.Body)
		var names []string
		for v := range declared {
			if everywhere[v] > inBody[v] {
				names = append(names, string(v.Data))
			}
		}
		slices.Sort(names)
		if len(names) > 0 {
			text.WriteString("var " + strings.Join(names, ",") + ";")
		}
		edits = append(edits, localnames.Edit{Start: tokens[open-1].start, End: tokens[last].end, Text: text.String()})
	}
	return edits
}

// closingToken returns the index of the token that closes the bracket opened at i; -1 where
// none does.
func closingToken(tokens []token, i int) int { return matching(tokens, i, 1) }

// opening returns the index of the token that opens the bracket closed at i; -1 where none
// does.
func opening(tokens []token, i int) int { return matching(tokens, i, -1) }

// matching walks tokens from the bracket at i by step (1 forward, -1 back) to the one that
// matches it.
func matching(tokens []token, i, step int) int {
	depth := 0
	for ; i >= 0 && i < len(tokens); i += step {
		switch tokens[i].tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
			depth += step
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			depth -= step
		default:
			continue
		}
		if depth == 0 {
			return i
		}
	}
	return -1
}

// statementEnd returns the index of the last token of the statement that starts at i, a var
// statement or a for loop whose body is one or empty: its ; at the statement's depth, or the
// token before the } that closes the list around it.
func statementEnd(tokens []token, i int) int {
	k := scanTo(tokens, i, true)
	if k >= 0 && tokens[k].tt != js.SemicolonToken {
		return k - 1
	}
	return k
}

// scanTo returns the index of the first token from i that closes a bracket opened before i,
// or, with semicolon, of the first ; outside the brackets opened from i, which comes first;
// -1 where none does.
func scanTo(tokens []token, i int, semicolon bool) int {
	depth := 0
	for k := i; k < len(tokens); k++ {
		switch tokens[k].tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
			depth++
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			if depth--; depth < 0 {
				return k
			}
		case js.SemicolonToken:
			if semicolon && depth == 0 {
				return k
			}
		}
	}
	return -1
}

// falseTest returns the 0 that ends e, when e is 0 or a comma expression whose last is 0.
func falseTest(e js.IExpr) *js.LiteralExpr {
	if c, ok := e.(*js.CommaExpr); ok && len(c.List) > 0 {
		e = c.List[len(c.List)-1]
	}
	if l, ok := literal(e); ok && isNumber(l.TokenType) && string(l.Data) == "0" {
		return l
	}
	return nil
}

// falseIfFinder finds the if statements of statement lists whose test is always false (see
// falseIfs).
type falseIfFinder struct {
	ifs []*js.IfStmt
}

func (f *falseIfFinder) Enter(n js.INode) js.IVisitor {
	f.check(statementList(n))
	return f
}

// statementList returns the list of statements of n, a block (a function's body too) or a
// case clause; nil for another node.
func statementList(n js.INode) []js.IStmt {
	switch n := n.(type) {
	case *js.BlockStmt:
		return n.List
	case *js.CaseClause:
		return n.List
	}
	return nil
}

func (f *falseIfFinder) Exit(js.INode) {}

// check notes the if statements of list with a false test, no else, and a body of a kind
// falseIfs rewrites.
func (f *falseIfFinder) check(list []js.IStmt) {
	for _, s := range list {
		s, ok := s.(*js.IfStmt)
		if !ok || s.Else != nil || falseTest(s.Cond) == nil {
			continue
		}
		switch b := s.Body.(type) {
		case *js.BlockStmt:
		case *js.VarDecl:
			if b.TokenType != js.VarToken {
				continue
			}
		case *js.ForStmt, *js.ForInStmt, *js.ForOfStmt:
			var body js.IStmt
			switch b := b.(type) {
			case *js.ForStmt:
				body = b.Body
			case *js.ForInStmt:
				body = b.Body
			case *js.ForOfStmt:
				body = b.Body
			}
			if d, ok := body.(*js.VarDecl); !(ok && d.TokenType == js.VarToken) && !isEmptyStmt(body) {
				continue
			}
		default:
			continue
		}
		f.ifs = append(f.ifs, s)
	}
}

// isEmptyStmt reports whether s is an empty statement.
func isEmptyStmt(s js.IStmt) bool {
	switch s := s.(type) {
	case *js.EmptyStmt:
		return true
	case *js.BlockStmt:
		return len(s.List) == 0
	}
	return false
}

// varCounter counts the occurrences of each binding (resolved) in what it walks.
type varCounter map[*js.Var]int

func (c varCounter) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok {
		c[resolved(v)]++
	}
	return c
}

func (varCounter) Exit(js.INode) {}

// varDecls collects the bindings var statements declare in what it walks, not in a function
// or a class inside (whose vars are their own).
type varDecls map[*js.Var]bool

func (d varDecls) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl, *js.ClassDecl:
		return nil
	case *js.VarDecl:
		if n.TokenType == js.VarToken {
			set := map[*js.Var]bool{}
			for _, e := range n.List {
				localnames.AddBindings(set, e.Binding)
			}
			for v := range set {
				d[resolved(v)] = true
			}
		}
	}
	return d
}

func (varDecls) Exit(js.INode) {}
