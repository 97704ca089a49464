package pipeline

import (
	"testing"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
)

// TestUnnamedWrappers runs modules shaped as esbuild prints a build that does not minify
// identifiers (its runtime's __commonJS and __esm, a wrapper per module named by its path) in
// Node, as written and with the wrappers' names written "" (profilernames.go).
func TestUnnamedWrappers(t *testing.T) {
	const runtime = `var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res) => function() { return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res };
var __commonJS = (cb, mod) => function() { try { return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports } catch (e) { throw mod = 0, e } };
`
	inputs := []string{"../node_modules/lib/index.js", "src/a.js", "src/main.js"}
	pass := func(m *minifiedPrint) []localnames.Edit { return unnamedWrappers(m.src, inputs) }
	testPass(t, pass, []passRow{
		{name: "a CommonJS module's wrapper",
			src: runtime + `var require_lib = __commonJS({ "../node_modules/lib/index.js"(exports, module) { module.exports = { n: 41 + 1, self: typeof module } } });
console.log(require_lib().n, require_lib().self, require_lib() === require_lib());`,
			want: `__commonJS({ ""(exports, module)`, not: `"../node_modules/lib/index.js"`},
		{name: "an ES module's wrapper",
			src: runtime + `var x;
var init_a = __esm({ "src/a.js"() { x = 5 } });
init_a(), console.log(x);`,
			want: `__esm({ ""()`, not: `"src/a.js"`},
		// What is left: a name that is no input of the output, a callee that is not the
		// runtime's (a parameter of that name), a getter, and an async method's name (a module
		// with a top-level await), which the parser gives as a copy, not at its place.
		{name: "an ES module's async wrapper",
			src: runtime + `var x;
var init_a = __esm({ async "src/a.js"() { x = await 5 } });
init_a().then(() => console.log(x));`,
			want: `async "src/a.js"`},
		{name: "a name that is no input",
			src: runtime + `var require_other = __commonJS({ "src/other.js"(exports) { exports.k = 1 } });
console.log(require_other().k);`,
			want: `"src/other.js"`},
		{name: "a callee of the same name bound elsewhere",
			src: runtime + `function f(__commonJS) { return __commonJS({ "src/a.js"() { return 2 } }) }
console.log(f((o) => Object.keys(o)[0]));`,
			want: `"src/a.js"`},
		{name: "a getter",
			src: runtime + `var require_g = __commonJS({ get "src/a.js"() { return (exports) => { exports.g = 3 } } });
try { console.log(require_g().g) } catch (e) { console.log(e.constructor.name) }`,
			want: `get "src/a.js"`},
	})
}
