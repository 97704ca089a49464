package pipeline

import "testing"

// TestUnreachable runs each module in Node as written and with the statements after its jumps
// taken out (unreachable's edits): both print the same, and the module after holds what it
// should (want) and not what it should not (not).
func TestUnreachable(t *testing.T) {
	testPass(t, unreachable, []passRow{
		// Svelte's get_first_child, its hydrating branch folded to return.
		{"an if that declares vars", `let h=()=>"t";function f(e,t){return e.x;var n;if(n===null)n=h();else if(t&&n.nodeType!==3){var o;return n?.before(o),o}}console.log(f({x:1},!0))`, `return e.x;}`, "var"},
		{"a var statement", `function f(){return 1;var n}console.log(f())`, `return 1;}`, "var"},
		{"a var a closure reads", `function f(){let g=()=>{try{return a}catch(e){return e.name}};return g();var a=1}console.log(f())`, `return g();var a;}`, "var a=1"},
		{"a var named before the jump", `function f(){n=2;return n;if(n)var n=3}console.log(f(),typeof globalThis.n)`, `return n;var n;}`, "if"},
		{"a loop after a throw", `function f(){try{throw 1;for(var z=0;;)z++}catch(e){return e+typeof z}}console.log(f())`, `throw 1;var z;}`, "z++"},
		{"a break", `function f(){let n=0;for(;;){n++;break;n+=10}return n}console.log(f())`, `break;}`, "n+=10"},
		{"a continue to a label", `function f(){let n=0;a:for(let i=0;i<3;i++){for(;;){n++;continue a;n+=100}}return n}console.log(f())`, `continue a;}`, "n+=100"},
		{"a labelled block", `a:{break a;console.log(2)}console.log(1)`, `a:{break a;}`, "log(2)"},
		{"an arrow function's body", `let y=()=>{throw Error("e");var x;if(x)y()};try{y()}catch(e){console.log(e.message)}`, `throw Error("e");}`, "if(x)"},
		{"a nested function's var is its own", `function f(){return 1;var a=function(){var b}}console.log(f())`, `return 1;}`, "var"},
		// Strict code binds a function declared in a block in that block alone.
		{"a function declared in a block", `function f(){return typeof h;{function h(){}}}console.log(f())`, `return typeof h;}`, "function h"},
		{"two jumps", `function f(){return 1;return 2;var a}console.log(f())`, `return 1;}`, "return 2"},
		{"a function declared after is left", `function f(){return g();function g(){return 2}}console.log(f())`, `return g();function g()`, ""},
		{"a let after is left", `function f(){let h=()=>{try{return x}catch(e){return e.name}};return h();let x=1}console.log(f())`, `let x=1`, ""},
		{"a class after is left", `function f(){let h=()=>{try{return typeof C}catch(e){return e.name}};return h();class C{}}console.log(f())`, `class C{}`, ""},
		{"a case clause is left", `function f(k){switch(k){case 1:return 1;var v;if(v)g()}return 0}console.log(f(1),f(2))`, `if(v)g()`, ""},
		{"a direct eval is left", `function f(){return eval("v=1,v");var v}console.log(f())`, `var v}`, ""},
		{"a line break in the jump is left", "function f(){return 1\n;var a;if(a)f()}console.log(f())", `if(a)f()`, ""},
		{"the module's top level is left", `console.log(1);throw 0;if(0)var q`, `if(0)var q`, ""},
		{"the last statement is left", `function f(){return 1}console.log(f())`, `return 1}`, ""},
		// export { v } names v where no reference does.
		{"a var an export names", `a:{break a;var v=1}export{v};console.log("ok")`, `a:{break a;var v;}`, "v=1"},
		{"a tail in a tail", `function f(){return 1;{return 2;var a}}console.log(f())`, `return 1;}`, "return 2"},
	})
}
