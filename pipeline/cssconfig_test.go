package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/testwait"
)

// TestCSSToolConfigs builds apps whose CSS tools are configured as their own docs say: a
// .postcssrc.json (JSON, plugins named as keys with their options, as postcss-load-config
// reads it) and vite.config's css.preprocessorOptions.scss.loadPaths (relative to the app
// folder, as Vite gives them to Sass). Each app is made in the test apps' npm workspace,
// whose node_modules has postcss-nesting and sass. want are substrings of the page, or of
// the messages when fail is set.
func TestCSSToolConfigs(t *testing.T) {
	apps := filepath.Join("testdata", "apps")
	if _, err := os.Stat(filepath.Join(apps, "node_modules")); err != nil {
		t.Fatalf("the test apps need their npm packages: run (cd %s && npm ci), as scripts/test does", apps)
	}
	page := `<!doctype html><meta charset="utf-8"><title>x</title><script type="module" src="./main.js"></script>`
	recolour := "export default { plugins: [{ postcssPlugin: \"recolour\", Declaration: { color: (d) => { if (d.value === \"red\") d.value = \"rgb(9, 8, 7)\"; } } }] };\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		fail  bool
		want  []string
	}{
		{"postcssrc_json", map[string]string{".postcssrc.json": `{ "plugins": { "postcss-nesting": {} } }`,
			"main.js": "import './a.css'", "a.css": ".card { color: red; & .title { color: blue } }"}, false, []string{".card .title"}},
		{"postcssrc_json_plugin_off", map[string]string{".postcssrc.json": `{ "plugins": { "postcss-nesting": false } }`,
			"main.js": "import './a.css'", "a.css": ".card { color: red; & .title { color: blue } }"}, false, []string{"&"}},
		{"postcssrc_json_not_json", map[string]string{".postcssrc.json": `{ "plugins": { "postcss-nesting": {} }`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{".postcssrc.json is not JSON"}},
		{"package_json_postcss_key", map[string]string{"package.json": `{ "name": "x", "private": true, "postcss": { "plugins": { "postcss-nesting": {}, "postcss-preset-env": {} } } }`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{"a.css: error: PostCSS (from package.json) needs the npm package postcss-preset-env"}},
		{"package_json_postcss_key_first", map[string]string{"package.json": `{ "name": "x", "postcss": { "plugins": { "postcss-preset-env": {} } } }`,
			".postcssrc.json": `{ "plugins": { "postcss-nesting": {} } }`,
			"main.js":         "import './a.css'", "a.css": ".card { color: red }"}, true, []string{"PostCSS (from package.json) needs the npm package postcss-preset-env"}},
		{"package_json_postcss_null", map[string]string{"package.json": `{ "name": "x", "postcss": null }`,
			".postcssrc.json": `{ "plugins": { "postcss-preset-env": {} } }`,
			"main.js":         "import './a.css'", "a.css": ".card { color: red }"}, true, []string{"PostCSS (from .postcssrc.json) needs the npm package postcss-preset-env"}},
		{"package_json_postcss_not_object", map[string]string{"package.json": `{ "name": "x", "postcss": "postcss-nesting" }`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{`package.json's "postcss" is not an object of PostCSS options`}},
		{"postcssrc_yaml", map[string]string{".postcssrc.yaml": "plugins:\n  postcss-nesting: {}\n",
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{".postcssrc.yaml is read as YAML by PostCSS's loader, which bundle does not read", "write the same config as .postcssrc.json"}},
		{"postcssrc_no_extension", map[string]string{".postcssrc": `{ "plugins": { "postcss-nesting": {} } }`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{".postcssrc is read as YAML"}},
		// postcss-load-config's names and order (its searchPlaces, as lilconfig takes the
		// first of them in a folder): .postcssrc.json comes before postcss.config.mjs, and a
		// TypeScript config of any of its names is said, not passed over.
		{"postcssrc_json_before_config_mjs", map[string]string{".postcssrc.json": `{ "plugins": { "postcss-preset-env": {} } }`, "postcss.config.mjs": "export default { plugins: [] };",
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{"PostCSS (from .postcssrc.json) needs the npm package postcss-preset-env"}},
		{"postcssrc_mjs_before_config_js", map[string]string{".postcssrc.mjs": recolour, "postcss.config.js": "export default { plugins: [] };",
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, false, []string{"#090807"}},
		{"postcss_config_cts", map[string]string{"postcss.config.cts": `module.exports = { plugins: { "postcss-nesting": {} } };`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{"postcss.config.cts is TypeScript, which bundle does not load"}},
		{"postcssrc_ts", map[string]string{".postcssrc.ts": `export default { plugins: { "postcss-nesting": {} } };`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{".postcssrc.ts is TypeScript, which bundle does not load"}},
		{"postcssrc_mts", map[string]string{".postcssrc.mts": `export default { plugins: { "postcss-nesting": {} } };`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{".postcssrc.mts is TypeScript, which bundle does not load"}},
		{"postcssrc_cts", map[string]string{".postcssrc.cts": `module.exports = { plugins: { "postcss-nesting": {} } };`,
			"main.js": "import './a.css'", "a.css": ".card { color: red }"}, true, []string{".postcssrc.cts is TypeScript, which bundle does not load"}},
		{"sass_load_paths", map[string]string{"vite.config.js": `export default { css: { preprocessorOptions: { scss: { loadPaths: ["styles"] } } } }`,
			"styles/_theme.scss": "$ink: rgb(7, 8, 9);", "main.js": "import './a.scss'", "a.scss": "@use 'theme';\n.x { color: theme.$ink; }\n"}, false, []string{"color:#070809"}},
		{"sass_legacy_include_paths", map[string]string{"vite.config.js": `export default { css: { preprocessorOptions: { scss: { api: "legacy", includePaths: ["styles"] } } } }`,
			"styles/_theme.scss": "$ink: rgb(7, 8, 9);", "main.js": "import './a.scss'", "a.scss": "@use 'theme';\n.x { color: theme.$ink; }\n"}, false, []string{"color:#070809"}},
		{"sass_load_paths_not_a_list", map[string]string{"vite.config.js": `export default { css: { preprocessorOptions: { scss: { loadPaths: "styles" } } } }`,
			"main.js": "import './a.scss'", "a.scss": ".x { color: red; }\n"}, true, []string{"css.preprocessorOptions.scss.loadPaths in vite.config.js is not a list of folders", `loadPaths: ["src/styles"]`}},
		{"sass_load_paths_url", map[string]string{"vite.config.js": `export default { css: { preprocessorOptions: { scss: { loadPaths: [new URL("./styles", import.meta.url)] } } } }`,
			"main.js": "import './a.scss'", "a.scss": ".x { color: red; }\n"}, true, []string{"css.preprocessorOptions.scss.loadPaths in vite.config.js holds {}, which is not a folder's path"}},
		{"sass_load_paths_outside", map[string]string{"vite.config.js": `export default { css: { preprocessorOptions: { scss: { loadPaths: ["../../.."] } } } }`,
			"main.js": "import './a.scss'", "a.scss": ".x { color: red; }\n"}, true, []string{`css.preprocessorOptions.scss.loadPaths "../../.."`, "outside"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := styledApp(t, apps, c.name, page, c.files)
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			var got string
			if c.fail {
				var el *diag.ListError
				if !errors.As(err, &el) {
					t.Fatalf("build gives %v, want an error", err)
				}
				for _, d := range el.List {
					got += d.String() + "\n  " + d.Note + "\n"
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				got = string(res.HTML)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestCSSToolHangs: a CSS tool that never answers (a PostCSS plugin whose promise never
// settles or that loops, a Sass @while that never ends, a Less @plugin in a loop, a Tailwind
// @plugin in a loop) is an error at the stylesheet that names the tool, its package's version
// and what to look at, after toolTimeout (before, the build waited for ever). Each app is made
// in the test apps' npm workspace, whose node_modules has postcss, sass, less and Tailwind.
func TestCSSToolHangs(t *testing.T) {
	apps := filepath.Join("testdata", "apps")
	if _, err := os.Stat(filepath.Join(apps, "node_modules")); err != nil {
		t.Fatalf("the test apps need their npm packages: run (cd %s && npm ci), as scripts/test does", apps)
	}
	saved := toolTimeout
	// Scaled: on a busy machine loading Tailwind's compiler can take seconds.
	toolTimeout = testwait.Scaled(10 * time.Second)
	t.Cleanup(func() { toolTimeout = saved })
	after := " in " + toolTimeout.String()
	page := `<!doctype html><meta charset="utf-8"><title>x</title><script type="module" src="./main.js"></script>`
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"postcss_promise_never_settles", map[string]string{
			"postcss.config.mjs": "export default { plugins: [{ postcssPlugin: \"hang\", Once() { return new Promise(() => {}); } }] };\n",
			"main.js":            "import './a.css'", "a.css": ".card { color: red }"},
			[]string{"a.css: error: PostCSS (from postcss.config.mjs) (postcss 8.", ") did not finish a.css" + after, "a plugin the PostCSS config loads loops or awaits a promise that never settles"}},
		{"postcss_busy_loop", map[string]string{
			"postcss.config.mjs": "export default { plugins: [{ postcssPlugin: \"spin\", Once() { for (;;) {} } }] };\n",
			"main.js":            "import './a.css'", "a.css": ".card { color: red }"},
			[]string{"a.css: error: PostCSS (from postcss.config.mjs) (postcss 8.", ") did not finish a.css" + after}},
		{"sass_while_never_ends", map[string]string{
			"main.js": "import './a.scss'", "a.scss": "$i: 0;\n@while $i < 1 {\n  $j: $i;\n}\n.x { color: red; }\n"},
			[]string{"a.scss: error: Sass (sass 1.", ") did not finish a.scss" + after, "install a release of sass that works"}},
		// A plugin that never returns: blocked as a loop blocks Node, without its CPU.
		{"less_plugin_never_returns", map[string]string{
			"main.js": "import './a.less'", "a.less": "@plugin \"./spin.js\";\n.x { color: red; }\n",
			"spin.js": "module.exports = { install() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); } };\n"},
			[]string{"a.less:1:1: error: Less (less 4.", ") did not finish a.less" + after + `: the code of @plugin "./spin.js" did not return`, "a Less @plugin the stylesheet loads loops"}},
		{"tailwind_plugin_never_returns", map[string]string{
			"main.js": "import './a.css'", "a.css": "@import \"tailwindcss\";\n@plugin \"./spin.js\";\n",
			"spin.js": "module.exports = function () { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); };\n"},
			// Said at the stylesheet alone before, as the Less @plugin's: the runner notes which
			// @plugin's code it runs (pl28).
			[]string{"a.css:2:1: error: Tailwind CSS (@tailwindcss/node 4.", ") did not finish a.css" + after + `: the code of @plugin "./spin.js" did not return`, "(@plugin, @config)"}},
		// Two stylesheets in flight on one Node that the first's plugin blocks: the one
		// whose bound ends first is said, the other stopped by it (in the order esbuild sent them).
		{"less_two_in_flight", map[string]string{
			"main.js": "import './a.less'\nimport './b.less'", "a.less": "@plugin \"./spin.js\";\n.a { color: red; }\n", "b.less": "@plugin \"./spin.js\";\n.b { color: red; }\n",
			"spin.js": "module.exports = { install() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); } };\n"},
			[]string{") did not finish ", "Less was stopped before it finished ", ": another file's CSS tool or compile did not finish" + after, "that file's error says what to do"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := styledApp(t, apps, c.name, page, c.files)
			ctx, cancel := context.WithTimeout(context.Background(), toolTimeout+testwait.Deadline())
			defer cancel()
			_, err := Build(ctx, dir, Options{NoWrite: true})
			var el *diag.ListError
			if !errors.As(err, &el) {
				t.Fatalf("build gives %v, want an error", err)
			}
			var got string
			for _, d := range el.List {
				got += d.String() + "\n  " + d.Note + "\n"
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			if n := strings.Count(got, ") did not finish ") + strings.Count(got, " was stopped before it finished "); len(el.List) != n || n != 1+strings.Count(c.files["main.js"], "\n") {
				t.Errorf("want one error per stylesheet:\n%s", got)
			}
		})
	}
}

// TestCSSToolHangSession: in a session (bundle dev's), a stylesheet whose Less @plugin's
// function never returns is an error at the stylesheet, and the rebuild after the plugin is
// fixed runs on a Node started again and gives the bytes of a cold build.
func TestCSSToolHangSession(t *testing.T) {
	apps := filepath.Join("testdata", "apps")
	if _, err := os.Stat(filepath.Join(apps, "node_modules")); err != nil {
		t.Fatalf("the test apps need their npm packages: run (cd %s && npm ci), as scripts/test does", apps)
	}
	saved := toolTimeout
	toolTimeout = testwait.Scaled(10 * time.Second)
	t.Cleanup(func() { toolTimeout = saved })
	dir := styledApp(t, apps, "hang-session", `<!doctype html><meta charset="utf-8"><title>x</title><script type="module" src="./main.js"></script>`, map[string]string{
		"main.js": "import './a.less'", "a.less": "@plugin \"./ink.js\";\n.x { color: ink(); }\n",
		"ink.js": "module.exports = { install(less, pm, functions) { functions.add(\"ink\", () => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }); } };\n",
	})
	session := NewSession()
	defer session.Close()
	_, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
	if err == nil || !strings.Contains(err.Error(), "a.less: error: Less (less 4.") || !strings.Contains(err.Error(), "did not finish a.less in "+toolTimeout.String()) {
		t.Fatalf("the build with the plugin that loops: %v, want the error at a.less", err)
	}
	os.WriteFile(filepath.Join(dir, "ink.js"), []byte("module.exports = { install(less, pm, functions) { functions.add(\"ink\", () => new less.tree.Keyword(\"rebeccapurple\")); } };\n"), 0o644)
	res, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
	if err != nil {
		t.Fatalf("the rebuild after the fix: %v", err)
	}
	if !strings.Contains(string(res.HTML), ".x{color:#639}") {
		t.Errorf("the rebuild lacks the plugin's color")
	}
	cold, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil || string(cold.HTML) != string(res.HTML) {
		t.Errorf("a cold build gave other bytes (%v)", err)
	}
}

// styledApp writes an app of files, its manifest and page (index.html) into a folder of its own
// in apps, whose node_modules the CSS tools load from; the folder is removed when the test ends.
func styledApp(t *testing.T, apps, name, page string, files map[string]string) string {
	t.Helper()
	dir, err := os.MkdirTemp(apps, "tmp-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if dir, err = filepath.Abs(dir); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	writeFiles(t, dir, map[string]string{"miniapp.toml": "id = \"x\"\nname = \"X\"\ndescription = \"A styled app.\"\n", "index.html": page})
	return dir
}
