package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/internal/localnames"
)

// TestShorterForms runs each minified module in Node as written, with the shorter forms
// written (rewriteScript: the edits alone) and with them minified again (minifyAgain, as
// where unwritten bindings are written too): all three print the same and throw the same, and
// the module with the edits holds the form it should (want) and not the one it should not
// (not).
func TestShorterForms(t *testing.T) {
	run := nodeModuleRunner(t)
	for _, row := range []struct{ name, src, want, not string }{
		// new Error(…) as Error(…).
		{"new Error", `try{throw new Error("x",{cause:1})}catch(e){console.log(e instanceof Error,e.message,e.cause,Object.getPrototypeOf(e)===Error.prototype)}`, `throw Error("x"`, "new Error"},
		{"the other errors", `for(let e of[new TypeError("t"),new RangeError("r"),new SyntaxError("s"),new ReferenceError("f"),new EvalError("v"),new URIError("u"),new AggregateError([1],"a")])console.log(e.constructor.name,e.message,e.errors)`, `[TypeError("t"),RangeError("r")`, "new "},
		{"an Error the module declares", `class Error{constructor(m){this.m=m}}console.log(new Error("x").m)`, `new Error("x")`, ""},
		{"an Error a function declares", `function f(Error){return new Error("x")}console.log(f(class{constructor(m){this.m=m}}).m)`, `new Error("x")`, ""},
		{"an Error a class expression is named", `let C=class Error{constructor(m){this.m=m}static make(){return new Error("c")}};try{console.log(C.make().m)}catch(e){console.log(e.name)}`, `new Error("c")`, ""},
		{"two in one function", `function f(c){if(c<0)throw new Error("a");if(c>9)throw new Error("b");return c}for(let c of[-1,10,5])try{console.log(f(c))}catch(e){console.log(e.message)}`, `throw Error("a");if(c>9)throw Error("b")`, "new"},
		{"in a string, a template and a regular expression", "console.log(\"new Error(1)\",`new Error(${new Error(\"t\").message})`,/new Error\\(/.test(\"new Error(\"),new Error(\"x\").message)", "\"new Error(1)\",`new Error(${Error(\"t\").message})`,/new Error\\(/.test(\"new Error(\"),Error(\"x\")", ""},
		{"an Error imported", `import{E as Error}from"data:text/javascript,export class E{constructor(m){this.m=m}}";console.log(new Error("x").m)`, `new Error("x")`, ""},
		{"an Error a block declares", `{function Error(m){this.m=m}console.log(new Error("x").m)}`, `new Error("x")`, ""},
		{"new new Error()", `try{new new Error("x")}catch(e){console.log(e.name)}`, `new new Error("x")`, ""},
		{"new without arguments", `var e=new Error;console.log(e.message==="")`, `new Error`, ""},
		{"a member of the error made", `console.log(new Error("m").message)`, `Error("m").message`, "new"},
		{"another constructor", `console.log(new Map([[1,2]]).size)`, `new Map`, ""},

		// (x & N) !== 0 read as a test.
		{"if", `function f(e){if((e.f&2048)!==0)return 1;return 0}console.log(f({f:2048}),f({f:1}))`, `if(e.f&2048)return 1`, "!==0"},
		{"=== 0 as !", `function f(e){return(e.f&4)===0?2:3}console.log(f({f:4}),f({f:0}))`, `return!(e.f&4)?2:3`, "===0"},
		{"=== 0 in an if", `function f(e){if((e.f&4)===0)console.log(2)}f({f:4});f({f:0})`, `if(!(e.f&4))console.log(2)`, "===0"},
		{"operands of && and || in a test", `function f(e){return(e&1)!==0&&(e&2)===0||(e&4)!=0?"y":"n"}console.log(f(1),f(3),f(4))`, `return e&1&&!(e&2)||e&4?"y":"n"`, "0?"},
		{"a statement after else", `function f(e){if(e>9)return;else(e&1)!==0&&console.log("odd")}f(1);f(2)`, `else e&1&&console.log`, "!==0"},
		{"a statement's value is not read", `function f(e){(e&1)!==0&&console.log("odd")}f(1);f(2)`, `e&1&&console.log`, "!==0"},
		{"a loop's test", `let a=6,n=0;for(;(a&2)!==0;)a>>=1,n++;console.log(n)`, `;a&2;`, "!==0"},
		{"!", `let a=4;console.log(!((a&4)!==0))`, ``, "!==0"},
		{"a bigint throws either way", `try{if((2n&1)!==0)console.log(1)}catch(e){console.log(e.name)}`, ``, ""},
		{"the value is read", `function f(e){return(e&2)!==0}console.log(f(2),f(1))`, `(e&2)!==0`, ""},
		{"an operand of && whose value is read", `function f(e){return(e&1)!==0&&e}console.log(f(1),f(2))`, `(e&1)!==0&&e`, ""},
		{"a bigint zero", `function f(e){return(e&1n)!==0n?1:0}console.log(f(1n),f(2n))`, `!==0n`, ""},
		{"a name, not a number", `var n=1;function f(e){return(e&n)!==0?1:0}console.log(f(1),f(2))`, `!==0`, ""},

		// ["a", …] as "a.….f".split(".").
		{"strings as split", `function f(){return["Aa","Bb","Cc","","Dd","Ee"]}let a=f(),b=f();console.log(JSON.stringify(a),a!==b,a.length,Array.isArray(a))`, `return"Aa.Bb.Cc..Dd.Ee".split(".")}`, `["Aa"`},
		{"strings that hold the separator", `console.log(JSON.stringify(["a.b","c.d","e","f","g","h"]))`, `"a.b,c.d,e,f,g,h".split(",")`, ""},
		{"single quotes", `console.log(JSON.stringify(['a"1','b"2','c','d','e','f']).length)`, `'a"1.b"2.c.d.e.f'.split('.')`, ""},
		{"an element read at once", `console.log(["zero","one","two","three","four","five"][2])`, `"zero.one.two.three.four.five".split(".")[2]`, ""},
		{"five strings are not shorter", `console.log(["a","b","c","d","e"].join("+"))`, `["a","b","c","d","e"]`, "split"},
		{"a string with an escape", `console.log(["a\\n","b","c","d","e","f"].join("+"))`, `["a\\n"`, "split"},
		{"strings with every separator", `console.log(["a.,|-_ ","b","c","d","e","f"].length)`, `["a.,|-_ "`, "split"},
		{"a hole", `console.log([,"b","c","d","e","f","g"].length)`, `[,"b"`, "split"},
		// new's callee is the member expression: new "…".split(".").constructor(3) would be
		// new ("…".split)(".").
		{"the leftmost of new's callee", `console.log(new["mon","tue","wed","thu","fri","sat"].constructor(3).length)`, `new["mon"`, "split"},
		{"the leftmost of a call's callee", `console.log(["mon","tue","wed","thu","fri","sat"].indexOf("wed"))`, `.split(".").indexOf`, ""},
		{"a spread", `console.log(["a",..."bc","d","e","f","g"].length)`, `...`, "split"},
		{"a number among them", `console.log(["a","b",1,"d","e","f"].length)`, `"b",1`, "split"},
		{"new of an array", `try{new["a","b","c","d","e","f"]}catch(e){console.log(e.name)}`, `new["a"`, "split"},

		// "use strict" in a module.
		{"use strict in a function", `var f=function(){"use strict";return this===void 0};console.log(f())`, `function(){return this===void 0}`, "use strict"},
		{"use strict in single quotes, at the top", `'use strict';function g(e){'use strict';try{undeclared=1}catch(t){return t.name}}console.log(g())`, `function g(e){try{`, "use strict"},
		{"use strict with another directive", `function h(){"use strict";"other";return typeof this}console.log(h())`, `function h(){"other";return typeof this}`, "use strict"},
		{"use strict in a method", `var o={""(e){"use strict";return this===void 0}};console.log(o[""].call(void 0))`, `""(e){return this`, "use strict"},
		{"use strict as an if's body", `function k(e){if(e)"use strict";return 1}console.log(k(1))`, `if(e)"use strict"`, ""},
		{"a string that is not a directive", `function k(){return"use strict"}console.log(k())`, `return"use strict"`, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			opts := api.BuildOptions{Target: api.ES2022, Format: api.FormatESModule}
			after := rewriteScript(code{js: row.src, known: true}, opts, true, false, false, false)
			if !strings.Contains(after.js, row.want) || row.not != "" && strings.Contains(after.js, row.not) {
				t.Errorf("after the pass (want %q, not %q):\n%s", row.want, row.not, after.js)
			}
			again := minifyAgain(code{js: row.src, known: true}, shorterForms(localnames.Parse(row.src), row.src, false), opts)
			before := run("before", row.src)
			if a := run("after", after.js); a != before {
				t.Errorf("as written: %q; after the pass: %q\n%s", before, a, after.js)
			}
			if a := run("again", again.js); a != before {
				t.Errorf("as written: %q; minified again: %q\n%s", before, a, again.js)
			}
		})
	}
}

// TestUseStrictWhereTextRuns: a page that may compile text (the manifest's eval = true) keeps
// "use strict" in its functions, whose text new Function runs as a script's code.
func TestUseStrictWhereTextRuns(t *testing.T) {
	run := nodeModuleRunner(t)
	src := `var f=function(){"use strict";return this===void 0};console.log(new Function("return("+f+")")()())`
	opts := api.BuildOptions{Target: api.ES2022, Format: api.FormatESModule}
	after := rewriteScript(code{js: src, known: true}, opts, true, false, false, true)
	if !strings.Contains(after.js, `"use strict"`) {
		t.Errorf("the directive went:\n%s", after.js)
	}
	if a, b := run("before", src), run("after", after.js); a != b {
		t.Errorf("as written: %q; after the pass: %q\n%s", a, b, after.js)
	}
}

// TestShorterFormsMap: with the shorter forms and the local names written together, from one
// parse, the code after each edit maps to the source place it mapped to before, on lines
// minified whole or not (where only new goes).
func TestShorterFormsMap(t *testing.T) {
	src := "export function first(effect) {\n  if ((effect.f & 4) !== 0) throw new Error(\"END1\");\n  return (effect.g & 8) === 0 ? \"END2\" : new TypeError(\"END3\");\n}\n"
	for _, whole := range []bool{true, false} {
		before := withMap(t, src, api.TransformOptions{MinifyWhitespace: whole})
		after := rewriteScript(before, api.BuildOptions{Format: api.FormatESModule}, true, false, true, false)
		// (x & N) !== 0 is written where esbuild prints it minified: (e.f&4)!==0.
		if strings.Contains(after.js, "new") || whole && strings.Contains(after.js, "!==") || strings.Contains(after.js, "effect") {
			t.Fatalf("the forms or the names are not written:\n%s", after.js)
		}
		sameSources(t, fmt.Sprintf("whole line %v", whole), before, after, placesOf(before.js, after.js, `"END1"`, `"END2"`, `"END3"`, `TypeError`))
	}
}
