package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// logicalAssigns is src with logicalAssignEdits applied; "" when there are none.
func logicalAssigns(src string) string {
	edits := logicalAssignEdits(&pkgModule{src: src})
	if len(edits) == 0 {
		return ""
	}
	return applyEdits(src, edits)
}

// TestLogicalAssigns: o.p ?? (o.p = b), o.p || (o.p = b) and o.p && (o.p = b), o this or a
// binding never assigned again, are written o.p ??= b (||=, &&=) where an assignment may stand;
// a global, an object that may change, a different place, a binding alone, or a place where
// the operator would bind otherwise are left as written.
func TestLogicalAssigns(t *testing.T) {
	for _, r := range []struct{ name, src, want string }{
		{"zod's def.pattern", "export function init(inst, def) {\n\tdef.pattern ?? (def.pattern = uuid(def.version));\n\tinst.init(def);\n}\n",
			"export function init(inst, def) {\n\tdef.pattern ??= ( uuid(def.version));\n\tinst.init(def);\n}\n"},
		{"||, &&", "const a = {};\nexport function f(x) { a.p || (a.p = x); a.q && (a.q = x); return a; }\n",
			"const a = {};\nexport function f(x) { a.p ||= ( x); a.q &&= ( x); return a; }\n"},
		{"a binding alone", "let a;\nexport function f(x) { a || (a = x); return a; }\n", ""},
		{"minified, in a comma", "function f(e,t){e._zod??(e._zod={}),e._zod.def=t,e.x||(e.x=[t,(1)])}",
			"function f(e,t){e._zod??=({}),e._zod.def=t,e.x||=([t,(1)])}"},
		{"this (a private name left as written)", "class C { #p; m() { return this.#p ?? (this.#p = new Map()); } n() { return this.q ?? (this.q = `a${1}`); } }",
			"class C { #p; m() { return this.#p ?? (this.#p = new Map()); } n() { return this.q ??= ( `a${1}`); } }"},
		{"nested", "function f(a, b) { return a.p ?? (a.p = b.q ?? (b.q = 1)); }", "function f(a, b) { return a.p ??= ( b.q ??= ( 1)); }"},
		{"an argument, an initializer, a branch", "function f(a, c) { g(a.p ?? (a.p = 1)); let x = a.p || (a.p = 2); return c ? a.p && (a.p = 3) : 0; }",
			"function f(a, c) { g(a.p ??= ( 1)); let x = a.p ||= ( 2); return c ? a.p &&= ( 3) : 0; }"},
		{"the right side of =", "function f(a) { let x; x = a.p ?? (a.p = 1); }", "function f(a) { let x; x = a.p ??= ( 1); }"},
		{"a global", "function f() { g ?? (g = 1); window.x ?? (window.x = 1); }", ""},
		{"an object assigned again", "function f(o) { o.p ?? (o.p = (o = {}, 1)); }", ""},
		{"an object assigned elsewhere", "let o = {};\nexport function s(n) { o = n; }\nexport function f() { o.p ?? (o.p = g()); }", ""},
		{"an import, a live binding", "import o, { p as q } from \"./m.js\";\nexport function f() { o.p ?? (o.p = g()); q.r ?? (q.r = g()); }", ""},
		{"an object updated by a pattern", "function f(o) { [o] = [{}]; o.p ?? (o.p = 1); }", ""},
		{"an object a for-in head's var writes", "var o = {};\nfor (var o in g) ;\nexport function f() { o.p ?? (o.p = g()); }", ""},
		{"another place", "function f(a, b) { a.p ?? (b.p = 1); a.p ?? (a.q = 1); }", ""},
		{"a computed property", "function f(a, k) { a[k] ?? (a[k] = 1); }", ""},
		{"a deeper property", "function f(a) { a.b.c ?? (a.b.c = 1); }", ""},
		{"an optional read", "function f(a) { a?.p ?? (a.p = 1); }", ""},
		{"an operand of ||", "function f(a, c) { return a.p || (a.p = 1) || c; }", ""},
		{"the test of ?:", "function f(a) { return a.p ?? (a.p = 1) ? 1 : 2; }", ""},
		{"a compound assignment inside", "function f(a) { a.p ?? (a.p += 1); }", ""},
		{"eval", "function f(a) { a.p ?? (a.p = 1); eval(''); }", ""},
		// Direct too: a getter's (eval)("o = other") may rebind o between the read and the write.
		{"eval in parentheses", "function f() { let o = {get p() { (eval)(\"o = {}\"); }}; return o.p ?? (o.p = 1); }", ""},
		{"eval written with an escape", "function f() { let o = {get p() { ev\\u0061l(\"o = {}\"); }}; return o.p ?? (o.p = 1); }", ""},
	} {
		if got := logicalAssigns(r.src); got != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got, r.want)
		}
	}
}

// TestLogicalAssignsInPage: a package's lowered logical assignments are in the page as ??=, ||=
// and &&=, and the page computes what it did (Chromium), a getter's reads and a setter's writes
// counted.
func TestLogicalAssignsInPage(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                      "id = \"la\"\nname = \"LA\"\ndescription = \"Logical assignments.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                       "import { run } from \"lowered\";\nwindow.result = run();\n",
		"node_modules/lowered/package.json": `{"name": "lowered", "type": "module", "sideEffects": false}`,
		"node_modules/lowered/index.js": "export function run() {\n" +
			"\tconst log = [];\n\tlet v;\n" +
			"\tconst o = { get p() { log.push(\"get\"); return v; }, set p(x) { log.push(\"set\"); v = x; } };\n" +
			"\to.p ?? (o.p = 1);\n\to.p ?? (o.p = 2);\n\to.p || (o.p = 0);\n\to.p && (o.p = 3);\n" +
			"\tconst a = { n: null, z: 0 };\n\ta.n ?? (a.n = \"A\");\n\ta.z || (a.z = \"Z\");\n" +
			"\treturn [log.join(), v, a.n, a.z].join(\";\");\n}\n",
	})
	res := built(t, dir)
	if page := string(res.HTML); !strings.Contains(page, "??=") || !strings.Contains(page, "||=") || !strings.Contains(page, "&&=") {
		t.Errorf("the page has not the logical assignments")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/la.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got, want := browsertest.Eval[string](t, b, `window.result`), "get,set,get,get,get,set;3;A;Z"; got != want {
		t.Errorf("the page shows %q, want %q", got, want)
	}
}
