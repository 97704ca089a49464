package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// Barrel imports. A package's index that only re-exports its modules (a barrel:
// @mui/icons-material's 10,700 icons, lucide-react's, lodash-es's) makes esbuild read and
// parse every module it names, for the few an app imports: in a package that declares
// "sideEffects": false, the ones not imported are then dropped. An app script's
// import { Add, Delete as Bin } from "@mui/icons-material" is rewritten to import each name
// from the module the barrel takes it from, as Next.js's optimizePackageImports does, so
// that the others are never read. What the page does is unchanged: the same modules, whose
// package says that evaluating them has no effect but their exports, are in the bundle. (A
// stylesheet imported only by modules the app does not import is left out, as Vite's build
// leaves it out; esbuild alone keeps it.)
//
// Only what is certain is rewritten: import declarations at the head of the file (before
// any other statement, where no regular expression or template can stand), of names only,
// from a bare specifier that esbuild resolves to a file without side effects (its package
// says "sideEffects": false, or lists files that are not it),
// whose text is nothing but re-exports (at least minBarrel of them, see parseBarrel), when
// the barrel re-exports every name the declaration imports by name from a module (not
// export * from, not a namespace).

// minBarrel is the fewest re-exports an index must have to be read as a barrel.
const minBarrel = 50

// reexport is where a barrel takes one of its names from: export { name as alias } from spec.
type reexport struct{ spec, name string }

// legalPrefix marks, in a rewritten import, a barrel whose legal comments (its licence) the
// bundle keeps, as it did when esbuild read the barrel: the confine plugin loads a module of
// those comments alone, named as esbuild names the barrel in the licence file.
const legalPrefix = "miniapp-legal:"

// barrelFile is a barrel read once per build and file version.
type barrelFile struct {
	size    int64
	modTime time.Time
	names   map[string]reexport // nil: not a barrel
	legal   string              // its legal comments, one per line
}

// barrels caches what barrelOf read, by path.
var barrels sync.Map

// barrelOf returns what the file p holds when it is a barrel, else nil.
func barrelOf(p string) *barrelFile {
	st, err := os.Stat(p)
	if err != nil {
		return nil
	}
	if c, ok := barrels.Load(p); ok {
		if f := c.(*barrelFile); f.size == st.Size() && f.modTime.Equal(st.ModTime()) {
			return f.barrel()
		}
	}
	f := &barrelFile{size: st.Size(), modTime: st.ModTime()}
	if src, err := os.ReadFile(p); err == nil {
		f.names = parseBarrel(string(src))
		if f.names != nil {
			f.legal = legalComments(string(src))
		}
	}
	barrels.Store(p, f)
	return f.barrel()
}

func (f *barrelFile) barrel() *barrelFile {
	if f.names == nil {
		return nil
	}
	return f
}

// legalComments returns the comments of src that esbuild keeps as legal comments: those that
// start with /*! or //!, or hold @license or @preserve.
func legalComments(src string) string {
	var out []string
	s := &jsScan{src: src}
	for s.i < len(src) {
		rest := src[s.i:]
		var c string
		switch {
		case strings.HasPrefix(rest, "//"):
			c, _, _ = strings.Cut(rest, "\n")
		case strings.HasPrefix(rest, "/*"):
			j := strings.Index(rest[2:], "*/")
			if j < 0 {
				return strings.Join(out, "\n")
			}
			c = rest[:j+4]
		case rest[0] == '"' || rest[0] == '\'':
			if _, ok := s.str(); !ok {
				return strings.Join(out, "\n")
			}
			continue
		default:
			s.i++
			continue
		}
		s.i += len(c)
		if strings.HasPrefix(c, "/*!") || strings.HasPrefix(c, "//!") || strings.Contains(c, "@license") || strings.Contains(c, "@preserve") {
			out = append(out, strings.TrimRight(c, "\r"))
		}
	}
	return strings.Join(out, "\n")
}

// importDecl is an import declaration of names only: import { a, b as c } from "spec".
type importDecl struct {
	start, end int // the declaration, its closing ; included when there is one
	spec       string
	names      [][2]string // imported name, local name
	typeOnly   []bool      // a TypeScript type-only name (import { type A })
}

// headImports returns the import declarations of names only at the head of src: before its
// first statement that is not an import, an export … from or a directive.
func headImports(src string) []importDecl {
	var out []importDecl
	eachHeadImport(src, func(start, end int, spec string, bs []binding, typeDecl, attrs bool) {
		if typeDecl || attrs || len(bs) == 0 {
			return
		}
		d := importDecl{start: start, end: end, spec: spec}
		for _, b := range bs {
			if b.kind != 'm' {
				return
			}
			d.names = append(d.names, [2]string{b.imported, b.local})
			d.typeOnly = append(d.typeOnly, b.typeOnly)
		}
		out = append(out, d)
	})
	return out
}

// eachHeadImport calls fn with each import declaration at the head of src (before its first
// statement that is not an import, an export … from or a directive): where it starts and
// ends (its ; included), its specifier, its bindings (none for import "x"), whether it is
// import type, and whether it has import attributes.
func eachHeadImport(src string, fn func(start, end int, spec string, bs []binding, typeDecl, attrs bool)) {
	s := &jsScan{src: src}
	if strings.HasPrefix(src, "#!") {
		s.i = strings.IndexByte(src, '\n')
		if s.i < 0 {
			return
		}
	}
	for {
		s.skip()
		start := s.i
		switch {
		case s.i >= len(src):
			return
		case src[s.i] == '"' || src[s.i] == '\'':
			// A directive ("use client";).
			if _, ok := s.str(); !ok {
				return
			}
			s.semi()
		case s.word("import"):
			spec, bs, typeDecl, attrs, ok := s.importClause()
			if !ok {
				return
			}
			fn(start, s.i, spec, bs, typeDecl, attrs)
		case s.word("export"):
			if !s.exportFrom() {
				return
			}
		default:
			return
		}
	}
}

// parseBarrel returns the names src re-exports when it is a barrel: nothing but comments and
// at least minBarrel re-exports, written export { … } from "…", or as an import and an
// export { … } of what it binds (lucide-react's and Tabler's indexes are so written). A
// namespace re-exported (export * from, import * as x … export { x }) is recorded with name
// "*" or not at all: its names stay imported from the barrel.
func parseBarrel(src string) map[string]reexport {
	names := map[string]reexport{}
	add := func(exported string, r reexport) {
		if _, dup := names[exported]; !dup {
			names[exported] = r
		}
	}
	imported := map[string]reexport{} // local binding → where it comes from
	var local [][2]string             // export { a as b } of bindings: local, exported
	s := &jsScan{src: src}
	for {
		s.skip()
		if s.i >= len(src) {
			break
		}
		switch {
		case src[s.i] == '"' || src[s.i] == '\'':
			if _, ok := s.str(); !ok {
				return nil
			}
			s.semi()
		case s.word("import"):
			spec, bs, typeDecl, attrs, ok := s.importClause()
			if !ok || typeDecl || attrs || len(bs) == 0 {
				return nil // a side-effect import, or one the barrel reads as data
			}
			for _, b := range bs {
				imported[b.local] = reexport{spec: spec, name: b.imported}
			}
		case s.word("export"):
			s.skip()
			if s.punct('*') {
				if !s.rest() {
					return nil
				}
				continue
			}
			list, ok := s.names()
			if !ok {
				return nil
			}
			save := s.i
			spec, attrs, ok := s.from()
			if !ok {
				// export { a as b } of what the barrel imports (checked below).
				if s.i = save; !s.endOfStatement() {
					return nil
				}
				local = append(local, list...)
				continue
			}
			if attrs {
				return nil // import attributes: the module is then not read as code
			}
			for _, n := range list {
				add(n[1], reexport{spec: spec, name: n[0]})
			}
		default:
			return nil
		}
	}
	for _, n := range local {
		r, ok := imported[n[0]]
		if !ok {
			return nil // a binding the barrel does not import: it is not only re-exports
		}
		add(n[1], r)
	}
	if len(names) < minBarrel {
		return nil
	}
	return names
}

// rewriteBarrelImports rewrites the head imports of src, an app script in file, that name
// re-exports of a barrel, so that each name comes from its own module; it returns "" when
// there is nothing to rewrite. resolve is the build's esbuild resolver; ns is the namespace
// esbuild loaded the script in ("file", or inlineNamespace for code written in the page,
// which resolves as the page does, by the app's tsconfig).
func (b *bundler) rewriteBarrelImports(file, ns, src string, resolve func(string, api.ResolveOptions) api.ResolveResult) string {
	if resolve == nil || !strings.Contains(src, "import") {
		return ""
	}
	var out strings.Builder
	last := 0
	for _, d := range headImports(src) {
		if d.spec == "" || d.spec[0] == '.' || d.spec[0] == '/' || strings.Contains(d.spec, ":") || strings.HasPrefix(d.spec, "@miniapp/") {
			continue
		}
		project := ""
		if ns == "file" {
			project = b.projectName(file)
		}
		r := b.folders.resolve(resolve, d.spec, project, api.ResolveOptions{Importer: file, Namespace: ns, ResolveDir: filepath.Dir(file), Kind: api.ResolveJSImportStatement})
		if len(r.Errors) > 0 || r.External || r.SideEffects || r.Namespace != "file" || r.Suffix != "" {
			continue
		}
		if b.outside(r.Path) != nil {
			continue // the build refuses it where it is imported
		}
		f := barrelOf(r.Path)
		if f == nil {
			continue
		}
		// Every name from its own module, or the declaration as written: a name the barrel
		// gives otherwise (export *, a namespace, a typo) has esbuild read the whole barrel
		// anyway, and its message must show the line as the author wrote it.
		var direct, types []string
		for k, n := range d.names {
			imported, local := n[0], n[1]
			if d.typeOnly[k] {
				types = append(types, importSpecifier(imported, local, true)) // erased
				continue
			}
			re, ok := f.names[imported]
			if !ok || re.name == "*" {
				direct = nil
				break
			}
			target, ok := b.barrelTarget(resolve, r.Path, re.spec)
			if !ok {
				direct = nil
				break
			}
			// By its path relative to the importer, which esbuild's own resolver reads: a
			// module a plugin resolves has no package type for esbuild, whose interop of
			// CommonJS then differs with the order modules are reached in.
			rel, err := filepath.Rel(filepath.Dir(file), target)
			if err != nil {
				direct = nil
				break
			}
			direct = append(direct, fmt.Sprintf("import { %s } from %s;", importSpecifier(re.name, local, false), jsString(dotted(filepath.ToSlash(rel)))))
		}
		if len(direct) < len(d.names)-len(types) || len(direct) == 0 {
			continue
		}
		if len(types) > 0 {
			direct = append(direct, fmt.Sprintf("import { %s } from %s;", strings.Join(types, ", "), jsString(d.spec)))
		}
		if f.legal != "" {
			direct = append([]string{fmt.Sprintf("import %s;", jsString(b.rewrittenSpec(file, legalPrefix, r.Path)))}, direct...)
		}
		// On the declaration's lines: every other line keeps its number in messages.
		text := strings.Join(direct, " ") + strings.Repeat("\n", strings.Count(src[d.start:d.end], "\n"))
		out.WriteString(src[last:d.start] + text)
		last = d.end
	}
	if last == 0 {
		return ""
	}
	out.WriteString(src[last:])
	return out.String()
}

// esbuildExts are the extensions esbuild tries, in its order, for an import without one
// (its default resolveExtensions, which the build keeps).
var esbuildExts = []string{".tsx", ".ts", ".jsx", ".js", ".css", ".json"}

// barrelTarget resolves spec, a module the barrel at barrel re-exports from, to the file
// esbuild would load for it, and reports whether the rewriting may import it directly. A
// relative path to a regular file (as written, else with one of esbuildExts: what esbuild's
// resolver tries first) is found in the build's listing of its folder; anything else (a
// folder, a link, a package, a barrel whose package.json maps files for browsers) is
// resolved by esbuild, once per build for each folder and specifier.
func (b *bundler) barrelTarget(resolve func(string, api.ResolveOptions) api.ResolveResult, barrel, spec string) (string, bool) {
	if (strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")) && !strings.ContainsAny(spec, "?#") && !b.browserMap(filepath.Dir(barrel)) {
		p := filepath.Join(filepath.Dir(barrel), filepath.FromSlash(spec))
		if b.folders.isFile(p) {
			return p, b.outside(p) == nil
		}
		for _, ext := range esbuildExts {
			if b.folders.isFile(p + ext) {
				return p + ext, b.outside(p+ext) == nil
			}
		}
	}
	t := b.folders.resolve(resolve, spec, b.projectName(barrel), api.ResolveOptions{Importer: barrel, Namespace: "file", ResolveDir: filepath.Dir(barrel), Kind: api.ResolveJSImportStatement})
	if len(t.Errors) > 0 || t.External || t.Namespace != "file" || t.Suffix != "" || b.outside(t.Path) != nil {
		return "", false
	}
	return t.Path, true
}

// browserMap reports whether the package.json nearest above dir (within the folder the
// build reads) has a "browser" field that maps files, which esbuild applies to the package's
// relative imports; read once per folder.
func (b *bundler) browserMap(dir string) bool {
	if v, ok := b.browserMaps.Load(dir); ok {
		return v.(bool)
	}
	mapped := false
	if data, err := readIn(filepath.Join(dir, "package.json"), b.readRoot); err == nil {
		var pj struct {
			Browser json.RawMessage `json:"browser"`
		}
		mapped = json.Unmarshal(data, &pj) != nil || strings.HasPrefix(strings.TrimSpace(string(pj.Browser)), "{")
	} else if parent := filepath.Dir(dir); parent != dir && underDir(parent, b.readRoot) {
		mapped = b.browserMap(parent)
	}
	b.browserMaps.Store(dir, mapped)
	return mapped
}

// projectName is the tsconfig of the project of the file at p where it is another than the
// app's (projectOf), else "".
func (b *bundler) projectName(p string) string {
	if pr := b.projectOf(p); pr != nil {
		return pr.file
	}
	return ""
}

// rewrittenSpec returns the specifier, prefix and p relative to the folder of file, that a
// rewritten import in file names p by (no absolute path: it would be in a source map's
// sourcesContent), and records it: the confine plugin resolves only the specifiers recorded,
// so that one an author writes is refused as any URL is, and reads nothing.
func (b *bundler) rewrittenSpec(file, prefix, p string) string {
	rel, err := filepath.Rel(filepath.Dir(file), p)
	if err != nil {
		rel = p
	}
	spec := prefix + filepath.ToSlash(rel)
	b.rewritten.Store(filepath.Dir(file)+"\x00"+spec, p)
	return spec
}

// rewrittenPath returns the file a rewritten import's specifier spec names from the folder
// dir, when rewriteBarrelImports wrote it.
func (b *bundler) rewrittenPath(dir, spec string) (string, bool) {
	p, ok := b.rewritten.Load(dir + "\x00" + spec)
	if !ok {
		return "", false
	}
	return p.(string), true
}

func importSpecifier(imported, local string, typeOnly bool) string {
	s := imported
	if local != imported {
		s += " as " + local
	}
	if typeOnly {
		s = "type " + s
	}
	return s
}

// jsScan reads the few statements a module's head and a barrel hold: comments, strings,
// words and punctuation, never a regular expression or a template.
type jsScan struct {
	src string
	i   int
}

// skip passes spaces, line ends and comments.
func (s *jsScan) skip() {
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.i++
		case strings.HasPrefix(s.src[s.i:], "//"):
			if j := strings.IndexByte(s.src[s.i:], '\n'); j >= 0 {
				s.i += j + 1
			} else {
				s.i = len(s.src)
			}
		case strings.HasPrefix(s.src[s.i:], "/*"):
			j := strings.Index(s.src[s.i+2:], "*/")
			if j < 0 {
				s.i = len(s.src)
				return
			}
			s.i += j + 4
		case strings.HasPrefix(s.src[s.i:], "\u00a0"):
			s.i += len("\u00a0")
		case strings.HasPrefix(s.src[s.i:], "\ufeff"):
			s.i += len("\ufeff")
		default:
			return
		}
	}
}

// word reads the identifier w when it is next and whole.
func (s *jsScan) word(w string) bool {
	if !strings.HasPrefix(s.src[s.i:], w) {
		return false
	}
	if j := s.i + len(w); j < len(s.src) && isIdentByte(s.src[j]) {
		return false
	}
	s.i += len(w)
	return true
}

// ident reads an identifier of ASCII letters, digits, _ and $.
func (s *jsScan) ident() (string, bool) {
	j := s.i
	for j < len(s.src) && isIdentByte(s.src[j]) {
		j++
	}
	if j == s.i || s.src[s.i] >= '0' && s.src[s.i] <= '9' {
		return "", false
	}
	id := s.src[s.i:j]
	s.i = j
	return id, true
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (s *jsScan) punct(c byte) bool {
	if s.i < len(s.src) && s.src[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string literal without escapes or line breaks.
func (s *jsScan) str() (string, bool) {
	if s.i >= len(s.src) {
		return "", false
	}
	q := s.src[s.i]
	if q != '"' && q != '\'' {
		return "", false
	}
	j := strings.IndexAny(s.src[s.i+1:], string(q)+"\\\n\r")
	if j < 0 || s.src[s.i+1+j] != q {
		return "", false
	}
	v := s.src[s.i+1 : s.i+1+j]
	s.i += j + 2
	return v, true
}

// semi reads an optional semicolon after spaces on the same line.
func (s *jsScan) semi() {
	j := s.i
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	if j < len(s.src) && s.src[j] == ';' {
		s.i = j + 1
	}
}

// endOfStatement reads the end of a statement after its last token: a semicolon, or (by
// automatic semicolon insertion) a line break or the end of the text.
func (s *jsScan) endOfStatement() bool {
	j := s.i
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	switch {
	case j < len(s.src) && s.src[j] == ';':
		s.i = j + 1
		return true
	case j >= len(s.src) || s.src[j] == '\n' || s.src[j] == '\r' || strings.HasPrefix(s.src[j:], "//") || strings.HasPrefix(s.src[j:], "/*"):
		return true
	}
	return false
}

// names reads { a, b as c, type d } (a trailing comma allowed): each pair is the name and
// its alias; a type-only name's alias is prefixed "type ".
func (s *jsScan) names() ([][2]string, bool) {
	if !s.punct('{') {
		return nil, false
	}
	list := [][2]string{}
	for {
		s.skip()
		if s.punct('}') {
			return list, true
		}
		name, ok := s.ident()
		if !ok {
			return nil, false
		}
		typ := false
		s.skip()
		if name == "type" && s.i < len(s.src) && s.src[s.i] != ',' && s.src[s.i] != '}' && !strings.HasPrefix(s.src[s.i:], "as") {
			typ = true
			if name, ok = s.ident(); !ok {
				return nil, false
			}
			s.skip()
		}
		alias := name
		if s.word("as") {
			s.skip()
			if alias, ok = s.ident(); !ok {
				return nil, false
			}
			s.skip()
		}
		if typ {
			alias = "type " + alias
		}
		list = append(list, [2]string{name, alias})
		if !s.punct(',') {
			s.skip()
			if !s.punct('}') {
				return nil, false
			}
			return list, true
		}
	}
}

// binding is one name an import declaration binds: kind is 'd' for the default import,
// 'n' for a namespace import (imported "*"), 'm' for a member of { … }.
type binding struct {
	imported, local string
	kind            byte
	typeOnly        bool
}

// importClause reads an import declaration after its keyword, up to and including its end:
// its specifier, its bindings (none for import "x"), whether it is import type, and whether
// it has import attributes.
func (s *jsScan) importClause() (spec string, bs []binding, typeDecl, attrs, ok bool) {
	s.skip()
	if s.i < len(s.src) && (s.src[s.i] == '"' || s.src[s.i] == '\'') {
		spec, ok = s.str() // import "x"
		return spec, nil, false, false, ok && s.attributes() && s.endOfStatement()
	}
	if s.i < len(s.src) && (s.src[s.i] == '(' || s.src[s.i] == '.') {
		return "", nil, false, false, false // import(…) or import.meta: a statement of code
	}
	if s.word("type") {
		s.skip()
		typeDecl = true
	}
	namespace := func() bool {
		s.skip()
		if !s.word("as") {
			return false
		}
		s.skip()
		local, ok := s.ident()
		bs = append(bs, binding{imported: "*", local: local, kind: 'n'})
		return ok
	}
	members := func() bool {
		list, ok := s.names()
		for _, n := range list {
			local, typ := strings.CutPrefix(n[1], "type ")
			bs = append(bs, binding{imported: n[0], local: local, kind: 'm', typeOnly: typ})
		}
		return ok
	}
	switch {
	case s.punct('*'):
		if !namespace() {
			return "", nil, false, false, false
		}
	case s.i < len(s.src) && s.src[s.i] == '{':
		if !members() {
			return "", nil, false, false, false
		}
	default:
		local, ok := s.ident()
		if !ok {
			return "", nil, false, false, false
		}
		bs = append(bs, binding{imported: "default", local: local, kind: 'd'})
		s.skip()
		if s.punct(',') {
			s.skip()
			if s.punct('*') {
				ok = namespace()
			} else {
				ok = members()
			}
			if !ok {
				return "", nil, false, false, false
			}
		}
	}
	spec, attrs, ok = s.from()
	return spec, bs, typeDecl, attrs, ok
}

// attributes reads an optional with { … } or assert { … } after a module specifier.
func (s *jsScan) attributes() bool {
	save := s.i
	s.skip()
	if !s.word("with") && !s.word("assert") {
		s.i = save
		return true
	}
	s.skip()
	j := strings.IndexByte(s.src[s.i:], '}')
	if !s.punct('{') || j < 0 {
		return false
	}
	s.i += j
	return true
}

// exportFrom reads an export … from "…" statement after its keyword, or fails for any other
// export, which is the module's own code.
func (s *jsScan) exportFrom() bool {
	s.skip()
	if s.word("type") {
		s.skip()
	}
	if s.punct('*') {
		return s.rest()
	}
	if _, ok := s.names(); !ok {
		return false
	}
	_, _, ok := s.from()
	return ok
}

// rest reads the rest of export * [as name] from "…" after the star.
func (s *jsScan) rest() bool {
	s.skip()
	if s.word("as") {
		s.skip()
		if _, ok := s.ident(); !ok {
			if _, ok := s.str(); !ok {
				return false
			}
		}
	}
	_, _, ok := s.from()
	return ok
}

// from reads from "…" (after spaces), the import attributes after it, and the end of the
// statement: the specifier, and whether there were attributes.
func (s *jsScan) from() (spec string, attrs, ok bool) {
	s.skip()
	if !s.word("from") {
		return "", false, false
	}
	s.skip()
	if spec, ok = s.str(); !ok {
		return "", false, false
	}
	before := s.i
	if !s.attributes() {
		return "", false, false
	}
	attrs = s.i != before
	return spec, attrs, s.endOfStatement()
}
