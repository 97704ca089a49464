package pipeline

import (
	"encoding/base64"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Module-level bindings no kept code writes. A package's flag (Svelte's
// `export let hydrating = false`, written only by a set_hydrating() the app never calls) is a
// let that esbuild keeps as a variable, with every branch it guards; Rolldown, and so Vite's
// build, sees that no code left in the bundle writes it, reads it as its value and drops the
// branches and the functions only they called. Here the same rule runs over esbuild's
// minified module: a binding of its top level declared once with a literal (!1, void 0 or no
// value, null, a short number), written nowhere, not exported, no direct eval or with in the
// module, and whose every read runs after its declaration, is written as its value at each
// read (localnames.Substitute), and esbuild's minifier, given the module again, folds the
// branches and drops what nothing reaches. The edit is the same program: the binding holds
// that value at every read that runs.
//
// A read runs after the declaration when it is in code of a later statement (or declarator)
// of the top level, in a function or class made by a later one, or in a function whose value
// no code run before the declaration can reach: that code (the earlier statements, but for the
// bodies of their functions and the instance members of their classes) names no binding
// whose value leads to it (a function's body, a class's members, the expression a var is
// given, each naming further bindings), and awaits nothing at the top level. Any other read
// (in an earlier statement, a closure made before, a getter) leaves the binding as written:
// it could read undefined (var) or throw (let, the TDZ) there. A module that exports bindings
// and imports others is left as written (a module of an import cycle can call an exported
// function before this module's body runs). TestUnwritten runs each shape in Node, as
// written and after the pass.

// rewriteScript runs the passes that edit c, a minified script of the page, over one parse of
// it: where syntax (c an ES module, its syntax minified), its unwritten module-level bindings
// as their values, unless !unwritten, the shorter forms (shorterforms.go) and the logical
// assignments of plain variables (logicalvars.go), "use strict" kept in functions where
// compiles (the page may compile text: the manifest's eval = true); where rename, its local names given anew
// (renameLocals; module: c is an ES module, its top level renamed too). Each pass reads the
// one parse (localnames.Program), and the edits are applied together, the source map's
// columns moved. Where an unwritten binding is written, the module is minified again by
// esbuild (the branches it guards fold), and the local names and the logical assignments are
// found in a parse of that print; where that print has private methods nothing calls
// (privatemethods.go), ifs whose test is false (falseifs.go), writes nothing reads
// (unread.go), statements after a jump (unreachable.go) or variables returned at once
// (returnedvars.go), they are taken out and it is minified once more; nowhere else is it
// minified again.
func rewriteScript(c code, opts api.BuildOptions, syntax, unwritten, rename, compiles bool) code {
	module := opts.Format == api.FormatESModule
	if !syntax && !rename {
		return c
	}
	p := localnames.Parse(c.js)
	if p == nil {
		return c
	}
	var edits []localnames.Edit
	if syntax {
		if unwritten {
			edits = p.Substitute(unwrittenConstants)
		}
		forms := shorterForms(p, c.js, compiles)
		if edits != nil {
			edits = append(edits, forms...)
			sortEdits(edits)
			c = minifyAgain(c, edits, opts)
			if p = localnames.Parse(c.js); p == nil {
				return c
			}
			// The private methods only the folded branches called go, and the ifs esbuild
			// kept for their vars, and what they alone reached with them.
			if dead := neverRuns(p, c.js); dead != nil {
				c = minifyAgain(c, dead, opts)
				if p = localnames.Parse(c.js); p == nil {
					return c
				}
			}
			edits = nil
		} else {
			edits = forms
		}
	}
	edits = append(edits, nameEdits(p, c.js, module, rename, syntax)...)
	sortEdits(edits)
	return applyToScript(c, edits)
}

// inlineUnwritten writes the unwritten module-level bindings of c, a minified ES module, as
// their values and minifies it again, its source map composed; c as it is when there is none
// or esbuild cannot read the result.
func inlineUnwritten(c code, opts api.BuildOptions) code {
	p := localnames.Parse(c.js)
	if p == nil {
		return c
	}
	return minifyAgain(c, p.Substitute(unwrittenConstants), opts)
}

// minifyAgain applies edits, sorted by place, to c, a minified ES module, and minifies it
// again, its source map composed; c as it is when there are none or esbuild cannot read the
// result.
func minifyAgain(c code, edits []localnames.Edit, opts api.BuildOptions) code {
	if edits == nil {
		return c
	}
	// An ES module is strict code; esbuild reads a file that neither imports nor exports as a
	// script, sloppy (Annex B: a function declared in a block is a var of the function
	// around too), as esbuild's bundle, one module, is. An empty export makes it read the
	// module as one, and is not printed.
	text := localnames.Apply(c.js, edits) + "\nexport{};"
	sm := api.SourceMapNone
	if c.jsMap != nil {
		// The map of text, inline, is what the minifier maps back through.
		text += "\n//# sourceMappingURL=data:application/json;base64," + base64.StdEncoding.EncodeToString(moveColumns(c.jsMap, c.js, edits)) + "\n"
		sm = api.SourceMapExternal
	}
	t := api.Transform(text, api.TransformOptions{Loader: api.LoaderJS, Format: api.FormatESModule,
		Target: opts.Target, Engines: opts.Engines, Supported: opts.Supported, Charset: api.CharsetUTF8,
		LegalComments: api.LegalCommentsNone, MinifySyntax: true, MinifyWhitespace: true, TreeShaking: api.TreeShakingTrue,
		LogLevel: api.LogLevelSilent, Sourcemap: sm, Sourcefile: "page.js"})
	if len(t.Errors) > 0 {
		return c
	}
	c.js = string(t.Code)
	if sm != api.SourceMapNone {
		c.jsMap = t.Map
	}
	c.known = false // printed again: the offline check reads its imports from the text
	return c
}

// unwrittenConstants picks the bindings of a module's top level that inlineUnwritten writes as
// their values (see there), each with its declaration and value.
func unwrittenConstants(ast *js.AST) map[*js.Var]localnames.Constant {
	list := ast.BlockStmt.List
	exported, ok := moduleExports(list)
	if !ok {
		return nil
	}
	writes := localnames.WritesOf(ast)
	decls := map[*js.Var]int{}
	js.Walk(declCounter(decls), ast)

	// The bindings declared once with a literal, written nowhere.
	literal := map[*js.Var]localnames.Constant{}
	at := map[*js.Var]place{} // the declarator of each
	for k, s := range list {
		d, ok := s.(*js.VarDecl)
		if !ok {
			continue
		}
		for i := range d.List {
			e := &d.List[i]
			v, ok := e.Binding.(*js.Var)
			if !ok || resolved(v) != v || decls[v] != 1 || writes.Assigned(v) {
				continue
			}
			if value, ok := literalText(e.Default); ok {
				literal[v], at[v] = localnames.Constant{Decl: e, Value: value}, place{k, i}
			}
		}
	}
	// One that decides which operand of || && ?? or ?: is the value, where an operand is an
	// anonymous function or class, stays: folded, the minifier would make that definition the
	// value given to a name (var f = q || function () {}), which names the function (f.name
	// "" as written, the binding's name after).
	js.Walk(namingFolds(literal), ast)
	if len(literal) == 0 {
		return nil
	}

	// Where each is read, which code runs when each statement runs, and which bindings
	// each binding's value can reach.
	g := newUseGraph(ast, literal, nil)
	picked := map[*js.Var]localnames.Constant{}
	for v := range g.readAfter(list, at) {
		if !exported[string(v.Data)] && len(g.reads[v]) > 0 {
			picked[v] = literal[v]
		}
	}
	return picked
}

// moduleExports returns the names a module's top-level statements list exports; false where
// the module is left as written: it exports a declaration (export default …, export var …),
// or it exports bindings and imports others (a module of an import cycle can call an
// exported function before this module's body runs).
func moduleExports(list []js.IStmt) (map[string]bool, bool) {
	exported := map[string]bool{}
	imports, exports := false, false
	for _, s := range list {
		switch s := s.(type) {
		case *js.ImportStmt:
			imports = true
		case *js.ExportStmt:
			if s.Decl != nil {
				return nil, false
			}
			exports = true
			for _, a := range s.List {
				exported[string(a.Name)], exported[string(a.Binding)] = true, true
			}
		}
	}
	return exported, !(imports && exports)
}

// newUseGraph walks the top-level statements of ast for what they name: the reads of the
// bindings of literal (values that call nothing) and of tracked (any other value).
func newUseGraph(ast *js.AST, literal map[*js.Var]localnames.Constant, tracked map[*js.Var]bool) *useGraph {
	g := &useGraph{module: map[*js.Var]bool{}, literal: literal, tracked: tracked, edges: map[*js.Var][]*js.Var{},
		hoisted: map[*js.Var]bool{}, runs: map[place][]*js.Var{}, awaits: map[place]bool{}}
	for _, v := range ast.BlockStmt.Scope.Declared {
		g.module[v] = true
	}
	for j, s := range ast.BlockStmt.List {
		g.statement(j, s)
	}
	return g
}

// readAfter returns the bindings of at, each declared by the declarator at its place in list
// (the top level), whose every read runs after that declarator (see inlineUnwritten).
func (g *useGraph) readAfter(list []js.IStmt, at map[*js.Var]place) map[*js.Var]bool {
	// Walk the declarators and statements in order; before one runs, the code that ran
	// before it can have called the bindings reached from what that code named, and no
	// other: a function is called through a name of it (its own, or one of a value that
	// leads to it), or as a closure made by code that ran, whose reads are that code's. An
	// import calls back only what it is given; a binding written later holds what code that
	// ran made or named.
	byPlace := map[place][]*js.Var{}
	for v, p := range at {
		byPlace[p] = append(byPlace[p], v)
	}
	reached := map[*js.Var]bool{}
	all := false // code ran that may call anything of the module's
	var stack []*js.Var
	reach := func(v *js.Var) {
		if reached[v] {
			return
		}
		reached[v] = true
		stack = append(stack, v)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range g.edges[u] {
				if !reached[w] {
					reached[w] = true
					stack = append(stack, w)
				}
			}
		}
	}
	after := map[*js.Var]bool{}
	for k, s := range list {
		n := 1
		if d, ok := s.(*js.VarDecl); ok && len(d.List) > 0 {
			n = len(d.List)
		}
		for i := range n {
			here := place{k, i}
			for _, v := range byPlace[here] {
				safe := true
				for _, r := range g.reads[v] {
					switch {
					case r.owner == nil: // code that runs when its statement runs
						safe = safe && here.before(r.at)
					case !g.hoisted[r.owner] && here.before(r.at):
						// a function or class made after the declaration (where the read
						// is: a binding declared twice holds one made by each)
					default:
						safe = safe && !all && !reached[r.owner]
					}
				}
				if safe {
					after[v] = true
				}
			}
			all = all || g.awaits[here]
			for _, v := range g.runs[here] {
				reach(v)
			}
		}
	}
	return after
}

// useGraph is what the top-level statements of a module name of its bindings.
type useGraph struct {
	module  map[*js.Var]bool // the module's top-level bindings
	literal map[*js.Var]localnames.Constant
	tracked map[*js.Var]bool // bindings whose reads are noted too, their values calling code
	// runs are, by statement (declarator), the bindings named by code that runs when it
	// runs; awaits when it awaits.
	runs   map[place][]*js.Var
	awaits map[place]bool
	// edges are the bindings named by the code of a binding's value: a function's body, a
	// class's members, the expression a var is given.
	edges map[*js.Var][]*js.Var
	// hoisted are the bindings declared by a function declaration (callable before its
	// statement).
	hoisted   map[*js.Var]bool
	patterned map[*js.Var]bool // given by a pattern: from code that runs, any value
	reads     map[*js.Var][]read
}

// read is a read of a binding: in the code of statement at that runs when it runs (owner
// nil), or in the value of owner made by statement at that runs when called (a function's
// body, a class's instance members).
type read struct {
	at    place
	owner *js.Var
}

// place is a top-level statement, and in a declaration its declarator.
type place struct{ stmt, decl int }

// before reports whether p runs before q.
func (p place) before(q place) bool {
	return p.stmt < q.stmt || p.stmt == q.stmt && p.decl < q.decl
}

// statement walks the top-level statement s, the j-th.
func (g *useGraph) statement(j int, s js.IStmt) {
	at := place{j, 0}
	switch s := s.(type) {
	case *js.FuncDecl:
		if s.Name != nil {
			b := resolved(s.Name)
			g.hoisted[b] = true
			js.Walk(&useWalker{g: g, at: at, owner: b}, &s.Params)
			js.Walk(&useWalker{g: g, at: at, owner: b}, &s.Body)
			return
		}
	case *js.ClassDecl:
		if s.Name != nil {
			b := resolved(s.Name)
			g.class(at, b, s)
			return
		}
	case *js.VarDecl:
		for i, e := range s.List {
			at := place{j, i}
			b, ok := e.Binding.(*js.Var)
			if !ok {
				js.Walk(&useWalker{g: g, at: at, runs: true}, e.Binding)
				js.Walk(&useWalker{g: g, at: at, runs: true}, e.Default)
				localnames.AddBindings(g.patternedMap(), e.Binding)
				continue
			}
			b = resolved(b)
			switch d := e.Default.(type) {
			case *js.FuncDecl, *js.ArrowFunc:
				js.Walk(&useWalker{g: g, at: at, owner: b}, d)
			case *js.ClassDecl:
				g.class(at, b, d)
			default:
				// A value that calls nothing when made (var a = b, { equals: c }) makes b's
				// value lead to what it names, and runs none of it.
				js.Walk(&useWalker{g: g, at: at, owner: b, runs: true, callsNone: callsNothing(d)}, d)
			}
		}
		return
	}
	js.Walk(&useWalker{g: g, at: at, runs: true}, s)
}

// patternedMap returns patterned, made.
func (g *useGraph) patternedMap() map[*js.Var]bool {
	if g.patterned == nil {
		g.patterned = map[*js.Var]bool{}
	}
	return g.patterned
}

// class walks the class c, the value of b given by statement j: what runs when the class is
// made (its heritage, computed keys, static fields and blocks) runs with the statement; all
// of it is b's value. A static block and a static field's initializer run with this the class
// (and super's methods called on it), and a class expression's own name is the class, so
// that code that runs then reaches the class's methods without naming b (static { this.m() },
// static x = this.m(), static { K = this }, var D = class C { static x = C.m() }, as esbuild
// writes a class that names itself): where such code says this, super or the class's own
// name, the class is named by code that runs.
func (g *useGraph) class(at place, b *js.Var, c *js.ClassDecl) {
	now := &useWalker{g: g, at: at, owner: b, runs: true}
	later := &useWalker{g: g, at: at, owner: b}
	js.Walk(now, c.Extends)
	for i := range c.List {
		e := &c.List[i]
		switch {
		case e.StaticBlock != nil:
			js.Walk(now, e.StaticBlock)
			g.ranWithClass(at, b, c.Name, e.StaticBlock)
		case e.Method != nil:
			js.Walk(now, e.Method.Name.Computed)
			js.Walk(later, &e.Method.Params)
			js.Walk(later, &e.Method.Body)
		default:
			js.Walk(now, e.Field.Name.Computed)
			if e.Field.Static {
				js.Walk(now, e.Field.Init)
				g.ranWithClass(at, b, c.Name, e.Field.Init)
			} else {
				js.Walk(later, e.Field.Init)
			}
		}
	}
}

// ranWithClass notes the class b, its own name name (nil when none), as named by the code of
// statement at when n, code run as the class is made with this the class, says this, super or
// name (in a function inside too, and name wherever it is bound: more than the language binds
// to the class, never less).
func (g *useGraph) ranWithClass(at place, b, name *js.Var, n js.INode) {
	if n == nil {
		return
	}
	found := false
	f := thisFinder{found: &found}
	if name != nil {
		f.name = name.Data
	}
	js.Walk(f, n)
	if found {
		g.runs[at] = append(g.runs[at], b)
	}
}

// thisFinder sets *found at a this, a super or a name name in what it walks.
type thisFinder struct {
	found *bool
	name  []byte
}

func (f thisFinder) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.LiteralExpr:
		*f.found = *f.found || n.TokenType == js.ThisToken || n.TokenType == js.SuperToken
	case *js.Var:
		*f.found = *f.found || f.name != nil && string(n.Data) == string(f.name)
	}
	return f
}

func (thisFinder) Exit(js.INode) {}

// namingFolds deletes from the map it is the bindings that decide a logical or conditional
// expression one of whose values is an anonymous function or class, or that a comma
// expression whose value is one reads before it (a NamedEvaluation in waiting, ECMAScript's
// IsAnonymousFunctionDefinition once folded).
type namingFolds map[*js.Var]localnames.Constant

func (m namingFolds) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.BinaryExpr:
		if (n.Op == js.OrToken || n.Op == js.AndToken || n.Op == js.NullishToken) && anonymousValue(n) {
			m.deciders(n.X)
		}
	case *js.CondExpr:
		if anonymousValue(n) {
			m.deciders(n.Cond)
		}
	case *js.CommaExpr:
		// The operands before the last, read for nothing, are dropped once they are values.
		if len(n.List) > 0 && anonymousValue(n.List[len(n.List)-1]) {
			for _, e := range n.List[:len(n.List)-1] {
				m.deciders(e)
			}
		}
	}
	return m
}

func (namingFolds) Exit(js.INode) {}

// deciders deletes the bindings e reads as a decider: itself, or the operands of the logical,
// conditional, comma and other operators' expressions it is made of.
func (m namingFolds) deciders(e js.IExpr) {
	switch e := unGroup(e).(type) {
	case *js.Var:
		delete(m, resolved(e))
	case *js.UnaryExpr:
		m.deciders(e.X)
	case *js.BinaryExpr:
		m.deciders(e.X)
		m.deciders(e.Y)
	case *js.CondExpr:
		m.deciders(e.Cond)
		m.deciders(e.X)
		m.deciders(e.Y)
	case *js.CommaExpr:
		for _, x := range e.List {
			m.deciders(x)
		}
	}
}

// anonymousValue reports whether a value of e, a logical, conditional or comma expression,
// may be an anonymous function, arrow or class definition.
func anonymousValue(e js.IExpr) bool {
	switch e := unGroup(e).(type) {
	case *js.FuncDecl:
		return e.Name == nil
	case *js.ClassDecl:
		return e.Name == nil
	case *js.ArrowFunc:
		return true
	case *js.BinaryExpr:
		switch e.Op {
		case js.OrToken, js.AndToken, js.NullishToken:
			return anonymousValue(e.X) || anonymousValue(e.Y)
		}
	case *js.CondExpr:
		return anonymousValue(e.X) || anonymousValue(e.Y)
	case *js.CommaExpr:
		return len(e.List) > 0 && anonymousValue(e.List[len(e.List)-1])
	}
	return false
}

// useWalker notes the module's bindings named in what it walks: as runs of its statement
// when runs, as edges of owner when set, and the reads of the literal ones.
type useWalker struct {
	g     *useGraph
	at    place
	owner *js.Var
	runs  bool
	// callsNone is set when the code that runs calls nothing: its names are no runs.
	callsNone bool
	inFunc    bool // inside a function the walk entered
}

func (u *useWalker) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.Var:
		v := resolved(n)
		if !u.g.module[v] {
			break
		}
		if _, literal := u.g.literal[v]; literal || u.g.tracked[v] {
			if u.g.reads == nil {
				u.g.reads = map[*js.Var][]read{}
			}
			r := read{at: u.at, owner: u.owner}
			if u.runs {
				r.owner = nil
			}
			u.g.reads[v] = append(u.g.reads[v], r)
			if literal {
				break // a literal calls nothing
			}
		}
		if u.runs && !u.callsNone {
			u.g.runs[u.at] = append(u.g.runs[u.at], v)
		}
		if u.owner != nil {
			u.g.edges[u.owner] = append(u.g.edges[u.owner], v)
		}
	case *js.VarDecl:
		// A declarator's own name is no read; a pattern's defaults and a value are.
		for _, e := range n.List {
			if _, ok := e.Binding.(*js.Var); !ok {
				js.Walk(u, e.Binding)
			}
			js.Walk(u, e.Default)
		}
		return nil
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl:
		if !u.inFunc { // an await in a function awaits when it is called
			c := *u
			c.inFunc = true
			js.Walk(&c, n)
			return nil
		}
	case *js.UnaryExpr:
		u.g.awaits[u.at] = u.g.awaits[u.at] || u.runs && !u.inFunc && n.Op == js.AwaitToken
	case *js.ForOfStmt:
		u.g.awaits[u.at] = u.g.awaits[u.at] || u.runs && !u.inFunc && n.Await
	}
	return u
}

func (*useWalker) Exit(js.INode) {}

// callsNothing reports whether evaluating e can call no code: a name, a literal, a function or
// an arrow (made, not called), an object or array literal of such (no spread, no computed
// key, no accessor), and !, void, typeof, ?:, &&, || and ?? of such (ToBoolean calls
// nothing). A member access may call a getter, an operator valueOf.
func callsNothing(e js.IExpr) bool {
	switch e := e.(type) {
	case nil, *js.Var, *js.LiteralExpr, *js.ArrowFunc:
		return true
	case *js.FuncDecl:
		return true
	case *js.GroupExpr:
		return callsNothing(e.X)
	case *js.ArrayExpr:
		for _, el := range e.List {
			if el.Spread || !callsNothing(el.Value) {
				return false
			}
		}
		return true
	case *js.ObjectExpr:
		for _, p := range e.List {
			if p.Spread || p.Name == nil || p.Name.IsComputed() || p.Init != nil {
				return false
			}
			if m, ok := p.Value.(*js.MethodDecl); ok {
				if m.Get || m.Set || m.Name.IsComputed() {
					return false // an accessor is made, not called; left out all the same
				}
				continue
			}
			if !callsNothing(p.Value) {
				return false
			}
		}
		return true
	case *js.UnaryExpr:
		switch e.Op {
		case js.NotToken, js.VoidToken, js.TypeofToken:
			return callsNothing(e.X)
		}
	case *js.CondExpr:
		return callsNothing(e.Cond) && callsNothing(e.X) && callsNothing(e.Y)
	case *js.BinaryExpr:
		switch e.Op {
		case js.AndToken, js.OrToken, js.NullishToken:
			return callsNothing(e.X) && callsNothing(e.Y)
		}
	}
	return false
}

// isFuncDecl reports whether a top-level statement is a function declaration (hoisted).
func isFuncDecl(s js.IStmt) bool {
	_, ok := s.(*js.FuncDecl)
	return ok
}

// literalText gives the text of a binding's value when it is a literal inlineUnwritten writes
// at each read: a boolean, undefined (no value or void 0), null, a number of at most three
// characters (a longer one, read often, would add more than it folds).
func literalText(e js.IExpr) (string, bool) {
	switch e := e.(type) {
	case nil:
		return "void 0", true
	case *js.LiteralExpr:
		switch e.TokenType {
		case js.TrueToken, js.FalseToken, js.NullToken:
			return string(e.Data), true
		case js.IntegerToken, js.DecimalToken:
			return string(e.Data), len(e.Data) <= 3
		}
	case *js.UnaryExpr:
		x, ok := e.X.(*js.LiteralExpr)
		if !ok || x.TokenType != js.IntegerToken && x.TokenType != js.DecimalToken {
			break
		}
		switch {
		case e.Op == js.NotToken && (string(x.Data) == "0" || string(x.Data) == "1"):
			return "!" + string(x.Data), true
		case e.Op == js.VoidToken:
			return "void " + string(x.Data), true
		case e.Op == js.NegToken && len(x.Data) <= 3:
			return "-" + string(x.Data), true
		}
	}
	return "", false
}

// declCounter counts the declarations of each binding: var, let and const declarators (in
// patterns too), function and class declarations.
type declCounter map[*js.Var]int

func (d declCounter) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.VarDecl:
		for _, e := range n.List {
			js.Walk(bindingCounter(d), e.Binding)
		}
	case *js.FuncDecl:
		if n.Name != nil {
			d[resolved(n.Name)]++
		}
	case *js.ClassDecl:
		if n.Name != nil {
			d[resolved(n.Name)]++
		}
	}
	return d
}

func (declCounter) Exit(js.INode) {}

// bindingCounter counts the bindings a pattern declares (not the names its defaults read).
type bindingCounter map[*js.Var]int

func (b bindingCounter) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.Var:
		b[resolved(n)]++
	case *js.BindingElement:
		js.Walk(b, n.Binding)
		return nil
	case *js.BindingObjectItem:
		js.Walk(b, n.Value.Binding)
		return nil
	case *js.BindingObject:
		for _, it := range n.List {
			js.Walk(b, it.Value.Binding)
		}
		if n.Rest != nil {
			b[resolved(n.Rest)]++
		}
		return nil
	}
	return b
}

func (bindingCounter) Exit(js.INode) {}
