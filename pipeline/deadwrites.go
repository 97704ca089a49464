package pipeline

import (
	"regexp"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// Writes to an object nothing reads. Rollup and Rolldown, and so Vite's build, follow what a
// module does to its own objects: a property written to a module-level object that nothing
// reads is no effect, and a class whose static block only does that is dropped when unused.
// esbuild counts every statement of a static block as an effect and keeps the class, with
// everything it reaches: the official MCP client's Client class (its static block fills a
// const clientInternals = {} that nothing reads), 17 KB of gzip in each MCP Apps example
// that uses only its Protocol. In a package's module, a module-level const X = {} whose
// every reference is a statement X.name = <a function or a literal> has those statements
// made expressions without the write (0, () => …): nothing could observe the writes, and
// esbuild drops what is left as it drops any unused pure expression.

// mayWriteOnly finds, before a parse says what it is, a module-level const bound to {}.
var mayWriteOnly = regexp.MustCompile(`const\s+([A-Za-z_$][\w$]*)\s*=\s*\{\s*\}`)

// deadWriteEdits gives the edits of m's writes to objects nothing reads; none when there
// are none.
func deadWriteEdits(m *pkgModule) []edit {
	src := m.src
	var names []string
	for _, m := range mayWriteOnly.FindAllStringSubmatch(src, -1) {
		if strings.Contains(src, m[1]+".") {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 || m.callsEval() {
		return nil // a direct eval could read any binding
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	n := len(src)
	// The module-level const bound to an empty object literal.
	objects := map[*js.Var]bool{}
	for _, s := range ast.BlockStmt.List {
		d, ok := s.(*js.VarDecl)
		if !ok || d.TokenType != js.ConstToken {
			continue
		}
		for _, e := range d.List {
			v, ok := e.Binding.(*js.Var)
			if o, isObj := e.Default.(*js.ObjectExpr); ok && isObj && len(o.List) == 0 {
				objects[v] = true
			}
		}
	}
	if len(objects) == 0 {
		return nil
	}
	w := &writeFinder{m: m, objects: objects, writes: map[*js.Var][]int{}}
	js.Walk(w, ast)
	type cut struct{ start, end int }
	var cuts []cut
	for v, offs := range w.writes {
		if len(offs) != int(v.Uses)-1 {
			continue // read, or written otherwise, somewhere
		}
		name := string(v.Name())
		var mine []cut
		for _, off := range offs {
			// name.prop = : the text before the property is the name and its dot, and an = alone
			// follows it.
			start := off - len(name) - 1
			if start < 0 || src[start:off] != name+"." || start > 0 && (isIdentByte(src[start-1]) || src[start-1] == '.') {
				mine = nil
				break
			}
			j := off
			for j < n && isIdentByte(src[j]) {
				j++
			}
			for j < n && strings.IndexByte(" \t\r\n", src[j]) >= 0 {
				j++
			}
			if j+1 >= n || src[j] != '=' || src[j+1] == '=' || src[j+1] == '>' {
				mine = nil
				break
			}
			mine = append(mine, cut{start, j + 1})
		}
		if len(mine) == len(offs) {
			cuts = append(cuts, mine...)
		}
	}
	// Each write becomes a comma expression: 0, value. A statement that began with the name
	// now begins with a number, which no statement before it can take as its continuation
	// where it could not take the name.
	edits := make([]edit, len(cuts))
	for i, c := range cuts {
		edits[i] = edit{c.start, c.end, "0,"}
	}
	return edits
}

// writeFinder finds the statements name.prop = value whose name is one of objects and whose
// value is a function or a literal, recording the offset of prop in the module by the object.
type writeFinder struct {
	m       *pkgModule
	objects map[*js.Var]bool
	writes  map[*js.Var][]int
}

func (w *writeFinder) Enter(n js.INode) js.IVisitor {
	s, ok := n.(*js.ExprStmt)
	if !ok {
		return w
	}
	b, ok := s.Value.(*js.BinaryExpr)
	if !ok || b.Op != js.EqToken {
		return w
	}
	d, ok := b.X.(*js.DotExpr)
	if !ok || d.Optional {
		return w
	}
	x, ok := d.X.(*js.Var)
	prop, isLit := d.Y.(js.LiteralExpr)
	if !ok || !isLit || len(prop.Data) == 0 {
		return w
	}
	for x.Link != nil {
		x = x.Link
	}
	if !w.objects[x] {
		return w
	}
	switch b.Y.(type) {
	case *js.ArrowFunc, *js.FuncDecl, *js.LiteralExpr:
		w.writes[x] = append(w.writes[x], w.m.offset(prop.Data))
	}
	return w
}

func (w *writeFinder) Exit(js.INode) {}
