package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestDeadWrites: the writes to a module-level object that nothing reads become expressions
// without the write; an object read anywhere, written otherwise, or shadowed keeps its writes.
func TestDeadWrites(t *testing.T) {
	for _, r := range []struct{ name, src, want string }{
		{"static block", "const internals = {};\nexport class C { static {\n\t\tinternals.a = (c) => c._a;\n\t\tinternals.b = function () {};\n\t} }\n",
			"const internals = {};\nexport class C { static {\n\t\t0, (c) => c._a;\n\t\t0, function () {};\n\t} }\n"},
		{"top level, minified", "const o={};o.x=1\no.y=\"s\";export const k=2;",
			"const o={};0,1\n0,\"s\";export const k=2;"},
		{"read somewhere", "const o = {};\no.x = () => 1;\nexport const r = () => o;\n", ""},
		{"read by a property", "const o = {};\no.x = () => 1;\nexport const r = () => o.x();\n", ""},
		{"a value with effects", "const o = {};\no.x = f();\n", ""},
		{"compound assignment", "const o = {};\no.x += 1;\n", ""},
		{"not empty", "const o = { a: 1 };\no.x = 1;\n", ""},
		{"exported", "export const o = {};\no.x = 1;\n", ""},
		{"a shadowing parameter is its own", "const o = {};\no.x = 1;\nfunction f(o) { o.y = 2; return o; }\nf({});\n",
			"const o = {};\n0, 1;\nfunction f(o) { o.y = 2; return o; }\nf({});\n"},
		{"eval", "const o = {};\no.x = 1;\neval(s);\n", ""},
	} {
		if got := deadWrites(r.src); got != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got, r.want)
		}
	}
}

// TestDeadWritesDropClass: a package's class whose static block only fills an object nothing
// reads is left out of the page when unused, as Vite's build leaves it out, and the page
// still does what it did (Chromium); a class whose static block is read is kept and runs.
func TestDeadWritesDropClass(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                     "id = \"dw\"\nname = \"DW\"\ndescription = \"Dead writes.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                      "import { Protocol, registry } from \"client\";\nwindow.result = [new Protocol().name, registry.kept()];\n",
		"node_modules/client/package.json": `{"name": "client", "type": "module", "sideEffects": false}`,
		"node_modules/client/index.js": "export class Protocol { name = \"protocol\"; }\n" +
			"const internals = {};\n" +
			"export var Client = class extends Protocol {\n\tstatic {\n\t\tinternals.walk = (c) => c._walk(\"UNUSED_CLIENT_MARKER\");\n\t}\n};\n" +
			"export const registry = {};\n" +
			"export var Kept = class {\n\tstatic {\n\t\tregistry.kept = () => \"kept\";\n\t}\n};\n",
	})
	res := built(t, dir)
	if page := string(res.HTML); strings.Contains(page, "UNUSED_CLIENT_MARKER") || !strings.Contains(page, "kept") {
		t.Errorf("the unused class is in the page, or the kept one is not")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/dw.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`); got != `["protocol","kept"]` {
		t.Errorf("the page shows %s", got)
	}
}

// deadWrites is src with deadWriteEdits applied; "" when there are none.
func deadWrites(src string) string {
	edits := deadWriteEdits(&pkgModule{src: src})
	if len(edits) == 0 {
		return ""
	}
	return applyEdits(src, edits)
}
