package pipeline

import (
	"testing"
)

// TestFalseIfs runs each module in Node as written and with its ifs whose test is always
// false rewritten (falseIfs' edits): both print the same, and the module after holds what it
// should (want) and not what it should not (not).
func TestFalseIfs(t *testing.T) {
	testPass(t, falseIfs, []passRow{
		{"a var nothing else names", `function f(){if(0)var i;return 1}console.log(f())`, `function f(){return 1}`, "var"},
		{"a var named before", `function f(){i=2;if(0)var i;return i}console.log(f(),typeof globalThis.i)`, `i=2;var i;return i`, "if"},
		{"a var a closure reads", `function f(){let g=()=>a;if(0)var a;try{return g()}catch(e){return e.name}}console.log(f())`, `let g=()=>a;var a;try`, "if"},
		{"the test's expressions", `let y=0;function f(e){if(y=e,0)var o;return y}console.log(f(5),y)`, `function f(e){y=e;return y}`, "var o"},
		{"a block", `let w=0;function g(){w++}function f(){if(0){g();var a}return w}console.log(f())`, `function f(){return w}`, "g()}"},
		{"a block with its own names", `function f(){if(0){let a=1;var b=a}return typeof b}console.log(f())`, `function f(){var b;return typeof b}`, "let"},
		{"a for loop", `function f(e){if(e.t=1,0)for(var a of e.d);return e.t}console.log(f({d:[1]}))`, `function f(e){e.t=1;return e.t}`, "for"},
		{"the last of a block", `function f(){if(0)var a}console.log(f())`, `function f(){}`, "var"},
		{"two in a row", `function f(){if(0)var a;if(0){var b}return 3}console.log(f())`, `function f(){return 3}`, "var"},
		{"a case", `function f(k){switch(k){case 1:if(0)var a;return 1}return 0}console.log(f(1),f(2))`, `case 1:return 1`, "var"},
		// Written as a statement, {}[k]=f() would be a block and a destructuring [k]=f().
		{"an expression that starts with {", `let k="key";function f(){return["changed"]}function g(){if({}[k]=f(),0)var v=1;return v}g();console.log(k)`, `({}[k]=f());`, ""},
		{"an expression that starts with function", `let n=0;function g(){if(function(){n++}(),0)var v;return n}console.log(g())`, `(function(){n++}());`, ""},
		{"an else is left", `function f(){if(0)var a;else return 2;return 1}console.log(f())`, `if(0)var a;else`, ""},
		{"the body of another statement is left", `function f(){if(1)if(0)var a;return 1}console.log(f())`, `if(0)var a`, ""},
		{"a true test is left", `function f(){if(1)var a=2;return a}console.log(f())`, `if(1)var a=2`, ""},
		{"a call's body is left", `function f(){if(0)g();return 1}function g(){}console.log(f())`, `if(0)g()`, ""},
	})
}
