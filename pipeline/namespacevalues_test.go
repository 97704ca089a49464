package pipeline

import "testing"

// TestNamespaceValues runs each module in Node as written and with its namespace objects
// written as values (namespaceValues' edits): both print the same, and the module after holds
// what it should (want) and not what it should not (not).
func TestNamespaceValues(t *testing.T) {
	// Rolldown's export helper, as the MCP SDK's prebuilt code carries it, minified.
	const h = `var D=Object.defineProperty,H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return t&&D(n,Symbol.toStringTag,{value:"Module"}),n};`
	const show = `console.log(Object.keys(s).join(),Object.getPrototypeOf(s)===Object.prototype,JSON.stringify(s));`
	testPass(t, namespaceValues, []passRow{
		// The MCP SDK's schemas, read by key.
		{"consts and vars", h + `const a={x:1};var b=2,s=H({A:()=>a,B:()=>b});for(const k in s)console.log(k,s[k]);` + show, `s={A:a,B:b}`, "()=>"},
		{"a function declaration", h + `var s=H({f:()=>f,"g-h":()=>f});function f(){return 3}console.log(s.f(),s["g-h"]());` + show, `s={f:f,"g-h":f}`, "()=>"},
		{"a class", h + `class C{static v=4}var s=H({C:()=>C});console.log(s.C.v);` + show, `s={C:C}`, "()=>"},
		{"an earlier name of its declaration", h + `let a=5,s=H({a:()=>a});` + show, `s={a:a}`, "()=>"},
		{"in a function's body", h + `function g(x){const a=x*2;var s=H({a:()=>a});return s}var s=g(3);` + show, `s={a:a}`, "()=>"},
		// a's initializer reads the namespace before it is made: the same either way.
		{"a cycle", h + `var t;const a=(()=>{try{return s.b}catch(e){return e.name}})(),b=6;const s=H({a:()=>a,b:()=>b});` + show, `s={a:a,b:b}`, "b:()=>"},
		{"a let written later stays", h + `let a=1;var s=H({a:()=>a});a=2;` + show, `a:()=>a`, ""},
		{"a var written by ++ stays", h + `var a=1,s=H({a:()=>a});a++;` + show, `a:()=>a`, ""},
		{"a binding declared after stays (TDZ)", h + `var s=H({a:()=>a});try{s.a}catch(e){console.log(e.name)}const a=7;` + show, `a:()=>a`, ""},
		{"a var declared twice stays", h + `var a=1,s=H({a:()=>a});var a=2;` + show, `a:()=>a`, ""},
		{"a function a later var writes stays", h + `var s=H({f:()=>f});function f(){}var f=8;` + show + `console.log(s.f)`, `f:()=>f`, ""},
		{"a var in a loop's block stays", h + `var r=[];for(const i of[1,2]){var a=i;r.push(H({a:()=>a}))}var s=r[0];` + show, `a:()=>a`, ""},
		{"a let in a loop's block", h + `var r=[];for(const i of[1,2]){let a=i;r.push(H({a:()=>a}))}var s=r[0];` + show + `console.log(r[1].a)`, `r.push({a:a})`, "()=>"},
		{"in a function stays", h + `const a=1;var g=()=>H({a:()=>a}),s=g();` + show, `a:()=>a`, ""},
		{"the toStringTag stays", h + `const a=1;var s=H({a:()=>a},!0);console.log(String(s));` + show, `a:()=>a`, ""},
		{"a getter with a body stays", h + `const a=1;var s=H({a:()=>{return a}});` + show, `return a`, ""},
		{"__proto__ stays", h + `const a={q:1};var s=H({__proto__:()=>a});` + show, `__proto__:()=>a`, ""},
		{"another helper stays", `var D=Object.defineProperty,H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o]});return n};const a=1;var s=H({a:()=>a});` + show, `a:()=>a`, ""},
		{"a statement's start stays", h + `const a=1;H({a:()=>a}).a;var s={};` + show, `H({a:()=>a})`, ""},
		{"a direct eval stays", h + `const a=1;var s=H({a:()=>a});eval("1");` + show, `a:()=>a`, ""},
	})
}
