package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// objectDefineApp is a small app of the shape that made esbuild wrap the import.meta.env
// define: an ES module entry, a CommonJS module beside it, and ES modules that read
// import.meta.env (reads, which main.js and env.js read) and a manifest define with an object
// value (__CONFIG__).
func objectDefineApp(t *testing.T, reads string) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"od\"\nname = \"OD\"\ndescription = \"Object defines.\"\nentry = \"src/main.js\"\n" +
			"[build]\ndefine = { __CONFIG__ = '{\"name\": \"cfg\", \"list\": [1, \"two\\nlines\"]}' }\n",
		"src/cjs.js":  "module.exports = { n: 1 };\n",
		"src/env.js":  "export function env() { return " + reads + "; }\n",
		"src/more.js": "export function more() { return [import.meta.env.PROD, import.meta.env.BASE_URL]; }\n",
		"src/main.js": "import c from \"./cjs.js\";\nimport { env } from \"./env.js\";\nimport { more } from \"./more.js\";\n" +
			"window.result = JSON.stringify([c.n, env(), more(), import.meta.env.MODE]);\n",
	})
	return dir
}

// TestObjectDefines: a define whose value is an object (import.meta.env, a manifest's
// __CONFIG__) is in the page once, in front of its code, only when kept code reads it whole;
// each member defined on its own is a constant where it is read; and the page shows what it
// showed when esbuild injected the object (then in a lazy-init wrapper that every module
// called, once a CommonJS module was in the build).
func TestObjectDefines(t *testing.T) {
	for _, row := range []struct {
		name, reads string
		declared    []string // the names declared in front of the page's code
		want        string   // window.result in Chromium
	}{
		{"members_only", "[import.meta.env.DEV, import.meta.env.MODE]", nil,
			`[1,[false,"production"],[true,"/"],"production"]`},
		{"whole_object", "[import.meta.env, import.meta.env.SSR, import.meta.env.NOT_DEFINED]", []string{"__bundle_define_import$_meta$_env"},
			`[1,[{"BASE_URL":"/","DEV":false,"MODE":"production","PROD":true,"SSR":false},false,null],[true,"/"],"production"]`},
		{"object_identity", "import.meta.env === import.meta.env && typeof import.meta.env", []string{"__bundle_define_import$_meta$_env"},
			`[1,"object",[true,"/"],"production"]`},
		{"manifest_object", "[__CONFIG__.name, __CONFIG__.list]", []string{"__bundle_define___CONFIG__"},
			`[1,["cfg",[1,"two\nlines"]],[true,"/"],"production"]`},
		{"both", "[__CONFIG__, Object.keys(import.meta.env).length]", []string{"__bundle_define___CONFIG__", "__bundle_define_import$_meta$_env"},
			`[1,[{"name":"cfg","list":[1,"two\nlines"]},5],[true,"/"],"production"]`},
	} {
		t.Run(row.name, func(t *testing.T) {
			res := built(t, objectDefineApp(t, row.reads))
			page := string(res.HTML)
			for _, name := range []string{"__bundle_define_import$_meta$_env", "__bundle_define___CONFIG__"} {
				n := strings.Count(page, name+"=") - strings.Count(page, name+"==") // declared (in one var when both are), read elsewhere
				want := 0
				if strings.Contains(strings.Join(row.declared, " "), name) {
					want = 1
				}
				if n != want {
					t.Errorf("%s declared %d times, want %d", name, n, want)
				}
			}
			if len(row.declared) == 0 && strings.Contains(page, "BASE_URL") {
				t.Errorf("the import.meta.env object is in a page that reads only its members")
			}
			b := browsertest.Start(t)
			b.Visit(t, b.Serve("/od.html", res.HTML), 0)
			b.Await(t, `window.result !== undefined`)
			if got := browsertest.Eval[string](t, b, `window.result`); got != row.want {
				t.Errorf("the page shows %s, want %s", got, row.want)
			}
		})
	}
}

// TestDeclareObjectDefines: the declarations in front of a script are one line, unless a
// value's string holds a line break, and the script's map moves down by as many lines.
func TestDeclareObjectDefines(t *testing.T) {
	define := map[string]string{"import.meta.env": `{"A":"x\ny","B":1}`, "K": `[1]`, "import.meta.env.B": "1", "N": "null"}
	if got := esbuildDefines(define); got["import.meta.env"] != "__bundle_define_import$_meta$_env" || got["K"] != "__bundle_define_K" || got["N"] != "null" || got["import.meta.env.B"] != "1" || define["K"] != "[1]" {
		t.Errorf("esbuildDefines gave %v (and left %v)", got, define)
	}
	decl, err := declareObjectDefines("f(__bundle_define_K)", define, api.ESNext, nil)
	if err != nil || decl != "var __bundle_define_K=[1];\n" {
		t.Errorf("got %q, %v", decl, err)
	}
	if decl, err := declareObjectDefines("f(1)", define, api.ESNext, nil); decl != "" || err != nil {
		t.Errorf("a script that reads no object define got %q, %v", decl, err)
	}
	decl, err = declareObjectDefines("f(__bundle_define_import$_meta$_env)", define, api.ESNext, nil)
	if err != nil || !strings.HasPrefix(decl, "var __bundle_define_import$_meta$_env=") {
		t.Fatalf("got %q, %v", decl, err)
	}
	// Found by an outside attack: a.b and a_b were one name, the second object the first's
	// value; a "__proto__" key of the JSON set the object's prototype.
	if a, b, c, d := objectDefineName("a.b"), objectDefineName("a_b"), objectDefineName("a$.b"), objectDefineName("a.$b"); a == b || c == d {
		t.Errorf("one name for two keys: %s %s, %s %s", a, b, c, d)
	}
	for v, want := range map[string]string{
		`{"__proto__": {"x": 1}, "s": [1, {"__proto__": null}]}`: `{["__proto__"]:{"x":1},"s":[1,{["__proto__"]:null}]}`,
		`[1.50, "</script>\u2028", true, null, {}]`:              `[1.50,"\u003c/script\u003e\u2028",true,null,{}]`,
		`{"a": 1} x`: `{"a": 1} x`, // not JSON: as it is, for esbuild to refuse
	} {
		if got := jsonAsJS(v); got != want {
			t.Errorf("jsonAsJS(%s) = %s, want %s", v, got, want)
		}
	}
	m := shiftMap([]byte(`{"version":3,"sources":["a.js"],"mappings":"AAAA","names":[]}`), strings.Count(decl, "\n"))
	if sm, ok := decodeMap(m); !ok || sm.Mappings != strings.Repeat(";", strings.Count(decl, "\n"))+"AAAA" {
		t.Errorf("the map moved to %s", m)
	}
}

// TestObjectDefinesInWorkers: a worker's script, built on its own (a classic script or an ES
// module), that reads import.meta.env whole has the object declared in front of it too.
func TestObjectDefinesInWorkers(t *testing.T) {
	for _, kind := range []string{"classic", "module"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"miniapp.toml": "id = \"odw\"\nname = \"ODW\"\ndescription = \"Object defines in workers.\"\nentry = \"src/main.js\"\n",
				"src/main.js": "const w = new Worker(new URL(\"./w.js\", import.meta.url), { type: \"" + kind + "\" });\n" +
					"w.onmessage = (e) => { window.result = e.data; };\n",
				"src/cjs.js": "module.exports = { n: 1 };\n",
				"src/w.js":   "import c from \"./cjs.js\";\npostMessage(JSON.stringify([c.n, import.meta.env.MODE, import.meta.env]));\n",
			})
			res := built(t, dir)
			if !strings.Contains(string(res.HTML), "__bundle_define_import$_meta$_env=") {
				t.Errorf("the worker's object is not declared")
			}
			b := browsertest.Start(t)
			b.Visit(t, b.Serve("/odw.html", res.HTML), 0)
			b.Await(t, `window.result !== undefined`)
			want := `[1,"production",{"BASE_URL":"/","DEV":false,"MODE":"production","PROD":true,"SSR":false}]`
			if got := browsertest.Eval[string](t, b, `window.result`); got != want {
				t.Errorf("the worker posted %s, want %s", got, want)
			}
		})
	}
}

// TestReservedDefineNames: an app's own name that starts with __bundle_define_ is refused
// where it is written (escapes read as the language reads them, TypeScript too): esbuild
// resolved the name it puts for import.meta.env in the scope it is read from, and the page
// read the app's "mine" for import.meta.env with exit 0. A member of that name (o.x, o?.x) is
// no binding and builds.
func TestReservedDefineNames(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"rdn\"\nname = \"RDN\"\ndescription = \"Reserved define names.\"\nentry = \"src/main.ts\"\n",
		"src/main.ts": "const __bundle_define_import$_meta$_env: string = \"mine\";\n" +
			"document.title = JSON.stringify(import.meta.env) + __bundle_define_import$_meta$_env;\n",
		"src/f.js": "export function f() {\n  let __bundle_define_\\u0069mport$_meta$_env = 1;\n  return import.meta.env.MODE + __bundle_define_import$_meta$_env;\n}\n",
	})
	refusedAt := func(want string) {
		t.Helper()
		var got []string
		for _, m := range refusedErrors(t, dir) {
			got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(m.File), m.Line, m.Column))
			if !strings.Contains(m.Text, "__bundle_define_import$_meta$_env") || !strings.Contains(m.Note, "rename it") {
				t.Errorf("%s: %s (%s)", got[len(got)-1], m.Text, m.Note)
			}
		}
		if fmt.Sprint(got) != want {
			t.Errorf("refused at %v, want %s", got, want)
		}
	}
	refusedAt("[main.ts:1:7 main.ts:2:52]")
	writeFiles(t, dir, map[string]string{"src/main.ts": "import { f } from \"./f.js\";\ndocument.title = f();\n"})
	refusedAt("[f.js:2:7 f.js:3:33]")
	writeFiles(t, dir, map[string]string{
		"src/main.ts": "const o: any = {};\no.__bundle_define_x = 1;\ndocument.title = String(o?.__bundle_define_x) + import.meta.env.MODE;\n",
	})
	built(t, dir)
	// A name the transforms give what they add (the import() helper's), an app's parameter
	// around an import(): refused at the name, as the rewritten import() would call it.
	writeFiles(t, dir, map[string]string{
		"src/main.ts": "export function load(__miniapp_afterTask: string) {\n  return import(\"./f.js\").then(() => __miniapp_afterTask);\n}\nload(\"x\");\n",
	})
	var got []string
	for _, m := range refusedErrors(t, dir) {
		got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(m.File), m.Line, m.Column))
		if !strings.Contains(m.Text, "__miniapp_afterTask is a name bundle gives") || !strings.Contains(m.Note, "names starting with __miniapp_ are bundle's") {
			t.Errorf("%s: %s (%s)", got[len(got)-1], m.Text, m.Note)
		}
	}
	if fmt.Sprint(got) != "[main.ts:1:22 main.ts:2:38]" {
		t.Errorf("refused at %v, want [main.ts:1:22 main.ts:2:38]", got)
	}
	// Names of that prefix that are no binding and read none: a property's name, a class
	// member's, a destructured key, a label, an attribute of JSX, an export's and an import's
	// name in another module. They built refused before, each at the name.
	writeFiles(t, dir, map[string]string{
		"src/m.js": "const t = 1;\nexport { t as __miniapp_theirs };\nexport const v = 2;\n",
		"src/view.jsx": "// @jsxRuntime classic\n// @jsx h\nconst h = (tag, props) => JSON.stringify([tag, props]);\n" +
			"export const view = <div __miniapp_attr=\"x\" __bundle_define_y=\"y\" />;\n",
		"src/main.ts": "import { __miniapp_theirs as theirs, v } from \"./m.js\";\nimport { view } from \"./view.jsx\";\n" +
			"const o = { __miniapp_key: 1, __bundle_define_x: 2, get __miniapp_get() { return 3; }, __miniapp_m() { return 4; } };\n" +
			"class C { __miniapp_field = 1; static __miniapp_s = 2; __miniapp_method() { return 3; } }\n" +
			"const { __miniapp_key: k } = o;\n" +
			"__miniapp_label: for (;;) { break __miniapp_label; }\n" +
			"export { k as __miniapp_exported };\nexport { v as __miniapp_again } from \"./m.js\";\n" +
			"document.title = String(o.__miniapp_key + k + new C().__miniapp_field + theirs) + view + import.meta.env.MODE;\n",
	})
	built(t, dir)
	// A shorthand property reads the name, an export without "as" exports the binding, and
	// an import's local name is one: refused.
	writeFiles(t, dir, map[string]string{
		"src/main.ts": "import { v as __miniapp_v } from \"./m.js\";\nconst o = { __miniapp_v };\nexport { __miniapp_v };\ndocument.title = String(o);\n",
	})
	got = nil
	for _, m := range refusedErrors(t, dir) {
		got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(m.File), m.Line, m.Column))
	}
	if fmt.Sprint(got) != "[main.ts:1:15 main.ts:2:13 main.ts:3:10]" {
		t.Errorf("refused at %v, want [main.ts:1:15 main.ts:2:13 main.ts:3:10]", got)
	}
}
