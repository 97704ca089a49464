package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// pureCallsOf is src with pureCallEdits applied; "" when there are none.
func pureCallsOf(src string) string {
	edits := pureCallEdits(&pkgModule{src: src})
	if len(edits) == 0 {
		return ""
	}
	return applyEdits(src, edits)
}

// TestPureCalls: a module-level pure-annotated call of a binding of the module has its
// arguments, up to the last that could do something, declared before it in its declaration
// list; one whose arguments can do nothing, that is not annotated, calls a global or a binding
// declared after, spreads, or is exported, is left as written.
func TestPureCalls(t *testing.T) {
	const helpers = "import { r as __toESM } from \"./chunk.mjs\";\nfunction wrap(x, n) { return { x, n }; }\n"
	for _, r := range []struct{ name, src, want string }{
		{"Rolldown's CommonJS import", helpers + "var import_x = /* @__PURE__ */ __toESM(require_x(), 1);\n",
			helpers + "var import_x$0 = require_x(), import_x = /* @__PURE__ */ __toESM(import_x$0, 1);\n"},
		{"a function of the module, #__PURE__, minified", helpers + "const a=1,w=/*#__PURE__*/wrap(g(),a);",
			helpers + "const a=1,w$0 = g(), w=/*#__PURE__*/wrap(w$0,a);"},
		{"a binding before the call is read before it", helpers + "var k = 1;\nlet w = /* @__PURE__ */ wrap(k, f(), 2, k);\n",
			helpers + "var k = 1;\nlet w$0 = k, w$1 = f(), w = /* @__PURE__ */ wrap(w$0, w$1, 2, k);\n"},
		{"a global after: read after", helpers + "var w = /* @__PURE__ */ wrap(f(), window);\n",
			helpers + "var w$0 = f(), w$1 = window, w = /* @__PURE__ */ wrap(w$0, w$1);\n"},
		{"new", "class Box { constructor(v) { this.v = v; } }\nconst b = /* @__PURE__ */ new Box(load());\n",
			"class Box { constructor(v) { this.v = v; } }\nconst b$0 = load(), b = /* @__PURE__ */ new Box(b$0);\n"},
		{"a name taken", helpers + "var w$ = 1;\nvar w = /* @__PURE__ */ wrap(g());\n", helpers + "var w$ = 1;\nvar w$$0 = g(), w = /* @__PURE__ */ wrap(w$$0);\n"},
		{"arguments that do nothing", helpers + "var w = /* @__PURE__ */ wrap(1, () => g());\n", ""},
		{"not annotated", helpers + "var w = wrap(g(), 1);\n", ""},
		{"annotated elsewhere", helpers + "var w = wrap(/* @__PURE__ */ g(), 1);\n", ""},
		{"a global", "var w = /* @__PURE__ */ Object.freeze(g());\nvar v = /* @__PURE__ */ wrap(g());\n", ""},
		{"declared after", "const w = /* @__PURE__ */ later(g());\nconst later = (x) => x;\n", ""},
		{"a spread", helpers + "var w = /* @__PURE__ */ wrap(...g());\n", ""},
		{"optional", helpers + "var w = /* @__PURE__ */ wrap?.(g());\n", ""},
		{"exported", helpers + "export var w = /* @__PURE__ */ wrap(g());\n", ""},
		{"in a function", helpers + "function f() { var w = /* @__PURE__ */ wrap(g()); return w; }\n", ""},
		{"functions left in place", helpers + "var w = /* @__PURE__ */ wrap(() => 1, (function () {}), k, function f() {}, g());\n",
			helpers + "var w$0 = k, w$1 = g(), w = /* @__PURE__ */ wrap(() => 1, (function () {}), w$0, function f() {}, w$1);\n"},
		{"a class without a name", helpers + "var w = /* @__PURE__ */ wrap(class {}, g());\nvar v = /* @__PURE__ */ wrap(class { static x = g(); });\n", ""},
		{"the callee assigned by an argument", helpers + "var w = /* @__PURE__ */ wrap(init());\nfunction init() { wrap = (x) => x; }\n", ""},
		{"the callee assigned in an argument", "let wrap = (x) => [x];\nvar w = /* @__PURE__ */ wrap((wrap = String, 1), g());\n", ""},
		{"eval", helpers + "var w = /* @__PURE__ */ wrap(g());\neval('');\n", ""},
	} {
		if got := pureCallsOf(r.src); got != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got, r.want)
		}
	}
}

// TestPureCallsInPage: a package's unused pure call of a CommonJS module is left out of the page
// but for the module's body, which runs as before, and a used one gives what it did (Chromium).
func TestPureCallsInPage(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                      "id = \"pc\"\nname = \"PC\"\ndescription = \"Pure calls.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                       "import { use } from \"wrapped\";\nwindow.result = use();\n",
		"node_modules/wrapped/package.json": `{"name": "wrapped", "type": "module"}`,
		"node_modules/wrapped/index.js": "const notes = [];\n" +
			"function wrapUnusedMarker(m) { return { UNUSED_WRAP_MARKER: m }; }\n" +
			"function wrapUsed(m, f) { return { m, f }; }\n" +
			"var required = /* @__PURE__ */ wrapUnusedMarker((notes.push(\"unused\"), 1));\n" +
			"var kept = /* @__PURE__ */ wrapUsed((notes.push(\"used\"), 2));\n" +
			"var named = /* @__PURE__ */ wrapUsed(() => 1, (notes.push(\"named\"), 3));\n" +
			"export function use() { return [kept.m, JSON.stringify(named.m.name), named.f, notes.join()].join(); }\n" +
			"export function other() { return required; }\n",
	})
	res := built(t, dir)
	if strings.Contains(string(res.HTML), "UNUSED_WRAP_MARKER") {
		t.Errorf("the unused call's function is in the page")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/pc.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got, want := browsertest.Eval[string](t, b, `window.result`), `2,"",3,unused,used,named`; got != want {
		t.Errorf("the page shows %q, want %q", got, want)
	}
}
