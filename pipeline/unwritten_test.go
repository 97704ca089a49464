package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/testnode"
	"github.com/miniapp/bundle/pipeline/internal/localnames"
)

// unwrittenRows are ES modules as esbuild minifies them, each with the bindings
// inlineUnwritten writes as their values (none: the module stays as written).
var unwrittenRows = []struct {
	name, src string
	inlined   []string
}{
	// Written as values.
	{"flag read in functions", `var q=!1;function f(){return q?"hydrating":"not"}console.log(f())`, []string{"q"}},
	{"let read after", `let q=!1;console.log(q)`, []string{"q"}},
	{"shorthand property", `var q=!1;function f(){return{q}}console.log(JSON.stringify(f()))`, []string{"q"}},
	{"later declarator of the same statement", `var c=void 0,o={context:c};console.log(o.context)`, []string{"c"}},
	{"function made after the declaration", `[1].forEach(()=>0);var q=!1;var g=()=>q;console.log(g())`, []string{"q"}},
	{"a function called before names no reader", `function h(){return 1}h();var q=!1;function f(){return q}console.log(f())`, []string{"q"}},
	{"an alias stored, not called", `var g=f;var q=null;function f(){return q}console.log(g())`, []string{"q"}},
	{"await inside a function", `var a=async()=>{await 0;return f()};var q=!1;function f(){return q}a().then(console.log)`, []string{"q"}},
	{"short numbers, null, undefined", `var a=8,b=null,c,d=-1;function f(){return[a,b,c,d]}console.log(f())`, []string{"a", "b", "c", "d"}},
	{"a block function read as strict code reads it", `var q=!1;function h(t){return function(){{function t(){}}return typeof t}}console.log(h(1)(),q)`, []string{"q"}},

	// Left as written: a read may run before the declaration, or the binding is written.
	{"called before (var reads undefined)", `function f(){return q}console.log(f());var q=!1;console.log(f())`, nil},
	{"called before (let throws)", `function f(){return q}console.log(f());let q=!1;console.log(f())`, nil},
	{"called before through an alias", `function f(){return q}var g=f;g();var q=!1;console.log(g())`, nil},
	{"a closure given to a built-in before", `[1].forEach(()=>console.log(q));var q=!1;console.log(q)`, nil},
	{"a getter read before", `var o={get x(){return q}};console.log(o.x);var q=!1;console.log(o.x)`, nil},
	{"a class's static block before", `class C{static{console.log(f())}}var q=!1;function f(){return q}console.log(f())`, nil},
	{"an earlier declarator calls it", `var a=f(),q=!1;function f(){return q}console.log(a,f())`, nil},
	{"an earlier declarator reads it", `var a=q,q=!1;console.log(a,q)`, nil},
	{"awaited before", `function f(){return q}globalThis.f=f;await 0;var q=!1;console.log(f())`, nil},
	{"a static block calls through this before", `class C{static{console.log(this.m())}static m(){return q}}var q=!1;console.log(C.m())`, nil},
	{"a static block calls through this before (let throws)", `class C{static{console.log(this.m())}static m(){return q}}let q=!1;console.log(C.m())`, nil},
	{"a static field calls through this before", `var C=class{static x=this.m();static m(){return q}};var q=!1;console.log(C.x,C.m())`, nil},
	{"a static block gives this away before", `class C{static{globalThis.K=this}m(){return q}}console.log(new K().m());var q=!1;console.log(new K().m())`, nil},
	{"a static block calls through super before", `class B{static r(){return this.m()}}class C extends B{static{console.log(super.r())}static m(){return q}}var q=!1;console.log(C.m())`, nil},
	{"a static block calls through the class's own name before", `var D=class C{static{console.log(C.m())}static m(){return q}};var q=!1;console.log(D.m())`, nil},
	{"a static field calls through the class's own name before", `var D=class C{static x=C.m();static m(){return q}};var q=!1;console.log(D.x,D.m())`, nil},
	{"a static block gives the class's own name away before", `var D=class C{static{globalThis.K=C}m(){return q}};console.log(new K().m());var q=!1;console.log(new K().m())`, nil},
	{"a static block's this after the declaration", `var q=!1;class C{static{console.log(this.m())}static m(){return q}}console.log(C.m())`, []string{"q"}},
	{"decides an anonymous function given a name", `var q=void 0;var f=q||function(){};console.log(JSON.stringify(f.name))`, nil},
	{"decides an anonymous class or arrow given a name", `var q=null,r=!1;var C=q??class{},o={m:r?0:()=>1};console.log(JSON.stringify([C.name,o.m.name]))`, nil},
	{"a var declared again after holds a function made before", `var g=()=>q;console.log(g());var q=!1;var g=5;console.log(q,g)`, nil},
	{"a var declared again after holds a class made before", `var C=class{m(){return q}};console.log(new C().m());var q=!1;var C;console.log(new C().m())`, nil},
	{"a var declared again holds a function made after", `var g;var q=!1;var g=()=>q;console.log(g())`, []string{"q"}},
	{"read before an anonymous function given a name", `var q=!1;function g(){var f=(q,function(){}),C=(q?1:2,class{});return[f.name,C.name]}console.log(JSON.stringify(g()))`, nil},
	{"written in a function", `var q=!1;function s(){q=!0}s();console.log(q)`, nil},
	{"updated", `var n=0;function s(){n++}s();console.log(n)`, nil},
	{"written by a pattern", `var q=!1;function s(){[q]=[!0]}s();console.log(q)`, nil},
	{"written by a for-of", `var q=!1;for(q of[!0]);console.log(q)`, nil},
	{"declared twice", `var q=!1;var q=!0;console.log(q)`, nil},
	{"exported", `var q=!1;function f(){return q}console.log(f());export{q as flag}`, nil},
	{"exported by a module that imports", `import{argv as a}from"node:process";var q=!1;function f(){return q}console.log(f(),a.length>0);export{f}`, nil},
	{"a direct eval", `var q=!1;function f(){return eval("q")}console.log(f())`, nil},
	{"a class expression of the name", `var q=!1;var C=class q{m(){return q}};console.log(new C().m()===C,q)`, nil},
	{"a block function of the name in a function", `var q=!1;function g(){{function q(){}}return typeof q}console.log(g(),q)`, nil},
	{"a class expression of the name in a function", `var q=!1;function g(){var C=class q{static t=typeof q};return C.t}console.log(g(),q)`, nil},
	{"a name written with escapes", `var q=!1;function f(){return \u0071}console.log(f())`, nil},
	{"a long number, a string", `var n=123456,s="text";function f(){return n+s}console.log(f())`, nil},
}

// TestUnwritten checks which bindings are written as values, and runs each module in Node as
// written and after the pass (written as values and minified again): both print the same,
// and throw the same.
func TestUnwritten(t *testing.T) {
	run := nodeModuleRunner(t)
	opts := api.BuildOptions{Target: api.ES2022}
	for _, row := range unwrittenRows {
		t.Run(row.name, func(t *testing.T) {
			var inlined []string
			for _, e := range localnames.Substitute(row.src, unwrittenConstants) {
				name, _, _ := strings.Cut(row.src[e.Start:e.End], ":")
				if !slices.Contains(inlined, name) {
					inlined = append(inlined, name)
				}
			}
			slices.Sort(inlined)
			if !slices.Equal(inlined, row.inlined) {
				t.Errorf("written as values: %q, want %q", inlined, row.inlined)
			}
			after := inlineUnwritten(code{js: row.src, known: true}, opts)
			if (row.inlined == nil) != (after.js == row.src) {
				t.Errorf("the pass gave %q", after.js)
			}
			if a, b := run("before", row.src), run("after", after.js); a != b {
				t.Errorf("as written: %q; after the pass: %q\n%s", a, b, after.js)
			}
		})
	}
}

// passRow is a module for a pass that edits a minified print: the pass's print holds want
// and not not, and runs as the module as written does.
type passRow struct{ name, src, want, not string }

// testPass runs each row's module in Node as written and with pass's edits applied: both
// print the same, and the module after holds what it should (want) and not what it should
// not (not).
func testPass(t *testing.T, pass func(*minifiedPrint) []localnames.Edit, rows []passRow) {
	t.Helper()
	run := nodeModuleRunner(t)
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			after := localnames.Apply(row.src, pass(newMinifiedPrint(localnames.Parse(row.src), row.src)))
			if !strings.Contains(after, row.want) || row.not != "" && strings.Contains(after, row.not) {
				t.Errorf("after the pass (want %q, not %q):\n%s", row.want, row.not, after)
			}
			if a, b := run("before", row.src), run("after", after); a != b {
				t.Errorf("as written: %q; after the pass: %q\n%s", a, b, after)
			}
		})
	}
}

// nodeModuleRunner returns a function that runs an ES module as `node module.mjs` does and
// gives what it printed, and "threw" and the error's line when it threw: one Node process runs
// the table's modules, each in a realm of its own (internal/testnode).
func nodeModuleRunner(t *testing.T) func(name, code string) string {
	t.Helper()
	node := testnode.Start(t)
	return func(name, code string) string {
		t.Helper()
		r := node.Run(t, code)
		if r.Threw {
			return r.Out + "threw " + r.ErrLine()
		}
		return r.Out
	}
}

// TestUnwrittenFolds shows what the pass is for: the branches a flag guards and what only they
// call are gone from the module.
func TestUnwrittenFolds(t *testing.T) {
	src := `var h=!1;function hydrate(){return"hydration-only-text"}function mount(e){if(h)return hydrate();return e}console.log(mount(1));export{mount}`
	got := inlineUnwritten(code{js: src, known: true}, api.BuildOptions{Target: api.ES2022})
	if strings.Contains(got.js, "hydration-only-text") || got.known {
		t.Errorf("the flag's branch is still there (known %v):\n%s", got.known, got.js)
	}
}

// TestUnwrittenMap: after the pass, the code left maps to the source place it mapped to before
// (the strings END1, END2 after a folded branch, on lines minified whole or not).
func TestUnwrittenMap(t *testing.T) {
	src := "let hydrating = false;\nexport function mount(e) {\n  if (hydrating) { return e + \"unused\"; }\n  return [e, \"END1\"];\n}\n" +
		"export function unmount(e) {\n  const s = \"é😀\";\n  return hydrating ? s : e + \"END2\";\n}\n"
	for _, whole := range []bool{true, false} {
		before := withMap(t, src, api.TransformOptions{MinifyWhitespace: whole, MinifySyntax: true})
		after := inlineUnwritten(before, api.BuildOptions{})
		if strings.Contains(after.js, "unused") {
			t.Fatalf("the branch is kept:\n%s", after.js)
		}
		sameSources(t, fmt.Sprintf("whole line %v", whole), before, after, placesOf(before.js, after.js, `"END1"`, `"END2"`))
	}
}
