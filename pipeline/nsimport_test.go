package pipeline

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// nsImportFiles is an app whose packages import a module's namespace by name, in each shape
// the rewriting meets: first or last in a list, alone, twice, with a default import, without
// a semicolon, through export *, export * as, an import and export { }, and what it leaves
// as written: a CommonJS module's name, a name two export * give. The namespace's module
// holds a function nobody calls and a nested namespace of "locales" nobody reads.
func nsImportFiles() map[string]string {
	ext := "export * as locales from \"./locales.js\";\nexport function used() { return \"used\"; }\nexport function unused() { return \"UNUSED_FN_MARKER\"; }\n"
	return map[string]string{
		"miniapp.toml": "id = \"ns\"\nname = \"NS\"\ndescription = \"Namespaces imported by name.\"\nentry = \"src/main.js\"\n",
		"src/main.js": "import { a } from \"user/a.js\";\nimport { b } from \"user/b.js\";\nimport { c } from \"user/c.js\";\n" +
			"import { d } from \"user/d.js\";\nimport { e } from \"user/e.js\";\nimport { f } from \"user/f.js\";\n" +
			"import { g, g2 } from \"user/g.js\";\nimport { h } from \"user/h.js\";\n" +
			"window.result = [a, b, c, d, e, f, g, g2, h];\n",
		"node_modules/user/package.json": `{"name": "user", "type": "module", "sideEffects": false}`,
		"node_modules/user/a.js":         "import { z as Q, other } from \"ns-lib\";\nexport const a = Q.used() + other;\n",
		"node_modules/user/b.js":         "import{other,z}from\"ns-lib\"\nexport const b=z.used()+other\n",
		"node_modules/user/c.js":         "import d, { z } from \"ns-default\";\nexport const c = d + z.used();\n",
		"node_modules/user/d.js":         "import { z as A, z as B } from \"ns-star\";\nexport const d = A.used() + (A.used === B.used);\n",
		"node_modules/user/e.js":         "import { z } from \"cjs-lib\";\nexport const e = z.used();\n",
		"node_modules/user/f.js":         "import { other } from \"ambiguous\";\nexport const f = other;\n",
		// Constants: the dev branch is dropped, a parameter of the same name is its own, a
		// name the module exports again and a const of a module that imports stay imported.
		"node_modules/user/g.js": "import { DEV, NAME as label, imports } from \"flag\";\nimport { N } from \"flag/n.js\";\n" +
			"export const g = DEV ? \"DEV_ONLY_MARKER\" : label + N + imports;\nfunction inner(DEV) { return DEV; }\nexport const g2 = inner(\"shadowed\");\n",
		"node_modules/user/h.js":         "import { DEV } from \"flag\";\nexport { DEV };\nexport const h = String(DEV);\n",
		"node_modules/flag/package.json": `{"name": "flag", "type": "module", "sideEffects": false}`,
		"node_modules/flag/index.js":     "export { default as DEV } from \"./dev.js\";\nexport * from \"./name.js\";\nexport { imports } from \"./imports.js\";\n",
		"node_modules/flag/dev.js":       "export default false;\n",
		"node_modules/flag/name.js":      "const NAME = 'prod';\nexport { NAME };\n",
		"node_modules/flag/n.js":         "export const N = 3;\n",
		"node_modules/flag/imports.js":   "import { N } from \"./n.js\";\nexport const imports = \"+imports\";\n",

		"node_modules/ns-lib/package.json": `{"name": "ns-lib", "type": "module", "sideEffects": false, "exports": "./index.js"}`,
		"node_modules/ns-lib/index.js":     "import * as z from \"./external.js\";\nexport { z };\nexport const other = \"+other\";\n",
		"node_modules/ns-lib/external.js":  ext,
		"node_modules/ns-lib/locales.js":   "export const fr = \"LOCALE_MARKER\";\n",

		"node_modules/ns-default/package.json": `{"name": "ns-default", "type": "module", "sideEffects": false}`,
		"node_modules/ns-default/index.js":     "export default \"D+\";\nexport * as z from \"./external.js\";\n",
		"node_modules/ns-default/external.js":  ext,
		"node_modules/ns-default/locales.js":   "export const fr = \"LOCALE_MARKER\";\n",

		"node_modules/ns-star/package.json": `{"name": "ns-star", "type": "module", "sideEffects": false}`,
		"node_modules/ns-star/index.js":     "export * from \"./inner.js\";\nexport * from \"./more.js\";\n",
		"node_modules/ns-star/inner.js":     "export * as z from \"./external.js\";\n",
		"node_modules/ns-star/more.js":      "export const z2 = 2;\n",
		"node_modules/ns-star/external.js":  ext,
		"node_modules/ns-star/locales.js":   "export const fr = \"LOCALE_MARKER\";\n",

		"node_modules/cjs-lib/package.json": `{"name": "cjs-lib"}`,
		"node_modules/cjs-lib/index.js":     "exports.z = { used: function () { return \"cjs\"; } };\n",

		"node_modules/ambiguous/package.json": `{"name": "ambiguous", "type": "module", "sideEffects": false}`,
		"node_modules/ambiguous/index.js":     "export * from \"./one.js\";\nexport * from \"./two.js\";\n",
		"node_modules/ambiguous/one.js":       "export * as z from \"./x.js\";\nexport const other = \"other\";\n",
		"node_modules/ambiguous/two.js":       "import * as z from \"./y.js\";\nexport { z };\n",
		"node_modules/ambiguous/x.js":         "export const x = 1;\n",
		"node_modules/ambiguous/y.js":         "export const y = 1;\n",
	}
}

// TestNamespaceImportedByName: a namespace a package imports by name and reads by property
// leaves out what nobody reads, as Vite's build does (esbuild alone keeps it all, as the
// first build here shows), and the page does what it did (Chromium).
func TestNamespaceImportedByName(t *testing.T) {
	dir := t.TempDir()
	files := nsImportFiles()
	writeFiles(t, dir, files)

	// esbuild on its own keeps the namespace's every export and nested namespace.
	plain := api.Build(api.BuildOptions{EntryPoints: []string{filepath.Join(dir, "src/main.js")}, Bundle: true, Write: false,
		MinifySyntax: true, Format: api.FormatESModule, Outdir: "out", LogLevel: api.LogLevelSilent})
	if len(plain.Errors) > 0 || len(plain.OutputFiles) != 1 {
		t.Fatalf("esbuild: %v", plain.Errors)
	}
	if js := string(plain.OutputFiles[0].Contents); !strings.Contains(js, "UNUSED_FN_MARKER") || !strings.Contains(js, "LOCALE_MARKER") {
		t.Errorf("esbuild alone dropped the namespace's unread exports: the rewriting may no longer be needed")
	}

	res := built(t, dir)
	page := string(res.HTML)
	for _, marker := range []string{"UNUSED_FN_MARKER", "LOCALE_MARKER", "DEV_ONLY_MARKER"} {
		if strings.Contains(page, marker) {
			t.Errorf("the page holds %s, which nothing reads", marker)
		}
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/ns.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	want := `["used+other","used+other","D+used","usedtrue","cjs","other","prod3+imports","shadowed","false"]`
	if got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`); got != want {
		t.Errorf("the page shows %s, want %s", got, want)
	}
	if again := built(t, dir); string(again.HTML) != page {
		t.Errorf("a second build differs")
	}
}

// TestNamespaceImportsText: the declarations as the rewriting writes them, each name taken
// out of its list with its comma, the namespace imported after the declaration on its line.
func TestNamespaceImportsText(t *testing.T) {
	dir := t.TempDir()
	files := nsImportFiles()
	rows := []struct{ name, src, want string }{
		{"first", "import { z as Q, other } from \"ns-lib\";\nQ.used(other);\n",
			"import { other } from \"ns-lib\";import * as Q from \"../ns-lib/external.js\";\nQ.used(other);\n"},
		{"last, no semicolon", "import{other,z}from\"ns-lib\"\nz.used()\n",
			"import{other}from\"ns-lib\";import * as z from \"../ns-lib/external.js\";\nz.used()\n"},
		{"alone", "import { z } from \"ns-lib\"; z.used();\n",
			"import {  } from \"ns-lib\";import * as z from \"../ns-lib/external.js\"; z.used();\n"},
		{"twice, through export *", "import { z as A, z as B } from \"ns-star\" // c\n",
			"import {  } from \"ns-star\";import * as A from \"../ns-star/external.js\";import * as B from \"../ns-star/external.js\"; // c\n"},
		{"with a default import", "import d, { z } from \"ns-default\";\n",
			"import d, {  } from \"ns-default\";import * as z from \"../ns-default/external.js\";\n"},
		{"a middle one", "import { other as o, z, other } from \"ns-lib\";\n",
			"import { other as o, other } from \"ns-lib\";import * as z from \"../ns-lib/external.js\";\n"},
		{"in a string, and a declaration", "const s = 'import { z } from \"ns-lib\"';\nimport { z } from \"ns-lib\";\n",
			"const s = 'import { z } from \"ns-lib\"';\nimport {  } from \"ns-lib\";import * as z from \"../ns-lib/external.js\";\n"},
		{"a constant", "import { DEV, NAME } from \"flag\";\nif (DEV) x(NAME);\n",
			"import {} from \"flag\";\nif (false) x(\"prod\");\n"},
		{"a constant exported again", "import { DEV } from \"flag\";\nexport { DEV };\n", ""},
		{"CommonJS", "import { z } from \"cjs-lib\";\n", ""},
		{"ambiguous", "import { z } from \"ambiguous\";\n", ""},
		{"not a namespace", "import { other } from \"ns-lib\";\n", ""},
		{"in a string only", "const s = 'import { z } from \"ns-lib\"';\n", ""},
	}
	for i, r := range rows {
		files["node_modules/user/row"+string(rune('a'+i))+".js"] = r.src
	}
	writeFiles(t, dir, files)
	b := &bundler{root: dir, readRoot: dir}
	got := map[string]string{}
	res := api.Build(api.BuildOptions{EntryPoints: []string{"entry"}, AbsWorkingDir: dir, Write: false, LogLevel: api.LogLevelSilent,
		Plugins: []api.Plugin{{Name: "rows", Setup: func(pb api.PluginBuild) {
			pb.OnResolve(api.OnResolveOptions{Filter: `^entry$`}, func(api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: "entry", Namespace: "rows"}, nil
			})
			pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "rows"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				for i, r := range rows {
					file := filepath.Join(dir, "node_modules", "user", "row"+string(rune('a'+i))+".js")
					got[r.name] = b.namespaceImports(file, r.src, api.LoaderJS, pb.Resolve)
				}
				empty := ""
				return api.OnLoadResult{Contents: &empty}, nil
			})
		}}},
	})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	for _, r := range rows {
		if got[r.name] != r.want {
			t.Errorf("%s:\n got %q\nwant %q", r.name, got[r.name], r.want)
		}
	}
}

// namespaceImports is src, the package module at file, with namespaceEdits applied and the
// constants defined, as loadPackageModule gives it; "" when there is nothing to rewrite.
func (b *bundler) namespaceImports(file, src string, loader api.Loader, resolve func(string, api.ResolveOptions) api.ResolveResult) string {
	edits, defines := b.namespaceEdits(file, &pkgModule{src: src}, loader, resolve)
	if len(edits) == 0 {
		return ""
	}
	out := applyEdits(src, edits)
	if len(defines) == 0 {
		return out
	}
	res := api.Transform(out, api.TransformOptions{Loader: api.LoaderJS, Sourcefile: file, Define: defines,
		Target: api.ESNext, Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsInline, LogLevel: api.LogLevelSilent})
	if len(res.Errors) > 0 {
		return ""
	}
	return string(res.Code)
}
