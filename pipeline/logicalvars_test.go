package pipeline

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestLogicalVars runs each minified module in Node as written and with the logical
// assignments of plain variables written (rewriteScript, the local names given too): both print
// the same and throw the same, and the module after holds the form it should (want) and not the
// one it should not (not).
func TestLogicalVars(t *testing.T) {
	run := nodeModuleRunner(t)
	for _, row := range []struct{ name, src, want, not string }{
		{"a let", `let a=globalThis.x;a=a??3;console.log(a)`, `a??=3`, "a=a"},
		{"a parameter", `function f(e,t){return e=e||t,e}console.log(f(0,2),f(1,2))`, `e||=t`, "e=e"},
		{"&&", `function f(e){return e=e&&e+1,e}console.log(f(0),f(1))`, `e&&=e+1`, "e=e"},
		{"a var in a block", `function f(e){var n=e;{n=n??"v"}return n}console.log(f(null),f(0))`, `n??="v"`, "n=n"},
		{"a function's name", `function g(){return 1}g=g||0;console.log(g())`, `g||=0`, ""},
		{"a catch clause's", `try{throw 0}catch(e){e=e||"c";console.log(e)}`, `e||="c"`, ""},
		{"two in one scope", `function f(e,n){e=e??1;n=n??2;return[e,n]}console.log(f(),f(3,4))`, `e??=1;n??=2`, "=e"},
		{"a const throws", `const a=1;try{a=a||2}catch(e){console.log(e.name)}console.log(a)`, `a=a||2`, ""},
		{"a class's own name", `class C{static m(){try{C=C||1}catch(e){console.log(e.name)}}}C.m()`, `C=C||1`, ""},
		{"a function expression's own name", `(function f(){try{f=f||1}catch(e){console.log(e.name)}})()`, `f=f||1`, ""},
		{"a global", `globalThis.z=0;Object.defineProperty(globalThis,"y",{get(){return 5},set(v){console.log("set",v)}});y=y||1;console.log(y)`, `y=y||1`, ""},
		{"a default in a pattern", `let a,o=[];[a=a??4]=o;console.log(a)`, `[a=a??4]=o`, ""},
		{"another operator first", `function f(e,t){return e=e||t?1:2,e}console.log(f(0,0),f(1,0))`, `e=e||t?1:2`, ""},
		{"an operand of the same operator", `function f(e,t){return e=e||t||3,e}console.log(f(0,0),f(1,0))`, `e=e||t||3`, ""},
		{"another binding", `function f(e,t){return e=t??1,e}console.log(f(0,null))`, `e=t??1`, ""},
		{"a property", `let o={a:null};o.a=o.a??1;console.log(o.a)`, `o.a=o.a??1`, ""},
		{"a variable, a || (a = b)", `function f(e,t){return e||(e=t),e}console.log(f(0,2),f(1,2))`, `e||=t,`, "e=t"},
		{"a let, ??, its name renamed", `let value=globalThis.x;value??(value={n:1});console.log(value)`, `value??={n:1};`, "(value="},
		{"a variable, && in an argument", `function f(e){return[e&&(e=e+1),e]}console.log(f(0),f(1))`, `[e&&=e+1,e]`, "e=e"},
		{"a const throws", `const a=0;try{a||(a=2)}catch(e){console.log(e.name)}console.log(a)`, `a||(a=2)`, ""},
		{"a global variable", `globalThis.w=0;w||(w=1);console.log(w)`, `w||(w=1)`, ""},
		{"this's property", `class A{get(){return this.k||(this.k=[1])}}const a=new A;console.log(a.get(),a.get()===a.get())`, `this.k||=[1]}`, "this.k="},
		{"a parameter's property", `function f(value){return value.v??(value.v=2),value.v}console.log(f({}),f({v:0}))`, `value.v??=2,`, "value.v="},
		{"a const's property, &&", `const o={c:1};function f(){o.c&&(o.c=o.c+1);return o.c}console.log(f(),f())`, `o.c&&=o.c+1;`, "o.c="},
		{"an index of a number", `const o=[0];o[0]||(o[0]="x");console.log(o)`, `o[0]||="x";`, "o[0]="},
		{"an index of a string", `const o={};o["a b"]??(o["a b"]=1);console.log(o)`, `o["a b"]??=1;`, `o["a b"]=`},
		{"a private field, whose place the parse keeps not", `class A{#p;m(){return this.#p??(this.#p=3)}}console.log(new A().m())`, `this.#p??(this.#p=3)`, ""},
		{"a right side with parentheses and a regexp", `function f(e){return e.r||(e.r=/\)(/.test(")(")&&(1,2)),e.r}console.log(f({}),f({r:5}))`, `e.r||=/\)(/.test(")(")&&(1,2),e.r}`, "e.r="},
		{"a branch of ?:", `const o={};console.log(o?o.p??(o.p=2):0,o)`, `o?o.p??=2:0`, "o.p="},
		{"an operand of another operator", `const o={};console.log(o.p||(o.p=0)||5,o)`, `o.p||(o.p=0)||5`, ""},
		{"an object assigned again", `let q={},o={get p(){return o=q,0}};try{o.p||(o.p=1)}catch(e){console.log(e.name)}console.log(q)`, `o.p||(o.p=1)`, ""},
		{"a global's property", `globalThis.g={};g.p||(g.p=1);console.log(g)`, `g.p||(g.p=1)`, ""},
		{"a property's property", `const o={a:{}};o.a.b||(o.a.b=1);console.log(o)`, `o.a.b||(o.a.b=1)`, ""},
		{"a computed key", `const o={},k="a";o[k]||(o[k]=1);console.log(o)`, `o[k]||(o[k]=1)`, ""},
		{"another property", `const o={};o.p||(o.q=1);console.log(o)`, `o.p||(o.q=1)`, ""},
		{"another object", `const o={},n={};o.p||(n.p=1);console.log(o,n)`, `o.p||(n.p=1)`, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			opts := api.BuildOptions{Target: api.ES2022, Format: api.FormatESModule}
			after := rewriteScript(code{js: row.src, known: true}, opts, true, false, false, false)
			renamed := rewriteScript(code{js: row.src, known: true}, opts, true, false, true, false)
			if !strings.Contains(after.js, row.want) || row.not != "" && strings.Contains(after.js, row.not) {
				t.Errorf("after the pass (want %q, not %q):\n%s", row.want, row.not, after.js)
			}
			before := run("before", row.src)
			if a := run("after", after.js); a != before {
				t.Errorf("as written: %q; after the pass: %q\n%s", before, a, after.js)
			}
			if a := run("renamed", renamed.js); a != before {
				t.Errorf("as written: %q; after the pass and the local names: %q\n%s", before, a, renamed.js)
			}
		})
	}
}
