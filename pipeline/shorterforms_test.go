package pipeline

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestShorterForms runs each minified module in Node as written and after minifyAgain (the
// shorter forms, the unwritten bindings left): both print the same and throw the same, and the
// module after holds the form it should (want) and not the one it should not (not).
func TestShorterForms(t *testing.T) {
	run := nodeModuleRunner(t)
	for _, row := range []struct{ name, src, want, not string }{
		// new Error(…) as Error(…).
		{"new Error", `try{throw new Error("x",{cause:1})}catch(e){console.log(e instanceof Error,e.message,e.cause,Object.getPrototypeOf(e)===Error.prototype)}`, `throw Error("x"`, "new Error"},
		{"the other errors", `for(let e of[new TypeError("t"),new RangeError("r"),new SyntaxError("s"),new ReferenceError("f"),new EvalError("v"),new URIError("u"),new AggregateError([1],"a")])console.log(e.constructor.name,e.message,e.errors)`, `[TypeError("t"),RangeError("r")`, "new "},
		{"an Error the module declares", `class Error{constructor(m){this.m=m}}console.log(new Error("x").m)`, `new Error("x")`, ""},
		{"an Error a function declares", `function f(Error){return new Error("x")}console.log(f(class{constructor(m){this.m=m}}).m)`, `new Error("x")`, ""},
		{"new without arguments", `var e=new Error;console.log(e.message==="")`, `new Error`, ""},
		{"a member of the error made", `console.log(new Error("m").message)`, `Error("m").message`, "new"},
		{"another constructor", `console.log(new Map([[1,2]]).size)`, `new Map`, ""},

		// (x & N) !== 0 read as a test.
		{"if", `function f(e){if((e.f&2048)!==0)return 1;return 0}console.log(f({f:2048}),f({f:1}))`, `return e.f&2048?1:0`, "!==0"},
		{"=== 0 as !", `function f(e){return(e.f&4)===0?2:3}console.log(f({f:4}),f({f:0}))`, `e.f&4?3:2`, "===0"},
		{"=== 0 in an if", `function f(e){if((e.f&4)===0)console.log(2)}f({f:4});f({f:0})`, `e.f&4||console.log(2)`, "===0"},
		{"operands of && and || in a test", `function f(e){return(e&1)!==0&&(e&2)===0||(e&4)!=0?"y":"n"}console.log(f(1),f(3),f(4))`, `?"y":"n"`, "0?"},
		{"a statement's value is not read", `function f(e){(e&1)!==0&&console.log("odd")}f(1);f(2)`, `e&1&&console.log`, "!==0"},
		{"a loop's test", `let a=6,n=0;for(;(a&2)!==0;)a>>=1,n++;console.log(n)`, `;a&2;`, "!==0"},
		{"!", `let a=4;console.log(!((a&4)!==0))`, ``, "!==0"},
		{"a bigint throws either way", `try{if((2n&1)!==0)console.log(1)}catch(e){console.log(e.name)}`, ``, ""},
		{"the value is read", `function f(e){return(e&2)!==0}console.log(f(2),f(1))`, `(e&2)!==0`, ""},
		{"an operand of && whose value is read", `function f(e){return(e&1)!==0&&e}console.log(f(1),f(2))`, `(e&1)!==0&&e`, ""},
		{"a bigint zero", `function f(e){return(e&1n)!==0n?1:0}console.log(f(1n),f(2n))`, `!==0n`, ""},
		{"a name, not a number", `var n=1;function f(e){return(e&n)!==0?1:0}console.log(f(1),f(2))`, `!==0`, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			after := minifyAgain(code{js: row.src, known: true}, api.BuildOptions{Target: api.ES2022}, false)
			if !strings.Contains(after.js, row.want) || row.not != "" && strings.Contains(after.js, row.not) {
				t.Errorf("after the pass (want %q, not %q):\n%s", row.want, row.not, after.js)
			}
			if a, b := run("before", row.src), run("after", after.js); a != b {
				t.Errorf("as written: %q; after the pass: %q\n%s", a, b, after.js)
			}
		})
	}
}
