package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Bindings nothing reads. A module-level binding whose every name but its declaration is the
// target of a plain assignment (x = e) holds values no code reads: each assignment is its
// value e, evaluated the same. esbuild keeps the writes, and so the binding and what e names;
// Rolldown drops the binding (the MCP SDK's setNegotiatedProtocolVersion, assigned in a static
// block of Protocol and read only by the Client the app does not use; a $S = globalThis.crypto
// read by code tree-shaking dropped). In the print the unwritten bindings' pass minified
// again, such a write, where its value is not read (the expression of a statement, or an
// operand of a comma, not the last, that is one), is written as e, and esbuild, given the
// module once more, drops e where it does nothing and the binding with its last name.
// A value that would start the statement with {, function, class, let or async (read as
// another statement) is left, and so is a module that imports or exports.

// unreadWrites returns the edits that take x= out of each write of the print m to a binding
// nothing reads, as above; nil when there is none. neverRuns asks for the places of the
// writes with those of other passes: this is its two steps for one pass.
func unreadWrites(m *minifiedPrint) []localnames.Edit {
	slots := unreadSlots(m)
	if slots == nil {
		return nil
	}
	places, _ := m.p.Places(slots, nil)
	return unreadEdits(m, places)
}

// unreadSlots returns the targets (the slots of the *js.Var) of the writes of the print m to
// the bindings nothing reads; nil when there is none.
func unreadSlots(m *minifiedPrint) []*js.IExpr {
	p, ast := m.p, m.p.AST
	if !p.Known() {
		return nil
	}
	for _, s := range ast.BlockStmt.List {
		switch s.(type) {
		case *js.ImportStmt, *js.ExportStmt:
			return nil
		}
	}
	top := map[*js.Var]bool{}
	for _, v := range ast.BlockStmt.Scope.Declared {
		if !p.Kept(string(v.Data)) {
			top[resolved(v)] = true
		}
	}
	f := &unreadFinder{top: top, decls: map[*js.Var]int{}, writes: map[*js.Var][]*js.IExpr{}}
	js.Walk(f, ast)
	if len(f.writes) == 0 {
		return nil
	}
	count := m.count()
	var slots []*js.IExpr
	for v, w := range f.writes {
		if f.decls[v]+len(w) == count[v] && f.unusedValue[v] == len(w) {
			slots = append(slots, w...)
		}
	}
	return slots
}

// unreadEdits returns the edits that take x= out of the writes whose targets start at places
// (Places of unreadSlots' slots, -1 where not known), sorted by place.
func unreadEdits(m *minifiedPrint, places []int) []localnames.Edit {
	if places == nil {
		return nil
	}
	tokens, ok := m.tokens()
	if !ok {
		return nil
	}
	var edits []localnames.Edit
	for _, start := range places {
		i, ok := m.at(start)
		if start < 0 || !ok || i+2 >= len(tokens) || tokens[i+1].tt != js.EqToken {
			continue
		}
		value := m.src[tokens[i+2].start:]
		if notAStatement(value) {
			continue
		}
		edits = append(edits, localnames.Edit{Start: start, End: tokens[i+1].end})
	}
	sortEdits(edits)
	return edits
}

// notAStatement reports whether an expression's text, written where a statement starts, would
// be read as another statement (ECMA-262's ExpressionStatement lookahead: {, function, class,
// let [, async function): a block, a declaration, a destructuring.
func notAStatement(expr string) bool {
	return strings.HasPrefix(expr, "{") || startsWithWord(expr, "function") || startsWithWord(expr, "class") ||
		startsWithWord(expr, "let") || startsWithWord(expr, "async")
}

// startsWithWord reports whether s starts with the word w (not a longer name).
func startsWithWord(s, w string) bool {
	return strings.HasPrefix(s, w) && (len(s) == len(w) || !isIdentByte(s[len(w)]))
}

// unreadFinder finds, for the module-level bindings top, their declarations and the plain
// assignments to them (the slots of their targets), and counts those whose value is not read.
type unreadFinder struct {
	top         map[*js.Var]bool
	decls       map[*js.Var]int
	writes      map[*js.Var][]*js.IExpr
	unusedValue map[*js.Var]int
}

func (f *unreadFinder) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.BindingElement:
		if v, ok := n.Binding.(*js.Var); ok && f.top[resolved(v)] {
			f.decls[resolved(v)]++
		}
	case *js.ExprStmt:
		// The statement's expression, and a comma's operands but the last, are not read.
		if c, ok := n.Value.(*js.CommaExpr); ok {
			for i := range c.List {
				f.note(&c.List[i], true)
			}
		} else {
			f.note(&n.Value, true)
		}
	}
	return f
}

func (f *unreadFinder) Exit(js.INode) {}

// note records e, when it is a plain assignment to one of top, with whether its value is
// read.
func (f *unreadFinder) note(e *js.IExpr, unread bool) {
	b, ok := (*e).(*js.BinaryExpr)
	if !ok || b.Op != js.EqToken {
		return
	}
	v, ok := b.X.(*js.Var)
	if !ok || !f.top[resolved(v)] {
		return
	}
	v = resolved(v)
	f.writes[v] = append(f.writes[v], &b.X)
	if unread {
		if f.unusedValue == nil {
			f.unusedValue = map[*js.Var]int{}
		}
		f.unusedValue[v]++
	}
}
