package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// CommonJS interop. A default import of a CommonJS module (import Chart from
// "react-apexcharts", whose module sets exports.__esModule and exports.default) has two
// readings: in a file that is an ES module by Node's rules (its package.json says "type":
// "module", or it is .mjs or .mts), Node, esbuild and Vite 8 give module.exports; elsewhere,
// and in Babel, TypeScript and Vite 4 to 6, exports.default. An app written for the second
// that is built by the first gets an object where it wanted a function, and a blank page. The
// build warns at each such import, naming the option that chooses the other reading
// (inconsistentCjsInterop under [build], as Vite 8's legacy.inconsistentCjsInterop); with it,
// each such import is resolved to a module of bundle's that gives exports.default.

// cjsNamespace holds, for a CommonJS module imported so with inconsistentCjsInterop, the
// module that reads it as Babel does: not an ES module by Node's rules (esbuild gives a
// module of a plugin's namespace no package type), so its default import is exports.default
// when the module sets __esModule.
const cjsNamespace = "miniapp-cjs"

// cjsModule is what the build found of a module an app file imports by default.
type cjsModule struct{ esModuleFlag bool }

// cjsState is what one build keeps of CommonJS interop, safe for concurrent use.
type cjsState struct {
	defaults sync.Map // app file → defaultImports
	types    sync.Map // folder → bool: whether its package says "type": "module"
	modules  sync.Map // path → cjsModule
}

// defaultImports are the specifiers an app file imports a default from, with the offset of
// the first such import's specifier in its source.
type defaultImports struct {
	src   string
	specs map[string]int
}

// noteDefaultImports records the specifiers that the head of src, the app file at file,
// imports a default from, when file is an ES module by Node's rules (only there do the two
// readings differ).
func (b *bundler) noteDefaultImports(file, src string) {
	if !b.nodeMode(file) {
		b.cjs.defaults.Delete(file)
		return
	}
	specs := map[string]int{}
	eachHeadImport(src, func(start, end int, spec string, bs []binding, typeDecl, _ bool) {
		if _, seen := specs[spec]; seen || typeDecl {
			return
		}
		for _, bd := range bs {
			if bd.kind == 'd' {
				// The specifier is the declaration's last string (import attributes, a
				// with { … } after it, hold no default import: eachHeadImport reads them).
				decl := src[start:end]
				i := max(strings.LastIndex(decl, `"`+spec+`"`), strings.LastIndex(decl, "'"+spec+"'"))
				specs[spec] = start + max(i, 0)
				return
			}
		}
	})
	if len(specs) == 0 {
		b.cjs.defaults.Delete(file)
		return
	}
	b.cjs.defaults.Store(file, defaultImports{src: src, specs: specs})
}

// nodeMode reports whether the file at p is an ES module by Node's rules, as esbuild decides
// it: .mjs and .mts are, .cjs and .cts are not, and .js, .jsx, .ts and .tsx take the "type"
// of the nearest package.json.
func (b *bundler) nodeMode(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".mjs", ".mts":
		return true
	case ".js", ".jsx", ".ts", ".tsx":
		return b.packageTypeModule(filepath.Dir(p))
	}
	return false
}

// packageTypeModule reports whether the nearest package.json from dir up (no higher than the
// folder the build reads) says "type": "module".
func (b *bundler) packageTypeModule(dir string) bool {
	if v, ok := b.cjs.types.Load(dir); ok {
		return v.(bool)
	}
	module := false
	if data, err := readIn(filepath.Join(dir, "package.json"), b.readRoot); err == nil {
		var pj struct {
			Type string `json:"type"`
		}
		json.Unmarshal(data, &pj)
		module = pj.Type == "module"
	} else if parent := filepath.Dir(dir); parent != dir && underDir(parent, b.readRoot) {
		module = b.packageTypeModule(parent)
	}
	b.cjs.types.Store(dir, module)
	return module
}

// underDir reports whether p is dir or inside it (both clean, absolute).
func underDir(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// cjsResolve is the confine plugin's callback for the imports of app files: an import a file
// recorded as a default import of a CommonJS module that sets __esModule is warned of where
// it is written (esbuild places a message without a location at the import), or with
// inconsistentCjsInterop resolved to the module of cjsNamespace that reads it.
func (b *bundler) cjsResolve(pb api.PluginBuild) func(api.OnResolveArgs) (api.OnResolveResult, error) {
	return func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		if a.Kind != api.ResolveJSImportStatement {
			return api.OnResolveResult{}, nil
		}
		ask := askedBy(a.PluginData)
		if !ask.answers(byCJS) {
			return api.OnResolveResult{}, nil
		}
		v, ok := b.cjs.defaults.Load(a.Importer)
		if !ok {
			return api.OnResolveResult{}, nil
		}
		imports := v.(defaultImports)
		off, ok := imports.specs[a.Path]
		if !ok {
			return api.OnResolveResult{}, nil
		}
		r := pb.Resolve(a.Path, again(a, byCJS))
		if len(r.Errors) > 0 || r.External || r.Namespace != "file" || b.outside(r.Path) != nil || !b.cjsWithFlag(r.Path) {
			return api.OnResolveResult{}, nil
		}
		if b.m.Build.InconsistentCjsInterop {
			rel, err := filepath.Rel(b.root, r.Path)
			if err != nil {
				return api.OnResolveResult{}, nil
			}
			// Not ending in .js: esbuild gives the module no package type, so it is not an
			// ES module by Node's rules.
			return api.OnResolveResult{Path: filepath.ToSlash(rel) + "?default", Namespace: cjsNamespace, PluginData: r.Path}, nil
		}
		name := a.Path
		set := b.m.Setting("build.inconsistentCjsInterop", true)
		why := `its package.json says "type": "module"`
		if ext := strings.ToLower(filepath.Ext(a.Importer)); ext == ".mjs" || ext == ".mts" {
			why = "it is " + ext
		}
		// Placed at the default import, which esbuild does not tell apart from another
		// import of the same module.
		msg := at(a.Importer, imports.src, off,
			fmt.Sprintf("the default import of %q gives the module's module.exports, not its exports.default: %s is CommonJS and sets __esModule, and this file is an ES module by Node's rules (%s), where esbuild, Node and Vite 8 read a default import so", name, b.display(b.rel(r.Path)), why),
			fmt.Sprintf("if the app expects the module's default export (as Vite 4 to 6 and Babel give it), set %s in %s (Vite 8's legacy.inconsistentCjsInterop); or import the package's ES module build, if it has one", set, filepath.Base(b.m.File)))
		msg.Location.Length = len(a.Path) + 2
		return api.OnResolveResult{Warnings: []api.Message{*msg}}, nil
	}
}

// cjsLoad loads a module of cjsNamespace: the CommonJS module's default export as Babel reads
// it, and its other exports.
func (b *bundler) cjsLoad(a api.OnLoadArgs) (api.OnLoadResult, error) {
	abs, _ := a.PluginData.(string)
	if abs == "" {
		return api.OnLoadResult{}, fmt.Errorf("no CommonJS module is named %s", a.Path)
	}
	spec := jsString("./" + filepath.Base(abs))
	src := "import m from " + spec + ";\nexport default m;\nexport * from " + spec + ";\n"
	return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS, ResolveDir: filepath.Dir(abs)}, nil
}

// cjsWithFlag reports whether the file at p is a CommonJS module that sets __esModule, on a
// parse of it: no import or export statement, no import.meta, and an assignment to a
// property __esModule or a call whose second argument is the string "__esModule"
// (Object.defineProperty(exports, "__esModule", …), or esbuild's and TypeScript's helpers).
func (b *bundler) cjsWithFlag(p string) bool {
	if m, ok := b.cjs.modules.Load(p); ok {
		return m.(cjsModule).esModuleFlag
	}
	m := cjsModule{}
	if src, err := os.ReadFile(p); err == nil && strings.Contains(string(src), "__esModule") && !b.nodeMode(p) {
		if ast, err := js.Parse(parse.NewInputBytes(src), js.Options{}); err == nil {
			v := &cjsVisitor{}
			js.Walk(v, ast)
			m.esModuleFlag = v.sets && !v.esm
		}
	}
	b.cjs.modules.Store(p, m)
	return m.esModuleFlag
}

type cjsVisitor struct{ sets, esm bool }

func (v *cjsVisitor) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.ImportStmt, *js.ExportStmt:
		v.esm = true
	case *js.ImportMetaExpr:
		v.esm = true
	case *js.BinaryExpr:
		if n.Op == js.EqToken && isESModuleProperty(n.X) {
			v.sets = true
		}
	case *js.CallExpr:
		if len(n.Args.List) >= 2 {
			if lit, ok := n.Args.List[1].Value.(*js.LiteralExpr); ok && lit.TokenType == js.StringToken && len(lit.Data) > 2 && string(lit.Data[1:len(lit.Data)-1]) == "__esModule" {
				v.sets = true
			}
		}
	}
	return v
}

func (v *cjsVisitor) Exit(js.INode) {}

// isESModuleProperty reports whether e is x.__esModule or x["__esModule"].
func isESModuleProperty(e js.IExpr) bool {
	switch e := e.(type) {
	case *js.DotExpr:
		switch y := e.Y.(type) {
		case js.LiteralExpr:
			return string(y.Data) == "__esModule"
		case *js.LiteralExpr:
			return string(y.Data) == "__esModule"
		}
	case *js.IndexExpr:
		if lit, ok := e.Y.(*js.LiteralExpr); ok && lit.TokenType == js.StringToken && len(lit.Data) > 2 {
			return string(lit.Data[1:len(lit.Data)-1]) == "__esModule"
		}
	}
	return false
}
