package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// tableCalls is src with tableCallEdits applied; "" when there are none.
func tableCallsOf(src string) string {
	edits := tableCallEdits(&pkgModule{src: src})
	if len(edits) == 0 {
		return ""
	}
	return applyEdits(src, edits)
}

// TestTableCalls: a module-level object of the module's functions and calls has its calls
// declared before it in its declaration list; one whose other values could do something, or
// that is exported, has a spread, an accessor or a computed key, or names no function of the
// module, is left as written.
func TestTableCalls(t *testing.T) {
	const fns = "function date() {}\nfunction bind(r) { return r.test.bind(r); }\nconst U = /a:b/;\nconst EMAIL = (s) => s.includes(\"@\");\n"
	for _, r := range []struct{ name, src, want string }{
		{"cfworker's format", fns + "const format = {\n\tdate,\n\ttime: date.bind(void 0, false),\n\t\"uri-reference\": bind(U),\n\temail: EMAIL,\n\tn: [1, { k: 2 }],\n\tx: a ? b : c,\n};\n",
			fns + "const format$0 = date.bind(void 0, false), format$1 = bind(U), format$2 = a ? b : c, format = {\n\tdate,\n\ttime: format$0,\n\t\"uri-reference\": format$1,\n\temail: EMAIL,\n\tn: [1, { k: 2 }],\n\tx: format$2,\n};\n"},
		{"minified, a second declarator, a method", "function d(){}let a=f(),o={d,t:g({x:1},`${h()}`),m(){return 1}},z=2;",
			"function d(){}let a=f(),o$0 = g({x:1},`${h()}`), o={d,t:o$0,m(){return 1}},z=2;"},
		{"a name taken", fns + "const o$ = 1;\nconst o = { date, t: bind(U) };\n", fns + "const o$ = 1;\nconst o$$0 = bind(U), o = { date, t: o$$0 };\n"},
		{"exported", fns + "export const format = { date, t: bind(U) };\n", ""},
		{"no function named", fns + "const format = { n: 1, t: bind(U) };\n", ""},
		{"all pure", fns + "const format = { date, n: 1 };\n", ""},
		{"a global shorthand", fns + "const format = { date, window, t: bind(U) };\n", ""},
		{"a binding declared after", fns + "const format = { date, later, t: bind(U) };\nconst later = 1;\n", ""},
		{"a spread", fns + "const format = { date, ...o, t: bind(U) };\n", ""},
		{"a getter", fns + "const format = { date, get g() { return 1; }, t: bind(U) };\n", ""},
		{"a computed key", fns + "const format = { date, [k]: 1, t: bind(U) };\n", ""},
		{"in a group", fns + "const format = ({ date, t: bind(U) });\n", ""},
		{"eval", fns + "const format = { date, t: bind(U) };\neval('');\n", ""},
	} {
		if got := tableCallsOf(r.src); got != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got, r.want)
		}
	}
}

// TestTableCallsInPage: a package's unused table of functions and calls is left out of the page
// but for its calls, which run as before, and a used one reads what it did (Chromium).
func TestTableCallsInPage(t *testing.T) {
	dir := t.TempDir()
	table := func(name, marker string) string {
		return "function " + name + "Check(s) { return s === \"" + marker + "\"; }\n" +
			"const " + name + " = { check: " + name + "Check, bound: note(\"" + name + "\"), n: 1 };\n"
	}
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                     "id = \"tc\"\nname = \"TC\"\ndescription = \"Tables that call.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                      "import { use } from \"tables\";\nwindow.result = use();\n",
		"node_modules/tables/package.json": `{"name": "tables", "type": "module", "sideEffects": false}`,
		"node_modules/tables/index.js": "const notes = [];\nfunction note(s) { notes.push(s); return s.length; }\n" +
			table("used", "USED_TABLE_MARKER") + table("unused", "UNUSED_TABLE_MARKER") +
			"export function use() { return [used.check(\"USED_TABLE_MARKER\"), used.bound, notes.join()].join(); }\n" +
			"export function other() { return unused.check(\"x\"); }\n",
	})
	res := built(t, dir)
	if page := string(res.HTML); strings.Contains(page, "UNUSED_TABLE_MARKER") || !strings.Contains(page, "USED_TABLE_MARKER") {
		t.Errorf("the unused table's function is in the page, or the used one's is not")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/tc.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got, want := browsertest.Eval[string](t, b, `window.result`), "true,4,used,unused"; got != want {
		t.Errorf("the page shows %q, want %q", got, want)
	}
}
