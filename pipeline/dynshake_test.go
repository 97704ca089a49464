package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestDynamicImportPick checks which dynamic imports keep only the exports they read (Vite's
// dynamic import tree-shaking: destructured, read by one name, or destructured in .then's
// parameter) and which keep every export (the namespace kept, a default or rest element in
// the pattern, a name the module lacks), in a build of each.
func TestDynamicImportPick(t *testing.T) {
	mod := "export const used = () => 'USED_MARK'\nexport const other = () => 'OTHER_MARK'\nexport default () => 'DEFAULT_MARK'\n"
	for _, row := range []struct {
		name, code string
		want, not  []string
	}{
		{"declaration", "const { used } = await import('./m.js'); used()", []string{"USED_MARK"}, []string{"OTHER_MARK", "DEFAULT_MARK"}},
		{"declaration_renamed_default", "let x = 1, { default: d, used: u } = await import('./m.js'); d(); u()", []string{"USED_MARK", "DEFAULT_MARK"}, []string{"OTHER_MARK"}},
		{"member", "(await import('./m.js')).used()", []string{"USED_MARK"}, []string{"OTHER_MARK"}},
		{"optional_member", "(await import('./m.js'))?.used?.()", []string{"USED_MARK"}, []string{"OTHER_MARK"}},
		{"then_arrow", "import('./m.js').then(({ used }) => used())", []string{"USED_MARK"}, []string{"OTHER_MARK"}},
		{"then_function", "import(\n  './m.js', // Prettier's layout\n).then(function ({ used }) { used() })", []string{"USED_MARK"}, []string{"OTHER_MARK"}},
		{"namespace_kept", "const m = await import('./m.js'); m.used()", []string{"USED_MARK", "OTHER_MARK"}, nil},
		{"then_identifier", "import('./m.js').then((m) => m.used())", []string{"USED_MARK", "OTHER_MARK"}, nil},
		{"pattern_default", "const { used = null } = await import('./m.js'); used()", []string{"USED_MARK", "OTHER_MARK"}, nil},
		{"pattern_rest", "const { used, ...rest } = await import('./m.js'); used(rest)", []string{"USED_MARK", "OTHER_MARK"}, nil},
		{"then_of_then", "const { used } = await import('./m.js').then((m) => m); used()", []string{"USED_MARK", "OTHER_MARK"}, nil},
		{"missing_name", "const { absent, used } = await import('./m.js'); used(absent)", []string{"USED_MARK"}, []string{"OTHER_MARK"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := writeApp(t, map[string]string{
				"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
				"index.html":   `<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>`,
				"main.js":      row.code + "\n",
				"m.js":         mod,
			})
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range row.want {
				if !strings.Contains(string(res.HTML), w) {
					t.Errorf("the page lacks %s", w)
				}
			}
			for _, n := range row.not {
				if strings.Contains(string(res.HTML), n) {
					t.Errorf("the page keeps %s", n)
				}
			}
		})
	}
}

// TestStylesheetModuleHasNoExports checks that a script's import of a stylesheet is a module
// with no export, as in Vite: its rules reach the page, and a default import of it is an error
// at its place.
func TestStylesheetModuleHasNoExports(t *testing.T) {
	files := map[string]string{
		"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
		"index.html":   `<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>`,
		"main.js":      "import * as ns from './a.css'\nconsole.log(JSON.stringify(ns), 'NS_MARK')\n",
		"a.css":        ".a { color: rebeccapurple }\n",
	}
	res, err := Build(context.Background(), writeApp(t, files), Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if page := string(res.HTML); !strings.Contains(page, "#639") && !strings.Contains(page, "rebeccapurple") || strings.Contains(page, "module.exports") {
		t.Errorf("the page lacks the stylesheet's rule or keeps a CommonJS module for it:\n%s", page)
	}
	files["main.js"] = "import css from './a.css'\nconsole.log(css)\n"
	_, err = Build(context.Background(), writeApp(t, files), Options{NoWrite: true})
	if err == nil || !strings.Contains(err.Error(), "main.js:1") || !strings.Contains(err.Error(), `has no export "default"`) {
		t.Errorf("a default import of a stylesheet gives %v, want an error at main.js:1 naming default", err)
	}
}

// TestJSONImportAttributes checks that a JSON file imported with { type: 'json' } is the same
// module as without, its names too, as Vite's JSON plugin makes it; esbuild refuses a named
// import of a standard JSON module.
func TestJSONImportAttributes(t *testing.T) {
	for name, code := range map[string]string{
		"named":     "import { word } from './d.json' with { type: 'json' }\nconsole.log(word)\n",
		"multiline": "import { word } from './d.json' with {\n  // a comment\n  \"type\": 'json',\n}\nconsole.log(word)\n",
		"assert":    "import { word } from './d.json' assert { type: 'json' }\nconsole.log(word)\n",
		"reexport":  "export { word } from './d.json' with { type: 'json' }\nimport { word } from './main.js'\nconsole.log(word)\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeApp(t, map[string]string{
				"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
				"index.html":   `<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>`,
				"main.js":      code,
				"d.json":       `{"word": "WORD_MARK"}`,
			})
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(res.HTML), "WORD_MARK") {
				t.Errorf("the page lacks the JSON's word")
			}
		})
	}
}

// TestLazyStylesheet checks, in Chromium, that a stylesheet only a dynamic import reaches is
// added to <head> when the import runs, as Vite's build adds its chunk's CSS: after a <style>
// a script inserted before then, so that its rule wins; and that the page's own policy of
// style hashes (no 'unsafe-inline') allows it. A stylesheet imported statically is in the page
// from the start.
func TestLazyStylesheet(t *testing.T) {
	b := browsertest.Start(t)
	// With the page's own style-src of hashes, the <style> the script inserts is blocked (no
	// hash allows it); the lazy stylesheet's hash is in the policy.
	for own, before := range map[string]string{"": "rgb(3, 3, 3) rgb(1, 1, 1)", `<meta http-equiv="Content-Security-Policy" content="style-src 'self'">`: "rgb(3, 3, 3) rgb(0, 0, 0)"} {
		dir := writeApp(t, map[string]string{
			"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
			"index.html":   `<!doctype html><meta charset="utf-8">` + own + `<p class="a">a</p><p class="s">s</p><button>go</button><script type="module" src="./main.js"></script>`,
			"main.js": "import './static.css'\nconst s = document.createElement('style')\ns.textContent = '.a { color: rgb(1, 1, 1) }'\ndocument.head.appendChild(s)\n" +
				"window.lazyBefore = document.styleSheets.length\ndocument.querySelector('button').onclick = () => import('./later.js').then(() => { window.loaded = true })\n",
			"later.js":   "import './lazy.css'\n",
			"lazy.css":   ".a { color: rgb(2, 2, 2) }\n",
			"static.css": ".s { color: rgb(3, 3, 3) }\n",
		})
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		b.Reset()
		b.Serve("/index.html", res.HTML, "text/html")
		b.Visit(t, b.URL(0, "index.html"), 0)
		if !b.Await(t, `window.lazyBefore !== undefined`) {
			t.Fatalf("the page's script did not run: %q", b.Console())
		}
		if got := browsertest.Eval[string](t, b, `getComputedStyle(document.querySelector(".s")).color + " " + getComputedStyle(document.querySelector(".a")).color`); got != before {
			t.Errorf("own policy %q: before the import, .s .a are %s, want %s", own, got, before)
		}
		browsertest.Eval[bool](t, b, `(document.querySelector("button").click(), true)`)
		if !b.Await(t, `window.loaded && getComputedStyle(document.querySelector(".a")).color === "rgb(2, 2, 2)"`) {
			t.Errorf("own policy %q: after the import, .a is %s, want rgb(2, 2, 2) (the lazy stylesheet after the script's <style>); console %q", own,
				browsertest.Eval[string](t, b, `getComputedStyle(document.querySelector(".a")).color`), b.Console())
		}
	}
}
