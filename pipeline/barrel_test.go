package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestHeadImports reads the import declarations of names only at a module's head, and stops
// at its first statement of code.
func TestHeadImports(t *testing.T) {
	src := "#!/usr/bin/env node\n\"use client\";\n// a comment with import { X } from \"no\"\n/* import { Y } from \"no\" */\n" +
		"import React from \"react\";\nimport { a, b as c, type T } from \"pkg\"\nimport * as ns from \"ns\";\nimport \"side\";\n" +
		"import d, { e } from \"mixed\";\nimport type { U } from \"types\";\nexport { f } from \"re\";\nexport * from \"star\";\n" +
		"import {\n  g,\n  h as i,\n} from 'multi';\nimport { j } from \"attrs\" with { type: \"json\" };\n" +
		"const s = `\nimport { k } from \"in-a-template\";\n`;\nimport { l } from \"after-code\";\n"
	var got []string
	for _, d := range headImports(src) {
		got = append(got, fmt.Sprintf("%s %v %v %q", d.spec, d.names, d.typeOnly, src[d.start:d.end]))
	}
	want := []string{
		`pkg [[a a] [b c] [T T]] [false false true] "import { a, b as c, type T } from \"pkg\""`,
		`multi [[g g] [h i]] [false false] "import {\n  g,\n  h as i,\n} from 'multi';"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What is not a declaration the scanner reads ends the head.
	for _, src := range []string{"foo();\nimport { a } from \"pkg\";", "import { a } from \"pkg\" + x;", "import { a.b } from \"pkg\";", "import { a } from `pkg`;"} {
		if ds := headImports(src); len(ds) != 0 {
			t.Errorf("%q: read %+v", src, ds)
		}
	}
}

// TestParseBarrel takes as a barrel only a module of nothing but re-exports, enough of them.
func TestParseBarrel(t *testing.T) {
	var b strings.Builder
	b.WriteString("/** @license MIT */\n\"use client\";\n")
	for i := range minBarrel {
		fmt.Fprintf(&b, "export { default as I%d } from \"./I%d.js\";\n", i, i)
	}
	b.WriteString("export { x as y, z } from './xz.js'\nexport * from \"./more.js\";\nexport * as ns from \"./ns.js\";\n")
	names := parseBarrel(b.String())
	if len(names) != minBarrel+2 || names["I7"] != (reexport{"./I7.js", "default"}) || names["y"] != (reexport{"./xz.js", "x"}) || names["z"] != (reexport{"./xz.js", "z"}) {
		t.Errorf("barrel: %v", names)
	}
	if legalComments(b.String()) != "/** @license MIT */" {
		t.Errorf("legal comments: %q", legalComments(b.String()))
	}
	// Re-exports written as an import and an export of what it binds, as lucide-react's.
	more := parseBarrel(b.String() + "import * as index from \"./icons/index.js\";\nexport { index as icons, d as dflt };\nimport d, { m as n } from \"./d.js\"\nexport { n }\n")
	if more["icons"] != (reexport{"./icons/index.js", "*"}) || more["dflt"] != (reexport{"./d.js", "default"}) || more["n"] != (reexport{"./d.js", "m"}) {
		t.Errorf("imports re-exported: %v %v %v", more["icons"], more["dflt"], more["n"])
	}
	for _, extra := range []string{"const x = 1;\n", "export const x = 1;\n", "export { notImported };\n", "import \"./side.js\";\n", "import j from \"./j.json\" with { type: \"json\" };\nexport { j };\n", "sideEffect();\n"} {
		if parseBarrel(b.String()+extra) != nil {
			t.Errorf("a barrel with %q read as one", extra)
		}
	}
	if parseBarrel("export { a } from \"./a.js\";\n") != nil {
		t.Errorf("one re-export read as a barrel")
	}
}

// barrelPackage writes a package of n modules behind a barrel, with the package.json
// given; when broken, the modules from the tenth on import a file that does not exist, so
// that a build which reads one fails.
func barrelPackage(files map[string]string, dir, pkg, packageJSON string, n int, broken bool) {
	var index strings.Builder
	index.WriteString("/*! the " + pkg + " licence */\n")
	for i := range n {
		fmt.Fprintf(&index, "export { default as Icon%d } from \"./icons/Icon%d.js\";\n", i, i)
		body := fmt.Sprintf("import { make } from \"../make.js\";\nexport default make(%d);\n", i)
		if broken && i >= 10 {
			body = "import \"./missing.js\";\n" + body
		}
		files[fmt.Sprintf("%s/node_modules/%s/icons/Icon%d.js", dir, pkg, i)] = body
	}
	index.WriteString("export { helper as renamed } from \"./make.js\";\nexport * from \"./star.js\";\n")
	// As lucide-react writes its index: an import, and an export of what it binds.
	index.WriteString("import * as all from \"./icons/all.js\";\nexport { all as icons, Icon2Alias };\nimport Icon2Alias from \"./icons/Icon2.js\";\n")
	files[dir+"/node_modules/"+pkg+"/icons/all.js"] = "export { default as Icon2 } from \"./Icon2.js\";\n"
	files[dir+"/node_modules/"+pkg+"/index.js"] = index.String()
	files[dir+"/node_modules/"+pkg+"/make.js"] = "export function make(i) { return \"" + pkg + " \" + i; }\nexport function helper() { return \"helped\"; }\n"
	files[dir+"/node_modules/"+pkg+"/star.js"] = "export const starred = \"star\";\n"
	files[dir+"/node_modules/"+pkg+"/package.json"] = packageJSON
}

// TestBarrelImports: an app's imports from a barrel of a package without side effects take
// each name from its own module, and the others are never read (they would fail the build);
// the page does what it would, the barrel's licence stays, the bytes are the same from one
// build to the next. A name the barrel does not re-export by name is imported from it, and a
// package that may have side effects is left alone.
func TestBarrelImports(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"miniapp.toml": "id = \"b\"\nname = \"B\"\ndescription = \"Barrel imports.\"\nentry = \"src/main.ts\"\n",
		"src/main.ts": "// icons never reads its barrel; stars reads it for starred (export *), so Icon1 comes\n" +
			"// through it too; effects may have side effects and is left alone\n" +
			"import { Icon3, Icon7 as Seven, renamed, Icon2Alias, type Props } from \"icons\";\n" +
			"import { Icon1, starred } from \"stars\";\n" +
			"import {\n  Icon5,\n} from \"effects\";\n" +
			"type Q = Props;\n" +
			"window.result = [Icon3, Seven, renamed(), Icon2Alias, Icon1, starred, Icon5];\n",
	}
	barrelPackage(files, ".", "icons", `{"name": "icons", "module": "index.js", "sideEffects": false}`, 60, true)
	barrelPackage(files, ".", "stars", `{"name": "stars", "module": "index.js", "sideEffects": false}`, 60, false)
	barrelPackage(files, ".", "effects", `{"name": "effects", "module": "index.js"}`, 60, false)
	writeFiles(t, dir, files)

	res := built(t, dir)
	var inputs []string
	for _, in := range res.Inputs {
		inputs = append(inputs, in.Path)
	}
	if all := strings.Join(inputs, " "); !strings.Contains(all, "node_modules/effects/icons/Icon40.js") || strings.Contains(all, "miniapp-") {
		t.Errorf("inputs: %v", inputs)
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/b.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	want := `["icons 3","icons 7","helped","icons 2","stars 1","star","effects 5"]`
	if got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`); got != want {
		t.Errorf("the page shows %s, want %s", got, want)
	}
	if reqs := b.Requests(); len(reqs) > 0 {
		t.Errorf("requests: %v", reqs)
	}
	out := filepath.Join(dir, "dist")
	res2, err := Build(t.Context(), dir, Options{OutDir: out, Sourcemap: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(res2.HTML) != string(res.HTML) {
		t.Errorf("a second build differs")
	}
	legal, err := os.ReadFile(filepath.Join(out, "b.licenses.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"icons", "stars", "effects"} {
		if !strings.Contains(string(legal), pkg+"/index.js:\n  /*! the "+pkg+" licence */") {
			t.Errorf("the licences lack %s's:\n%s", pkg, legal)
		}
	}
	// A name the barrel does not have: the declaration is left as written, and esbuild's
	// message shows it so.
	typo := "import { Icon33, Icon3x } from \"stars\";\n"
	writeFiles(t, dir, map[string]string{"src/main.ts": typo + "console.log(Icon33, Icon3x);\n"})
	if errs := refusedErrors(t, dir); len(errs) != 1 || errs[0].LineText != strings.TrimSpace(typo) || errs[0].Column != 18 || !strings.Contains(errs[0].Text, `for import "Icon3x"`) {
		t.Errorf("a name the barrel lacks: %+v", errs)
	}
	writeFiles(t, dir, map[string]string{"src/main.ts": files["src/main.ts"]})
	// The rewriting's specifiers, written by an author, read nothing: they are URLs.
	writeFiles(t, dir, map[string]string{"src/main.ts": "import \"miniapp-legal:../node_modules/icons/index.js\";\nimport x from \"miniapp-barrel:../../../../../../../../etc/hostname\";\nconsole.log(x);\n"})
	if errs := refusedErrors(t, dir); len(errs) != 2 || !strings.Contains(errs[0].Text, "loads from outside the bundle at run time") || !strings.Contains(errs[1].Text, "loads from outside the bundle at run time") {
		t.Errorf("the rewriting's specifiers written by hand: %+v", errs)
	}
	writeFiles(t, dir, map[string]string{"src/main.ts": files["src/main.ts"]})
	// barrels = false: esbuild reads every module the index names, the broken ones too.
	writeFiles(t, dir, map[string]string{"miniapp.toml": files["miniapp.toml"] + "[build]\nbarrels = false\n"})
	if errs := refusedErrors(t, dir); len(errs) == 0 || !strings.Contains(errs[0].Text, `Could not resolve "./missing.js"`) {
		t.Errorf("barrels = false: %v", errs)
	}
	// The map's sources and contents name no absolute path, and show the script as written.
	m, err := os.ReadFile(filepath.Join(out, "b.js.map"))
	if err != nil || strings.Contains(string(m), dir) || strings.Contains(string(m), filepath.ToSlash(dir)) {
		t.Errorf("the source map names the app's absolute path (%v)", err)
	}
	var sm struct {
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
	}
	if err := json.Unmarshal(m, &sm); err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(sm.Sources, "../src/main.ts"); i < 0 || sm.SourcesContent[i] != files["src/main.ts"] {
		t.Errorf("the map's src/main.ts is not the script as written: %v", sm.Sources)
	}
}

// FuzzHeadImports: the scanner never panics, and every declaration it reads lies in the text,
// begins with import and ends where a statement may.
func FuzzHeadImports(f *testing.F) {
	f.Add("import { a, b as c, type T } from \"pkg\";\nimport d, * as e from 'x'\nexport * as f from \"y\"\ncode()")
	f.Add("\ufeff/* c */ 'use client'\nimport {\n a,\n} from \"p\" with { type: \"json\" }\n")
	f.Add("export { default as A } from \"./a.js\"; import * as ns from './n.js'; export { ns as icons }")
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range headImports(src) {
			if d.start < 0 || d.end > len(src) || d.start >= d.end || !strings.HasPrefix(src[d.start:], "import") || len(d.names) != len(d.typeOnly) {
				t.Fatalf("%q: %+v", src, d)
			}
		}
		parseBarrel(src)
		legalComments(src)
	})
}

// TestBarrelStylesheets: in a package whose modules import their stylesheets, with
// "sideEffects": false or ["*.css"], the page holds the stylesheet of the component the app
// imports, as Vite's build of it does (1 rule of 60 with either; esbuild alone keeps 60).
func TestBarrelStylesheets(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"miniapp.toml":                  "id = \"k\"\nname = \"K\"\ndescription = \"A kit.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                   "import { C3 } from \"kit\";\ndocument.body.textContent = C3();\n",
		"node_modules/kit/package.json": `{"name": "kit", "module": "index.js", "sideEffects": ["*.css"]}`,
	}
	var index strings.Builder
	for i := range 60 {
		fmt.Fprintf(&index, "export { default as C%d } from \"./c/C%d.js\";\n", i, i)
		files[fmt.Sprintf("node_modules/kit/c/C%d.js", i)] = fmt.Sprintf("import \"./C%d.css\";\nexport default function C%d() { return \"c%d\"; }\n", i, i, i)
		files[fmt.Sprintf("node_modules/kit/c/C%d.css", i)] = fmt.Sprintf(".c%d { order: %d }\n", i, i)
	}
	files["node_modules/kit/index.js"] = index.String()
	for _, side := range []string{`["*.css"]`, "false"} {
		files["node_modules/kit/package.json"] = `{"name": "kit", "module": "index.js", "sideEffects": ` + side + `}`
		writeFiles(t, dir, files)
		page := string(built(t, dir).HTML)
		if n := strings.Count(page, "order:"); n != 1 || !strings.Contains(page, ".c3{order:3}") {
			t.Errorf("sideEffects %s: %d of the kit's 60 stylesheets in the page, want the one of C3", side, n)
		}
	}
}

// TestBarrelInlineScript: code written in the page is rewritten as a file is, and its source
// map shows it as written.
func TestBarrelInlineScript(t *testing.T) {
	dir := t.TempDir()
	code := "\n  import { Icon3 } from \"icons\";\n  document.body.dataset.icon = Icon3;\n"
	files := map[string]string{
		"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"A page.\"\n",
		"index.html":   "<!doctype html><title>P</title><script type=\"module\">" + code + "</script>",
	}
	barrelPackage(files, ".", "icons", `{"name": "icons", "module": "index.js", "sideEffects": false}`, 60, true)
	writeFiles(t, dir, files)
	out := filepath.Join(dir, "dist")
	if _, err := Build(t.Context(), dir, Options{OutDir: out, Sourcemap: true}); err != nil {
		t.Fatal(err) // the barrel's broken modules were read
	}
	m, err := os.ReadFile(filepath.Join(out, "p.js.map"))
	if err != nil {
		t.Fatal(err)
	}
	var sm struct {
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
	}
	json.Unmarshal(m, &sm)
	if i := slices.Index(sm.Sources, "../index.html"); i < 0 || sm.SourcesContent[i] != code {
		t.Errorf("the map's page code is not as written: %q", sm.Sources)
	}
}
