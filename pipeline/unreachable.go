package pipeline

import (
	"slices"
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Statements after a jump. In a list of statements, those after a return, a throw, a break or a
// continue never run (ECMA-262 14.2.2: a statement list evaluates its statements in order and
// stops at the first abrupt completion, and a jump always completes so). Only what a
// declaration binds before the list runs is seen of them: a var's name, bound in the whole
// function (14.3.2's VarDeclaredNames, which reach into blocks, ifs, loops and trys, not into
// functions), a function declared in the list itself, and a let, const or class of the list,
// bound in its block and never initialized. esbuild keeps an if, a loop, a switch or a try
// after a jump whole where its body declares a var (its rule keeps every statement but an
// expression, a jump, a let, a const and a class), and so what it names: Svelte's hydration
// helpers, their hydrating branches folded to return (get_first_child(node) returning at once,
// the code after it reading hydrate_node), keep a text node's maker and a merging of text
// nodes. Oxc, and so Vite's build, drops them. Here, in a block or a function's body (not
// the module's top level, nor a case clause), the statements after the first jump are
// written as a var statement of the names their vars declare that code outside them names,
// or nothing, where none of them is a function, let, const or class declaration of the list
// (which is left as written) and the module's references are known (no direct eval, which
// could name a var).

// deadTail is a list of statements from a jump (tail[0]) to the list's end.
type deadTail []js.IStmt

// unreachableTails returns the lists of statements of the print m that a jump cuts short (see
// above), from the jump; nil when there is none.
func unreachableTails(m *minifiedPrint) []deadTail {
	if !m.p.Known() {
		return nil
	}
	f := &tailFinder{module: &m.p.AST.BlockStmt}
	js.Walk(f, m.p.AST)
	return f.tails
}

// jumps returns the jump statement of each tail, the slots Places finds.
func jumps(tails []deadTail) []*js.IStmt {
	var stmts []*js.IStmt
	for _, t := range tails {
		stmts = append(stmts, &t[0])
	}
	return stmts
}

// unreachable returns the edits that take out the statements after a jump in the print m, as
// above; nil when there is none. neverRuns asks for the places of the jumps with those of other
// passes: this is its two steps for one pass.
func unreachable(m *minifiedPrint) []localnames.Edit {
	tails := unreachableTails(m)
	if tails == nil {
		return nil
	}
	_, places := m.p.Places(nil, jumps(tails))
	return unreachableEdits(m, tails, places)
}

// unreachableEdits returns the edits that write the statements after each tail's jump, which
// starts at places (Places of jumps(tails), -1 where not known), as the var statement of the
// names outside code names; sorted by place.
func unreachableEdits(m *minifiedPrint, tails []deadTail, places []int) []localnames.Edit {
	if places == nil {
		return nil
	}
	tokens, ok := m.tokens()
	if !ok {
		return nil
	}
	everywhere := m.count()
	exported := exportedLocals(m.p.AST)
	var edits []localnames.Edit
	for k, t := range tails {
		i, ok := m.at(places[k])
		if places[k] < 0 || !ok {
			continue
		}
		switch tokens[i].tt {
		case js.ReturnToken, js.ThrowToken, js.BreakToken, js.ContinueToken:
		default:
			continue
		}
		// The jump ends with its ; (a line break before its end could be one ASI reads as
		// its end elsewhere: left), the list with the } of its block.
		end := statementEnd(tokens, i)
		if end < 0 || tokens[end].tt != js.SemicolonToken || strings.ContainsAny(m.src[tokens[i].start:tokens[end].end], "\n\r\u2028\u2029") {
			continue
		}
		last := listEnd(tokens, end+1) - 1
		if last < end+1 {
			continue
		}
		inTail := map[*js.Var]int{}
		declared := map[*js.Var]bool{}
		for _, s := range t[1:] {
			js.Walk(varCounter(inTail), s)
			js.Walk(varDecls(declared), s)
		}
		var names []string
		for v := range declared {
			if everywhere[v] > inTail[v] || m.p.Kept(string(v.Data)) || exported[string(v.Data)] {
				names = append(names, string(v.Data))
			}
		}
		slices.Sort(names)
		text := ""
		if len(names) > 0 {
			text = "var " + strings.Join(names, ",") + ";"
		}
		start, stop := tokens[end+1].start, tokens[last].end
		if m.src[start:stop] == text || m.src[start:stop] == strings.TrimSuffix(text, ";") {
			continue
		}
		edits = append(edits, localnames.Edit{Start: start, End: stop, Text: text})
	}
	// A tail inside another's: the outer edit takes it.
	return outerEdits(edits)
}

// exportedLocals returns the local names the module's export { … } statements name (a var's
// name read by no reference the parse counts: export { v } names it all the same).
func exportedLocals(ast *js.AST) map[string]bool {
	names := map[string]bool{}
	for _, s := range ast.List {
		e, ok := s.(*js.ExportStmt)
		if !ok || e.Module != nil {
			continue
		}
		for _, a := range e.List {
			if a.Name != nil {
				names[string(a.Name)] = true
			} else if a.Binding != nil {
				names[string(a.Binding)] = true
			}
		}
	}
	return names
}

// tailFinder finds the lists of statements of blocks and functions' bodies that a jump cuts
// short, where no statement after it is a declaration of the list but a var statement.
type tailFinder struct {
	module *js.BlockStmt // the module's top level, left
	tails  []deadTail
}

func (f *tailFinder) Enter(n js.INode) js.IVisitor {
	b, ok := n.(*js.BlockStmt)
	if !ok || b == f.module {
		return f
	}
	for i, s := range b.List[:max(len(b.List)-1, 0)] {
		switch s.(type) {
		case *js.ReturnStmt, *js.ThrowStmt, *js.BranchStmt:
		default:
			continue
		}
		if !slices.ContainsFunc(b.List[i+1:], isLexicalDecl) {
			f.tails = append(f.tails, deadTail(b.List[i:]))
		}
		break
	}
	return f
}

func (f *tailFinder) Exit(js.INode) {}

// isLexicalDecl reports whether s, a statement of a list, declares a binding of the list's
// block: a function, a class, a let or a const.
func isLexicalDecl(s js.IStmt) bool {
	switch s := s.(type) {
	case *js.FuncDecl, *js.ClassDecl:
		return true
	case *js.VarDecl:
		return s.TokenType != js.VarToken
	}
	return false
}

// listEnd returns the index of the } that closes the block around the token at i; -1 where
// none does.
func listEnd(tokens []token, i int) int {
	if k := scanTo(tokens, i, false); k >= 0 && tokens[k].tt == js.CloseBraceToken {
		return k
	}
	return -1
}
