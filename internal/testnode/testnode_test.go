package testnode

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRunnerAsNode runs modules in the Runner and each in a node process of its own: both
// print the same, throw or not, and name the same error, for what the tests' modules do
// (print values, throw, write globals, eval, import Node's modules and data: URLs) and what
// ends a process (an uncaught exception in a timer or a microtask, an unhandled rejection, a
// top-level await never settled, timers after the evaluation, a syntax error). A module run
// after another sees none of its globals.
func TestRunnerAsNode(t *testing.T) {
	node := Start(t)
	dir := t.TempDir()
	for _, row := range []struct {
		name, src string
		commonjs  bool
	}{
		{"prints", `console.log(1,"a",{b:[2,{c:null}]},[undefined,1n],new Map([[1,2]]),class A{},function f(){},Symbol("s"))`, false},
		{"a global written", `globalThis.leak=1;console.log(typeof globalThis.leak)`, false},
		{"no global of the module before", `console.log(typeof globalThis.leak, typeof leak)`, false},
		{"an accessor on the global", `Object.defineProperty(globalThis,"y",{get(){return 5},set(v){console.log("set",v)},configurable:true});y=y||1;console.log(y)`, false},
		{"throws an Error", `console.log("before");null.x`, false},
		{"throws a TypeError's subclass", `class MyError extends TypeError{};throw new MyError("mine")`, false},
		{"throws a value", `console.log(1);throw 0`, false},
		{"a syntax error", `console.log(1);let a=;`, false},
		{"a const assigned", `const a=1;try{a=2}catch(e){console.log(e.name,e.constructor.name,e instanceof TypeError)}`, false},
		{"eval", `var v=1;function f(){return eval("v+1")}console.log(f(),(0,eval)("typeof v"))`, false},
		{"imports node:process", `import{argv as a}from"node:process";import*as fs from"fs";console.log(a.length>0,typeof fs.readFileSync)`, false},
		{"imports a data: URL", `import{E as Error}from"data:text/javascript,export class E{constructor(m){this.m=m}}";console.log(new Error("x").m)`, false},
		{"a data: URL imported twice", "import{n}from\"data:text/javascript,export let n=globalThis.n=(globalThis.n||0)+1\";const m=await import(\"data:text/javascript,export let n=globalThis.n=(globalThis.n||0)+1\");console.log(n,m.n,globalThis.n)", false},
		{"a data: URL's query, base64, UTF-8", "import{a}from\"data:text/javascript,export const a=1?2:3\";console.log(a)", false},
		{"a data: URL in base64, UTF-8", "import{s}from\"data:text/javascript;charset=utf-8;base64,ZXhwb3J0IGNvbnN0IHM9IsOpIg==\";import{t}from\"data:application/javascript,export%20const%20t=%22%C3%A9%22\";console.log(s,t,s===t)", false},
		{"a dynamic import", `const {sep}=await import("node:path");console.log(sep)`, false},
		{"timers in order", `setTimeout(()=>console.log("t1"),0);setTimeout(()=>console.log("t2"),0);queueMicrotask(()=>console.log("m"));Promise.resolve().then(()=>console.log("p"));console.log("sync")`, false},
		{"an immediate", `setImmediate(()=>{console.log("i");setImmediate(()=>console.log("j"))})`, false},
		{"a timer cleared", `const t=setTimeout(()=>console.log("never"),1);clearTimeout(t);const i=setInterval(()=>{console.log("tick");clearInterval(i)},1)`, false},
		{"throws in a timer", `setTimeout(()=>{console.log("in");throw new RangeError("late")},1);setTimeout(()=>console.log("never"),50)`, false},
		{"throws in a microtask", `queueMicrotask(()=>{throw new SyntaxError("micro")});setTimeout(()=>console.log("never"),1)`, false},
		{"an unhandled rejection", `Promise.reject(new Error("rejected"));setTimeout(()=>console.log("never"),1)`, false},
		{"a rejection of a value", `Promise.reject(7)`, false},
		{"a rejection handled late", `const p=Promise.reject(new Error("x"));setTimeout(()=>p.catch(()=>console.log("caught")),1)`, false},
		{"top-level await", `await new Promise(r=>setTimeout(r,1));console.log("after")`, false},
		{"top-level await never settled", `console.log("start");await new Promise(()=>{})`, false},
		{"top-level await throws", `await 0;throw new EvalError("tla")`, false},
		{"exports", `export const a=1;export default function(){};console.log("exported")`, false},
		{"strict", `console.log(this,(function(){return this})())`, false},
		// CommonJS: sloppy mode, this the module's exports, the wrapper's parameters.
		{"a script's this and arguments", `function f(a){arguments[0]=5;return a}console.log(this===module.exports,f(1),typeof require,typeof __filename,typeof exports)`, true},
		{"a script's with and names", `var o={x:1};with(o){x=2}var let_=1;static_=3;console.log(o.x,typeof static_)`, true},
		{"a script requires", `const {sep}=require("node:path");const util=require("util");console.log(sep,typeof util.inspect)`, true},
		{"a script throws", `console.log(1);undefined()`, true},
		{"a script's timer throws", `setTimeout(()=>{throw new URIError("u")},1)`, true},
		{"a script's syntax error", `var a=;`, true},
		{"a script's global", `globalThis.leak=2;leaked=3;console.log(typeof leak,typeof leaked)`, true},
	} {
		t.Run(row.name, func(t *testing.T) {
			var got Result
			ext := ".mjs"
			if row.commonjs {
				got, ext = node.RunCommonJS(t, row.src), ".cjs"
			} else {
				got = node.Run(t, row.src)
			}
			file := filepath.Join(dir, "m"+ext)
			if err := os.WriteFile(file, []byte(row.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var want Result
			cmd := exec.Command(Node(t), file)
			out, err := cmd.Output()
			want.Out = string(out)
			if err != nil {
				var exit *exec.ExitError
				if !errors.As(err, &exit) {
					t.Fatal(err)
				}
				want.Threw, want.Err = true, string(exit.Stderr)
			}
			if got.Out != want.Out || got.Threw != want.Threw || got.ErrLine() != want.ErrLine() {
				t.Errorf("the runner gave %q, threw %v %q; node %q, threw %v %q", got.Out, got.Threw, got.ErrLine(), want.Out, want.Threw, want.ErrLine())
			}
		})
	}
}
