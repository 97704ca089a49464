package pipeline

import (
	"cmp"
	"os"
	"slices"
	"strings"
	"unsafe"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// A package's module is rewritten before esbuild reads it where esbuild would keep code that
// Vite's build (Rolldown, then Oxc's minifier) leaves out, each rewrite a rule over the parsed
// module that leaves what the page does unchanged:
//
//   - nsimport.go: a namespace or a constant a module imports by name;
//   - nschain.go: a namespace read through another (z.iso.datetime);
//   - deadwrites.go: writes to a module-level object that nothing reads;
//   - puretables.go: a module-level table whose only reads are of the module's own data;
//   - guardedclass.go: a class defined behind a typeof guard into a binding declared before;
//   - logicalassign.go: a logical assignment written lowered (o.p ?? (o.p = b));
//   - tablecalls.go: a module-level object of functions and calls, whose calls are declared on their own;
//   - purecalls.go: a module-level pure call whose arguments do something, which are declared on their own.
//
// The rewrites read one parse of the module (pkgModule) and give edits of its text, applied
// together; a rewrite whose conditions do not hold gives none.

// pkgModule is the text of a package's module and its parse by tdewolff's JavaScript parser,
// made once, when the first rewrite that needs it asks. Tokens and literals of the parse are
// slices of buf: a token's offset in src is its distance from buf's start.
type pkgModule struct {
	src    string
	buf    []byte
	ast    *js.AST
	parsed bool
	eval   int // 0: not looked for; 1: no direct eval; 2: one
}

// parse returns the module's parse; nil when the parser cannot read it.
func (m *pkgModule) parse() *js.AST {
	if !m.parsed {
		m.parsed = true
		n := len(m.src)
		m.buf = make([]byte, n, n+1)
		copy(m.buf, m.src)
		if ast, err := js.Parse(parse.NewInputBytes(m.buf), js.Options{}); err == nil {
			m.ast = ast
		}
	}
	return m.ast
}

// callsEval reports whether the module calls eval directly, which could read or write any
// binding it can see: a rewrite that follows the module's references leaves such a module as
// written. A module the parser cannot read is taken to call it.
func (m *pkgModule) callsEval() bool {
	if m.eval == 0 {
		m.eval = 1
		// A name may be written with escapes (ev\u0061l): then only a parse says.
		if !strings.Contains(m.src, "eval") && !strings.Contains(m.src, `\u`) {
			return false
		}
		ast := m.parse()
		if ast == nil {
			m.eval = 2
			return true
		}
		js.Walk(evalFinder{m}, ast)
	}
	return m.eval == 2
}

// evalFinder finds a direct call of eval that is not a binding of the module's: the name as
// V8 reads it (escapes decoded), in parentheses or not ((eval)(s) is direct too).
type evalFinder struct{ m *pkgModule }

func (f evalFinder) Enter(n js.INode) js.IVisitor {
	if c, ok := n.(*js.CallExpr); ok {
		if v, ok := unGroup(c.X).(*js.Var); ok && isEval(v) && v.Decl == js.NoDecl {
			f.m.eval = 2
			return nil
		}
	}
	return f
}

func (evalFinder) Exit(js.INode) {}

func isEval(v *js.Var) bool {
	name, ok := jsstring.Identifier(string(v.Name()))
	return ok && name == "eval"
}

// offset returns the offset in src of a token of the parse.
func (m *pkgModule) offset(data []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(data))) - uintptr(unsafe.Pointer(unsafe.SliceData(m.buf))))
}

// applyEdits applies edits to src in order of place; deletions that overlap (a name's comma
// range within the last one's) merge.
func applyEdits(src string, edits []edit) string {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(x, y edit) int { return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.end, y.end)) })
	var out strings.Builder
	pos := 0
	for _, e := range edits {
		if e.start < pos {
			if e.end > pos {
				pos = e.end
			}
			out.WriteString(e.text)
			continue
		}
		out.WriteString(src[pos:e.start])
		out.WriteString(e.text)
		pos = max(pos, e.end)
	}
	out.WriteString(src[pos:])
	return out.String()
}

// loadPackageModule loads a package's module: as esbuild reads it, or with the rewrites
// above applied to one parse of it.
func (b *bundler) loadPackageModule(path string, resolve func(string, api.ResolveOptions) api.ResolveResult) api.OnLoadResult {
	src, err := os.ReadFile(path)
	if err != nil {
		return api.OnLoadResult{} // esbuild reads it, and reports what it cannot
	}
	loader := b.loaderFor(path)
	m := &pkgModule{src: string(src)}
	var imports, others []edit
	var defines map[string]string
	some := false
	// A CommonJS module (no import or export word in it: react-dom's, scheduler's) keeps its
	// whole body in esbuild's bundle, which none of the rewrites makes smaller: its text is
	// not parsed (half a megabyte of react-dom was a fifth of a React app's build).
	if !containsWord(m.src, "import", "export") {
		return api.OnLoadResult{}
	}
	importsByName(m.src, func(string, []string) bool { some = true; return false })
	if some {
		imports, defines = b.namespaceEdits(path, m, loader, resolve)
	}
	imports = append(imports, b.namespaceChainEdits(path, m, resolve)...)
	if loader == api.LoaderJS {
		others = slices.Concat(deadWriteEdits(m), pureTableEdits(m), guardedClassEdits(m), logicalAssignEdits(m), tableCallEdits(m), pureCallEdits(m))
	}
	if len(imports) == 0 && len(others) == 0 {
		return api.OnLoadResult{}
	}
	out := applyEdits(m.src, append(slices.Clip(imports), others...))
	if len(defines) > 0 {
		res := api.Transform(out, api.TransformOptions{Loader: api.LoaderJS, Sourcefile: path, Define: defines,
			Target: api.ESNext, Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsInline, LogLevel: api.LogLevelSilent})
		switch {
		case len(res.Errors) == 0:
			out = string(res.Code)
		case len(others) == 0:
			return api.OnLoadResult{}
		default:
			out = applyEdits(m.src, others) // the imports as written
		}
	}
	return api.OnLoadResult{Contents: &out, Loader: loader}
}
