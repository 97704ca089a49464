package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/manifest"
)

// TestPrebuild: bundling a page's stylesheets and module scripts in one esbuild build gives
// what building each alone gives: the page, its entry, the warnings in the same order, the
// same refusal (a build that fails is left to the walk), with an entry that holds a CSS Module
// among them (its names-kept pass is its own, not the others'). And the walk
// takes every entry prebuild bundled, so that no build's inputs, legal comments or flags
// count for an entry the page does not hold.
func TestPrebuild(t *testing.T) {
	const manifestText = "id = \"p\"\nname = \"P\"\ndescription = \"Several entries.\"\nentry = \"index.html\"\n"
	page := `<!doctype html><html><head><meta charset="utf-8"><title>P</title>
<link rel="stylesheet" href="./css/a.css"><link rel="stylesheet icon" href="./css/a.css">
<link rel="stylesheet" href="css/b.css" media="print"><link rel="stylesheet" href="./css/a.css">
<link rel="alternate stylesheet" href="./css/alt.css" title="Alt"><style>.page{margin:0}</style>
</head><body><template><script type="module" src="./src/t.js"></script></template>
<svg><script type="module">window.v = 1;</script><link rel="stylesheet" href="./css/svg.css"></svg>
<script type="module" src="./src/a.js"></script><script type="module">import { s } from './src/s.js'; s();</script>
<script type="module" src="src/b.js"></script><script src="./src/classic.js"></script></body></html>`
	files := map[string]string{
		"miniapp.toml": manifestText, "css/a.css": ".a{color:red}", "css/b.css": ".b{color:blue}", "css/alt.css": ".alt{color:green}",
		"css/svg.css": ".svg{color:gray}", "src/s.js": "/*! s licence */\nexport const s = () => document.title;\n",
		"src/a.js": "import { s } from './s.js';\nimport './a.css';\nconsole.log(s());\n", "src/a.css": ".in-a{margin:0}",
		"src/b.js": "import { s } from './s.js';\nexport const b = s();\nconsole.log(b);\n", "src/t.js": "export const t = 1;\n",
		"src/classic.js": "window.c = 1;\n",
	}
	variants := map[string]map[string]string{
		"shared": {},
		// esbuild warns in a stylesheet, in one a script imports and in a script; the page
		// warns between them.
		"warnings": {"css/b.css": ".b{color:", "src/b.js": "import { s } from './s.js';\nconsole.log({a: 1, a: s()});\n", "src/a.css": ".in-a{margin:"},
		"error":    {"src/a.js": "const = ;\n", "css/b.css": ".b{color:"},
		"modules":  {"src/b.js": "import st from './b.module.css';\nexport const b = st.box;\n", "src/b.module.css": ".box{padding:1px}"},
	}
	for name, changes := range variants {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			for f, body := range files {
				if c, ok := changes[f]; ok {
					body = c
				}
				writeFile(t, filepath.Join(dir, f), body)
			}
			for f, body := range changes {
				writeFile(t, filepath.Join(dir, f), body)
			}
			writeFile(t, filepath.Join(dir, "index.html"), page)
			together, errTogether := Build(context.Background(), dir, Options{NoWrite: true})
			defer func(n int) { prebuildMin = n }(prebuildMin)
			prebuildMin = 1 << 30
			alone, errAlone := Build(context.Background(), dir, Options{NoWrite: true})
			prebuildMin = 2
			if (errTogether == nil) != (errAlone == nil) || errTogether != nil && errTogether.Error() != errAlone.Error() {
				t.Fatalf("together: %v\nalone: %v", errTogether, errAlone)
			}
			if errTogether != nil {
				if name != "error" {
					t.Fatalf("the page is refused: %v", errTogether)
				}
				return
			}
			if string(together.HTML) != string(alone.HTML) {
				t.Errorf("the pages differ:\n%s\n%s", together.HTML, alone.HTML)
			}
			if !reflect.DeepEqual(together.Entry, alone.Entry) || !reflect.DeepEqual(together.Inputs, alone.Inputs) {
				t.Errorf("entries or inputs differ: %+v %+v\n%v\n%v", together.Entry, alone.Entry, together.Inputs, alone.Inputs)
			}
			if !reflect.DeepEqual(together.Warnings, alone.Warnings) {
				t.Errorf("warnings differ:\n%v\n%v", together.Warnings, alone.Warnings)
			}
			// What prebuild bundled, the walk takes, all of it.
			a := appAssembler(t, dir)
			a.prebuild()
			// Every local stylesheet link (an alternate one, one in a template or in SVG too,
			// not one that is also an icon's) and module script with a src outside SVG, once,
			// and the <style> and inline module script outside SVG.
			// The live module scripts (a.js, the inline one, b.js) as one graph (graph.go).
			want := []string{"css/a.css", "css/alt.css", "css/b.css", "css/svg.css", "src/t.js",
				inlineKey(strings.Index(page, ".page{")), graphKey}
			if got := slices.Sorted(maps.Keys(a.prebuilt)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
				t.Errorf("prebuild bundled %q, want %q", got, want)
			}
			a.assemble()
			if len(a.prebuilt) != 0 {
				t.Errorf("the walk left %d of the entries prebuild bundled: %v", len(a.prebuilt), a.prebuilt)
			}
		})
	}
}

// TestPrebuildSkipsSVGScripts: a script in SVG is the page's as written (the walk leaves it,
// and the check judges it), so prebuild does not bundle it.
func TestPrebuildSkipsSVGScripts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"s\"\nname = \"S\"\ndescription = \"SVG.\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><link rel="stylesheet" href="a.css"><svg><script type="module" src="svg.js"></script></svg><script type="module" src="m.js"></script>`,
		"a.css":        ".a{color:red}", "svg.js": "export const v = 1;", "m.js": "console.log(1);",
	})
	a := appAssembler(t, dir)
	a.prebuild()
	if got := slices.Sorted(maps.Keys(a.prebuilt)); !slices.Equal(got, []string{"a.css", "m.js"}) {
		t.Errorf("prebuild bundled %q, want a.css and m.js", got)
	}
}

// built builds the app in dir, which must build, in memory.
func built(t *testing.T, dir string) *Result {
	t.Helper()
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// refusedErrors builds the app in dir, which must be refused, and returns its errors.
func refusedErrors(t *testing.T, dir string) []diag.Message {
	t.Helper()
	_, err := Build(context.Background(), dir, Options{NoWrite: true})
	var el *diag.ListError
	if !errors.As(err, &el) {
		t.Fatalf("not refused: %v", err)
	}
	var errs []diag.Message
	for _, m := range el.List {
		if m.Severity == diag.Error {
			errs = append(errs, m)
		}
	}
	return errs
}

// writeFiles writes each file of files (slash-separated paths) into dir, making its folders.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for f, body := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), body)
	}
}

// writeFile writes body to path, making its folders.
func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// appAssembler returns the assembler of the app in dir, on its index.html (or the page made
// for a script entry); its CSS tools close when the test ends.
func appAssembler(t testing.TB, dir string) *assembler {
	t.Helper()
	m, err := manifest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBundler(m, dir, m.Root, map[string]string{}, nil, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.css.close)
	file, src, err := entryPage(m)
	if err != nil {
		t.Fatal(err)
	}
	return newAssembler(b, m, file, src)
}

// TestEntries: the files a build bundles as entries, for bench/compare's floor: a page's
// stylesheets and module scripts (not its icon), or the script entry of a page made for it.
func TestEntries(t *testing.T) {
	hello := sampleDir(t, "hello")
	got, err := Entries(hello)
	abs, _ := filepath.Abs(hello)
	abs, _ = filepath.EvalSymlinks(abs)
	if want := []string{filepath.Join(abs, "style.css"), filepath.Join(abs, "main.js")}; err != nil || !slices.Equal(got, want) {
		t.Errorf("hello: %q, %v; want %q", got, err, want)
	}
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(tmp, "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"s\"\nname = \"S\"\ndescription = \"Script entry.\"\nentry = \"src/main.ts\"\n")
	writeFile(t, filepath.Join(dir, "src", "main.ts"), "console.log(1);\n")
	got, err = Entries(dir)
	if want := []string{filepath.Join(dir, "src", "main.ts")}; err != nil || !slices.Equal(got, want) {
		t.Errorf("a script entry: %q, %v; want %q", got, err, want)
	}
}

// BenchmarkPrebuild builds a page of five entries (two <style>s, an inline module script, a
// stylesheet and a module script file) with prebuild (together: one esbuild build) and
// without (alone: one build per entry), in one run; bytes are the page's.
func BenchmarkPrebuild(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "app")
	writeFiles(b, dir, map[string]string{
		"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"Five entries.\"\nentry = \"index.html\"\n",
		"index.html": `<!doctype html><html><head><title>P</title><style>body { margin: 0 }</style>
<link rel="stylesheet" href="./a.css"></head><body><p id="out"></p>
<script type="module">import { v } from './lib.js'; document.getElementById('out').textContent = v;</script>
<script type="module" src="./main.js"></script><style>p { color: #123456 }</style></body></html>`,
		"a.css": ".a { padding: 1px }\n", "lib.js": "export const v = 'value';\n",
		"main.js": "import { v } from './lib.js';\nconsole.log(v);\n",
	})
	defer func(n int) { prebuildMin = n }(prebuildMin)
	for _, r := range []struct {
		name string
		min  int
	}{{"together", 2}, {"alone", 1 << 30}} {
		b.Run(r.name, func(b *testing.B) {
			prebuildMin = r.min
			benchBuild(b, dir)
		})
	}
}

// TestPrebuildSharedCSSModule: a CSS Module that two entries import has its class names made
// unique across one build (.box_box, .box_box2), not as each entry alone names them: prebuild
// leaves such a page to one build per entry, and the page is what it is built alone. An entry
// alone with its CSS Module is bundled with the others.
func TestPrebuildSharedCSSModule(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":   "id = \"m\"\nname = \"M\"\ndescription = \"A shared CSS Module.\"\nentry = \"index.html\"\n",
		"box.module.css": ".box { padding: 1px }\n",
		"x.js":           "import s from './box.module.css';\ndocument.body.className = s.box;\n",
		"y.js":           "import s from './box.module.css';\nconsole.log(s.box);\n",
		"z.js":           "console.log('z');\n",
		"index.html":     `<!doctype html><title>M</title><template><script type="module" src="./y.js"></script></template><script type="module" src="./x.js"></script>`,
	})
	build := func(min int) *Result {
		defer func(n int) { prebuildMin = n }(prebuildMin)
		prebuildMin = min
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// The inputs too: what the build of both recorded is not counted again.
	if together, alone := build(2), build(1<<30); string(together.HTML) != string(alone.HTML) || !reflect.DeepEqual(together.Inputs, alone.Inputs) {
		t.Errorf("together and alone differ:\n%s %v\n%s %v", together.HTML, together.Inputs, alone.HTML, alone.Inputs)
	}
	a := appAssembler(t, dir)
	if a.prebuild(); len(a.prebuilt) != 0 {
		t.Errorf("prebuild bundled %d entries that share a CSS Module", len(a.prebuilt))
	}
	writeFile(t, filepath.Join(dir, "index.html"), `<!doctype html><title>M</title><template><script type="module" src="./z.js"></script></template><script type="module" src="./x.js"></script>`)
	a = appAssembler(t, dir)
	if a.prebuild(); len(a.prebuilt) != 2 {
		t.Errorf("prebuild bundled %d of 2 entries, one with a CSS Module of its own", len(a.prebuilt))
	}
}

// TestPrebuildInlineEdits: two module scripts written in the page, bundled in one build, are
// loaded at once, and each one's warnings are placed through its own edits, not the other's:
// both were kept by the page's path, and the one loaded last gave its edits (none) to the
// other's warning, at 3:50 where "b" is at 3:66 (found by CI on TestPrebuildRandomPages).
func TestPrebuildInlineEdits(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"r\"\nname = \"R\"\ndescription = \"Two scripts.\"\nentry = \"index.html\"\n",
		"lib.js":       "export const v = 3;\n",
		"index.html": "<!doctype html><title>R</title>" + strings.Repeat("<script type=\"module\">import {v} from './lib.js'; console.log(v);</script>", 8) +
			"<script type=\"module\">\nconst r = 1;\nconsole.log(r, new URL('./lib.js', import.meta.url).href, {b: 1, b: 2});\n</script>" +
			strings.Repeat("<script type=\"module\">import {v} from './lib.js'; console.log(v);</script>", 8),
	})
	for range 20 {
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(res.Warnings, func(d diag.Message) bool { return strings.Contains(d.Text, `"b"`) })
		if i < 0 || res.Warnings[i].Line != 3 || res.Warnings[i].Column != 66 {
			t.Fatalf("the duplicate key is at 3:66: %v", res.Warnings)
		}
	}
}

// TestPrebuildRandomPages builds pages put together at random (a fixed seed) from the things
// prebuild bundles or leaves (inline code with the source transforms among them), with and
// without it: the same page, warnings, inputs and
// refusal every time, and the walk takes every entry prebuild bundled.
func TestPrebuildRandomPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":    "id = \"r\"\nname = \"R\"\ndescription = \"Random pages.\"\nentry = \"index.html\"\n",
		".env":            "VITE_T=Title\n",
		"tsconfig.json":   `{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }`,
		"public/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>`,
		"src/lib.ts":      "export const v: string = 'lib';\n", "a.css": ".a{color:red}", "b.css": ".b{colr:blue}",
		"m.js": "import './a.css';\nexport const m = 1;\nconsole.log(m);\n", "n.js": "const o = {a: 1, a: 2};\nconsole.log(o);\n",
		"lib.js": "export const v = 3;\n", "box.module.css": ".box{padding:1px}",
	})
	parts := []string{
		`<style>.x{color:red}</style>`, `<style>.y{colr:1}</style>`, `<style>body{background:url(/logo.svg)}</style>`,
		`<style>@import "./a.css";</style>`, `<style>.q{background:url(/nope.svg)}</style>`, `<style>  </style>`,
		"<script type=\"module\">import {v} from './lib.js'; console.log(v, {a:1,a:2});</script>",
		"<script type=\"module\">\nimport logo from '/logo.svg';\nconsole.log(logo);\n</script>",
		"<script type=\"module\">import {v} from '@/lib'; console.log(v, '%VITE_T%');</script>",
		"<script type=\"module\">import s from './box.module.css'; console.log(s.box);</script>",
		"<script type=\"module\">import x from 'https://cdn.example/x.js'; console.log(x);</script>",
		"<script type=\"module\">\nconst r = await fetch('./x.json');\nconsole.log(r, new URL('./lib.js', import.meta.url).href, {b: 1, b: 2});\n</script>",
		`<script type="module">  </script>`, `<script>console.log("classic")</script>`, `<script type="module" src="./m.js"></script>`,
		`<script type="module" src="n.js"></script>`, `<link rel="stylesheet" href="./a.css">`, `<link rel="stylesheet" href="b.css">`,
		`<svg>`, `</svg>`, `<template>`, `</template>`, `<p>%VITE_T% %MODE%</p>`, "\n", `<img src="/logo.svg">`,
	}
	r := rand.New(rand.NewSource(1))
	defer func(n int) { prebuildMin = n }(prebuildMin)
	for range 150 {
		var b strings.Builder
		b.WriteString("<!doctype html><title>R</title>")
		for n := r.Intn(8); n > 0; n-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		page := b.String()
		writeFile(t, filepath.Join(dir, "index.html"), page)
		prebuildMin = 2
		a := appAssembler(t, dir)
		a.prebuild()
		a.assemble()
		if len(a.prebuilt) != 0 {
			t.Fatalf("the walk left %d of the entries prebuild bundled: %s", len(a.prebuilt), page)
		}
		together, errTogether := Build(context.Background(), dir, Options{NoWrite: true})
		prebuildMin = 1 << 30
		alone, errAlone := Build(context.Background(), dir, Options{NoWrite: true})
		if fmt.Sprint(errTogether) != fmt.Sprint(errAlone) {
			t.Fatalf("%s\ntogether: %v\nalone: %v", page, errTogether, errAlone)
		}
		if errTogether == nil && (string(together.HTML) != string(alone.HTML) ||
			!reflect.DeepEqual(together.Warnings, alone.Warnings) || !reflect.DeepEqual(together.Inputs, alone.Inputs)) {
			t.Fatalf("%s\ntogether and alone differ: %v %v\n%v %v", page, together.Warnings, together.Inputs, alone.Warnings, alone.Inputs)
		}
	}
}
