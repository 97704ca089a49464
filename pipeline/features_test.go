package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/miniapp/bundle/offline"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/pipeline/browsertest"
	"golang.org/x/net/html"
)

// TestFeaturesInChromium builds one small app per feature that Vite apps use, loads each
// page in Chromium, and checks what the page shows (window.result, set by the app), that no
// request left the page and that the console holds no error and no policy violation.
func TestFeaturesInChromium(t *testing.T) {
	apps := filepath.Join("testdata", "apps")
	if _, err := os.Stat(filepath.Join(apps, "node_modules")); err != nil {
		t.Fatalf("the test apps need their npm packages: run (cd %s && npm ci), as scripts/test does", apps)
	}
	b := browsertest.Start(t)
	for _, c := range []struct {
		name, dir string
		want      []string // substrings of window.result's JSON
		csp       []string // substrings of the policy
	}{
		{"css_modules", "features/cssmodules", []string{`"classes":"Button_button Button_primary"`}, nil},
		{"assets_and_queries", "features/assets", []string{`"width":20`, `"protocol":"data:"`, `"notes":"Hello + world #1\n"`, `"notesURL":"data:"`, `"css":".inline-me{color:red}`, `"inlinedCSSInPage":0`, `"answer":42`}, []string{"connect-src data:"}},
		{"workers", "features/workers", []string{`["module 9","classic 16","vite 25"]`}, []string{"worker-src blob:"}},
		{"glob", "features/glob", []string{`"eager":{"./modules/a.ts":"a","./modules/b.ts":"b","./modules/c.ts":"c","./modules/skip.test.ts":"skip"}`, `"lazyKeys":["./modules/a.ts","./modules/b.ts","./modules/c.ts"]`, `"loaded":["a","b","c"]`, `"raw":"export default \"a\"; export const upper = \"A\";"`, `"upper":"B"`}, nil},
		{"wasm", "features/wasm", []string{`[5,42]`}, []string{"'wasm-unsafe-eval'"}},
		{"eval", "features/eval", []string{`"sum":42`}, []string{"'unsafe-eval'"}},
		{"several_entries", "features/entries", []string{`"order":["a","inline","b"]`, `"color":"rgb(1, 2, 3)"`, `"margin":"7px"`, `"weight":"400"`, `"background":"rgb(4, 5, 6)"`}, nil},
		{"classic_scripts", "features/classic", []string{`"text":"Hello, classic"`, `"order":["inline head","after umd: object","body loading","deferred interactive","module"]`}, nil}, // defer: after parsing, as the browser runs it
		{"postcss", "apps/postcss", []string{`"rgb(4, 5, 6)"`}, nil},
		{"tailwind_through_postcss", "apps/tailwind-postcss", []string{`"weight":"700"`, `"padding":"16px"`, `"color":"oklch(0.637 0.237 25.331)"`}, nil},
		{"tailwind_without_postcss", "apps/tailwind", []string{`"background":"rgb(10, 20, 30)"`, `"decoration":"underline"`, `"margin":"32px"`}, nil},
		{"sass", "apps/sass", []string{`"bg":"url(\"data:image/png;base64,`, `"color":"rgb(7, 8, 9)"`, `"weight":"700"`, `"border":"rgb(7, 8, 9)"`}, nil},
		{"less", "apps/less", []string{`"bg":"url(\"data:image/png;base64,`, `"di":"url(\"data:image/png;base64,`, `"color":"rgb(7, 8, 9)"`, `"weight":"700"`, `"border":"rgb(7, 8, 9)"`}, nil},
		{"stylus", "apps/stylus", []string{`"bg":"url(\"data:image/png;base64,`, `"color":"rgb(7, 8, 9)"`, `"weight":"700"`, `"border":"rgb(7, 8, 9)"`}, nil},
		{"monorepo", "apps/monorepo", []string{`"badge":"[shared]"`, `"hoisted":true`}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Build(context.Background(), filepath.Join("testdata", c.dir), Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range c.csp {
				if !strings.Contains(res.Entry.CSP, want) {
					t.Errorf("the policy lacks %s: %s", want, res.Entry.CSP)
				}
			}
			u := b.Serve("/"+c.name+".html", res.HTML)
			v := b.Visit(t, u, 0)
			b.Await(t, `window.result !== undefined`)
			got := browsertest.Eval[string](t, b, `JSON.stringify(window.result) ?? "no result"`)
			for _, want := range c.want {
				if !strings.Contains(got, want) {
					t.Errorf("the page shows %s, want %s in it", got, want)
				}
			}
			if reqs := b.Requests(); len(reqs) > 0 || len(v.Requests) > 0 {
				t.Errorf("the page made requests: %v %v", v.Requests, reqs)
			}
			for _, msg := range b.Console() {
				if strings.Contains(msg, "console.error") || strings.Contains(msg, "exception") || strings.Contains(msg, "log ") {
					t.Errorf("console: %s", msg)
				}
			}
		})
	}
}

// TestFeatureRefusals holds the build to refusing, at their place, what cannot work in one
// offline file, and to warning about what the page's policy would block.
func TestFeatureRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string // substrings of the diagnostics
		warn  bool     // the build succeeds with these as warnings
	}{
		{"escapes_the_workspace", nil, []string{`outside-the-workspace.txt": it names a file outside the workspace root`, `because of its package.json's "workspaces"`}, false},
		{"wasm_without_the_field", map[string]string{"main.ts": `import init from "./add.wasm?init"; init({});`}, []string{"WebAssembly cannot run under the bundle's policy unless the manifest says wasm = true"}, false},
		{"wasm_import_without_opt_in", map[string]string{"main.ts": `import x from "./add.wasm"; console.log(x);`}, []string{`add.wasm: error: WebAssembly cannot run under the bundle's policy unless the manifest says wasm = true`, "add wasm = true to miniapp.toml"}, false},
		{"astro_component", map[string]string{"main.ts": `import App from "./App.astro"; console.log(App);`, "App.astro": "<p>hi</p>"}, []string{"Astro components need their framework's own compiler", "bundle check"}, false},
		{"javascript_url", map[string]string{"index.html": `<!doctype html><meta charset="utf-8"><title>x</title><a href="javascript:void(0)">x</a>`}, []string{`a javascript: URL (href="javascript:void(0)")`, "addEventListener"}, false},
		// As the URL parser reads it: tabs and newlines anywhere, spaces before, any case.
		{"javascript_url_as_the_parser_reads_it", map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><title>x</title>\n<a href=\"java&#9;script:void(0)\">x</a>\n<iframe src=\" JavaScript:1\"></iframe>"},
			[]string{`index.html:2:10: error: a javascript: URL (href="java\tscript:void(0)")`, `index.html:3:14: error: a javascript: URL (src=" JavaScript:1")`}, false},
		{"fetch_outside_allowed_domains", map[string]string{"main.ts": "fetch(\"https://api.example.com/v1/items\");\nnew WebSocket(`wss://live.example.com/feed`);"}, []string{`main.ts:1:8: warning: fetch connects to https://api.example.com`, `add "https://api.example.com" to allowedDomains`, `main.ts:2:16: warning: WebSocket connects to wss://live.example.com`}, true},
		// A module script by the HTML Standard, which Chromium does not run: as built, the
		// graph's code went to it, and the page's other module scripts threw.
		{"module_type_with_whitespace", map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><title>x</title>\n<script type=\" module\">window.a = 1</script><script type=\"module\">window.b = 1</script>"},
			[]string{`index.html:2:15: error: type=" module" is a module script by the HTML Standard`, `write type="module"`}, false},
		// Types the HTML Standard and the browsers read apart (offline.KindOfScript's split): a
		// classic script in Chromium, a data block by the Standard; the reverse for a type with
		// MIME parameters; an import map by the Standard, none in Chromium.
		{"script_type_vertical_tab", map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><title>x</title>\n<script type=\"&#11;text/javascript\">window.a = 1</script>"},
			[]string{`index.html:2:15: error: type="\vtext/javascript" is a classic script in Chromium`, `drop the type attribute (or write type="text/javascript")`}, false},
		{"script_type_charset_parameter", map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><title>x</title>\n<script type=\"text/javascript; charset=utf-8\">window.a = 1</script>"},
			[]string{`index.html:2:15: error: type="text/javascript; charset=utf-8" is a data block by the HTML Standard and in Chromium`, `drop the type attribute`}, false},
		{"importmap_type_with_whitespace", map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><title>x</title>\n<script type=\"importmap \">{\"imports\": {}}</script>"},
			[]string{`index.html:2:15: error: type="importmap " is an import map by the HTML Standard`, `write type="importmap"`}, false},
		// The name a document's createElement gets, read as the DOM reads it when the call runs.
		{"script_by_a_computed_name", map[string]string{"main.ts": "const kind = \"SCR\";\nconst el = document.createElement(`${kind}IPT`);\ndocument.head.append(el);"},
			[]string{"main.ts:2:35: error: a <script> the page makes cannot run under the bundle's policy"}, false},
		// A name only the run knows is data, as a value only the run knows is at every sink:
		// the build succeeds and says nothing (TestMarkupSinks, "data at every sink").
		{"element_by_a_name_the_run_knows", map[string]string{"main.ts": "export function h(tag: string) {\n  return document.createElement(tag);\n}\nh(location.hash.slice(1));"},
			nil, true},
		// esbuild's message at an import() the transforms gave a task to wait is placed in the
		// source as written: its line and column, not the transforms' text.
		{"import_of_a_missing_file_placed_as_written", map[string]string{"main.ts": "const m = await import(\"./missing.js\");\nconsole.log(m);"},
			[]string{`main.ts:1:24: error: Could not resolve "./missing.js"`}, false},
		{"eval_without_the_field", map[string]string{"main.ts": "const f = new Function(\"return 1\");\nconsole.log(eval(\"2\"), f());"}, []string{"main.ts:1:11: error: eval and new Function cannot run under the bundle's policy", "main.ts:2:13: error: eval and new Function", "set eval = true in miniapp.toml"}, false},
		{"tool_error_at_its_place", map[string]string{"main.ts": `import "./app.scss";`, "app.scss": ".a {\n  color: $nope;\n}\n"}, []string{"app.scss:2:10: error: Sass: Undefined variable."}, false},
		{"tailwind_not_installed", map[string]string{"main.ts": `import "./app.css";`, "app.css": `@import "tailwindcss";`, "alone": ""}, []string{"app.css: error: Tailwind CSS needs the npm package tailwindcss, which is not installed in the app", "npm install -D tailwindcss @tailwindcss/postcss"}, false},
		{"sass_not_installed", map[string]string{"main.ts": `import "./app.scss";`, "app.scss": `.a { b: c }`, "alone": ""}, []string{"app.scss: error: Sass needs the npm package sass, which is not installed in the app", "npm install -D sass"}, false},
		{"object_and_embed", map[string]string{"index.html": "<!doctype html><meta charset=\"utf-8\"><title>x</title>\n<object data=\"icon.svg\"></object>\n<embed src=\"icon.svg\">", "icon.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`, "alone": ""},
			[]string{`index.html:2:15: error: <object data> cannot show icon.svg: a bundle's policy allows no plugin content (object-src 'none')`, `index.html:3:13: error: <embed src> cannot show icon.svg`, `show an image with <img src="icon.svg">`}, false},
		{"empty_sass_and_css_with_postcss", map[string]string{"main.ts": "import './a.scss';\nimport './b.css';", "a.scss": "", "b.css": "", "postcss.config.mjs": "export default { plugins: {} };"}, nil, true},
		{"postcss_plugin_not_installed", map[string]string{"main.ts": `import "./app.css";`, "app.css": `.a { b: c }`, "postcss.config.mjs": `export default { plugins: { "postcss-preset-env": {} } };`, "alone": ""}, []string{"PostCSS (from postcss.config.mjs) needs the npm package", "npm install -D"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "apps", "escape")
			if c.files != nil {
				// Inside the workspace of the test apps, so that Sass is installed; "alone"
				// puts the app in a folder of its own, with no npm packages.
				dir = filepath.Join("testdata", "apps", "tmp-"+c.name)
				if _, alone := c.files["alone"]; alone {
					delete(c.files, "alone")
					dir = filepath.Join(t.TempDir(), c.name)
				}
				os.RemoveAll(dir)
				t.Cleanup(func() { os.RemoveAll(dir) })
				os.MkdirAll(dir, 0o755)
				entry := "main.ts"
				if _, ok := c.files["index.html"]; ok {
					entry = "index.html"
				}
				c.files["miniapp.toml"] = "id = \"x\"\nname = \"X\"\ndescription = \"A refusal.\"\nentry = \"" + entry + "\"\n"
				wasm, _ := os.ReadFile(filepath.Join("testdata", "features", "wasm", "add.wasm"))
				c.files["add.wasm"] = string(wasm)
				for name, body := range c.files {
					os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
				}
			}
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			var list diag.List
			var el *diag.ListError
			switch {
			case errors.As(err, &el):
				list = el.List
			case err != nil:
				t.Fatal(err)
			default:
				list = res.Warnings
			}
			if (err == nil) != c.warn {
				t.Errorf("build error %v, want an error: %v", err, !c.warn)
			}
			var lines []string
			for _, d := range list {
				lines = append(lines, d.String()+"\n  "+d.Note)
			}
			text := strings.ReplaceAll(strings.Join(lines, "\n"), filepath.ToSlash(dir)+"/", "")
			for _, want := range c.want {
				if !strings.Contains(text, want) {
					t.Errorf("diagnostics lack %q:\n%s", want, text)
				}
			}
			// One message at a place: the offline check of the source page does not say again
			// what assembly refused, in other words.
			at := map[string]bool{}
			for _, d := range list {
				if p := fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column); d.Line > 0 && at[p] {
					t.Errorf("two messages at %s:\n%s", p, text)
				} else {
					at[p] = true
				}
			}
			if strings.Contains(text, "/work/") || strings.Contains(text, os.TempDir()+"/") {
				t.Errorf("a diagnostic names an absolute path:\n%s", text)
			}
		})
	}
}

// TestIconsLeftOut checks that icons and web app manifests leave the page with a note, and
// that the favicon becomes the registry entry's icon.
func TestIconsLeftOut(t *testing.T) {
	res, err := Build(context.Background(), filepath.Join("testdata", "features", "icons"), Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res.HTML), "<link") {
		t.Errorf("a <link> stayed in the page")
	}
	if !strings.HasPrefix(res.Entry.Icon, "data:image/svg+xml;base64,") {
		t.Errorf("the entry's icon is %.40q, want the favicon", res.Entry.Icon)
	}
	n := 0
	for _, w := range res.Warnings {
		if strings.Contains(w.Text, "left out of the page") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d notes about left-out links, want 3: %v", n, res.Warnings)
	}
	j, _ := json.Marshal(res.Inputs)
	if strings.Contains(string(j), "favicon") {
		t.Errorf("the favicon is counted as a page input: %s", j)
	}
}

// TestPolicyInHead builds pages whose <meta charset> comes late or not at all, and checks
// that the policy <meta> is in <head>, where the browser honours it, ahead of every script,
// and that the SDK's is the first script the browser runs.
func TestPolicyInHead(t *testing.T) {
	for name, page := range map[string]string{
		"late_charset": "<!doctype html><p>first</p><meta charset=\"utf-8\"><script type=module>window.x = 1</script>",
		"no_head":      "<!doctype html><html lang=en><body><p>hi</p><script type=module>window.x = 1</script></body></html>",
		"no_charset":   "<!doctype html><html><head><title>t</title><script>window.y = 1</script></head><body></body></html>",
		"bare":         "<p>hi<script type=module>window.x = 1</script>",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644)
			os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"p\"\nname = \"P\"\ndescription = \"A page.\"\nentry = \"index.html\"\n"), 0o644)
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			doc, _ := html.Parse(strings.NewReader(string(res.HTML)))
			var csp, firstScript *html.Node
			for n := range doc.Descendants() {
				if n.Type != html.ElementNode {
					continue
				}
				if n.Data == "meta" && slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "http-equiv" }) && csp == nil {
					csp = n
				}
				// The first script the parser runs: a module script without async waits for
				// the end of parsing, whatever its place (the SDK may follow it then).
				if n.Data == "script" && firstScript == nil && (!htmlModuleScript(n) || slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "async" })) {
					firstScript = n
				}
			}
			if csp == nil || csp.Parent == nil || csp.Parent.Data != "head" {
				t.Fatalf("the policy <meta> is not in <head>:\n%.300s", res.HTML)
			}
			if strings.Index(string(res.HTML), `http-equiv="Content-Security-Policy"`) > strings.Index(string(res.HTML), "<script") {
				t.Errorf("a script comes before the policy")
			}
			if firstScript == nil || !strings.Contains(textOfNode(firstScript), "miniapp.sdk") {
				t.Errorf("the first script is not the SDK")
			}
		})
	}
}

// attrValue is the value of n's first attribute key, "" when it has none.
func attrValue(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOfNode(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(c.Data)
	}
	return b.String()
}

// htmlModuleScript reports whether the parsed <script> n is a module script (offline.KindOfScript).
func htmlModuleScript(n *html.Node) bool {
	typ, hasType, lang, hasLang := "", false, "", false
	for _, a := range n.Attr {
		switch {
		case a.Namespace == "" && a.Key == "type" && !hasType:
			typ, hasType = a.Val, true
		case a.Namespace == "" && a.Key == "language" && !hasLang:
			lang, hasLang = a.Val, true
		}
	}
	k, _ := offline.KindOfScript(typ, hasType, lang, hasLang)
	return k == offline.ScriptModule
}
