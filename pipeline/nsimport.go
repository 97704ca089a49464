package pipeline

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Namespaces imported by name. A package may export a module's namespace object under a
// name (zod's index: import * as z from "./external.js"; export { z }), which another
// package imports by that name and reads only by property (import { z } from "zod/v4";
// z.object(…)). Rollup and Rolldown, and so Vite, follow the property reads to the exports
// they name and leave the rest of the namespace's module out; esbuild does so only for a
// namespace imported as one (import * as z from "…"), and for a namespace imported by name
// it keeps the whole object and every module it reaches (all of zod's 50 locales, 195 KB of
// the 613 KB page of the official MCP Apps examples). A package's module that imports such a
// name is given to esbuild with the name imported as the namespace it is:
//
//	import { z as Q } from "zod/v4"
//	→ import {} from "zod/v4";import * as Q from "../../../../zod/v4/classic/external.js";
//
// The page does what it did: the binding is the same object (a module has one namespace),
// the module first imported is still imported (and dropped, as before, when its package says
// it has no side effects), and the namespace's module is imported right after it, where it
// was evaluated before (as that module's dependency). Which binding a name is follows the
// ECMAScript ResolveExport algorithm over each module's import and export declarations, read
// by tdewolff's JavaScript parser: explicit exports first, then export * (a name two of them
// give is left as written), never "default" through a star; a module the parser cannot read,
// a CommonJS module, a module outside the folder the build reads, or a name the lookup
// cannot settle leaves the import as written.
//
// Constants imported by name. Rolldown also puts the value of a constant a module exports in
// the modules that import it, and drops the code it decides: esm-env's DEV (export default
// false, in the file its production condition names) makes Svelte's every "if (DEV)" branch
// dead, its dev messages and checks. esbuild decides such branches only for a define, and
// does not even inline a literal exported as default. A package's module that imports by name
// a binding that is a literal (true, false, null, a number, a string) declared const or
// exported as default by a module that imports nothing (so that it is evaluated before, and
// never changes), is given to esbuild without that name in its import list and with the
// literal defined for the name in that module alone (esbuild's define replaces only the
// references that bound to the import, not a name declared in an inner scope).

// importsByName calls fn with the specifier and the names of each text in src that reads as
// an import declaration with a list of names (import { a, b as c } from "x", import d, { a }
// from "x"), before a parse says which are declarations; it stops when fn returns false.
func importsByName(src string, fn func(spec string, names []string) bool) {
	for i := 0; ; {
		j := strings.Index(src[i:], "import")
		if j < 0 {
			return
		}
		at := i + j
		i = at + len("import")
		if at > 0 && (isIdentByte(src[at-1]) || src[at-1] == '.') {
			continue
		}
		s := &jsScan{src: src, i: i}
		spec, bs, typeDecl, _, ok := s.importClause()
		if !ok || typeDecl {
			continue
		}
		var names []string
		for _, b := range bs {
			if b.kind == 'm' && !b.typeOnly {
				names = append(names, b.imported)
			}
		}
		if len(names) > 0 && !fn(spec, names) {
			return
		}
	}
}

// mayExportBinding finds the declarations that let a module export a binding it does not
// declare itself: export * (as x) from, export { … } (of an import, or from another module).
// A module without any exports only its own declarations.
var mayExportBinding = regexp.MustCompile(`\bexport\s*[*{]`)

// mayExportConst finds a literal exported as default, or declared const.
var mayExportConst = regexp.MustCompile(`\bexport\s+default\s+(?:true|false|null|[0-9.]|["'])|\bconst\s+[\w$]+\s*=\s*(?:true|false|null|[0-9.]|["'])`)

// exportTable is what a module's top-level import and export declarations say of the names
// it exports.
type exportTable struct {
	local    map[string]bool     // names bound by the module's own declarations
	indirect map[string]reexport // names bound in another module; name "*": its namespace
	stars    []string            // the specifiers of export * from
	opaque   bool                // it exports names the table does not list (a destructuring)
	// consts are the exported names bound to a literal (export default false, export const
	// a = 1, const b = "x"; export { b }), as JSON; alone says the module has no import and
	// no export … from.
	consts map[string]string
	alone  bool
}

// moduleFile is a module read once per file version: whether it may export a binding it
// does not declare, and its table, parsed when a lookup needs it.
type moduleFile struct {
	size    int64
	modTime time.Time
	reexp   bool // mayExportBinding matches its text
	// consts: it may export a literal and imports nothing (mayExportConst, and no "import"
	// or "from" in its text).
	consts bool
	once   sync.Once
	table  *exportTable // nil: the parser could not read it
}

// moduleFiles caches moduleFile by path.
var moduleFiles sync.Map

// moduleOf returns what the module at p is, or nil when it cannot be read.
func moduleOf(p string) *moduleFile {
	st, err := os.Stat(p)
	if err != nil {
		return nil
	}
	if c, ok := moduleFiles.Load(p); ok {
		if f := c.(*moduleFile); f.size == st.Size() && f.modTime.Equal(st.ModTime()) {
			return f
		}
	}
	src, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	f := &moduleFile{size: st.Size(), modTime: st.ModTime(), reexp: mayExportBinding.Match(src),
		consts: mayExportConst.Match(src) && !bytes.Contains(src, []byte("import")) && !bytes.Contains(src, []byte("from"))}
	moduleFiles.Store(p, f)
	return f
}

// exports returns the module's table, parsed once; nil when the parser cannot read it.
func (f *moduleFile) exports(p string) *exportTable {
	f.once.Do(func() {
		src, err := os.ReadFile(p)
		if err != nil {
			return
		}
		ast, err := js.Parse(parse.NewInputBytes(src), js.Options{})
		if err != nil {
			return
		}
		f.table = readExports(ast)
	})
	return f.table
}

// readExports reads the export table of a module from its top-level statements.
func readExports(ast *js.AST) *exportTable {
	t := &exportTable{local: map[string]bool{}, indirect: map[string]reexport{}, consts: map[string]string{}, alone: true}
	imported := map[string]reexport{} // local binding → where it is bound
	constants := map[string]string{}  // top-level const bound to a literal → its JSON
	var listed [][2]string            // export { a as b } of bindings: local, exported
	constDecl := func(d *js.VarDecl) {
		if d.TokenType != js.ConstToken {
			return
		}
		for _, e := range d.List {
			v, ok := e.Binding.(*js.Var)
			if !ok {
				continue
			}
			if lit, ok := e.Default.(*js.LiteralExpr); ok {
				if j, ok := literalJSON(lit); ok {
					constants[string(v.Name())] = j
				}
			}
		}
	}
	for _, s := range ast.BlockStmt.List {
		switch s := s.(type) {
		case *js.VarDecl:
			constDecl(s)
		case *js.ImportStmt:
			t.alone = false
			spec, ok := moduleSpec(s.Module)
			if !ok {
				t.opaque = true
				continue
			}
			if s.Default != nil {
				imported[string(s.Default)] = reexport{spec: spec, name: "default"}
			}
			for _, a := range s.List {
				if a.Binding == nil {
					continue
				}
				name, ok := aliasName(a)
				if !ok {
					t.opaque = true
					continue
				}
				imported[string(a.Binding)] = reexport{spec: spec, name: name}
			}
		case *js.ExportStmt:
			if s.Decl != nil {
				if s.Default {
					t.local["default"] = true
					if lit, ok := s.Decl.(*js.LiteralExpr); ok {
						if j, ok := literalJSON(lit); ok {
							t.consts["default"] = j
						}
					}
					continue
				}
				switch d := s.Decl.(type) {
				case *js.VarDecl:
					constDecl(d)
					for _, e := range d.List {
						if v, ok := e.Binding.(*js.Var); ok {
							t.local[string(v.Name())] = true
						} else {
							t.opaque = true // export const { a, b } = …
						}
					}
				case *js.FuncDecl:
					if d.Name != nil {
						t.local[string(d.Name.Name())] = true
					}
				case *js.ClassDecl:
					if d.Name != nil {
						t.local[string(d.Name.Name())] = true
					}
				default:
					t.opaque = true
				}
				continue
			}
			if s.Module == nil {
				for _, a := range s.List {
					if a.Binding == nil {
						continue
					}
					exported, ok := unquoteName(a.Binding)
					local := exported
					if a.Name != nil {
						local = string(a.Name)
					}
					if !ok {
						t.opaque = true
						continue
					}
					listed = append(listed, [2]string{local, exported})
				}
				continue
			}
			t.alone = false
			spec, ok := moduleSpec(s.Module)
			if !ok {
				t.opaque = true
				continue
			}
			if len(s.List) == 1 && s.List[0].Name == nil && string(s.List[0].Binding) == "*" {
				t.stars = append(t.stars, spec) // export * from
				continue
			}
			for _, a := range s.List {
				if a.Binding == nil {
					continue
				}
				exported, ok := unquoteName(a.Binding)
				name := exported
				if a.Name != nil {
					name, ok = unquoteName(a.Name) // "*" for export * as x from
				}
				if !ok {
					t.opaque = true
					continue
				}
				t.indirect[exported] = reexport{spec: spec, name: name}
			}
		}
	}
	for _, l := range listed {
		if r, ok := imported[l[0]]; ok {
			t.indirect[l[1]] = r
		} else {
			t.local[l[1]] = true
		}
	}
	for name := range t.local {
		local := name
		for _, l := range listed {
			if l[1] == name {
				local = l[0]
			}
		}
		if j, ok := constants[local]; ok && t.consts[name] == "" {
			t.consts[name] = j
		}
	}
	return t
}

// literalJSON returns a literal as JSON, the form esbuild's define takes: true, false, null,
// a decimal number, a string without escapes.
func literalJSON(lit *js.LiteralExpr) (string, bool) {
	switch lit.TokenType {
	case js.TrueToken, js.FalseToken, js.NullToken:
		return string(lit.Data), true
	case js.DecimalToken:
		f, err := strconv.ParseFloat(string(lit.Data), 64)
		if err != nil || math.IsInf(f, 0) {
			return "", false
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	case js.StringToken:
		if s, ok := moduleSpec(lit.Data); ok {
			return jsString(s), true
		}
	}
	return "", false
}

// moduleSpec returns the specifier of a module string token, without escapes.
func moduleSpec(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != tok[len(tok)-1] || tok[0] != '"' && tok[0] != '\'' {
		return "", false
	}
	s := string(tok[1 : len(tok)-1])
	return s, !strings.ContainsAny(s, "\\\n\r")
}

// unquoteName returns a module export name as written: an identifier or a string token.
func unquoteName(tok []byte) (string, bool) {
	if len(tok) > 0 && (tok[0] == '"' || tok[0] == '\'') {
		return moduleSpec(tok)
	}
	s := string(tok)
	return s, !strings.Contains(s, "\\")
}

// aliasName is the name an import list's alias imports: a in { a as b }, a in { a }.
func aliasName(a js.Alias) (string, bool) {
	if a.Name != nil {
		return unquoteName(a.Name)
	}
	return unquoteName(a.Binding)
}

// The kinds of binding a lookup of an exported name finds.
const (
	bindUnknown   = iota // the lookup cannot settle it
	bindNone             // the module does not export the name
	bindOther            // a binding the rewriting leaves alone
	bindNamespace        // the namespace of a module: found.ns is its path
	bindConst            // a literal that never changes: found.value is its JSON
)

// found is what a lookup found.
type found struct {
	kind      int
	ns, value string
}

// exportedBinding resolves the name exported by the module at p, as ResolveExport does, and
// says what it is bound to. byStar says the lookup is of a module an export * names, where a
// module that declares all its exports itself must be read to say whether it has the name.
func (b *bundler) exportedBinding(resolve func(string, api.ResolveOptions) api.ResolveResult, p, name string, byStar bool, seen map[string]bool) found {
	key := p + "\x00" + name
	if seen[key] {
		return found{kind: bindNone} // a cycle of export *: ResolveExport's null
	}
	seen[key] = true
	f := moduleOf(p)
	if f == nil {
		return found{}
	}
	if !f.reexp && !f.consts && !byStar {
		return found{kind: bindOther} // every name it exports is its own, and no literal
	}
	t := f.exports(p)
	if t == nil {
		return found{}
	}
	if r, ok := t.indirect[name]; ok {
		target, ok := b.barrelTarget(resolve, p, r.spec)
		if !ok {
			return found{}
		}
		if r.name == "*" {
			return found{kind: bindNamespace, ns: target}
		}
		return b.exportedBinding(resolve, target, r.name, false, seen)
	}
	if v, ok := t.consts[name]; ok && t.alone {
		return found{kind: bindConst, value: v}
	}
	if t.local[name] {
		return found{kind: bindOther}
	}
	if name == "default" {
		return found{kind: bindNone}
	}
	if t.opaque {
		return found{}
	}
	out := found{kind: bindNone}
	for _, spec := range t.stars {
		target, ok := b.barrelTarget(resolve, p, spec)
		if !ok {
			return found{}
		}
		r := b.exportedBinding(resolve, target, name, true, seen)
		switch {
		case r.kind == bindUnknown:
			return found{}
		case r.kind == bindNone:
		case out.kind == bindNone:
			out = r
		case r.kind != bindNamespace || r != out:
			return found{} // two stars give the name: ambiguous, or the same binding
		}
	}
	return out
}

// namespaceEdits gives the edits of the import declarations of m, the package module at file
// (read with loader), that import by name a module's namespace, so that it is imported as a
// namespace, or a constant (in JavaScript), so that its value is defined in the module: the
// defines, for esbuild's transform of the edited text. None when there is nothing to rewrite.
func (b *bundler) namespaceEdits(file string, m *pkgModule, loader api.Loader, resolve func(string, api.ResolveOptions) api.ResolveResult) ([]edit, map[string]string) {
	if resolve == nil {
		return nil, nil
	}
	src := m.src
	// The candidates, from the text: only a parse says which are declarations.
	type key struct{ spec, name string }
	bindings := map[key]found{}
	any := false
	targets := map[string]string{} // specifier → the module it resolves to, "" for none
	importsByName(src, func(spec string, names []string) bool {
		target, done := targets[spec]
		if !done {
			if t, ok := b.barrelTarget(resolve, file, spec); ok {
				target = t
			}
			targets[spec] = target
		}
		if target == "" {
			return true
		}
		for _, name := range names {
			k := key{spec, name}
			if _, done := bindings[k]; done {
				continue
			}
			r := b.exportedBinding(resolve, target, name, false, map[string]bool{})
			if r.kind == bindNamespace && b.outside(r.ns) == nil || r.kind == bindConst {
				bindings[k] = r
				any = true
			} else {
				bindings[k] = found{}
			}
		}
		return true
	})
	if !any {
		return nil, nil
	}
	ast := m.parse()
	if ast == nil {
		return nil, nil
	}
	n := len(src)
	offset := m.offset
	var edits []edit
	// A name the module exports again (export { DEV }) stays imported: a define does not
	// declare it.
	exported := map[string]bool{}
	for _, s := range ast.BlockStmt.List {
		if e, ok := s.(*js.ExportStmt); ok && e.Module == nil && e.Decl == nil {
			for _, a := range e.List {
				if a.Name != nil {
					exported[string(a.Name)] = true
				} else if a.Binding != nil {
					exported[string(a.Binding)] = true
				}
			}
		}
	}
	defines := map[string]string{}
	for _, s := range ast.BlockStmt.List {
		imp, ok := s.(*js.ImportStmt)
		if !ok || len(imp.List) == 0 || imp.List[0].Name != nil && string(imp.List[0].Name) == "*" {
			continue
		}
		spec, ok := moduleSpec(imp.Module)
		if !ok {
			continue
		}
		var aliases []js.Alias
		for _, a := range imp.List {
			if a.Binding != nil {
				aliases = append(aliases, a)
			}
		}
		start := func(a js.Alias) int {
			if a.Name != nil {
				return offset(a.Name)
			}
			return offset(a.Binding)
		}
		end := func(a js.Alias) int { return offset(a.Binding) + len(a.Binding) }
		var removed []int
		var added []string
		for i, a := range aliases {
			name, ok := aliasName(a)
			if !ok {
				continue
			}
			switch r := bindings[key{spec, name}]; r.kind {
			case bindNamespace:
				rel, err := filepath.Rel(filepath.Dir(file), r.ns)
				if err != nil {
					continue
				}
				removed = append(removed, i)
				added = append(added, "import * as "+string(a.Binding)+" from "+jsString(dotted(filepath.ToSlash(rel)))+";")
			case bindConst:
				local := string(a.Binding)
				if exported[local] || !isIdentName(local) || loader != api.LoaderJS {
					continue
				}
				removed = append(removed, i)
				defines[local] = r.value
			}
		}
		if len(removed) == 0 {
			continue
		}
		// Each name taken out with the comma after it; the last with the comma before it,
		// back to the last name kept.
		isRemoved := map[int]bool{}
		for _, i := range removed {
			isRemoved[i] = true
		}
		last := len(aliases) - 1
		for _, i := range removed {
			if i < last {
				edits = append(edits, edit{start(aliases[i]), start(aliases[i+1]), ""})
				continue
			}
			kept := -1
			for j := i - 1; j >= 0; j-- {
				if !isRemoved[j] {
					kept = j
					break
				}
			}
			if kept >= 0 {
				edits = append(edits, edit{end(aliases[kept]), end(aliases[i]), ""})
			} else {
				edits = append(edits, edit{start(aliases[0]), end(aliases[i]), ""})
			}
		}
		if len(added) == 0 {
			continue
		}
		// The namespaces after the declaration, on its line: its ; or the end of its line.
		at := offset(imp.Module) + len(imp.Module)
		j := at
		for j < n && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		text := strings.Join(added, "")
		switch {
		case j < n && src[j] == ';':
			at = j + 1
		case j == n || src[j] == '\n' || src[j] == '\r' || strings.HasPrefix(src[j:], "//") || strings.HasPrefix(src[j:], "/*"):
			text = ";" + text
		default:
			return nil, nil // import attributes, or what the parser read otherwise
		}
		edits = append(edits, edit{at, at, text})
	}
	if len(edits) == 0 {
		return nil, nil
	}
	return edits, defines
}

// isIdentName reports whether s is an identifier of ASCII letters, digits, _ and $.
func isIdentName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := range len(s) {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
