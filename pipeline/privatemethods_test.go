package pipeline

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestUnusedPrivateMethods runs each module in Node as written and with the private methods
// nothing calls taken out (unusedPrivateMethods' edits): both print the same, and the module
// after holds what it should (want) and not what it should not (not).
func TestUnusedPrivateMethods(t *testing.T) {
	testPass(t, unusedPrivateMethods, []passRow{
		{"unused", `class A{#a(){return 1}b(){return 2}}console.log(new A().b())`, `class A{b(){return 2}}`, "#a"},
		{"called", `class A{#a(){return 1}b(){return this.#a()}}console.log(new A().b())`, `#a(){return 1}`, ""},
		{"called only by an unused one", `class A{#b(){return 2}#a(){return this.#b()}c(){return 3}}console.log(new A().c())`, `class A{c(){return 3}}`, "#"},
		{"declared after its use", `class A{#a(){return this.#b()}#b(){return 2}c(){return 3}}console.log(new A().c())`, `#b(){return 2}`, "#a"},
		{"called by itself", `class A{#a(n){return n?this.#a(n-1):0}c(){return 3}}console.log(new A().c())`, `class A{c(){return 3}}`, "#a"},
		{"an accessor and static methods", `class A{get #x(){return 1}static #s(){return 2}static async*#k(){}*#g(){yield 1}async #h(){}y(){return 3}}console.log(new A().y())`, `class A{y(){return 3}}`, "#"},
		{"read by in", `class A{#a(){}static is(o){return #a in o}}console.log(A.is(new A()),A.is({}))`, `#a(){}`, ""},
		{"a nested class's own", `class A{#a(){return"outer"}m(){return new class{#a(){return"inner"}n(){return this.#a()}}().n()}}console.log(new A().m())`, `#a(){return"inner"}`, `"outer"`},
		{"the outer one read in a nested class", `class A{#a(){return"outer"}m(){let o=this;return new class{n(){return o.#a()}}().n()}}console.log(new A().m())`, `#a(){return"outer"}`, ""},
		{"read in a closure", `class A{#a(){return 1}m(){return[1].map(()=>this.#a())}}console.log(new A().m())`, `#a(){return 1}`, ""},
		{"read by a field", `class A{#a(){return 5}x=this.#a()}console.log(new A().x)`, `#a(){return 5}`, ""},
		{"read by a static block", `class A{static #a(){return 5}static{console.log(A.#a())}}`, `#a(){return 5}`, ""},
		{"a field is left", `let n=0;class A{#f=n++;m(){return n}}console.log(new A().m())`, `#f=n++`, ""},
		{"after a field", `class A{x=1;#a(){return 1}[Symbol.iterator](){return[this.x][Symbol.iterator]()}}console.log([...new A()])`, `x=1;[Symbol.iterator]`, "#a"},
		// A derived class's object can be one made before (its parent's constructor returns
		// it): the method's brand, put on it twice, throws.
		{"a derived class's instance method", `class A{constructor(o){return o}}class B extends A{#m(){return 1}constructor(o){super(o)}f(){return 0}}let o={};new B(o);try{new B(o);console.log("no throw")}catch(e){console.log(e.constructor.name)}`, `#m(){return 1}`, ""},
		{"a derived class's static method", `class A{}class B extends A{static #s(){return 1}f(){return 0}}console.log(new B().f())`, `class B extends A{f(){return 0}}`, "#s"},
		{"a class expression", `let C=class{#a(){}static b(){return 2}};console.log(C.b(),C.name)`, `class{static b(){return 2}}`, "#a"},
	})
}

// TestUnusedPrivateMethodsFolded: a private method called only where a flag nothing writes
// is true goes with the branch, and so does the function only it called, once the module is
// minified again (rewriteScript).
func TestUnusedPrivateMethodsFolded(t *testing.T) {
	run := nodeModuleRunner(t)
	src := `let d=!1;function only(){return"only"}class B{#c(){console.log(only())}run(){d&&this.#c();return"ran"}}console.log(new B().run())`
	after := rewriteScript(code{js: src, known: true}, api.BuildOptions{Target: api.ES2022, Format: api.FormatESModule}, true, true, false, false)
	if strings.Contains(after.js, "#") || strings.Contains(after.js, `"only"`) {
		t.Errorf("the method or the function it alone called is left:\n%s", after.js)
	}
	if a, b := run("before", src), run("after", after.js); a != b {
		t.Errorf("as written: %q; after the pass: %q\n%s", a, b, after.js)
	}
}
