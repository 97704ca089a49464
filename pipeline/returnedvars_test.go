package pipeline

import "testing"

// TestReturnedVars runs each module in Node as written and with its variables returned at once
// written as returns (returnedAtOnce's edits): both print the same, and the module after holds
// what it should (want) and not what it should not (not).
func TestReturnedVars(t *testing.T) {
	testPass(t, returnedAtOnce, []passRow{
		// Svelte's source(), its dev branch folded.
		{"a var", `function f(e){var n={f:0,v:e};return n}console.log(f(1).v)`, `function f(e){return {f:0,v:e}}`, "var"},
		{"a let", `function f(e){let o=e*2;return o}console.log(f(2))`, `{return e*2}`, "let"},
		{"a case clause", `function f(k){switch(k){case 1:var a=k+1;return a}return 0}console.log(f(1),f(2))`, `case 1:return k+1}`, "var"},
		{"before the end of a block", `function f(k){if(k){var a=k+1;return a;}return 0}console.log(f(1),f(0))`, `{return k+1;}`, "var"},
		{"named elsewhere too is left", `function f(){let g=()=>n;var n=1;return n}console.log(f())`, `var n=1;return n`, ""},
		{"a parameter's name is left", `function f(n){var n=n+1;return n}console.log(f(1))`, `var n=n+1;return n`, ""},
		{"two names are left", `function f(){var a=1,b=2;return a+b}console.log(f())`, `var a=1,b=2`, ""},
		{"another name returned is left", `let b=3;function f(){var a=console.log("a");return b}console.log(f())`, `var a=`, ""},
		{"a direct eval is left", `function f(){var a=2;return a}console.log(f(),eval("1"))`, `var a=2;return a`, ""},
		// A declaration names an anonymous function or class (NamedEvaluation): x.name is "x".
		{"an anonymous function is left", `function f(){var x=function(){};return x}console.log(JSON.stringify(f().name))`, `var x=function(){};return x`, ""},
		{"an arrow in parentheses is left", `function f(){let x=(()=>1);return x}console.log(JSON.stringify(f().name))`, `let x=(()=>1);return x`, ""},
		{"an anonymous class is left", `function f(){const x=class{static n=this.name};return x}console.log(JSON.stringify(f().n))`, `return x`, ""},
		{"a named function", `function f(){var x=function g(){};return x}console.log(JSON.stringify(f().name))`, `{return function g(){}}`, "var"},
		// A line break after = (in a comment too) would end the return (ASI).
		{"a line break after = is left", "function f(){var x=\n1;return x}console.log(f())", "return x", ""},
		{"a line comment after = is left", "function f(){var x=//c\n1;return x}console.log(f())", "return x", ""},
		{"a legal comment over a line is left", "function f(){var x=/*! legal */\n1;return x}console.log(f())", "return x", ""},
		{"U+2028 after = is left", "function f(){var x=\u20281;return x}console.log(f())", "return x", ""},
	})
}
