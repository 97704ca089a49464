package pipeline

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// errLine is the line of node's stderr (or of what a module threw) that names the error.
var errLine = regexp.MustCompile(`(?m)^\w*Error: .*$`)

// nodeModuleRunner returns a function that runs an ES module as `node module.mjs` does and
// gives what it printed, and "threw" and the error's line when it threw. One Node process runs
// the table's modules (testdata/noderunner.mjs), each in a realm of its own (a vm context: its
// own global object and built-ins), where a process for each took 0.16 s of CPU a module
// (TestNodeModuleRunnerAsNode holds the two the same).
func nodeModuleRunner(t *testing.T) func(name, code string) string {
	t.Helper()
	node := nodePath(t)
	runner, err := filepath.Abs(filepath.Join("testdata", "noderunner.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--experimental-vm-modules", "--no-warnings", runner)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", runner, err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	out := bufio.NewReader(outPipe)
	enc := json.NewEncoder(in)
	var mu sync.Mutex
	return func(name, code string) string {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if err := enc.Encode(code); err != nil {
			t.Fatalf("run %s in %s: %v (its stderr: %s)", name, runner, err, stderr.String())
		}
		line, err := out.ReadBytes('\n')
		if err != nil && err != io.EOF || len(line) == 0 {
			t.Fatalf("run %s in %s: %v (its stderr: %s)", name, runner, err, stderr.String())
		}
		var a struct {
			Out, Err, Harness string
			Threw             bool
		}
		if err := json.Unmarshal(line, &a); err != nil {
			t.Fatalf("run %s in %s: %v: %s", name, runner, err, line)
		}
		if a.Harness != "" {
			t.Fatalf("run %s: %s", name, a.Harness)
		}
		if a.Threw {
			return a.Out + "threw " + errLine.FindString(a.Err)
		}
		return a.Out
	}
}

// nodeProcessRunner is nodeModuleRunner's reference: node runs each module as a file of its
// own, in a process of its own.
func nodeProcessRunner(t *testing.T) func(name, code string) string {
	t.Helper()
	node := nodePath(t)
	dir := t.TempDir()
	return func(name, code string) string {
		t.Helper()
		file := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".mjs")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, file).Output()
		if err != nil {
			stderr := ""
			if e, ok := err.(*exec.ExitError); ok {
				stderr = string(e.Stderr)
			}
			return string(out) + "threw " + errLine.FindString(stderr)
		}
		return string(out)
	}
}

func nodePath(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Node.js is needed (scripts/test installs it): %v", err)
	}
	return node
}

// TestNodeModuleRunnerAsNode runs modules in nodeModuleRunner and each in a node process of
// its own: both give the same, for what the pass tests' modules do (print values, throw, write
// globals, eval, import Node's modules) and what ends a process (an uncaught exception in a
// timer or a microtask, an unhandled rejection, a top-level await never settled, timers after
// the evaluation, a syntax error). A module a row runs after another sees none of its globals.
func TestNodeModuleRunnerAsNode(t *testing.T) {
	vm, proc := nodeModuleRunner(t), nodeProcessRunner(t)
	for _, row := range []struct{ name, src string }{
		{"prints", `console.log(1,"a",{b:[2,{c:null}]},[undefined,1n],new Map([[1,2]]),class A{},function f(){},Symbol("s"))`},
		{"a global written", `globalThis.leak=1;console.log(typeof globalThis.leak)`},
		{"no global of the module before", `console.log(typeof globalThis.leak, typeof leak)`},
		{"an accessor on the global", `Object.defineProperty(globalThis,"y",{get(){return 5},set(v){console.log("set",v)},configurable:true});y=y||1;console.log(y)`},
		{"throws an Error", `console.log("before");null.x`},
		{"throws a TypeError's subclass", `class MyError extends TypeError{};throw new MyError("mine")`},
		{"throws a value", `console.log(1);throw 0`},
		{"a syntax error", `console.log(1);let a=;`},
		{"a const assigned", `const a=1;try{a=2}catch(e){console.log(e.name,e.constructor.name,e instanceof TypeError)}`},
		{"eval", `var v=1;function f(){return eval("v+1")}console.log(f(),(0,eval)("typeof v"))`},
		{"imports node:process", `import{argv as a}from"node:process";import*as fs from"fs";console.log(a.length>0,typeof fs.readFileSync)`},
		{"imports a data: URL", `import{E as Error}from"data:text/javascript,export class E{constructor(m){this.m=m}}";console.log(new Error("x").m)`},
		{"a data: URL imported twice", "import{n}from\"data:text/javascript,export let n=globalThis.n=(globalThis.n||0)+1\";const m=await import(\"data:text/javascript,export let n=globalThis.n=(globalThis.n||0)+1\");console.log(n,m.n,globalThis.n)"},
		{"a data: URL's query, base64, UTF-8", "import{a}from\"data:text/javascript,export const a=1?2:3\";console.log(a)"},
		{"a data: URL in base64, UTF-8", "import{s}from\"data:text/javascript;charset=utf-8;base64,ZXhwb3J0IGNvbnN0IHM9IsOpIg==\";import{t}from\"data:application/javascript,export%20const%20t=%22%C3%A9%22\";console.log(s,t,s===t)"},
		{"a dynamic import", `const {sep}=await import("node:path");console.log(sep)`},
		{"timers in order", `setTimeout(()=>console.log("t1"),0);setTimeout(()=>console.log("t2"),0);queueMicrotask(()=>console.log("m"));Promise.resolve().then(()=>console.log("p"));console.log("sync")`},
		{"an immediate", `setImmediate(()=>{console.log("i");setImmediate(()=>console.log("j"))})`},
		{"a timer cleared", `const t=setTimeout(()=>console.log("never"),1);clearTimeout(t);const i=setInterval(()=>{console.log("tick");clearInterval(i)},1)`},
		{"throws in a timer", `setTimeout(()=>{console.log("in");throw new RangeError("late")},1);setTimeout(()=>console.log("never"),50)`},
		{"throws in a microtask", `queueMicrotask(()=>{throw new SyntaxError("micro")});setTimeout(()=>console.log("never"),1)`},
		{"an unhandled rejection", `Promise.reject(new Error("rejected"));setTimeout(()=>console.log("never"),1)`},
		{"a rejection of a value", `Promise.reject(7)`},
		{"a rejection handled late", `const p=Promise.reject(new Error("x"));setTimeout(()=>p.catch(()=>console.log("caught")),1)`},
		{"top-level await", `await new Promise(r=>setTimeout(r,1));console.log("after")`},
		{"top-level await never settled", `console.log("start");await new Promise(()=>{})`},
		{"top-level await throws", `await 0;throw new EvalError("tla")`},
		{"exports", `export const a=1;export default function(){};console.log("exported")`},
		{"strict", `console.log(this,(function(){return this})())`},
	} {
		t.Run(row.name, func(t *testing.T) {
			if got, want := vm("m", row.src), proc("m", row.src); got != want {
				t.Errorf("nodeModuleRunner gave %q, node %q", got, want)
			}
		})
	}
}
