package pipeline

import (
	"slices"
	"unsafe"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Where it does not minify identifiers, esbuild names each module wrapper after the module's
// path, so that a profiler shows it (its profiler names, internal/linker's ProfilerNames): a
// CommonJS module is wrapped as __commonJS({ "../node_modules/react/index.js"(exports,
// module) { … } }), a lazily evaluated ES module as __esm({ "src/a.js"() { … } }), and the
// wrapper calls the one method of the object it is given, whatever its name
// (cb[__getOwnPropNames(cb)[0]]). Where it minifies, the wrapper is given an arrow and no
// path is written. The build that keeps a CSS Module's names (namesKept) is the one that does
// not minify identifiers; its minifying pass (an esbuild transform) keeps the paths, a string
// per module that nothing but a profiler and the method's .name reads: 111 B of gzip in
// React's MCP Apps example (ten modules of react and react-dom).

// unnamedWrappers returns the edits that write, in code, the output of a build that keeps
// names, the name of each such wrapper's method as "": where the callee is the top-level
// __commonJS or __esm (the runtime's; esbuild names a module's own top-level binding of that
// name otherwise) and its one argument an object of one method whose name is one of the
// output's inputs. The wrapper calls the method as it did; the method's .name is "" where it
// was the path. Code the parser does not read has none.
func unnamedWrappers(code string, inputs []string) []localnames.Edit {
	buf := []byte(code)
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	if err != nil {
		return nil
	}
	runtime := map[*js.Var]bool{}
	for _, v := range ast.BlockStmt.Scope.Declared {
		if name := string(v.Data); name == "__commonJS" || name == "__esm" {
			runtime[v] = true
		}
	}
	if len(runtime) == 0 {
		return nil
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	var edits []localnames.Edit
	js.Walk(wrapperFinder{func(call *js.CallExpr) {
		v, ok := call.X.(*js.Var)
		for ok && v.Link != nil {
			v = v.Link
		}
		if !ok || !runtime[v] || len(call.Args.List) != 1 || call.Args.List[0].Rest {
			return
		}
		obj, ok := call.Args.List[0].Value.(*js.ObjectExpr)
		if !ok || len(obj.List) != 1 || obj.List[0].Spread {
			return
		}
		method, ok := obj.List[0].Value.(*js.MethodDecl)
		if !ok || method.Get || method.Set || method.Generator || method.Name.Private != nil || method.Name.Computed != nil {
			return
		}
		lit := method.Name.Literal
		if lit.TokenType != js.StringToken || len(lit.Data) < 2 {
			return
		}
		if _, ok := slices.BinarySearch(inputs, string(lit.Data[1:len(lit.Data)-1])); !ok {
			return
		}
		at := int(uintptr(unsafe.Pointer(unsafe.SliceData(lit.Data)))) - int(base)
		if at < 0 || at+len(lit.Data) > len(code) || code[at:at+len(lit.Data)] != string(lit.Data) {
			return // a literal the parser gives as a copy (an async method's name): left
		}
		edits = append(edits, localnames.Edit{Start: at, End: at + len(lit.Data), Text: `""`})
	}}, ast)
	slices.SortFunc(edits, func(a, b localnames.Edit) int { return a.Start - b.Start })
	return edits
}

// wrapperFinder calls found with each call expression of a tree.
type wrapperFinder struct{ found func(*js.CallExpr) }

func (w wrapperFinder) Enter(n js.INode) js.IVisitor {
	if call, ok := n.(*js.CallExpr); ok {
		w.found(call)
	}
	return w
}

func (wrapperFinder) Exit(js.INode) {}
