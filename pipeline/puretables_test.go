package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// pureTables is src with pureTableEdits applied; "" when there are none.
func pureTables(src string) string {
	edits := pureTableEdits(&pkgModule{src: src})
	if len(edits) == 0 {
		return ""
	}
	return applyEdits(src, edits)
}

// TestPureTables: a module-level array or object literal whose only reads are of the module's
// own data (an enum as TypeScript compiles one, a plain object) is wrapped in a pure call, as
// is one given to a pure-annotated call a module-level declaration is bound to;
// one that reads anything else, or data that is written, handed out or declared after it,
// is left as written.
func TestPureTables(t *testing.T) {
	const enum = "let E = /* @__PURE__ */ function(E$1) {\n\tE$1[E$1[\"A\"] = -1] = \"A\";\n\tE$1[\"B\"] = \"b\";\n\treturn E$1;\n}({});\n"
	const wrapped = "/* @__PURE__ */ (() => ("
	for _, r := range []struct{ name, src, want string }{
		{"enum, array of objects", enum + "const L = [\n\t{ code: E.A, text: `prose` },\n\t{ code: E[\"B\"] }\n];\nexport function f() { return E.B; }\n",
			enum + "const L = " + wrapped + "[\n\t{ code: E.A, text: `prose` },\n\t{ code: E[\"B\"] }\n]))();\nexport function f() { return E.B; }\n"},
		{"enum, computed keys", enum + "export const S = { [E.A]: 400, [-1]: 404, x: () => E };\n", ""},
		{"enum, computed keys, no arrow", enum + "export const S = { [E.A]: 400, [-1]: 404, \"y\": [1, , \"a\"], f() { return 1; } };\n",
			enum + "export const S = " + wrapped + "{ [E.A]: 400, [-1]: 404, \"y\": [1, , \"a\"], f() { return 1; } }))();\n"},
		{"plain object, minified", "var o={a:1,b:\"x\"},t=[o.a,{k:o.b}],u=1;",
			"var o={a:1,b:\"x\"},t=" + wrapped + "[o.a,{k:o.b}]))(),u=1;"},
		{"a const literal as a key", enum + "const H = -2;\nconst S = { [E.A]: 400, [H]: 400 };\n",
			enum + "const H = -2;\nconst S = " + wrapped + "{ [E.A]: 400, [H]: 400 }))();\n"},
		{"a let as a key", enum + "let H = -2;\nconst S = { [E.A]: 400, [H]: 400 };\n", ""},
		{"eval in a word", enum + "const L = [{ evaluatedAt: E.A }];\n", enum + "const L = " + wrapped + "[{ evaluatedAt: E.A }]))();\n"},
		{"plain object's property as a key", "const o = { a: {} };\nconst t = { [o.a]: 1 };\n", ""},
		{"no read: esbuild decides", enum + "const L = [1, 2];\n", ""},
		{"a global", enum + "const L = [E.A, window.x];\n", ""},
		{"a call", enum + "const L = [E.A, f()];\nfunction f() {}\n", ""},
		{"a spread of a literal", enum + "const L = [E.A, ...[1]];\n", ""},
		{"a spread of a data array", "const A = [\"a\", \"b\"];\nconst L = [...A, \"c\"];\nexport const R = [...A, ...L];\n",
			"const A = [\"a\", \"b\"];\nconst L = " + wrapped + "[...A, \"c\"]))();\nexport const R = " + wrapped + "[...A, ...L]))();\n"},
		{"a spread of an array handed out", "const A = [\"a\"];\nf(A);\nconst L = [...A, \"c\"];\n", ""},
		{"a spread of an array whose iterator is set", "const A = [\"a\"];\nA[Symbol.iterator] = g;\nconst L = [...A, \"c\"];\n", ""},
		{"a spread in a call", "const A = [\"a\"];\nf(...A);\nconst L = [...A, \"c\"];\n", ""},
		{"a spread of an array declared after", "const L = [...A, \"c\"];\nconst A = [\"a\"];\n", ""},
		{"a binding of the module, before", enum + "const k = 2;\nfunction g() {}\nconst L = [E.A, k, g];\n",
			enum + "const k = 2;\nfunction g() {}\nconst L = " + wrapped + "[E.A, k, g]))();\n"},
		{"a let after", enum + "const L = [E.A, k];\nlet k = 2;\n", ""},
		{"data declared after", "const L = [o.a];\nconst o = { a: 1 };\n", ""},
		{"data written", "const o = { a: 1 };\no.a = 2;\nconst L = [o.a];\n", ""},
		{"data written by a pattern", "const o = { a: 1 };\n[o.a] = [2];\nconst L = [o.a];\n", ""},
		{"data deleted", "const o = { a: 1 };\ndelete o.a;\nconst L = [o.a];\n", ""},
		{"data handed out", "const o = { a: 1 };\nf(o);\nconst L = [o.a];\n", ""},
		{"data reassigned", "let o = { a: 1 };\no = g();\nconst L = [o.a];\n", ""},
		{"data with a getter", "const o = { get a() { return 1; } };\nconst L = [o.a];\n", ""},
		{"data with a spread", "const o = { ...p };\nconst L = [o.a];\n", ""},
		{"data with __proto__", "const o = { __proto__: p };\nconst L = [o.a];\n", ""},
		{"an optional read", "const o = { a: 1 };\nconst L = [o?.a];\n", ""},
		{"a computed read", "const o = { a: 1 };\nconst L = [o[k]];\n", ""},
		{"not an enum: a call inside", "let E = function(e) { e.A = f(); return e; }({});\nconst L = [E.A];\n", ""},
		{"not an enum: returns another", "let E = function(e) { e.A = 1; return {}; }({});\nconst L = [E.A];\n", ""},
		{"a shadowing parameter is its own", "const o = { a: 1 };\nfunction f(o) { o.a = 2; }\nconst L = [o.a];\n",
			"const o = { a: 1 };\nfunction f(o) { o.a = 2; }\nconst L = " + wrapped + "[o.a]))();\n"},
		{"eval", "const o = { a: 1 };\nconst L = [o.a];\neval(s);\n", ""},
		{"Solid's Properties: a pure new of a spread", "const B = [\"async\"];\nconst P = /*#__PURE__*/new Set([\"value\", ...B]), Q = /* @__PURE__ */ f({ a: B[0] }, [...B]);\n",
			"const B = [\"async\"];\nconst P = /*#__PURE__*/new Set(" + wrapped + "[\"value\", ...B]))()), Q = /* @__PURE__ */ f(" + wrapped + "{ a: B[0] }))(), " + wrapped + "[...B]))());\n"},
		{"a pure new of a spread, not annotated", "const B = [\"async\"];\nconst P = new Set([\"value\", ...B]);\n", ""},
		{"a pure new of a spread handed out", "const B = [\"async\"];\nf(B);\nconst P = /*#__PURE__*/new Set([\"value\", ...B]);\n", ""},
		{"a pure call of a member", "const B = [\"async\"];\nconst P = /*#__PURE__*/ o.f([\"value\", ...B]);\n", ""},
	} {
		if got := pureTables(r.src); got != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got, r.want)
		}
	}
}

// TestPureTablesDropped: a package's table of prose that reads the package's enum, a list
// that spreads another, and a pure new Set of such a list, are left out of the page when unused, as Vite's build leaves them
// out, and used ones are in it and read what they did (Chromium).
func TestPureTablesDropped(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                    "id = \"pt\"\nname = \"PT\"\ndescription = \"Pure tables.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                     "import { status, Code, RUNES } from \"codes\";\nwindow.result = [status(-32600), Code.ParseError, Code[-32700], RUNES.join()];\n",
		"node_modules/codes/package.json": `{"name": "codes", "type": "module", "sideEffects": false}`,
		"node_modules/codes/index.js": "let Code = /* @__PURE__ */ function(Code$1) {\n" +
			"\tCode$1[Code$1[\"ParseError\"] = -32700] = \"ParseError\";\n\tCode$1[Code$1[\"InvalidRequest\"] = -32600] = \"InvalidRequest\";\n\treturn Code$1;\n}({});\n" +
			"const MISMATCH = -32020;\n" +
			"const LADDER = [\n\t{ rung: \"shape\", codes: [Code.InvalidRequest], rationale: \"UNUSED_LADDER_MARKER\" },\n\t{ rung: \"header\", codes: [MISMATCH] }\n];\n" +
			"export function rungs() { return LADDER.map((r) => r.rung); }\n" +
			"const STATUS = {\n\t[Code.ParseError]: 400,\n\t[Code.InvalidRequest]: 404,\n\t[MISMATCH]: 400\n};\n" +
			"export function status(code) { return STATUS[code]; }\n" +
			"const STATE = [\"$state\"];\nconst ALL = [...STATE, \"UNUSED_SPREAD_MARKER\"];\nexport function all() { return ALL; }\n" +
			"export const RUNES = [...STATE, \"$derived\"];\n" +
			"const SET = /*#__PURE__*/ new Set([\"UNUSED_SET_MARKER\", ...STATE]);\nexport function set() { return SET; }\n" +
			"export { Code };\n",
	})
	res := built(t, dir)
	if page := string(res.HTML); strings.Contains(page, "UNUSED_LADDER_MARKER") || strings.Contains(page, "UNUSED_SPREAD_MARKER") || strings.Contains(page, "UNUSED_SET_MARKER") || !strings.Contains(page, "404") {
		t.Errorf("the unused table is in the page, or the used one is not")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/pt.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`); got != `[404,-32700,"ParseError","$state,$derived"]` {
		t.Errorf("the page shows %s", got)
	}
}
