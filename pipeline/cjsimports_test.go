package pipeline

import "testing"

// TestCJSImports runs each module in Node as written and with its CommonJS imports read by key
// written as the require call alone (cjsImports' edits): both print the same, and the module
// after holds what it should (want) and not what it should not (not).
func TestCJSImports(t *testing.T) {
	// esbuild's runtime helpers, as the pass reads them in React's example.
	const h = `var Fs=Object.create,er=Object.defineProperty,Us=Object.getOwnPropertyDescriptor,tr=Object.getOwnPropertyNames,Hs=Object.getPrototypeOf,Vs=Object.prototype.hasOwnProperty,` +
		`F=(a,i)=>function(){try{return i||(0,a[tr(a)[0]])((i={exports:{}}).exports,i),i.exports}catch(r){throw i=0,r}},` +
		`Bs=(a,i,r,s)=>{if(i&&typeof i=="object"||typeof i=="function")for(let c of tr(i))!Vs.call(a,c)&&c!==r&&er(a,c,{get:()=>i[c],enumerable:!(s=Us(i,c))||s.enumerable});return a},` +
		`kt=(a,i,r)=>(r=a!=null?Fs(Hs(a)):{},Bs(i||!a||!a.__esModule?er(r,"default",{value:a,enumerable:!0}):r,a));`
	// A module as react's production build writes its exports, and one that sets module.exports
	// to it as react's index.js does.
	const react = `var Js=F({""(e){var t=1;function n(){return this===void 0?"none":"this"}e.useState=n,e.version="19",e.count=()=>t++}}),xt=F({""(e,t){t.exports=Js()}});`
	const show = `console.log((0,Me.useState)(),(0,Me.version),(0,Me.count)(),(0,Me.count)());`
	testPass(t, cjsImports, []passRow{
		{"read by key", h + react + `var Me=kt(Js(),1);` + show, `Me=Js()`, "kt(Js"},
		{"through module.exports", h + react + `var Me=kt(xt(),1);` + show, `Me=xt()`, "kt(xt"},
		{"without node mode", h + react + `var Me=kt(xt());` + show, `Me=xt()`, "kt(xt"},
		{"a key the module has not", h + react + `var Me=kt(Js(),1);console.log(typeof (0,Me.toString),(0,Me.other));`, `Me=kt(Js(),1)`, ""},
		{"a method call stays (this)", h + react + `var Me=kt(Js(),1);console.log(Me.useState());`, `Me=kt(Js(),1)`, ""},
		{"default stays", h + react + `var Me=kt(Js(),1);console.log(typeof (0,Me.default),(0,Me.version));`, `Me=kt(Js(),1)`, ""},
		{"the object read stays", h + react + `var Me=kt(Js(),1);console.log(Object.keys(Me).join(),(0,Me.version));`, `Me=kt(Js(),1)`, ""},
		{"a write through it stays", h + react + `var Me=kt(Js(),1);try{Me.version=2}catch(e){console.log(e.name)}console.log((0,Me.version));`, `Me=kt(Js(),1)`, ""},
		{"a key written later stays", h + `var Js=F({""(e){e.a=1,globalThis.later=()=>{e.b=2}}});var Me=kt(Js(),1);later();console.log((0,Me.a),(0,Me.b));`, `Me=kt(Js(),1)`, ""},
		{"a key written in a branch stays", h + `var Js=F({""(e){if(globalThis.x)e.b=2;e.a=1}});var Me=kt(Js(),1);console.log((0,Me.a),(0,Me.b));`, `Me=kt(Js(),1)`, ""},
		{"a return before stays", h + `var Js=F({""(e){e.a=1;if(!globalThis.x)return;e.b=2}});var Me=kt(Js(),1);console.log((0,Me.a),(0,Me.b));`, `Me=kt(Js(),1)`, ""},
		{"module.exports written twice stays", h + react + `var Ys=F({""(e,t){t.exports=Js(),t.exports={other:1}}});var Me=kt(Ys(),1);console.log((0,Me.other));`, `Me=kt(Ys(),1)`, ""},
		{"module.exports an object stays", h + `var Js=F({""(e,t){t.exports={a:1}}});var Me=kt(Js(),1);console.log((0,Me.a));`, `Me=kt(Js(),1)`, ""},
		{"exports written stays", h + `var Js=F({""(e){e.a=1,e={}}});var Me=kt(Js(),1);console.log((0,Me.a));`, `Me=kt(Js(),1)`, ""},
		{"the binding written stays", h + react + `var Me=kt(Js(),1);Me={version:3};console.log((0,Me.version));`, `Me=kt(Js(),1)`, ""},
		{"another helper stays", h + react + `var K=(a,i,r)=>(r=a!=null?Fs(Hs(a)):{},Bs(er(r,"default",{value:a,enumerable:!0}),a,"version"));var Me=K(Js(),1);console.log((0,Me.version));`, `Me=K(Js(),1)`, ""},
		{"Object.defineProperty written stays", h + react + `Object.defineProperty=(o,k,d)=>(o[k]=d.get?"patched":d.value,o);var Me=kt(Js(),1);` + show, `Me=kt(Js(),1)`, ""},
		{"a helper declared after stays", react + `var Me;try{Me=kt(Js(),1)}catch(e){console.log(e.name)}` + h + `console.log(typeof Me);`, `kt(Js(),1)`, ""},
	})
}
