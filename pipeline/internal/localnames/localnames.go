// Package localnames renames the local bindings of minified JavaScript, each function's and
// block's anew from the shortest names, as Vite's minifier (Oxc) names them, which gzip
// compresses better than the names esbuild's minifier gives nested scopes:
//
//	edits := localnames.Rename(code)
//	code = localnames.Apply(code, edits)
//
// It writes the source back with only the renamed identifiers replaced, each at its exact
// place; nothing else is printed again. Substitute finds the places of top-level bindings the
// same way, to write a value there instead of a name (the caller decides which bindings).
// Parse gives one parse of a program (Program) that both, Resolve's kind of questions
// (Declares) and the caller's own walks of the syntax tree share.
//
// # Guarantees
//
// The renamed program is the same program. Only bindings whose every reference is known are
// renamed: those a function, a block, a catch clause or a switch declares, never a script's
// top level (its names can be read from outside: globals, other scripts) nor a module's, but
// by RenameModule, for a module that imports and exports nothing (its top level is its own);
// never a free name, a property or a private name (#x). Nothing is renamed in a
// program that calls eval directly or has a with statement, whose references are known only
// at run time, nor in one that writes a name with escapes (\u0061), which the parse takes
// for another name than the same written plainly. A new name is never one that a reference
// inside the binding's scope resolves elsewhere, never a keyword, and never a class
// expression's own name; where the parse binds a name in another scope than the language (a
// class expression's name, a block function, a var in a class static block) that name is
// kept in the scopes around it. Where the parse and
// the text do not line up token for token (syntax the parser reads otherwise), Rename renames
// nothing. Function and class names are renamed as esbuild's minifier renames them (their
// .name was already not the author's).
//
// The output is deterministic: the same input gives the same bytes.
package localnames

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Edit replaces the bytes [Start, End) of the input with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Apply returns src with edits applied; edits are sorted by Start and do not overlap, as
// Rename returns them.
func Apply(src string, edits []Edit) string {
	var b strings.Builder
	b.Grow(len(src))
	pos := 0
	for _, e := range edits {
		b.WriteString(src[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(src[pos:])
	return b.String()
}

// Rename returns the edits that give src's local bindings new names, sorted by place; nil
// when it renames nothing (see the package's guarantees). The caller owns the slice.
func Rename(src string) []Edit { return rename(src, false) }

// RenameModule is Rename for an ES module that is the whole of its program (a page's one
// module script, bundled): its top level is renamed too, when it imports and exports nothing.
// A module's top-level bindings are its own (no global, no other script, reads them), and
// without import or export statements no other module names them either.
func RenameModule(src string) []Edit { return rename(src, true) }

// parseNames parses src for a renamer of its names: the parse's names are slices of the renamer's
// copy of src, which is how their places are known. Nil where src does not parse.
func parseNames(src string) (*renamer, *js.AST) {
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	if err != nil {
		return nil, nil
	}
	return &renamer{src: src, buf: buf, index: map[*js.Var]int{}, module: &ast.BlockStmt.Scope}, ast
}

func rename(src string, module bool) []Edit {
	p := Parse(src)
	if p == nil {
		return nil
	}
	return p.Rename(module)
}

// Rename returns the edits of the package's Rename over p, or with module of RenameModule.
func (p *Program) Rename(module bool) []Edit {
	edits, _ := p.RenameAt(module, true, nil)
	return edits
}

// RenameAt is Rename (with rename; none without) that also gives the place in the source of
// the name each of slots holds, -1 where it is not known: a slot is an expression of AST that
// is a *js.Var, at one place (an assignment's target), where the parse's own node for a name
// is shared by its references in a scope and keeps no place. Nil places where the program's
// references are not known or the parse and the text do not line up.
func (p *Program) RenameAt(module, rename bool, slots []*js.IExpr) ([]Edit, []int) {
	edits, slotAt, _ := p.renameAt(module, rename, slots, nil)
	return edits, slotAt
}

// Places gives the place in the source of the name each of slots holds (as RenameAt does) and
// of the first token of each of stmts, statements of AST that start with a keyword (return,
// throw, break, continue, var, if …), -1 where it is not known: the parse keeps no place of a
// statement. Nil places where the program's references are not known or the parse and the
// text do not line up. One alignment for both: the passes that need places ask at once.
func (p *Program) Places(slots []*js.IExpr, stmts []*js.IStmt) (slotAt, stmtAt []int) {
	_, slotAt, stmtAt = p.renameAt(true, false, slots, stmts)
	return slotAt, stmtAt
}

func (p *Program) renameAt(module, rename bool, slots []*js.IExpr, stmts []*js.IStmt) ([]Edit, []int, []int) {
	r, ast := p.fresh(), p.AST
	if r.bad {
		return nil, nil, nil
	}
	if module {
		r.top = &ast.BlockStmt
		for _, s := range ast.BlockStmt.List {
			switch s.(type) {
			case *js.ImportStmt, *js.ExportStmt:
				r.top = nil
			}
		}
		if r.top != nil {
			// The walk leaves the top level out of the scopes renamed; it comes first.
			r.scopes = append([]*js.Scope{&r.top.Scope}, r.scopes...)
		}
	}
	if !rename || !r.collect() {
		r.vars, r.index = nil, map[*js.Var]int{}
	}
	if len(r.vars) == 0 && len(slots) == 0 && len(stmts) == 0 {
		return nil, nil, nil
	}
	r.slots, r.stmts = slots, stmts
	occ, ok := r.align(ast)
	if !ok {
		return nil, nil, nil
	}
	if len(r.vars) == 0 {
		return nil, r.slotAt, r.stmtAt
	}
	return r.rename(occ), r.slotAt, r.stmtAt
}

// renamer holds one program's parse and what Rename found in it.
type renamer struct {
	src string
	buf []byte // the parsed copy of src: tokens of the parse are slices of it
	// scopes are the scopes whose declarations are renamed, parents before children.
	scopes []*js.Scope
	// vars are the bindings renamed, index their place in vars.
	vars  []*js.Var
	index map[*js.Var]int
	// decls are, for Substitute, each binding's declaration, whose name stays (by index
	// in vars).
	decls []*js.BindingElement
	// kept are, by scope, names no binding of the scope is renamed from or to (keep).
	kept map[*js.Scope]map[string]bool
	// top is the program's top level when its bindings are renamed too (RenameModule).
	top *js.BlockStmt
	// module is the AST's top scope (see keep).
	module *js.Scope
	// stack are the scopes around the node walked.
	stack []*js.Scope
	// shorthands are the shorthand properties and pattern items whose value is a renamed
	// binding: { a } is written { a: b }.
	props    []*js.Property
	bindings []*js.BindingObjectItem
	regexps  []*js.LiteralExpr
	regexpAt map[int]bool // the offsets of regexps, once tokens needs them
	bad      bool         // a direct eval or a with statement
	// slots are the places RenameAt finds (align), slotAt where each is (-1: not found);
	// stmts and stmtAt alike, for Places.
	slots  []*js.IExpr
	slotAt []int
	stmts  []*js.IStmt
	stmtAt []int
}

// offset returns the offset in src of a token of the parse.
func (r *renamer) offset(data []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(data))) - uintptr(unsafe.Pointer(unsafe.SliceData(r.buf))))
}

// collect picks the bindings to rename from the walk's scopes; false when nothing may be.
func (r *renamer) collect() bool {
	if r.bad {
		return false
	}
	for _, s := range r.scopes {
		for _, v := range s.Declared {
			// A class expression's name is bound in the class only, and the parser takes the
			// class's references to it for the outer binding of that name: such a binding
			// keeps its name, as do those references (and alike for block functions).
			// A binding named arguments (sloppy code: var arguments) holds the function's
			// arguments object until written: it keeps its name.
			if v.Decl == js.PrivateDecl || r.kept[s][string(v.Data)] || string(v.Data) == "arguments" {
				continue
			}
			if v.Link != nil || !plainName(v.Data) {
				return false // a binding the renamer cannot write: leave the program as it is
			}
			if _, dup := r.index[v]; dup {
				return false
			}
			r.index[v] = len(r.vars)
			r.vars = append(r.vars, v)
		}
	}
	return true
}

// plainName reports whether name is written in ASCII letters, digits, _ and $ (no escapes),
// as a binding's name is the same bytes at each of its places.
func plainName(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func (r *renamer) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.BlockStmt:
		r.stack = append(r.stack, &n.Scope)
		if n.Scope.Parent != nil {
			r.scopes = append(r.scopes, &n.Scope)
		}
		if n.Scope.HasWith {
			r.bad = true
		}
		// A block, not a function's body nor the module's (whose scope's Func is the
		// parser's copy, see keep).
		if n.Scope.Func != &n.Scope && &n.Scope != r.module {
			r.blockFunctions(n.List...)
		}
	case *js.CaseClause:
		r.blockFunctions(n.List...)
	case *js.IfStmt:
		r.blockFunctions(n.Body, n.Else)
	case *js.LabelledStmt:
		r.blockFunctions(n.Value)
	case *js.SwitchStmt:
		r.stack = append(r.stack, &n.Scope)
		r.scopes = append(r.scopes, &n.Scope)
	case *js.WithStmt:
		r.bad = true
	case *js.TryStmt:
		// var e in catch (e) { … } writes the catch clause's e (Annex B), where the parser
		// declares a binding of the function's: leave such a program as written.
		if n.Catch != nil && n.Binding != nil {
			var params []string
			for _, v := range n.Catch.Scope.Declared {
				if v.Decl == js.CatchDecl {
					params = append(params, string(v.Data))
				}
			}
			js.Walk(varFinder{params, &r.bad}, n.Catch)
		}
	case *js.CallExpr:
		// eval(…) is a direct eval whichever binding it reads, when that holds the global
		// eval (sloppy code may bind the name: var eval = globalThis.eval, or a parameter).
		if v, ok := unGroup(n.X).(*js.Var); ok && isFree(v) && !plainName(v.Name()) || ok && string(v.Name()) == "eval" {
			r.bad = true // eval, or a name written with escapes that may be eval
		}
	case *js.ClassDecl:
		if n.Name != nil && n.Name.Decl == js.ExprDecl {
			r.keep(r.stack[len(r.stack)-1], string(n.Name.Data))
		}
		// A class static block is a var scope of its own, where the parser declares its var
		// bindings in the function around the class: a reference there to an outer binding
		// of such a name is taken for the block's. Such names are kept, as block functions'.
		for _, e := range n.List {
			if e.StaticBlock == nil {
				continue
			}
			var names []string
			js.Walk(varNames{&names}, e.StaticBlock)
			for _, name := range names {
				r.keep(r.stack[len(r.stack)-1].Func, name)
			}
		}
	case *js.LiteralExpr:
		if n.TokenType == js.RegExpToken {
			r.regexps = append(r.regexps, n)
		}
	case *js.Property:
		if v, ok := n.Value.(*js.Var); ok && n.Name != nil && !n.Spread && n.Name.IsIdent(v.Data) {
			r.props = append(r.props, n)
		}
	case *js.BindingObjectItem:
		if v, ok := n.Value.Binding.(*js.Var); ok && n.Key != nil && n.Key.IsIdent(v.Data) {
			r.bindings = append(r.bindings, n)
		}
	}
	return r
}

func (r *renamer) Exit(n js.INode) {
	switch n.(type) {
	case *js.BlockStmt, *js.SwitchStmt:
		r.stack = r.stack[:len(r.stack)-1]
	}
}

// blockFunctions keeps the names of the functions declared in a block (not a function's
// body), which strict code binds in the block and sloppy code in the function too (Annex B),
// where the parser binds them in the function alone: a reference outside the block may be
// taken for one.
func (r *renamer) blockFunctions(list ...js.IStmt) {
	for _, s := range list {
		if f, ok := s.(*js.FuncDecl); ok && f.Name != nil {
			r.keep(r.stack[len(r.stack)-1].Func, string(f.Name.Data))
		}
	}
}

// keep keeps name in scope s and every scope around it: no binding of that name there is
// renamed, and none is given it. Then every reference of that name from s down, whichever
// binding the parser takes it for, reads what it read: the scope that binds it in the
// language keeps it, and no scope between has a new binding of it (a scope inside renames
// a binding of its own to it only where it reads no outer binding of the name).
//
// The parse's top scope is copied into the AST (js.Parse returns the module's block by value):
// the scopes inside name the parser's as their parent, the walk and the caller the AST's, so
// the root a scope's parents lead to is kept as module, the AST's, too.
func (r *renamer) keep(s *js.Scope, name string) {
	for ; s != nil; s = s.Parent {
		r.keepIn(s, name)
		if s.Parent == nil && r.module != nil {
			r.keepIn(r.module, name)
		}
	}
}

func (r *renamer) keepIn(s *js.Scope, name string) {
	if r.kept[s] == nil {
		r.kept[s] = map[string]bool{}
	}
	r.kept[s][name] = true
}

// varFinder sets *found when a var declaration in what it walks declares one of names.
type varFinder struct {
	names []string
	found *bool
}

func (f varFinder) Enter(n js.INode) js.IVisitor {
	if d, ok := n.(*js.VarDecl); ok && d.TokenType == js.VarToken {
		js.Walk(bindingNames{f}, d)
	}
	return f
}

func (varFinder) Exit(js.INode) {}

type bindingNames struct{ f varFinder }

// varNames appends to *names the names every var declaration in what it walks declares.
type varNames struct{ names *[]string }

func (f varNames) Enter(n js.INode) js.IVisitor {
	if d, ok := n.(*js.VarDecl); ok && d.TokenType == js.VarToken {
		js.Walk(declNames(f), d)
	}
	return f
}

func (varNames) Exit(js.INode) {}

type declNames varNames

func (b declNames) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok && v.Decl == js.VariableDecl {
		*b.names = append(*b.names, string(v.Name()))
	}
	return b
}

func (declNames) Exit(js.INode) {}

func (b bindingNames) Enter(n js.INode) js.IVisitor {
	if v, ok := n.(*js.Var); ok && v.Decl == js.VariableDecl && slices.Contains(b.f.names, string(v.Name())) {
		*b.f.found = true
	}
	return b
}

func (bindingNames) Exit(js.INode) {}

// isFree reports whether v, a reference, resolves to no declaration.
func isFree(v *js.Var) bool {
	for v.Link != nil {
		v = v.Link
	}
	return v.Decl == js.NoDecl
}

func unGroup(e js.IExpr) js.IExpr {
	for {
		g, ok := e.(*js.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

// resolve returns the declaration a reference of the parse names.
func resolve(v *js.Var) *js.Var {
	for v.Link != nil {
		v = v.Link
	}
	return v
}

// occurrence is a renamed binding's name in src: at start, written whole (shorthand: the
// property's key too).
type occurrence struct {
	start     int
	v         int // index in vars
	shorthand bool
}

// align finds in src the place of every name of a renamed binding. The parse keeps no place
// of a reference, so the parse is printed with each renamed binding named by a marker and
// each shorthand by another, and the names of the print and of src, token by token, must be
// the same but for the markers: a marker's counterpart in src is that binding's name there.
func (r *renamer) align(ast *js.AST) ([]occurrence, bool) {
	prefix := "ᐅ"
	for i := 0; strings.Contains(r.src, prefix); i++ {
		prefix = "ᐅ" + strconv.Itoa(i) + "_"
	}
	// Mark, print, then put the parse back as it was.
	names := make([][]byte, len(r.vars))
	for i, v := range r.vars {
		names[i] = v.Data
		v.Data = []byte(prefix + strconv.Itoa(i))
	}
	type propWas struct {
		p     *js.Property
		name  *js.PropertyName
		value js.IExpr
	}
	var props []propWas
	for _, p := range r.props {
		i, ok := r.index[resolve(p.Value.(*js.Var))]
		if !ok {
			continue
		}
		props = append(props, propWas{p, p.Name, p.Value})
		p.Name = nil
		p.Value = &js.Var{Data: []byte(prefix + "s" + strconv.Itoa(i))}
	}
	type bindingWas struct {
		b     *js.BindingObjectItem
		key   *js.PropertyName
		value js.IBinding
	}
	var bindings []bindingWas
	var decls []js.IBinding
	for i, d := range r.decls {
		decls = append(decls, d.Binding)
		d.Binding = &js.Var{Data: []byte(prefix + "d" + strconv.Itoa(i))}
	}
	for _, b := range r.bindings {
		i, ok := r.index[resolve(b.Value.Binding.(*js.Var))]
		if !ok {
			continue
		}
		bindings = append(bindings, bindingWas{b, b.Key, b.Value.Binding})
		b.Key = nil
		b.Value.Binding = &js.Var{Data: []byte(prefix + "s" + strconv.Itoa(i))}
	}
	// A regular expression is printed as a number, so that the print is lexed without the
	// parser's word on which '/' starts one; src's are found by their place (tokens).
	type regexpWas struct {
		tt   js.TokenType
		data []byte
	}
	regexps := make([]regexpWas, len(r.regexps))
	for i, e := range r.regexps {
		regexps[i] = regexpWas{e.TokenType, e.Data}
		e.TokenType, e.Data = js.DecimalToken, []byte("0")
	}
	slotWas := make([]*js.Var, len(r.slots))
	r.slotAt = make([]int, len(r.slots))
	for i, slot := range r.slots {
		slotWas[i] = (*slot).(*js.Var)
		r.slotAt[i] = -1
		*slot = &js.Var{Data: []byte(prefix + "l" + strconv.Itoa(i))}
	}
	// A statement is printed labelled by a marker: the marker's counterpart in src is the
	// statement's first name, its keyword.
	stmtWas := make([]js.IStmt, len(r.stmts))
	r.stmtAt = make([]int, len(r.stmts))
	for i, s := range r.stmts {
		stmtWas[i] = *s
		r.stmtAt[i] = -1
		*s = &js.LabelledStmt{Label: []byte(prefix + "t" + strconv.Itoa(i)), Value: *s}
	}
	var printed bytes.Buffer
	ast.JS(&printed)
	for i, s := range r.stmts {
		*s = stmtWas[i]
	}
	for i, slot := range r.slots {
		*slot = slotWas[i]
	}
	for i, v := range r.vars {
		v.Data = names[i]
	}
	for _, w := range props {
		w.p.Name, w.p.Value = w.name, w.value
	}
	for _, w := range bindings {
		w.b.Key, w.b.Value.Binding = w.key, w.value
	}
	for i, d := range r.decls {
		d.Binding = decls[i]
	}
	for i, e := range r.regexps {
		e.TokenType, e.Data = regexps[i].tt, regexps[i].data
	}

	// The names of the print, in order.
	var want []string
	pbuf := printed.Bytes()
	pbuf = append(pbuf, 0)[:len(pbuf)]
	l := js.NewLexer(parse.NewInputBytes(pbuf))
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken {
			if l.Err() != nil && l.Err().Error() != "EOF" {
				return nil, false
			}
			break
		}
		if isName(tt, data) {
			want = append(want, string(data))
		}
	}
	// The names of src, matched one by one.
	var occ []occurrence
	k := 0
	matched := true
	mismatch := func() bool {
		matched = false
		return false
	}
	if !r.tokens(func(tt js.TokenType, start int, data []byte) bool {
		if !isName(tt, data) {
			return true
		}
		// A name written with escapes (\u0061) is a binding the parse takes for another
		// than the one written plainly: which reference is which is not known.
		if bytes.IndexByte(data, '\\') >= 0 {
			return mismatch()
		}
		// The print writes an arrow function's expression body as a block that returns it
		// (the parse keeps no word on which it was): its return is not in src.
		for k < len(want) && want[k] == "return" && string(data) != "return" {
			k++
		}
		// A statement's marker: its place is this name's, which the next name of the print
		// is.
		for k < len(want) && strings.HasPrefix(want[k], prefix+"t") {
			i, err := strconv.Atoi(want[k][len(prefix)+1:])
			if err != nil || i >= len(stmtWas) {
				return mismatch()
			}
			r.stmtAt[i] = start
			k++
		}
		if k == len(want) {
			return mismatch()
		}
		w := want[k]
		k++
		if rest, ok := strings.CutPrefix(w, prefix); ok && strings.HasPrefix(rest, "l") {
			// A slot's name: its place, and the occurrence of a renamed binding it is.
			i, err := strconv.Atoi(rest[1:])
			if err != nil || i >= len(slotWas) || !bytes.Equal(data, resolve(slotWas[i]).Data) {
				return mismatch()
			}
			r.slotAt[i] = start
			if j, ok := r.index[resolve(slotWas[i])]; ok {
				occ = append(occ, occurrence{start, j, false})
			}
			return true
		}
		if rest, ok := strings.CutPrefix(w, prefix); ok {
			shorthand := strings.HasPrefix(rest, "s")
			decl := strings.HasPrefix(rest, "d")
			i, err := strconv.Atoi(strings.TrimLeft(rest, "sd"))
			if err != nil || i >= len(names) || !bytes.Equal(data, names[i]) {
				return mismatch()
			}
			if !decl {
				occ = append(occ, occurrence{start, i, shorthand})
			}
			return true
		}
		if w != string(data) {
			return mismatch()
		}
		return true
	}) || !matched {
		return nil, false
	}
	for k < len(want) && want[k] == "return" {
		k++
	}
	if k != len(want) {
		return nil, false
	}
	return occ, true
}

// isName reports whether a token is a name: an identifier or a word the lexer reads as a
// keyword (which may stand as a property's name).
func isName(tt js.TokenType, data []byte) bool {
	return tt == js.IdentifierToken || js.IsIdentifierName(tt) && js.Keywords[string(data)] != 0
}
