package localnames

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/testnode"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

var programCount = flag.Int("programs", 150, "how many generated programs TestRenameGenerated runs")

func TestRename(t *testing.T) {
	for _, row := range []struct{ name, src, want string }{
		{"locals from the first name, the top level kept",
			`function top(alpha,beta){let gamma=alpha+beta;return gamma*gamma}export{top};`,
			`function top(t,o){let e=t+o;return e*e}export{top};`},
		{"each function anew",
			`function f1(aa){return aa}function f2(bb,cc){return bb+cc}f1(f2(1,2));`,
			`function f1(f){return f}function f2(f,n){return f+n}f1(f2(1,2));`},
		{"shorthand property keeps its key",
			`function f(long){return{long,other:long}}f(1);`,
			`function f(n){return{long:n,other:n}}f(1);`},
		{"shorthand pattern keeps its key and default",
			`function f(o){let{aa,bb=aa}=o;return[aa,bb]}f({});`,
			`function f(f){let{aa:n,bb:t=n}=f;return[n,t]}f({});`},
		{"a free name inside is not taken",
			`function f(xx){return t+n+e+xx}f(1);`,
			`function f(f){return t+n+e+f}f(1);`},
		{"an outer local read inside is not taken",
			`function f(aa){return function(bb){return aa+bb}}f(1);`,
			`function f(n){return function(f){return n+f}}f(1);`},
		{"private names, labels and properties kept",
			`class K{#p=1;m(vv){x:for(;;){if(vv.p)break x;return this.#p+vv}}}new K;`,
			`class K{#p=1;m(r){x:for(;;){if(r.p)break x;return this.#p+r}}}new K;`},
		{"arrow bodies, regular expressions and templates",
			"const f=(ss,rr)=>/a\\/b/g.test(ss)?`${ss}/${rr}`:rr/2;f(1,2);",
			"const f=(t,$)=>/a\\/b/g.test(t)?`${t}/${$}`:$/2;f(1,2);"},
		{"a binding named as a class expression keeps its name",
			`function f(){let A=1;const B=class A{m(){return A}};return[A,new B().m()===B]}f();`,
			`function f(){let A=1;const n=class A{m(){return A}};return[A,new n().m()===n]}f();`},
		{"a function declared in a block keeps its name, and the outer bindings of that name theirs",
			`function h(){return"top"}function o(){let hh=1;function g(){{function hh(){return"block"}}return[h(),hh]}return g()}o();`,
			`function h(){return"top"}function o(){let hh=1;function n(){{function hh(){return"block"}}return[h(),hh]}return n()}o();`},
		{"catch, for-let, switch and blocks",
			`function f(aa){try{for(let ii=0;ii<aa;ii++){switch(ii){case 0:let cc=ii;return cc}}}catch(ee){return ee}{let bb=aa;return bb}}f(1);`,
			`function f(t){try{for(let r=0;r<t;r++){switch(r){case 0:let t=r;return t}}}catch(t){return t}{let r=t;return r}}f(1);`},
	} {
		t.Run(row.name, func(t *testing.T) {
			got := Apply(row.src, Rename(row.src))
			if got != row.want {
				t.Errorf("Rename:\n%s\ngave\n%s\nwant\n%s", row.src, got, row.want)
			}
			sameBindings(t, row.src, got)
		})
	}
	// A class expression's name is bound inside the class only (the parse binds it in no
	// scope): whichever letter it is, the outer local read inside is not given it.
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$_" {
		src := `function f(qq,rr){return[rr,class ` + string(c) + `{m(){return qq}}]}f(1);`
		sameBindings(t, src, Apply(src, Rename(src)))
	}
}

// TestRenameModuleTop: RenameModule names the module's top-level bindings, its function
// declarations too (a function's body is no block), but for a name a block function or a
// class expression inside has, which the parse binds otherwise than the language.
func TestRenameModuleTop(t *testing.T) {
	for _, row := range []struct{ name, src, want string }{
		{"top-level functions and variables",
			`function greet(aa){return aa}var form=1;greet(form);`,
			`function n(n){return n}var r=1;n(r);`},
		{"a name a block function has inside",
			`var q=1,w=2;function g(){{function q(){}}return typeof q}g(q,w);`,
			`var q=1,n=2;function t(){{function q(){}}return typeof q}t(q,n);`},
		{"a name a class expression has inside",
			`var A=1,w=2;function g(){return class A{m(){return A}}}g(A,w);`,
			`var A=1,r=2;function n(){return class A{m(){return A}}}n(A,r);`},
	} {
		t.Run(row.name, func(t *testing.T) {
			got := Apply(row.src, RenameModule(row.src))
			if got != row.want {
				t.Errorf("RenameModule:\n%s\ngave\n%s\nwant\n%s", row.src, got, row.want)
			}
			sameBindings(t, row.src, got)
		})
	}
}

// TestRenameLeaves: programs whose references are not all known, or that the parse does not
// line up with, are left as written.
func TestRenameLeaves(t *testing.T) {
	for _, row := range []struct{ name, src string }{
		{"direct eval", `function f(aa){return eval("aa")}f(1);`},
		{"direct eval in parentheses", `function f(aa){return(eval)("aa")}f(1);`},
		{"direct eval written with escapes", `function f(aa){return ev\u0061l("aa")}f(1);`},
		{"direct eval of a local eval", `function f(aa){var eval=globalThis.eval;return eval("aa")}f(1);`},
		{"direct eval in a nested function", `function f(aa){return()=>eval("aa")}f(1);`},
		{"a reference written with escapes", `function u(){let a="x";return \u0061+a}u();`},
		{"a var of a catch clause's name", `function f(){var e=1;try{throw 2}catch(e){var e=3}return e}f();`},
		{"with", `function f(aa,o){with(o)return aa}f(1,{});`},
		{"a syntax error", `function f(aa){return aa+}`},
		{"only the top level", `let aa=1;export{aa};`},
	} {
		t.Run(row.name, func(t *testing.T) {
			if e := Rename(row.src); e != nil {
				t.Errorf("Rename(%s) = %s, want nothing renamed", row.src, Apply(row.src, e))
			}
		})
	}
	// An indirect eval reads only globals: the locals are renamed.
	if src := `function f(aa){return(0,eval)("1")+aa}f(1);`; Rename(src) == nil {
		t.Errorf("Rename(%s) renamed nothing", src)
	}
}

// minify is esbuild's minified module of src, as the build gives Rename its code.
func minify(src string) (string, bool) {
	res := api.Transform(src, api.TransformOptions{Format: api.FormatESModule, MinifyWhitespace: true,
		MinifyIdentifiers: true, MinifySyntax: true, Charset: api.CharsetUTF8, LogLevel: api.LogLevelSilent})
	return string(res.Code), len(res.Errors) == 0
}

// sameBindings fails the test unless renamed is before with its bindings renamed and nothing
// else: esbuild's minified form of each (its own parse and scopes, names given by its own
// rule) is the same but for a one-to-one renaming of names.
func sameBindings(t *testing.T, before, renamed string) {
	t.Helper()
	a, ok := minify(before)
	if !ok {
		t.Fatalf("esbuild cannot read %s", before)
	}
	b, ok := minify(renamed)
	if !ok {
		t.Fatalf("esbuild cannot read the renamed %s", renamed)
	}
	ta, tb := tokens(a), tokens(b)
	if len(ta) != len(tb) {
		t.Fatalf("%d tokens, %d after renaming:\n%s\n%s", len(ta), len(tb), a, b)
	}
	to, from := map[string]string{}, map[string]string{}
	for i := range ta {
		x, y := ta[i], tb[i]
		if !x.name || !y.name {
			if x.text != y.text {
				t.Fatalf("token %d: %q, %q after renaming:\n%s\n%s", i, x.text, y.text, a, b)
			}
			continue
		}
		if m, ok := to[x.text]; ok && m != y.text || !ok && from[y.text] != "" {
			t.Fatalf("token %d: name %q is %q after renaming, elsewhere %q:\n%s\n%s", i, x.text, y.text, m+from[y.text], a, b)
		}
		to[x.text], from[y.text] = y.text, x.text
	}
}

type tok struct {
	text  string
	name  bool
	start int // the offset in the text lexed
}

// tokens lexes src, a '/' being a regular expression where the parse has one.
func tokens(src string) []tok {
	buf := []byte(src + "\x00")[:len(src)]
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	if err != nil {
		return nil
	}
	r := &renamer{src: src, buf: buf}
	r.kept = map[*js.Scope]map[string]bool{}
	js.Walk(r, ast)
	at := map[int]bool{}
	for _, e := range r.regexps {
		at[r.offset(e.Data)] = true
	}
	var out []tok
	l := js.NewLexer(parse.NewInputBytes(buf))
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken {
			return out
		}
		if (tt == js.DivToken || tt == js.DivEqToken) && at[r.offset(data)] {
			tt, data = l.RegExp()
		}
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		}
		out = append(out, tok{string(data), isName(tt, data) || tt == js.PrivateIdentifierToken, r.offset(data)})
	}
}

// programs each print what they compute: closures, shadowing, hoisting, patterns, classes,
// generators, labels, getters, the arguments object, Function.prototype.toString's text
// aside (it shows the names).
var programs = map[string]string{
	"closures": `
function counter(start) { let count = start; return { inc: () => ++count, get value() { return count } } }
const c = counter(3); c.inc(); c.inc(); console.log(c.value);
function outer(a) { function inner(b) { const a2 = a * b; return function (c) { return a + b + c + a2 } } return inner }
console.log(outer(1)(2)(3));`,
	"shadowing": `
let t = "top"; const n = 10;
function f(value) { let t = value; { let t = value + 1; var hoisted = t } return [t, hoisted, typeof n === "number" ? n : 0] }
function g(e) { try { throw new Error("x" + e) } catch (e) { return e.message } }
console.log(JSON.stringify([f(1), g(2), t]));`,
	"patterns": `
function swap({ first, second = 2, ...rest }, [x, , y = 9, ...more]) { const o = { first, second, rest, x, y, more }; return o }
console.log(JSON.stringify(swap({ first: 1, z: 3 }, [4, 5, undefined, 7, 8])));
const pick = ({ a: { b: [c] } }) => c; console.log(pick({ a: { b: [42] } }));`,
	"classes": `
class Base { #secret = 7; constructor(name) { this.name = name } reveal(extra) { const name = this.name; return name + this.#secret + extra } static make(x) { return new this(x) } }
class Child extends Base { reveal(extra) { const base = super.reveal(extra); return base.toUpperCase() } }
const Anon = class Named { who() { return typeof Named } };
console.log(Child.make("k").reveal("!"), new Anon().who());`,
	"loops": `
const out = [];
for (let i = 0; i < 3; i++) out.push(() => i);
for (var j = 0; j < 3; j++) out.push(() => j);
outer: for (const k of [1, 2, 3]) { for (const m in { a: 1, b: 2 }) { if (k === 2) continue outer; out.push(() => k + m) } }
switch (out.length) { case 8: { let s = "eight"; out.push(() => s); break } default: let s = "other"; out.push(() => s) }
console.log(out.map(f => f()).join(","));`,
	"generators and async": `
function* gen(limit) { let i = 0; while (i < limit) yield i++ }
async function sum(values) { let total = 0; for await (const v of values) total += v; return total }
sum(gen(5)).then(total => console.log([...gen(3)].join(""), total));`,
	"arguments and defaults": `
function args(a, b = a + 1, c = () => a + b) { a = 10; return [arguments.length, a, b, c()] }
function sloppy(p) { arguments[0] = 5; return p }
console.log(JSON.stringify([args(1), args(1, 2), sloppy(1)]));`,
	"strings and regexps": `
function fmt(word, count) { const re = /(\w+)\/(\d+)/g; const text = ` + "`${word}/${count} ${count > 1 ? `${word}s` : word}`" + `; return text.replace(re, (m, w, d) => w + "=" + d / 1) }
console.log(fmt("apple", 2), fmt("pear", 1));`,
	"class expression names": `
function make() { let Named = "outer"; const K = class Named { self() { return Named } }; return [Named, new K().self() === K] }
function inner() { const A = 1; return class A { static get() { return typeof A } }.get() + A }
console.log(JSON.stringify(make()), inner());`,
	"functions declared in blocks": `
function h() { return "top" }
function g(x) { { function h() { return "block" } if (x) return h() } return h() }
function k() { let v = 1; function inner() { { function v() { return "fn" } } return typeof v } return inner() }
console.log(g(0), g(1), k());`,
	"functions by name": `
function named() { return named.name.length > 0 } const expr = function self(n) { return n ? self(n - 1) : "done" };
console.log(named(), expr(3), typeof self);`,
}

// TestRenameRunsTheSame runs each program as esbuild minifies it and then renamed, in Node,
// by Rename and by RenameModule (its top level too): all print the same.
func TestRenameRunsTheSame(t *testing.T) {
	node := testnode.Start(t)
	run := func(name, code string) string {
		t.Helper()
		r := node.Run(t, code)
		if r.Threw {
			t.Fatalf("node %s threw %s\n%s", name, r.ErrLine(), r.Out)
		}
		return r.Out
	}
	tops := 0 // programs whose top level RenameModule renamed
	for name, src := range programs {
		t.Run(name, func(t *testing.T) {
			min, ok := minify(src)
			if !ok {
				t.Fatalf("esbuild cannot read the program")
			}
			renamed := Apply(min, Rename(min))
			sameBindings(t, min, renamed)
			before := run(name+"_before", min)
			if after := run(name+"_after", renamed); before != after {
				t.Errorf("printed %q, after renaming %q\n%s\n%s", before, after, min, renamed)
			}
			// As a page's one module, its top level renamed too.
			module := Apply(min, RenameModule(min))
			if module != renamed {
				tops++
			}
			sameBindings(t, min, module)
			if after := run(name+"_module", module); before != after {
				t.Errorf("printed %q, after renaming the module %q\n%s\n%s", before, after, min, module)
			}
		})
	}
	if tops < len(programs)/2 {
		t.Errorf("RenameModule renamed the top level of %d programs of %d", tops, len(programs))
	}
}

// FuzzRename: whatever esbuild reads and minifies, Rename replaces names only (each edit a
// whole name token, written as a name, or a shorthand's key and a name), and esbuild reads
// the renamed program. (That it is the same program is TestRenameGenerated's and
// TestRenameRunsTheSame's to show: esbuild's own names for the two differ where its
// letter counts do, which a fuzzer finds.)
func FuzzRename(f *testing.F) {
	for _, src := range programs {
		f.Add(src)
	}
	f.Add(generate(1))
	f.Fuzz(func(t *testing.T, src string) {
		min, ok := minify(src)
		if !ok {
			return
		}
		edits := Rename(min)
		names := map[int]int{} // the name tokens of min, start to end
		for _, tk := range tokens(min) {
			if tk.name {
				names[tk.start] = tk.start + len(tk.text)
			}
		}
		for _, e := range edits {
			if end, ok := names[e.Start]; !ok || end != e.End {
				t.Fatalf("edit %q at %d-%d is not a name of %s", e.Text, e.Start, e.End, min)
			}
			key, name, short := strings.Cut(e.Text, ":")
			if short && key != min[e.Start:e.End] || !short && !plainName([]byte(key)) || short && !plainName([]byte(name)) {
				t.Fatalf("edit %q of %q in %s", e.Text, min[e.Start:e.End], min)
			}
		}
		renamed := Apply(min, edits)
		if _, ok := minify(renamed); !ok {
			t.Fatalf("esbuild cannot read the renamed %s\n(was %s)", renamed, min)
		}
	})
}

// TestRenameGenerated runs generated programs (generate_test.go), each as esbuild minifies
// it and then renamed, in Node: both print the same. -programs sets how many (CI: 150).
func TestRenameGenerated(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Node.js is needed (scripts/test installs it): %v", err)
	}
	// All programs in one run of Node each way, each in a function of its own so that the
	// top level of one is a scope of the renamer's.
	var before, after strings.Builder
	renamed := 0
	for seed := range uint64(*programCount) {
		src := generate(seed)
		min, ok := minify(src)
		if !ok {
			t.Fatalf("esbuild cannot read program %d:\n%s", seed, src)
		}
		// A program that throws (where the generator's view of the names is not the
		// language's) prints the error's kind, whose message would show names.
		wrap := func(code string) string {
			return "(() => {\ntry {\n" + code + "\n} catch (err) { console.log(err.name) }\n})();\n"
		}
		edits := Rename(wrap(min))
		if edits != nil {
			renamed++
		}
		before.WriteString(wrap(min))
		after.WriteString(Apply(wrap(min), edits))
	}
	if renamed == 0 {
		t.Fatal("no program was renamed")
	}
	run := func(name, code string) string {
		file := filepath.Join(t.TempDir(), name+".mjs")
		os.WriteFile(file, []byte(code), 0o644)
		out, err := exec.Command(node, file).CombinedOutput()
		if err != nil {
			t.Fatalf("node %s: %v\n%s", file, err, out)
		}
		return string(out)
	}
	a, b := run("before", before.String()), run("after", after.String())
	if a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range min(len(al), len(bl)) {
			if al[i] != bl[i] {
				t.Fatalf("program %d printed %q, renamed %q", i, al[i], bl[i])
			}
		}
		t.Fatalf("the programs printed %d lines, renamed %d", len(al), len(bl))
	}
	t.Logf("%d programs, %d renamed", *programCount, renamed)
}

// writtenPrograms are minified programs whose names were chosen by hand so that bindings
// the parser and the language scope differently share a name, which esbuild's names seldom
// do: each prints what it computes. Sloppy ones run as classic scripts.
var writtenPrograms = []struct {
	name, src string
	sloppy    bool
}{
	{"a var in a class static block of an outer binding's name",
		`function w(){let s="outer";function c(){class t{static r;static{var s="static";t.r=s}}return[s,t.r]}return c()}console.log(JSON.stringify(w()));`, false},
	{"a var in a class static block of a top-level name",
		`let s="top";function c(aa){class t{static r;static{var s="static";t.r=s+aa}}return[s,t.r]}console.log(JSON.stringify(c(1)));`, false},
	{"a reference written with escapes",
		`function u(){let a="x";return \u0061+a}console.log(u());`, false},
	{"a reference written with escapes, another binding plain",
		`function u(aa){let b="x";return[\u0062,b,aa]}console.log(u(1)+"");`, false},
	{"a parameter default reading an outer name the body declares",
		`function e(){let x="outer";function o(r=()=>x){var x="body";return[r(),x]}return o()}console.log(JSON.stringify(e()));`, false},
	{"a parameter default reading an outer name the body declares a function of",
		`function e(){let x="outer";function o(r=()=>x){function x(){}return[r(),typeof x]}return o()}console.log(JSON.stringify(e()));`, false},
	{"a parameter default reading a parameter the body declares again",
		`function e(){function o(a,r=()=>a){var a;a="body";return[r(),a]}return o("param")}console.log(JSON.stringify(e()));`, false},
	{"a block function in a block of a let of its name",
		`function k(){let r=[];{let v=1;{function v(){return"fn"}r.push(typeof v)}r.push(typeof v)}return r}console.log(JSON.stringify(k()));`, false},
	{"a block function of a parameter's name",
		`function k(a){let r=[];{function a(){}r.push(typeof a)}r.push(typeof a);return r}console.log(JSON.stringify(k(1)));`, true},
	{"a block function of a catch parameter's name",
		`function k(){let r=[];try{throw 1}catch(a){{function a(){}r.push(typeof a)}r.push(typeof a)}return r}console.log(JSON.stringify(k()));`, true},
	{"a block function in an arrow",
		`function k(){let v=0;const f=()=>{{function v(){}}return typeof v};return[f(),typeof v]}console.log(JSON.stringify(k()));`, true},
	{"named function expressions of a parameter's and a var's name",
		`function u(){let o="outer";const h=function g(g){return g},k=function g(){var g=2;return g};return[h(3),k(),o]}console.log(JSON.stringify(u()));`, false},
	{"a class expression's name read by its fields and static block",
		`function k(){let A="outer",q=2;const K=class A{static x=A;y=q;static{this.z=typeof A}};return[typeof K.x,K.z,A,new K().y]}console.log(JSON.stringify(k()));`, false},
	{"a block function of a top-level name",
		`var q=!1;function g(){{function q(){}}return typeof q}console.log(g(),q);`, false},
	{"a block function in an if of a top-level name",
		`var q=!1;function g(){if(1){function q(){}}return typeof q}console.log(g(),q);`, false},
	{"a class expression of a top-level name, in a function",
		`let A="outer";function k(){const K=class A{static x=typeof A};return K.x}console.log(k(),A);`, false},
	{"a var in a class static block of a top-level name, in a function",
		`let s="top";function c(){class t{static r;static{var s="static";t.r=s}}return t.r}console.log(c(),s);`, false},
	{"a label of a binding's name",
		`function k(){let t=0;t:for(;;){t++;if(t>2)break t}return t}console.log(k());`, false},
	{"a var arguments, which holds the arguments object",
		`function e(){function o(a){var arguments;return[arguments.length,a]}return o(1,2)}console.log(JSON.stringify(e()));`, true},
	{"a var arguments with parameter defaults",
		`function e(){function o(a,b=1){var arguments;return[arguments.length,a]}return o(1,2,3)}console.log(JSON.stringify(e()));`, true},
	{"a var eval holding the global eval, a direct eval",
		`function e(){function o(aa){var eval=globalThis.eval;return eval("aa")}return o(7)}console.log(JSON.stringify(e()));`, true},
	{"a parameter eval holding the global eval, a direct eval",
		`function e(){function o(eval,aa){return eval("typeof aa")}return o(globalThis.eval,7)}console.log(JSON.stringify(e()));`, true},
	{"sloppy names let, yield and static",
		`function f(){var let=1,yield=2,static=3;return let+yield+static}console.log(f());`, true},
	{"regular expressions after a block and a parenthesis, division",
		`function k(aa){let g=2;{}/g/.test("g")&&(g=5);if(aa)/g/.test("g")&&(g+=1);return[g,aa/g/1,typeof/g/]}console.log(JSON.stringify(k(3)));`, false},
}

// TestRenameRunsTheSameAsWritten runs each of writtenPrograms as written and renamed, in
// Node: both print the same.
func TestRenameRunsTheSameAsWritten(t *testing.T) {
	node := testnode.Start(t)
	for _, p := range writtenPrograms {
		t.Run(p.name, func(t *testing.T) {
			run := func(code string) string {
				t.Helper()
				r := node.Run
				if p.sloppy {
					r = node.RunCommonJS
				}
				res := r(t, code)
				if res.Threw {
					t.Fatalf("node threw %s\n%s\n%s", res.ErrLine(), code, res.Out)
				}
				return res.Out
			}
			renamed := Apply(p.src, Rename(p.src))
			a := run(p.src)
			if b := run(renamed); a != b {
				t.Errorf("printed %q, after renaming %q\n%s\n%s", a, b, p.src, renamed)
			}
			if p.sloppy {
				return
			}
			// As a page's one module, its top level renamed too.
			module := Apply(p.src, RenameModule(p.src))
			if b := run(module); a != b {
				t.Errorf("printed %q, after renaming the module %q\n%s\n%s", a, b, p.src, module)
			}
		})
	}
}
