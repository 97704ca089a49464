package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// viteApp copies the fixture app testdata/vite/name into a temporary folder and adds what git
// does not hold (node_modules folders, symbolic links): files maps a path to its content, or
// to "->target" for a link.
func viteApp(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	src := filepath.Join("testdata", "vite", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, body := range files {
		f := filepath.Join(dst, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(f), 0o755)
		if target, ok := strings.CutPrefix(body, "->"); ok {
			if err := os.Symlink(target, f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// pageResult loads a built page in Chromium and returns window.result as JSON, awaited.
func pageResult(t *testing.T, b *browsertest.Browser, name string, page []byte) string {
	t.Helper()
	u := b.Serve("/"+name+".html", page)
	b.Visit(t, u, 0)
	b.Await(t, `window.result !== undefined`)
	return browsertest.Eval[string](t, b, `JSON.stringify(window.result) ?? "no result"`)
}

// TestViteInChromium builds fixture apps that use what Vite's build does beyond esbuild's
// (import.meta.glob, new URL(…, import.meta.url), variable dynamic imports, workers), each
// in the forms Vite's playground checks, and runs each page in Chromium: what the page
// shows is what Vite's build shows.
func TestViteInChromium(t *testing.T) {
	b := browsertest.Start(t)
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string // substrings of window.result's JSON
	}{
		{"glob", map[string]string{
			"dir/node_modules/hoge.js":            `export default "hoge";`,
			"follow/linked/lib":                   "->../packages/lib",
			"node_modules/glob-pkg/package.json":  `{"name": "glob-pkg"}`,
			"node_modules/glob-pkg/pages/a.js":    `export default "a";`,
			"node_modules/glob-pkg/pages/.dot.js": `export default "dot";`,
		}, []string{
			// esbuild gives a stylesheet imported by a script a default export; Vite none.
			`"all":{"/dir/alias.js":["default"],"/dir/baz.json":["default","msg"],"/dir/foo.css":["default"],"/dir/foo.js":["default","msg"],"/dir/nested/bar.js":["default","json"],"/dir/quote'.js":["default"]}`,
			`"eager":{"/dir/alias.js":"alias","/dir/foo.js":"foo","/dir/quote'.js":"quote"}`,
			`"nodeModules":{"/dir/node_modules/hoge.js":"hoge"}`,
			`"exhaustive":["./dir/.hidden/h.js","./dir/alias.js","./dir/foo.js","./dir/nested/bar.js","./dir/node_modules/hoge.js","./dir/quote'.js"]`,
			`"raw":{"./dir/baz.json":{"msg":"baz"}}`,
			`"inlineCSS":".foo{color:#010203}`,
			`"legacyAs":"string"`,
			`"base":{"./baz.json":{"msg":"baz"}}`,
			`"alias":{"/dir/foo.js":"foo","/dir/quote'.js":"quote"}`,
			`"subpath":{"/imports-path/bar.js":"bar","/imports-path/foo.js":"foo"}`,
			`"escaped":{"/escape/(paren)/glob.js":"(paren)","/escape/[brackets]/glob.js":"[brackets]","/escape/{curlies}/glob.js":"{curlies}"}`,
			`"literalParen":["/escape/(paren)/glob.js"]`,
			`"caseSensitive":["./case/data-a.js"]`,
			`"caseInsensitive":["./case/DATA-b.js","./case/data-a.js"]`,
			`"values":["included"]`,
			`"linked":{"./follow/linked/lib/components/a.js":"a","./follow/linked/lib/components/b.js":"b"}`,
			`"pkg":["/node_modules/glob-pkg/pages/a.js"]`,
			`"self":["./other.ts"]`,
			`"nested":{"./dir/nested/bar.js":{"../baz.json":{"msg":"baz"}}}`,
			`"side":"ran"`, `"asi":"kept"`,
			`"inline":{"./dir/nested/bar.js":"bar"}`,
		}},
		{"urls", nil, []string{`"a":"data:"`, `"same":true`, `"d":true`, `"f":"public"`, `"sameFile":"app folder"`, `"g":"data:text/plain,hi"`,
			`"jsx":true`, `"logo":true`, `"pub":"public"`, `"data":"the app folder"`, `"dyn":"the app folder"`}},
		{"dynimport", nil, []string{`"loc":"fr"`, `"raw":"{ \"hello\": \"fr\" }"`, `"url":true`, `"rejected":"Unknown variable dynamic import: ../locale/zz.json"`,
			`"threw":false`, `"mod":"about"`, `"concat":"about"`, `"alias":"hi from alias"`, `"subpath":"hi from alias"`, `"said":"worker from a variable import"`}},
		{"resolve", map[string]string{
			"node_modules/brow/package.json":         `{"name": "brow", "main": "./lib/index.js", "browser": {"./lib/node.js": "./lib/browser.js"}}`,
			"node_modules/brow/lib/index.js":         `export { where } from "./node.js";`,
			"node_modules/brow/lib/node.js":          `export const where = "node";`,
			"node_modules/brow/lib/browser.js":       `export const where = "browser";`,
			"node_modules/cond/package.json":         `{"name": "cond", "exports": {".": {"development": "./dev.js", "production": "./prod.js", "default": "./default.js"}}}`,
			"node_modules/cond/dev.js":               `export default "development";`,
			"node_modules/cond/prod.js":              `export default "production";`,
			"node_modules/cond/default.js":           `export default "default";`,
			"node_modules/stylefield/package.json":   `{"name": "stylefield", "main": "index.js", "style": "dist/style.css"}`,
			"node_modules/stylefield/index.js":       `export default 1;`,
			"node_modules/stylefield/dist/style.css": `.sf { color: rgb(1, 2, 3); }`,
			"node_modules/stylecond/package.json":    `{"name": "stylecond", "exports": {".": {"style": "./s.css", "default": "./index.js"}, "./extra": {"style": "./extra.css"}}}`,
			"node_modules/stylecond/index.js":        `export default 1;`,
			"node_modules/stylecond/s.css":           `.sc { color: rgb(4, 5, 6); }`,
			"node_modules/stylecond/extra.css":       `.sx { color: rgb(7, 8, 9); }`,
		}, []string{`"where":"browser"`, `"cond":"production"`, `"asset":"app folder"`, `"pub":"public"`, `"json":"the app folder"`,
			`"styleField":"rgb(1, 2, 3)"`, `"styleCondition":"rgb(4, 5, 6)"`, `"styleSubpath":"rgb(7, 8, 9)"`}},
		{"tsrefs", nil, []string{`"greeting":"through paths"`, `"runtime":"the app's"`}},
		{"smaller", nil, []string{`"unquoted":true`, `"inlined":true`, `"nodeEnv":["production","production","production"]`, `"imageSet":true`}},
		{"workers", nil, []string{`"self3":3`, `"nested":"outer got inner, url true; outer url true"`, `"classic":"inner, url true"`, `"module":"module 42 true"`, `"byURL":"inner, url true"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := viteApp(t, c.name, c.files)
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "smaller" && !strings.Contains(string(res.HTML), `<noscript><img src="data:image/svg+xml`) {
				t.Errorf("the <img> in <noscript> is not inlined")
			}
			got := pageResult(t, b, c.name, res.HTML)
			for _, want := range c.want {
				if !strings.Contains(got, want) {
					t.Errorf("the page shows\n%s\nwant in it\n%s", got, want)
				}
			}
			if reqs := b.Requests(); len(reqs) > 0 {
				t.Errorf("the page made requests: %v", reqs)
			}
			for _, msg := range b.Console() {
				if strings.Contains(msg, "console.error") || strings.Contains(msg, "exception") {
					t.Errorf("console: %s", msg)
				}
			}
		})
	}
}

// TestViteRefusals holds the transforms to refusing, at its place and with what to write, a
// call they cannot transform (never leaving it in the page), and to leaving alone what only
// looks like one: a comment, a string, a /* @vite-ignore */ call.
func TestViteRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string // substrings of the diagnostics
		ok    bool     // the build succeeds (with these as warnings)
	}{
		{"glob_pattern_not_literal", map[string]string{"main.ts": "const p = './x/*.js';\nconsole.log(import.meta.glob(p));"},
			[]string{"main.ts:2:30: error: import.meta.glob's patterns must be string literals", "import.meta.glob('./dir/*.js')"}, false},
		{"glob_unknown_option", map[string]string{"main.ts": "console.log(import.meta.glob('./x/*.js', {\n  eagr: true,\n}));"},
			[]string{`main.ts:2:3: error: import.meta.glob has no option "eagr"`, "its options are as, base, caseSensitive, eager, exhaustive, import, query"}, false},
		{"glob_option_type", map[string]string{"main.ts": "console.log(import.meta.glob('./x/*.js', { eager: 'yes' }));"},
			[]string{`main.ts:1:51: error: import.meta.glob's option "eager" must be a boolean, not a string`}, false},
		{"glob_base", map[string]string{"main.ts": "console.log(import.meta.glob('./*.js', { base: 'dir' }));"},
			[]string{`error: import.meta.glob's base "dir" must start with /, ./ or ../`}, false},
		{"glob_as_and_query", map[string]string{"main.ts": "console.log(import.meta.glob('./*.js', { as: 'raw', query: '?url' }));"},
			[]string{`error: import.meta.glob's options "as" and "query" cannot be used together`}, false},
		{"glob_not_called", map[string]string{"main.ts": "const g = import.meta.glob;\nconsole.log(g);"},
			[]string{"main.ts:1:11: error: import.meta.glob is not called here", "const modules = import.meta.glob('./dir/*.js')"}, false},
		{"glob_arguments", map[string]string{"main.ts": "console.log(import.meta.glob());"},
			[]string{"main.ts:1:13: error: import.meta.glob takes one or two arguments (patterns, options), and this call has 0"}, false},
		{"glob_names_nothing", map[string]string{"main.ts": "console.log(import.meta.glob('nowhere/*.js'));"},
			[]string{`main.ts:1:30: error: the glob "nowhere/*.js" names no file`}, false},
		{"new_url_variable", map[string]string{"main.ts": "const name = 'a.png';\nconsole.log(new URL(name, import.meta.url));"},
			[]string{"main.ts:2:21: error: new URL(url, import.meta.url) names a file bundle cannot know at build time", "`./img/${name}.png`"}, false},
		{"new_url_any_file", map[string]string{"main.ts": "const name = 'a.png';\nconsole.log(new URL(`${name}`, import.meta.url));"},
			[]string{"main.ts:2:21: error: this template literal starts with a substitution"}, false},
		{"new_url_missing", map[string]string{"main.ts": "console.log(new URL('/gone.png', import.meta.url));"},
			[]string{"main.ts:1:21: error: /gone.png is in neither the app folder nor the public folder public/"}, false},
		// The URL parser reads %2e%2e as "..": the browser fetches ../secret/x.png, outside the
		// app, where the build, cleaning the path as written, took the app's secret/x.png. The
		// message quotes the URL as written, not the path the build resolved for it
		// ("./../../secret/x.png" before), nor one that climbs out through a folder.
		{"new_url_encoded_dot_dot", map[string]string{"main.ts": "console.log(new URL('./%2e%2e/../secret/x.png?v=1#top', import.meta.url));", "secret/x.png": "png"},
			[]string{`main.ts:1:21: error: Could not resolve "./%2e%2e/../secret/x.png?v=1#top": it names a file outside the app folder`}, false},
		{"new_url_climbs_out", map[string]string{"main.ts": "console.log(new URL(\"a/../../secret/x.png\", import.meta.url));"},
			[]string{`main.ts:1:21: error: Could not resolve "a/../../secret/x.png": it names a file outside the app folder`}, false},
		{"worker_climbs_out", map[string]string{"main.ts": "new Worker(new URL('./w/../../w.js', import.meta.url), { type: 'module' });"},
			[]string{`main.ts:1:20: error: Could not resolve "./w/../../w.js": it names a file outside the app folder`}, false},
		// ".%2E" is "..", and "%2e" ".", as the browser reads them: sub/.%2E/x.png is x.png
		// (there is no sub), where the build looked for a folder named ".%2E".
		{"new_url_encoded_dots_inside", map[string]string{"main.ts": "console.log(new URL('./sub/.%2E/%2e/x.png', import.meta.url).href);", "x.png": "png"},
			nil, true},
		// A page's URL is http(s), whose parser splits a path at "\" as at "/": sub\x.png is
		// the file sub/x.png, where the build took it for a package path.
		{"new_url_backslash", map[string]string{"main.ts": "console.log(new URL('sub\\\\x.png', import.meta.url).href);", "sub/x.png": "png"},
			nil, true},
		// A new URL esbuild cannot resolve is placed at its literal, not in the imports the
		// build adds after the last line (main.ts:2:25 of a file of one line).
		{"new_url_not_found_place", map[string]string{"main.ts": "const a = 1;\nconsole.log(a, new URL('./gone.png', import.meta.url));"},
			[]string{`main.ts:2:24: error: Could not resolve "./gone.png"`}, false},
		{"worker_not_found_place", map[string]string{"main.ts": "const a = 1;\nnew Worker(new URL('./gone.js', import.meta.url), { type: 'module' });"},
			[]string{`main.ts:2:20: error: Could not resolve "./gone.js"`}, false},
		{"import_variable", map[string]string{"main.ts": "const m = './a.js';\nawait import(m);"},
			[]string{"main.ts:2:14: error: import() of a module bundle cannot know at build time", "/* @vite-ignore */"}, false},
		{"import_no_extension", map[string]string{"main.ts": "const x = 'a';\nawait import(`./pages/${x}`);"},
			[]string{"main.ts:2:14: error: a variable import must name the files' extension"}, false},
		{"import_own_folder", map[string]string{"main.ts": "const x = 'a';\nawait import(`./${x}.js`);"},
			[]string{"main.ts:2:14: error: a variable import cannot import its own folder"}, false},
		{"import_unknown_alias", map[string]string{"main.ts": "const x = 'a';\nawait import(`~/${x}.js`);"},
			[]string{`main.ts:2:14: error: a variable import must start with ./, ../, / or an alias, as in Vite, and "~/" is none of the app's`}, false},
		{"worker_cycle", map[string]string{"main.ts": "new Worker(new URL('./a.ts', import.meta.url));",
			"a.ts": "new Worker(new URL('./b.ts', import.meta.url));", "b.ts": "\nnew Worker(new URL('./a.ts', import.meta.url));"},
			[]string{"b.ts:2:12: error: workers start each other in a cycle: ", "a.ts → ", "b.ts → ", "a.ts; each bundle would hold the other's code"}, false},
		{"worker_from_a_path", map[string]string{"main.ts": "new Worker('./w.js');", "w.js": ""},
			[]string{`main.ts:1:12: error: new Worker("./w.js") loads the worker's script at run time`, `new Worker(new URL("./w.js", import.meta.url))`}, false},
		{"comments_and_strings", map[string]string{"main.ts": "// eval('x'); new URL(name, import.meta.url); import.meta.glob(p)\nconst s = \"eval(1) new Function() import.meta.glob(p)\";\n/* fetch('https://x.example/') */\nconsole.log(s, `${'process.env.SECRET'}`);"},
			nil, true},
		{"vite_ignore", map[string]string{"main.ts": "const u = location.hash;\nconsole.log(new URL(/* @vite-ignore */ u, import.meta.url));\nawait import(/* @vite-ignore */ u).catch(() => {});"},
			nil, true},
		// A method named import is no import(): Vite's playground (assets) calls obj.import(…).
		{"method_named_import", map[string]string{"main.ts": "const m = './a.js';\nconst obj = { import(t) { return t } };\nclass C { static import(t) { return t } }\nconsole.log(obj.import(m), obj?.import(m), C.import(m));"},
			nil, true},
		{"less", map[string]string{"main.ts": "import './a.less';", "a.less": "@c: red;\np { color: @c; }"},
			[]string{"a.less: error: Less needs the npm package less, which is not installed in the app", "npm install -D less"}, false},
		{"stylus", map[string]string{"main.ts": "import './a.styl';", "a.styl": "p\n  color red"},
			[]string{"a.styl: error: Stylus needs the npm package stylus, which is not installed in the app", "npm install -D stylus"}, false},
		{"wasm_direct_without_opt_in", map[string]string{"main.ts": "import { f } from './a.wasm';\nconsole.log(f);", "a.wasm": "\x00asm\x01\x00\x00\x00"},
			[]string{"a.wasm: error: WebAssembly cannot run under the bundle's policy unless the manifest says wasm = true", "add wasm = true to miniapp.toml"}, false},
		{"wasm_direct_malformed", map[string]string{"main.ts": "import { f } from './a.wasm';\nconsole.log(f);", "a.wasm": "\x00asm\x01\x00\x00\x00\x07\x05\x01",
			"miniapp.toml": "id = \"x\"\nname = \"X\"\ndescription = \"A refusal.\"\nentry = \"main.ts\"\nwasm = true\n"},
			[]string{"a.wasm: error: a.wasm cannot be imported as a WebAssembly module: section 7 at byte 10 runs past the end"}, false},
		{"no_inline", map[string]string{"main.ts": "import u from './a.svg?url&no-inline';\nconsole.log(u);", "a.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`},
			[]string{`main.ts:1:15: warning: "./a.svg?url&no-inline" asks for the file beside the page (?no-inline)`}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.name)
			os.MkdirAll(dir, 0o755)
			if c.files["miniapp.toml"] == "" {
				c.files["miniapp.toml"] = "id = \"x\"\nname = \"X\"\ndescription = \"A refusal.\"\nentry = \"main.ts\"\n"
			}
			for name, body := range c.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
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
			if (err == nil) != c.ok {
				t.Errorf("build error %v, want an error: %v", err, !c.ok)
			}
			var lines []string
			for _, d := range list {
				if d.Path == "hosts" {
					continue
				}
				lines = append(lines, d.String()+"\n  "+d.Note)
			}
			text := strings.ReplaceAll(strings.Join(lines, "\n"), filepath.ToSlash(dir)+"/", "")
			for _, want := range c.want {
				if !strings.Contains(text, want) {
					t.Errorf("diagnostics lack %q:\n%s", want, text)
				}
			}
			if c.want == nil && text != "" {
				t.Errorf("diagnostics, want none:\n%s", text)
			}
		})
	}
}
