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
		{"a toJSON of Object.prototype stays", h + `const a=1;var s=H({A:()=>a});Object.prototype.toJSON=function(){return typeof Object.getOwnPropertyDescriptor(this,"A")?.get};console.log(JSON.stringify(s))`, `A:()=>a`, ""},
		{"a toString of Object.prototype stays", h + `const a=1;var s=H({A:()=>a});Object.prototype.toString=function(){return typeof Object.getOwnPropertyDescriptor(this,"A")?.get};console.log(` + "`${s}`" + `)`, `A:()=>a`, ""},
		{"an iterator of Object.prototype stays", h + `const a=1;var s=H({A:()=>a});Object.prototype[Symbol.iterator]=function*(){yield typeof Object.getOwnPropertyDescriptor(this,"A")?.get};console.log([...s])`, `A:()=>a`, ""},
		{"a valueOf of Object.prototype stays", h + `const a=1;var s=H({A:()=>a});Object.prototype.valueOf=function(){console.log(typeof Object.getOwnPropertyDescriptor(this,"A")?.get);return 0};console.log(s==1)`, `A:()=>a`, ""},
		{"a getter with a body stays", h + `const a=1;var s=H({a:()=>{return a}});` + show, `return a`, ""},
		{"__proto__ stays", h + `const a={q:1};var s=H({__proto__:()=>a});` + show, `__proto__:()=>a`, ""},
		{"another helper stays", `var D=Object.defineProperty,H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o]});return n};const a=1;var s=H({a:()=>a});` + show, `a:()=>a`, ""},
		{"a statement's start stays", h + `const a=1;H({a:()=>a}).a;var s={};` + show, `H({a:()=>a})`, ""},
		{"a direct eval stays", h + `const a=1;var s=H({a:()=>a});eval("1");` + show, `a:()=>a`, ""},
		{"atk for-of head", h + `let a=1;var s=H({a:()=>a});for(a of[2]);` + show, `a:()=>a`, ""},
		{"atk for-in var head", h + `var a=1,s=H({a:()=>a});for(var a in{q:1});` + show, `a:()=>a`, ""},
		{"atk for-of var head", h + `var a=1,s=H({a:()=>a});for(var a of[9]);` + show, `a:()=>a`, ""},
		{"atk array destructuring", h + `let a=1;var s=H({a:()=>a});[a]=[2];` + show, `a:()=>a`, ""},
		{"atk object destructuring", h + `let a=1;var s=H({a:()=>a});({q:a}={q:2});` + show, `a:()=>a`, ""},
		{"atk for-of destructuring", h + `let a=1;var s=H({a:()=>a});for([a] of[[2]]);` + show, `a:()=>a`, ""},
		{"atk compound", h + `let a=1;var s=H({a:()=>a});a+=1;` + show, `a:()=>a`, ""},
		{"atk logical assign", h + `let a=0;var s=H({a:()=>a});a||=5;` + show, `a:()=>a`, ""},
		{"atk closure writes", h + `let a=1;function w(){a=2}var s=H({a:()=>a});w();` + show, `a:()=>a`, ""},
		{"atk hoisted function redeclared", h + `function f(){return 1}var s=H({f:()=>f});function f(){return 2}console.log(s.f());` + show, `s=`, ""},
		{"atk helper redeclared", `var D=Object.defineProperty;function H(e,t){let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n}function H(e){return{own:1}}const a=1;var s=H({a:()=>a});` + show, `s=`, ""},
		{"atk Object shadowed in block", `{const Object={defineProperty:(o,k,d)=>{o[k]=42}};var D=Object.defineProperty}var H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n};const a=1;var s=H({a:()=>a});` + show, `a:()=>a`, ""},
		{"atk D assigned global Object", h + `const a=1;var s=H({a:()=>a});` + show, `s=`, ""},
		{"atk write through namespace", h + `const a=1;var s=H({a:()=>a});try{s.a=2;console.log("wrote")}catch(e){console.log(e.name)}` + show, `a:()=>a`, ""},
		{"atk delete through namespace", h + `const a=1;var s=H({a:()=>a});try{delete s.a;console.log("deleted")}catch(e){console.log(e.name)}` + show, `a:()=>a`, ""},
		{"atk descriptor", h + `const a=1;var s=H({a:()=>a});console.log(JSON.stringify(Object.getOwnPropertyDescriptor(s,"a")),typeof Object.getOwnPropertyDescriptor(s,"a").get);` + show, `a:()=>a`, ""},
		{"atk static block reads", h + `const a=1;var s=H({a:()=>a}),K=class{static{console.log(s.a)}};` + show, `s=`, ""},
		{"atk class expr instance field", h + `var K=class{s=H({a:()=>a})};const a=1;var s=new K().s;` + show, `s=`, ""},
		{"atk class static field self", h + `var K=class C{static s=H({C:()=>C})};var s=K.s;console.log(s.C===K);` + show, `s=`, ""},
		{"atk label", h + `const a=1;l:var s=H({a:()=>a});` + show, `s=`, ""},
		{"atk generator", h + `function*g(){const a=yield;var s=H({a:()=>a});yield s}var it=g();it.next();var s=it.next(3).value;` + show, `s=`, ""},
		{"atk two calls share", h + `const a={};var s=H({a:()=>a}),u=H({b:()=>a});console.log(s.a===u.b);` + show, `s=`, ""},
		{"atk var in block at top redeclares", h + `var a=1,s=H({a:()=>a});{var a=2}` + show, `a:()=>a`, ""},
		{"atk catch var", h + `var a=1,s=H({a:()=>a});try{throw 2}catch(a){var a=3}` + show, `s=`, ""},
		{"atk function param same name", h + `function g(a){var a=a+1,s=H({a:()=>a});a--;return s}var s=g(1);` + show, `a:()=>a`, ""},
		{"atk if without block", h + `const a=1;if(1)var s=H({a:()=>a});` + show, `s=`, ""},
		{"atk comma leftmost var", h + `const a=1;var s;s=H({a:()=>a}),0;` + show, `s=`, ""},
		{"atk helper in optional call", h + `const a=1;var s=(0,H)({a:()=>a});` + show, `s=`, ""},
		{"atk export let written", h + `export let a=1;var s=H({a:()=>a});export function w(){a=2}w();` + show, `a:()=>a`, ""},
		{"atk import binding", h + `import*as fs from"node:fs";var s=H({a:()=>fs});console.log(typeof s.a);`, `s=`, ""},
		{"atk helper var after the call", `const a=1;var s;try{s=H({a:()=>a})}catch(e){console.log(e.name);s={}}var D=Object.defineProperty,H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n};` + show, `a:()=>a`, ""},
		{"atk helper var after, top statement", `const a=1;var s=H({a:()=>a});var D=Object.defineProperty,H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n};` + show, `a:()=>a`, ""},
		{"atk define var after the call", `function H(e,t){let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n}const a=1;var s=H({a:()=>a});var D=Object.defineProperty;` + show, `a:()=>a`, ""},
		{"atk define const after the call", `function H(e,t){let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n}const a=1;var s=H({a:()=>a});const D=Object.defineProperty;` + show, `a:()=>a`, ""},
		{"atk function then var helper", `var D=Object.defineProperty;function H(e){return{own:1}}const a=1;var s=H({a:()=>a});var H=(e,t)=>{let n={};for(var o in e)D(n,o,{get:e[o],enumerable:!0});return n};` + show, `s=`, ""},
		{"atk hoisted fn redeclared in body", h + `function g(){function f(){return 1}var s=H({f:()=>f});function f(){return 2}return s}var s=g();console.log(s.f());` + show, `s=`, ""},
		{"atk Object.defineProperty patched", `Object.defineProperty=((d)=>(o,k,x)=>d(o,k,{value:"patched",enumerable:!0}))(Object.defineProperty);` + h + `const a=1;var s=H({a:()=>a});` + show, `a:()=>a`, ""},
		{"atk Object.prototype setter", `Object.defineProperty(Object.prototype,"a",{set(v){console.log("setter",v)},configurable:!0});` + h + `const a=1;var s=H({a:()=>a});` + show, `s=`, ""},
		{"atk frozen prototype", `Object.freeze(Object.prototype);` + h + `const a=1;var s=H({toString:()=>a});` + show, `s=`, ""},
		// Where the object goes (namespaceuses.go): read only, or it stays a getter's.
		{"Object a class extends", `let P=globalThis.none??Object;class K extends P{}` + h + `const a=1;var s=H({a:()=>a});console.log(new K() instanceof Object);` + show, `s={a:a}`, "()=>"},
		{"a returned object a call reads", h + `function g(){const a=1;var s=H({a:()=>a});return s}var s=g();console.log(s.a,"a"in s);` + show, `s={a:a}`, "()=>"},
		{"an alias of Object written through stays", `let P=globalThis.none??Object;P["define"+"Property"]=(o,k,d)=>{o[k]="patched"};` + h + `const a=1;var s=H({a:()=>a});` + show, `a:()=>a`, ""},
		{"a function that returns it, handed on, stays", h + `function g(){const a=1;var s=H({a:()=>a});return s}var k=g;var s=k();try{s.a=2;console.log("wrote")}catch(e){console.log(e.name)}` + show, `a:()=>a`, ""},
		{"an array handed on stays", h + `var r=[];{const a=1;r.push(H({a:()=>a}))}r.forEach(s=>{try{s.a=2;console.log("wrote")}catch(e){console.log(e.name)}});var s=r[0];` + show, `a:()=>a`, ""},
		{"an array a parameter names stays", h + `function k(r){const a=1;r.push(H({a:()=>a}))}var q=[];k(q);var s=q[0];try{s.a=2;console.log("wrote")}catch(e){console.log(e.name)}` + show, `a:()=>a`, ""},
		{"a method that writes this stays", h + `function f(){try{this.f=1;return"wrote"}catch(e){return e.name}}var s=H({f:()=>f});console.log(s.f());` + show, `f:()=>f`, ""},
		{"a replacer given it as this stays", h + `const a={};var s=H({a:()=>a});console.log(JSON.stringify(s,function(k,v){if(k==="a")try{this.a=2}catch(e){return e.name}return v}));` + show, `a:()=>a`, ""},
		{"handed to a function stays", h + `const a=1;var s=H({a:()=>a});function w(o){try{o.a=2;console.log("wrote")}catch(e){console.log(e.name)}}w(s);` + show, `a:()=>a`, ""},
	})
}
