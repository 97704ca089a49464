package pipeline

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2/js"
)

// Namespaces inside namespaces. A module may export another module's namespace under a name
// (zod's index: export * as iso from "./iso.js"; export * as coerce from "./coerce.js"),
// which a module that imports the first as a namespace reads through it: z.iso.datetime(),
// z.coerce.number(), core.util.constantCatch(). Rolldown follows the chain to the export it
// names, datetime of iso.js, and leaves the rest of iso.js out; esbuild follows one level
// (z.iso is a property of z's module) and then keeps the whole namespace object of iso.js,
// with every export it has (zod's coerce: its bigint and date classes; its util: 24
// functions, 2 KB of gzip in each official MCP Apps example). In a package's module, such a
// chain's namespace part is read from an import of that namespace of its own, added right
// after the declaration that imports the first, so that esbuild sees a namespace read by
// property, which it follows:
//
//	import * as z from "./external.js"; … z.iso.datetime()
//	→ import * as z from "./external.js";import * as __miniapp_ns1 from "./iso.js"; … __miniapp_ns1.datetime()
//
// The binding is the same object (a module has one namespace), and the module is one that
// the first one imports, so it has been evaluated before. Which binding a name is follows
// exportedBinding (ResolveExport); a chain whose root is not the imported binding (a
// parameter of the same name), an optional chain, or one the lookup cannot settle, is left
// as written.

// namespaceChainEdits gives the edits of m, the package module at file, that read a
// namespace inside a namespace from an import of its own; none when there are none.
func (b *bundler) namespaceChainEdits(file string, m *pkgModule, resolve func(string, api.ResolveOptions) api.ResolveResult) []edit {
	if resolve == nil || !strings.Contains(m.src, "import") {
		return nil
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	// The module's imported bindings by name, and the declaration of each.
	imports := map[string]*js.ImportStmt{}
	names := map[string]string{} // local binding → the name it imports, "*" for a namespace
	for _, s := range ast.BlockStmt.List {
		imp, ok := s.(*js.ImportStmt)
		if !ok {
			continue
		}
		for _, a := range imp.List {
			if a.Binding == nil {
				continue
			}
			name, ok := aliasName(a)
			if !ok {
				continue
			}
			imports[string(a.Binding)] = imp
			names[string(a.Binding)] = name
		}
	}
	if len(imports) == 0 {
		return nil
	}
	// tdewolff's parser declares no import binding: each is a name of the module's scope that
	// it does not declare (where an inner scope declares the name, that is its own).
	roots := map[*js.Var]bool{}
	for _, v := range ast.BlockStmt.Scope.Undeclared {
		if _, ok := imports[string(v.Data)]; ok {
			roots[v] = true
		}
	}
	f := &chainFinder{roots: roots, m: m}
	js.Walk(f, ast)
	if len(f.chains) == 0 {
		return nil
	}
	// Each root's namespace: the module it is, or "" when it is none.
	rootNS := map[string]string{}
	nsOf := func(root string) string {
		if p, ok := rootNS[root]; ok {
			return p
		}
		rootNS[root] = ""
		imp := imports[root]
		spec, ok := moduleSpec(imp.Module)
		if !ok {
			return ""
		}
		target, ok := b.barrelTarget(resolve, file, spec)
		if !ok {
			return ""
		}
		if names[root] != "*" {
			r := b.exportedBinding(resolve, target, names[root], false, map[string]bool{})
			if r.kind != bindNamespace {
				return ""
			}
			target = r.ns
		}
		rootNS[root] = target
		return target
	}
	var edits []edit
	aliases := map[string]string{} // namespace module → its alias
	added := map[*js.ImportStmt]string{}
	var order []*js.ImportStmt
	for _, c := range f.chains {
		root := string(c.root.Data)
		ns := nsOf(root)
		if ns == "" {
			continue
		}
		// The longest part of the chain that names namespaces: root.a.b … .
		last, cur := -1, ns
		for i, p := range c.props[:len(c.props)-1] {
			r := b.exportedBinding(resolve, cur, p.name, false, map[string]bool{})
			if r.kind != bindNamespace || b.outside(r.ns) != nil {
				break
			}
			last, cur = i, r.ns
		}
		if last < 0 {
			continue
		}
		end := c.props[last].at + len(c.props[last].name)
		start := c.props[0].at - len(root) - 1
		if start < 0 || m.src[start:c.props[0].at] != root+"." || start > 0 && (isIdentByte(m.src[start-1]) || m.src[start-1] == '.') {
			continue // what the parser read is not written root.a
		}
		if !chainWritten(m.src, root, c.props[:last+1], start) {
			continue
		}
		alias, ok := aliases[cur]
		if !ok {
			rel, err := filepath.Rel(filepath.Dir(file), cur)
			if err != nil {
				continue
			}
			alias = "__miniapp_ns" + strconv.Itoa(len(aliases)+1)
			aliases[cur] = alias
			imp := imports[root]
			if _, ok := added[imp]; !ok {
				order = append(order, imp)
			}
			added[imp] += "import * as " + alias + " from " + jsString(dotted(filepath.ToSlash(rel))) + ";"
		}
		edits = append(edits, edit{start, end, alias})
	}
	for _, imp := range order {
		at := m.offset(imp.Module) + len(imp.Module)
		j := at
		for j < len(m.src) && (m.src[j] == ' ' || m.src[j] == '\t') {
			j++
		}
		text := added[imp]
		switch {
		case j < len(m.src) && m.src[j] == ';':
			at = j + 1
		case j == len(m.src) || m.src[j] == '\n' || m.src[j] == '\r' || strings.HasPrefix(m.src[j:], "//") || strings.HasPrefix(m.src[j:], "/*"):
			text = ";" + text
		default:
			return nil // import attributes, or what the parser read otherwise
		}
		edits = append(edits, edit{at, at, text})
	}
	return edits
}

// chainWritten reports whether the text from start is root.a.b … as the props say, with
// nothing between the names but their dots.
func chainWritten(src, root string, props []chainProp, start int) bool {
	at := start + len(root)
	for _, p := range props {
		if at >= len(src) || src[at] != '.' || p.at != at+1 {
			return false
		}
		at = p.at + len(p.name)
	}
	return true
}

// chainProp is a property name of a chain and its offset.
type chainProp struct {
	name string
	at   int
}

// chain is a read root.a.b … of at least two properties, none optional.
type chain struct {
	root  *js.Var
	props []chainProp
}

// chainFinder finds the chains whose root is one of roots, each at its outermost property.
type chainFinder struct {
	roots  map[*js.Var]bool
	chains []chain
	m      *pkgModule
}

func (f *chainFinder) Enter(n js.INode) js.IVisitor {
	d, ok := n.(*js.DotExpr)
	if !ok {
		return f
	}
	var props []js.LiteralExpr
	var x js.IExpr = d
	for {
		dot, ok := x.(*js.DotExpr)
		if !ok {
			break
		}
		lit, ok := dot.Y.(js.LiteralExpr)
		if !ok || dot.Optional {
			return f
		}
		props = append(props, lit)
		x = dot.X
	}
	v, ok := x.(*js.Var)
	if !ok || len(props) < 2 {
		return f
	}
	for v.Link != nil {
		v = v.Link
	}
	if !f.roots[v] {
		return f
	}
	c := chain{root: v}
	for i := len(props) - 1; i >= 0; i-- {
		c.props = append(c.props, chainProp{name: string(props[i].Data), at: f.m.offset(props[i].Data)})
	}
	f.chains = append(f.chains, c)
	return nil // its inner reads are part of it
}

func (*chainFinder) Exit(js.INode) {}
