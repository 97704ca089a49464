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

// examples is the npm workspace of the apps shaped like the official MCP Apps examples
// (basic-server-vue, -svelte, -solid, -preact, -react, -vanillajs), each with a miniapp.toml
// added; render's TestRenderFrameworkExamples runs them in a host frame.
var examples = filepath.Join("testdata", "examples")

// buildAt writes files into dir and builds it, returning its diagnostics one a line (each
// "file:line:col: error: text" and its note), paths relative to dir.
func buildAt(t *testing.T, dir string, files map[string]string) (string, *Result, error) {
	t.Helper()
	for f, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
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
	var lines []string
	for _, d := range list {
		if d.Path == "hosts" {
			continue
		}
		lines = append(lines, d.String()+"\n  "+d.Note)
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), filepath.ToSlash(dir)+"/", ""), res, err
}

// inExamples is a folder of the examples' workspace for one test (its compilers installed),
// removed after it.
func inExamples(t *testing.T, name string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(examples, "node_modules", "vue")); err != nil {
		t.Fatalf("the examples need their npm packages: run (cd %s && npm ci), as scripts/test does", examples)
	}
	dir, _ := filepath.Abs(filepath.Join(examples, "tmp-"+name))
	os.RemoveAll(dir)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

const frameworkManifest = "id = \"f\"\nname = \"F\"\ndescription = \"A component.\"\nentry = \"main.ts\"\nmaxKB = 1024\n"

// TestFrameworkComponents: Vue single-file components (script setup in TypeScript, scoped,
// module and Sass styles), Svelte 5 components (runes, scoped style) and Solid's JSX build
// with the workspace's own compilers; the production flags of Vue are defined as
// @vitejs/plugin-vue defines them; nothing of the compilers' development builds is left.
func TestFrameworkComponents(t *testing.T) {
	for _, row := range []struct {
		name  string
		files map[string]string
		want  []string // in the page
		not   []string // not in the page
	}{
		{"vue", map[string]string{
			"main.ts": "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(document.body);\n",
			"App.vue": "<script setup lang=\"ts\">\nimport { ref } from \"vue\";\nconst n = ref<number>(41);\n</script>\n<template><p class=\"x\" :class=\"$style.m\" @click=\"n++\">{{ n + 1 }}</p></template>\n" +
				"<style scoped lang=\"scss\">\n$c: rgb(1, 2, 3);\n.x { color: $c; }\n</style>\n<style module>\n.m { margin: 7px }\n</style>\n",
		}, []string{"color:#010203", "[data-v-", "margin:7px"}, []string{"__VUE_OPTIONS_API__", "__VUE_PROD_DEVTOOLS__", "$c", "<template>"}},
		{"vue_scss_use", map[string]string{
			"main.ts":            "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(document.body);\n",
			"App.vue":            "<template><p class=\"x\">x</p></template>\n<style scoped lang=\"scss\">\n@use \"./styles/theme\" as t;\n.x { color: t.$ink; }\n</style>\n",
			"styles/_theme.scss": "$ink: rgb(7, 8, 9);\n",
		}, []string{"color:#070809"}, nil},
		// Vite compiles a component's <style lang="scss"> as it compiles a .scss file: with the
		// vite.config's css.preprocessorOptions (additionalData) and resolve.alias.
		{"vue_scss_vite_config", map[string]string{
			"vite.config.js": "import { fileURLToPath } from \"node:url\";\nexport default {\n  resolve: { alias: { \"@\": fileURLToPath(new URL(\"./styles\", import.meta.url)) } },\n" +
				"  css: { preprocessorOptions: { scss: { additionalData: `@use \"@/vars\" as *;\\n` } } },\n};\n",
			"main.ts":            "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(document.body);\n",
			"App.vue":            "<template><p class=\"x\">x</p></template>\n<style scoped lang=\"scss\">\n@use \"@/theme\" as t;\n.x { color: $ink; margin: t.$gap; }\n</style>\n",
			"styles/_vars.scss":  "$ink: rgb(7, 8, 9);\n",
			"styles/_theme.scss": "$gap: 11px;\n",
		}, []string{"color:#070809", "margin:11px"}, nil},
		{"vue_options_api", map[string]string{
			"main.ts": "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(document.body);\n",
			"App.vue": "<script>\nexport default { data: () => ({ who: \"options\" }) };\n</script>\n<template><b>{{ who }}</b></template>\n",
		}, []string{"options"}, []string{"__VUE_OPTIONS_API__"}},
		{"svelte", map[string]string{
			"main.ts":    "import { mount } from \"svelte\";\nimport App from \"./App.svelte\";\nmount(App, { target: document.body });\n",
			"App.svelte": "<script lang=\"ts\">\n  let count: number = $state(0);\n  const double = $derived(count * 2);\n</script>\n<button onclick={() => count++}>{double}</button>\n<style>\n  button { outline: 3px solid rgb(4, 5, 6); }\n</style>\n",
		}, []string{"outline:3px solid rgb(4,5,6)", "button.svelte-"}, nil},
		{"svelte_rune_modules", map[string]string{
			"main.ts":           "import { mount } from \"svelte\";\nimport App from \"./App.svelte\";\nmount(App, { target: document.body });\n",
			"App.svelte":        "<script>\n  import { counter } from \"./counter.svelte.ts\";\n  import { label } from \"./label.svelte.js\";\n</script>\n<button onclick={() => counter.count++}>{label} {counter.count}</button>\n",
			"counter.svelte.ts": "export const counter: { count: number } = $state({ count: 0 });\n",
			"label.svelte.js":   "let text = $state(\"runes in a module\");\nexport const label = text;\n",
		}, []string{"runes in a module"}, []string{"$state({ count", "$state(\"runes"}},
		{"solid", map[string]string{
			"package.json": `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"main.ts":      "import { render } from \"solid-js/web\";\nimport { Counter } from \"./Counter\";\nrender(Counter, document.body);\n",
			"Counter.tsx":  "import { createSignal } from \"solid-js\";\nexport function Counter() {\n  const [n, setN] = createSignal<number>(1);\n  return <button type=\"button\" onClick={() => setN(n() + 1)}>solid {n()}</button>;\n}\n",
		}, []string{"<button type=button>solid "}, []string{"jsx-runtime"}},
		// A Solid library ships its JSX under the "solid" condition (or as its only code), which
		// vite-plugin-solid resolves and compiles, node_modules included.
		{"solid_package_jsx", map[string]string{
			"package.json":                         `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19", "solid-lib": "1.0.0", "solid-icon": "1.0.0" } }`,
			"main.ts":                              "import { render } from \"solid-js/web\";\nimport { App } from \"./App\";\nrender(App, document.body);\n",
			"App.tsx":                              "import { Badge } from \"solid-lib\";\nimport { Icon } from \"solid-icon\";\nexport const App = () => <p><Badge text=\"hi\" /><Icon /></p>;\n",
			"node_modules/solid-lib/package.json":  `{ "name": "solid-lib", "version": "1.0.0", "type": "module", "exports": { ".": { "solid": "./src/index.jsx", "default": "./dist/index.js" } } }`,
			"node_modules/solid-lib/src/index.jsx": "export const Badge = (p) => <b class=\"badge\">{p.text}</b>;\n",
			"node_modules/solid-lib/dist/index.js": "export const Badge = () => \"COMPILED_BUILD\";\n",
			"node_modules/solid-icon/package.json": `{ "name": "solid-icon", "version": "1.0.0", "type": "module", "main": "index.jsx" }`,
			"node_modules/solid-icon/index.jsx":    "export const Icon = () => <i class=\"icon\">*</i>;\n",
		}, []string{"<b class=badge>", "<i class=icon>*"}, []string{"COMPILED_BUILD", "jsx-runtime", "children:"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := inExamples(t, row.name)
			row.files["miniapp.toml"] = frameworkManifest
			text, res, err := buildAt(t, dir, row.files)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			page := string(res.HTML)
			for _, in := range res.Inputs {
				if strings.Contains(in.Path, componentCSSNamespace) || filepath.IsAbs(in.Path) {
					t.Errorf("an input is named %q, not as esbuild names the app's files", in.Path)
				}
			}
			for _, w := range row.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, w := range row.not {
				if strings.Contains(page, w) {
					t.Errorf("the page has %q: %s", w, page[max(strings.Index(page, w)-200, 0):min(strings.Index(page, w)+100, len(page))])
				}
			}
			again, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil || string(again.HTML) != page {
				t.Errorf("a second build gave other bytes (%v)", err)
			}
		})
	}
}

// TestFrameworkErrors: a component the compiler refuses is reported at its place in the
// component with the compiler's message; a compiler that is missing, of another major version,
// or that crashes is said once at the component with what to install.
func TestFrameworkErrors(t *testing.T) {
	// The rows of a compiler that never ends wait this long, not toolTimeout: the others
	// keep toolTimeout, far above a compile on a busy machine (the first loads the compiler).
	loops := testwait.Scaled(10 * time.Second)
	vueMain := "import App from \"./App.vue\";\nconsole.log(App);\n"
	svelteMain := "import App from \"./App.svelte\";\nconsole.log(App);\n"
	for _, row := range []struct {
		name      string
		workspace bool // in the examples' workspace, with its compilers; else a folder of its own
		files     map[string]string
		want      []string
	}{
		{"vue_template_syntax", true, map[string]string{"main.ts": vueMain,
			"App.vue": "<script setup>\nconst a = 1;\n</script>\n<template>\n  <div>{{ a </div>\n</template>\n"},
			[]string{"App.vue:5:8: error: Interpolation end sign was not found."}},
		{"vue_unclosed_element", true, map[string]string{"main.ts": vueMain,
			"App.vue": "<template>\n  <section>\n    <p>hi</p>\n</template>\n"},
			[]string{"App.vue:2:3: error: Element is missing end tag."}},
		{"vue_script_syntax", true, map[string]string{"main.ts": vueMain,
			"App.vue": "<template><p>{{ n }}</p></template>\n<script setup lang=\"ts\">\nconst n: number = 1;\nconst m = ;\n</script>\n"},
			[]string{"App.vue:4:11: error: Unexpected token"}},
		// compileScript's own errors hold their place only in their message's code frame:
		// placed by it, not at the <script setup> tag.
		{"vue_duplicate_define_props", true, map[string]string{"main.ts": vueMain,
			"App.vue": "<script setup lang=\"ts\">\nconst props = defineProps<{ a: string }>();\nconst props2 = defineProps<{ b: string }>();\n</script>\n<template><p>x</p></template>\n"},
			[]string{"App.vue:3:16: error: duplicate defineProps() call"}},
		{"vue_unresolvable_type", true, map[string]string{"main.ts": vueMain,
			"App.vue": "<script setup lang=\"ts\">\nconst props = defineProps<Nope>();\n</script>\n<template><p>x</p></template>\n"},
			[]string{"App.vue:2:27: error: Unresolvable type reference or unsupported built-in utility type"}},
		// The types a <script setup> imports are read with the app's typescript, as Vite's
		// plugin reads them: without it, the package to install.
		{"vue_imported_types_no_typescript", true, map[string]string{"main.ts": vueMain,
			"types.ts": "export interface Props { a: string }\n",
			"App.vue":  "<script setup lang=\"ts\">\nimport type { Props } from \"./types\";\ndefineProps<Props>();\n</script>\n<template><p>x</p></template>\n"},
			[]string{"App.vue: error: Vue single-file components need the npm package typescript, which is not installed in the app\n  npm install -D typescript"}},
		{"vue_scss_error", true, map[string]string{"main.ts": vueMain,
			"App.vue": "<template><p class=\"x\">x</p></template>\n<style scoped lang=\"scss\">\n.x {\n  color: $nope;\n}\n</style>\n"},
			[]string{"App.vue:4:10: error: Undefined variable."}},
		// An error of a style compiled with the config's additionalData is at the component's line.
		{"vue_scss_error_additional_data", true, map[string]string{"main.ts": vueMain,
			"vite.config.js": "export default { css: { preprocessorOptions: { scss: { additionalData: \"$a: 1px;\\n$b: 2px;\\n\" } } } };\n",
			"App.vue":        "<template><p class=\"x\">x</p></template>\n<style scoped lang=\"scss\">\n.x {\n  margin: $a $nope;\n}\n</style>\n"},
			[]string{"App.vue:4:14: error: Undefined variable."}},
		{"vue_scss_additional_data_function", true, map[string]string{"main.ts": vueMain,
			"vite.config.js": "export default { css: { preprocessorOptions: { scss: { additionalData: (s) => s } } } };\n",
			"App.vue":        "<template><p class=\"x\">x</p></template>\n<style lang=\"scss\">\n.x { color: red; }\n</style>\n"},
			[]string{"App.vue:2:20: error: css.preprocessorOptions.scss.additionalData in vite.config.js is a function"}},
		{"vue_scss_use_outside", true, map[string]string{"main.ts": vueMain,
			// A partial of another app's, outside this one's workspace root.
			"App.vue": "<template><p class=\"x\">x</p></template>\n<style lang=\"scss\">\n@use \"../../apps/sass/colors\" as c;\n</style>\n"},
			[]string{"App.vue:3:1: error:", "is outside", "bundle lets Sass read only files inside it"}},
		{"svelte_syntax", true, map[string]string{"main.ts": svelteMain,
			"App.svelte": "<script>\n  let n = $state(0);\n</script>\n<p>{n +}</p>\n"},
			[]string{"App.svelte:4:8: error: Unexpected token", "svelte.dev/e/js_parse_error"}},
		{"solid_syntax", true, map[string]string{"main.ts": "import { C } from \"./C\";\nconsole.log(C);\n",
			"package.json": `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"C.tsx":        "export const C = () => (\n  <div>\n    <span>open\n  </div>\n);\n"},
			[]string{"C.tsx:4:9: error: Unterminated JSX contents."}},
		{"vue_not_installed", false, map[string]string{"main.ts": vueMain, "package-lock.json": "{}",
			"App.vue": "<template><p>x</p></template>\n"},
			[]string{"App.vue: error: Vue single-file components need the npm package vue, which is not installed in the app\n  npm install vue@^3.3.0"}},
		// The app declares vue (^3.5.0) and has not installed it: its install, not a range that
		// would replace the app's.
		{"vue_declared_not_installed", false, map[string]string{"main.ts": vueMain, "package-lock.json": "{}",
			"package.json": `{ "name": "x", "private": true, "dependencies": { "vue": "^3.5.0" } }`,
			"App.vue":      "<template><p>x</p></template>\n"},
			[]string{"App.vue: error: Vue single-file components need the npm package vue, which package.json declares but is not installed\n  run npm install (or pnpm install, yarn) in "}},
		// One missing compiler is one message, whatever number of components need it: each
		// component's load fails on its own (two here, A.vue and B.vue, the same message).
		{"vue_not_installed_two_components", false, map[string]string{"package-lock.json": "{}",
			"main.ts": "import A from \"./A.vue\";\nimport B from \"./B.vue\";\nconsole.log(A, B);\n",
			"A.vue":   "<template><p>a</p></template>\n",
			"B.vue":   "<template><p>b</p></template>\n"},
			[]string{"error: Vue single-file components need the npm package vue, which is not installed in the app\n  npm install vue@^3.3.0"}},
		{"svelte_4", false, map[string]string{"main.ts": svelteMain, "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
			"App.svelte":                       "<p>x</p>\n",
			"node_modules/svelte/package.json": `{ "name": "svelte", "version": "4.2.19", "exports": { "./compiler": "./compiler.cjs" } }`,
			"node_modules/svelte/compiler.cjs": "exports.compile = () => ({ js: { code: '' } });\n",
		}, []string{"App.svelte: error: svelte 4.2.19 is installed, and bundle runs the compiler of svelte ^5.0.0\n  pnpm add -D svelte@^5.0.0"}},
		{"vue_2", false, map[string]string{"main.ts": vueMain,
			"App.vue":                                "<template><p>x</p></template>\n",
			"node_modules/vue/package.json":          `{ "name": "vue", "version": "2.7.16", "exports": { "./compiler-sfc": "./compiler-sfc/index.js" } }`,
			"node_modules/vue/compiler-sfc/index.js": "exports.parse = () => ({});\n",
		}, []string{"App.vue: error: vue 2.7.16 is installed, and bundle runs the compiler of vue ^3.3.0\n  npm install vue@^3.3.0"}},
		{"vue_3_2", false, map[string]string{"main.ts": vueMain, "yarn.lock": "",
			"App.vue":                                "<template><p>x</p></template>\n",
			"node_modules/vue/package.json":          `{ "name": "vue", "version": "3.2.47", "exports": { "./compiler-sfc": "./compiler-sfc/index.js" } }`,
			"node_modules/vue/compiler-sfc/index.js": "exports.parse = () => ({});\n",
		}, []string{"App.vue: error: vue 3.2.47 is installed, and bundle runs the compiler of vue ^3.3.0\n  yarn add vue@^3.3.0"}},
		{"svelte_crash", false, map[string]string{"main.ts": svelteMain,
			"App.svelte":                       "<p>x</p>\n",
			"node_modules/svelte/package.json": `{ "name": "svelte", "version": "5.0.0", "type": "module", "exports": { "./compiler": "./compiler.js" } }`,
			"node_modules/svelte/compiler.js":  "export function compile(src, opts) { return opts.nope.deeper; }\n",
		}, []string{"App.svelte: error: the compiler of Svelte components (svelte 5.0.0) crashed: TypeError: Cannot read properties of undefined (reading 'deeper')"}},
		// A compiler that exits, answers with no code, writes its own text where the runner
		// answers, or does not load, is said as the compiler's crash, with what to install.
		{"svelte_exit", false, svelteStub("export function compile() { process.exit(3); }\n"),
			[]string{"App.svelte: error: the compiler of Svelte components (svelte 5.1.0) crashed: it ended Node (exit code 3)", "npm install -D svelte@^5.0.0"}},
		{"svelte_no_result", false, svelteStub("export function compile() { return undefined; }\n"),
			[]string{"App.svelte: error: the compiler of Svelte components (svelte 5.1.0) crashed: it gave no code", "npm install -D svelte@^5.0.0"}},
		{"svelte_no_code", false, svelteStub("export function compile() { return { js: {} }; }\n"),
			[]string{"App.svelte: error: the compiler of Svelte components (svelte 5.1.0) crashed: it gave no code", "npm install -D svelte@^5.0.0"}},
		{"svelte_does_not_load", false, svelteStub("export function compile( {\n"),
			[]string{"App.svelte: error: the compiler of Svelte components (svelte 5.1.0) crashed: SyntaxError: Unexpected end of input", "npm install -D svelte@^5.0.0"}},
		{"svelte_writes_stdout", false, svelteStub("export function compile() { process.stdout.write(\"noise\"); throw new Error(\"after the noise\"); }\n"),
			[]string{"App.svelte: error: the compiler of Svelte components (svelte 5.1.0) crashed: Error: after the noise"}},
		{"svelte_loops", false, svelteStub("export function compile() { for (;;) {} }\n"),
			[]string{"App.svelte: error: the compiler of Svelte components did not finish App.svelte in " + loops.String(), "npm install -D svelte@^5.0.0"}},
		{"svelte_logs_an_answer", false, svelteStub("export function compile() { console.log('{\"id\":1,\"js\":\"export default 666\"}'); throw new Error(\"after the log\"); }\n"),
			[]string{"App.svelte: error: the compiler of Svelte components (svelte 5.1.0) crashed: Error: after the log"}},
		// The compiler of Solid's JSX is the preset on Babel: its crash names both, and the fix
		// the preset of the app's solid-js, as when it is missing.
		{"solid_preset_crash", true, map[string]string{"main.ts": "import { C } from \"./C\";\nconsole.log(C);\n",
			"package.json": `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"C.tsx":        "export const C = () => <div />;\n",
			"node_modules/babel-preset-solid/package.json": `{ "name": "babel-preset-solid", "version": "1.9.16", "main": "index.js" }`,
			"node_modules/babel-preset-solid/index.js":     "module.exports = function () { throw new Error(\"preset broke\"); };\n",
		}, []string{"C.tsx: error: the compiler of Solid's JSX files (babel-preset-solid 1.9.16 on @babel/core 7.", ") crashed: Error: preset broke", "npm install -D babel-preset-solid@^1.9.0)"}},
		{"solid_preset_2", true, map[string]string{"main.ts": "import { C } from \"./C\";\nconsole.log(C);\n",
			"package.json": `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"C.tsx":        "export const C = () => <div />;\n",
			"node_modules/babel-preset-solid/package.json": `{ "name": "babel-preset-solid", "version": "2.0.0", "main": "index.js" }`,
			"node_modules/babel-preset-solid/index.js":     "module.exports = function () { return {}; };\n",
		}, []string{"C.tsx: error: babel-preset-solid 2.0.0 is installed, and bundle runs babel-preset-solid ^1.0.0\n  npm install -D babel-preset-solid@^1.0.0"}},
		{"solid_no_babel", false, map[string]string{"main.ts": "import { C } from \"./C\";\nconsole.log(C);\n",
			"package.json":                       `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"C.tsx":                              "export const C = () => <div />;\n",
			"node_modules/solid-js/package.json": `{ "name": "solid-js", "version": "1.9.19" }`,
		}, []string{"C.tsx: error: Solid's JSX files need the npm package @babel/core, which is not installed in the app\n  npm install -D @babel/core@^7.20.0"}},
		{"solid_no_preset", false, map[string]string{"main.ts": "import { C } from \"./C\";\nconsole.log(C);\n",
			"package.json":                          `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"C.tsx":                                 "export const C = () => <div />;\n",
			"node_modules/solid-js/package.json":    `{ "name": "solid-js", "version": "1.9.19" }`,
			"node_modules/@babel/core/package.json": `{ "name": "@babel/core", "version": "7.29.0", "main": "index.js" }`,
			"node_modules/@babel/core/index.js":     "exports.transformAsync = async () => { throw new Error(\"not reached\"); };\n",
		}, []string{"C.tsx: error: Solid's JSX files need the npm package babel-preset-solid, which is not installed in the app\n  npm install -D babel-preset-solid@^1.9.0"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			var dir string
			if row.workspace {
				dir = inExamples(t, row.name)
			} else {
				dir = t.TempDir()
			}
			row.files["miniapp.toml"] = frameworkManifest
			if strings.Contains(row.name, "loops") {
				saved := toolTimeout
				toolTimeout = loops
				defer func() { toolTimeout = saved }()
			}
			text, _, err := buildAt(t, dir, row.files)
			if err == nil {
				t.Fatalf("built; want an error\n%s", text)
			}
			for _, w := range row.want {
				if !strings.Contains(text, w) {
					t.Errorf("want %q in:\n%s", w, text)
				}
			}
			if strings.Count(text, ": error: ") != 1 {
				t.Errorf("want one error:\n%s", text)
			}
		})
	}
}

// svelteStub is an app with a Svelte component whose compiler is the package svelte 5.1.0
// whose compiler module is code.
func svelteStub(code string) map[string]string {
	return map[string]string{
		"main.ts":                          "import App from \"./App.svelte\";\nconsole.log(App);\n",
		"App.svelte":                       "<p>x</p>\n",
		"node_modules/svelte/package.json": `{ "name": "svelte", "version": "5.1.0", "type": "module", "exports": { "./compiler": "./compiler.js" } }`,
		"node_modules/svelte/compiler.js":  code,
	}
}

// TestFrameworkSourceMaps: a place in the page maps through each compiler's source map to the
// author's component, line and column, in a build that keeps its map; the page is the same as
// without.
func TestFrameworkSourceMaps(t *testing.T) {
	for _, row := range []struct {
		name, component string
		files           map[string]string
	}{
		{"vue", "App.vue", map[string]string{
			"main.ts": "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(document.body);\n",
			"App.vue": "<template><p @click=\"mark\">x</p></template>\n<script setup lang=\"ts\">\nconst n: number = 1;\nfunction mark() {\n  (window as any).marker = \"MARK_ME\" + n;\n}\n</script>\n",
		}},
		{"svelte", "App.svelte", map[string]string{
			"main.ts":    "import { mount } from \"svelte\";\nimport App from \"./App.svelte\";\nmount(App, { target: document.body });\n",
			"App.svelte": "<script>\n  let n = $state(1);\n  function mark() {\n    window.marker = \"MARK_ME\" + n;\n  }\n</script>\n<button onclick={mark}>{n}</button>\n",
		}},
		{"svelte_ts_module", "mark.svelte.ts", map[string]string{
			"main.ts":        "import { mark } from \"./mark.svelte.ts\";\ndocument.body.onclick = mark;\n",
			"mark.svelte.ts": "type Box = { n: number };\ninterface Other { s: string }\nconst box: Box = $state({ n: 1 });\nexport function mark(): void {\n  (window as any).marker = \"MARK_ME\" + box.n++;\n}\n",
		}},
		{"solid", "C.tsx", map[string]string{
			"package.json": `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"main.ts":      "import { render } from \"solid-js/web\";\nimport { C } from \"./C\";\nrender(C, document.body);\n",
			"C.tsx":        "export function C() {\n  const n: string = document.title;\n  const mark = () => {\n    (window as any).marker = \"MARK_ME\" + n;\n  };\n  return <button onClick={mark}>{n}</button>;\n}\n",
		}},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := inExamples(t, "map-"+row.name)
			row.files["miniapp.toml"] = frameworkManifest
			text, plain, err := buildAt(t, dir, row.files)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			kept, err := Build(context.Background(), dir, Options{NoWrite: true, KeepSourceMap: true})
			if err != nil {
				t.Fatal(err)
			}
			if string(kept.HTML) != string(plain.HTML) {
				t.Fatal("keeping the source map changed the page")
			}
			page := string(kept.HTML)
			// (Vue's script setup puts const n = 1 at the module's top level, where the build
			// reads it as its value and esbuild folds "MARK_ME" + 1 into "MARK_ME1": unwritten.go.)
			off := strings.Index(page, `"MARK_ME`)
			if off < 0 {
				t.Fatal("no marker in the page")
			}
			line := strings.Count(page[:off], "\n") + 1
			col := len(page[strings.LastIndexByte(page[:off], '\n')+1:off]) + 1 // ASCII: bytes are UTF-16 units
			pos, ok := kept.SourceMap.Locate(line, col)
			src := row.files[row.component]
			wantLine := strings.Count(src[:strings.Index(src, `"MARK_ME"`)], "\n") + 1
			if !ok || pos.File != filepath.ToSlash(filepath.Join(dir, row.component)) || pos.Line != wantLine || !strings.Contains(pos.LineText, "MARK_ME") {
				t.Errorf("page %d:%d is %+v (%v), want %s:%d", line, col, pos, ok, row.component, wantLine)
			}
		})
	}
}

// TestSolidJSXChoice: the app's JSX goes through Solid's compiler when tsconfig's
// jsxImportSource says solid-js, or, where it names none, when the nearest package.json that
// declares Solid, React or Preact declares Solid; else esbuild compiles it as React's.
func TestSolidJSXChoice(t *testing.T) {
	const jsx = "export const C = () => <b class=\"k\">hi</b>;\nconsole.log(C());\n"
	solid := `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`
	react := `{ "name": "r", "private": true, "dependencies": { "react": "19.3.1" } }`
	for _, row := range []struct {
		name  string
		files map[string]string
		solid bool
	}{
		{"tsconfig_solid", map[string]string{"tsconfig.json": `{ "compilerOptions": { "jsx": "preserve", "jsxImportSource": "solid-js" } }`}, true},
		{"tsconfig_react_over_dependency", map[string]string{"tsconfig.json": `{ "compilerOptions": { "jsx": "react-jsx", "jsxImportSource": "react" } }`, "app/package.json": solid}, false},
		{"dependency", map[string]string{"app/package.json": solid}, true},
		{"app_solid_parent_react", map[string]string{"package.json": react, "app/package.json": solid}, true},
		{"app_react_parent_solid", map[string]string{"package.json": solid, "app/package.json": react}, false},
		{"neither", nil, false},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := inExamples(t, "jsx-"+row.name)
			files := map[string]string{"app/miniapp.toml": strings.Replace(frameworkManifest, "main.ts", "C.jsx", 1), "app/C.jsx": jsx}
			for f, body := range row.files {
				if f == "tsconfig.json" {
					f = "app/" + f
				}
				files[f] = body
			}
			for f, body := range files {
				p := filepath.Join(dir, filepath.FromSlash(f))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			text, res, err := buildAt(t, filepath.Join(dir, "app"), nil)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			// Solid's compiler makes a template of the element; React's JSX a call with its props.
			if got := strings.Contains(string(res.HTML), `<b class=k>hi`); got != row.solid {
				t.Errorf("compiled as Solid's: %v, want %v", got, row.solid)
			}
		})
	}
}

// TestFrameworkSessionWarm: bundle dev's rebuilds after a change compile the component again
// with the compiler already loaded, in the one Node process of the session's first build, and
// give the bytes a build without the session gives; a compiler that ended Node in one rebuild
// or did not finish in one rebuild (its error said) leaves the next rebuild working, in a
// Node process of its own.
func TestFrameworkSessionWarm(t *testing.T) {
	saved := toolTimeout
	t.Cleanup(func() { toolTimeout = saved })
	vueMain := "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(document.body);\n"
	word := "<script setup>\nconst word = \"WORD_ONE\";\n</script>\n<template><p>{{ word }}</p></template>\n"
	type step struct {
		file, body string
		fail       string // the build's error, "" for none
	}
	for _, row := range []struct {
		name      string
		workspace bool
		files     map[string]string
		steps     []step
	}{
		{"vue_edit", true, map[string]string{"main.ts": vueMain, "App.vue": word}, []step{
			{"App.vue", strings.Replace(word, "WORD_ONE", "WORD_TWO", 1), ""},
			{"App.vue", strings.Replace(word, "WORD_ONE", "WORD_THREE", 1), ""},
		}},
		{"svelte_edit", true, map[string]string{
			"main.ts":    "import { mount } from \"svelte\";\nimport App from \"./App.svelte\";\nmount(App, { target: document.body });\n",
			"App.svelte": "<script>\n  let n = $state(1);\n</script>\n<button onclick={() => n++}>ONE {n}</button>\n<style>\n  button { color: rgb(1, 2, 3); }\n</style>\n",
		}, []step{
			{"App.svelte", "<script>\n  let n = $state(2);\n</script>\n<button onclick={() => n++}>TWO {n}</button>\n<style>\n  button { color: rgb(4, 5, 6); }\n</style>\n", ""},
		}},
		{"solid_edit", true, map[string]string{
			"package.json": `{ "name": "s", "private": true, "dependencies": { "solid-js": "1.9.19" } }`,
			"main.ts":      "import { render } from \"solid-js/web\";\nimport { C } from \"./C\";\nrender(C, document.body);\n",
			"C.tsx":        "export const C = () => <b class=\"one\">ONE</b>;\n",
		}, []step{
			{"C.tsx", "export const C = () => <i class=\"two\">TWO</i>;\n", ""},
		}},
		// compiler-sfc keeps the types a <script setup> imports by file, across compiles;
		// @vitejs/plugin-vue drops a file's when it changes (invalidateTypeCache).
		{"vue_imported_types", true, map[string]string{
			"main.ts":                              "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App, { alpha: \"A1\", beta: \"B1\" }).mount(document.body);\n",
			"node_modules/typescript/package.json": `{ "name": "typescript", "version": "5.9.3", "main": "index.js" }`,
			"node_modules/typescript/index.js":     "module.exports = {};\n",
			"types.ts":                             "export interface Props { alpha: string }\n",
			"App.vue":                              "<script setup lang=\"ts\">\nimport type { Props } from \"./types\";\nconst p = defineProps<Props>();\n</script>\n<template><p>{{ p }}</p></template>\n",
		}, []step{
			{"types.ts", "export interface Props { alpha: string; beta: string }\n", ""},
			{"types.ts", "export interface Props { beta: string }\n", ""},
		}},
		{"svelte_exit_then_fixed", false, svelteStub("export function compile(src) {\n  if (src.includes(\"EXIT\")) process.exit(7);\n  return { js: { code: \"export default \" + JSON.stringify(src) + \";\" } };\n}\n"), []step{
			{"App.svelte", "<p>EXIT</p>\n", "crashed: it ended Node (exit code 7)"},
			{"App.svelte", "<p>fixed</p>\n", ""},
		}},
		// A compile that never ends: Node killed at toolTimeout, the next rebuild in a new one.
		{"svelte_loops_then_fixed", false, svelteStub("export function compile(src) {\n  while (src.includes(\"LOOP\")) {}\n  return { js: { code: \"export default \" + JSON.stringify(src) + \";\" } };\n}\n"), []step{
			{"App.svelte", "<p>LOOP</p>\n", "did not finish App.svelte in"},
			{"App.svelte", "<p>fixed</p>\n", ""},
		}},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := t.TempDir()
			if row.workspace {
				dir = inExamples(t, "warm-"+row.name)
			}
			if row.files["miniapp.toml"] == "" {
				row.files["miniapp.toml"] = frameworkManifest
			}
			text, _, err := buildAt(t, dir, row.files)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			session := NewSession()
			defer session.Close()
			if _, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session}); err != nil {
				t.Fatal(err)
			}
			pid, crashed := session.b.css.runner.Pid(), false
			for i, s := range row.steps {
				if err := os.WriteFile(filepath.Join(dir, s.file), []byte(s.body), 0o644); err != nil {
					t.Fatal(err)
				}
				// A step of a compiler that never ends waits a short bound; the others
				// toolTimeout, far above a compile on a busy machine.
				toolTimeout = saved
				if strings.Contains(s.fail, "did not finish") {
					toolTimeout = testwait.Scaled(10 * time.Second)
				}
				warm, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
				cold, coldErr := Build(context.Background(), dir, Options{NoWrite: true})
				switch {
				case s.fail != "":
					if err == nil || !strings.Contains(err.Error(), s.fail) {
						t.Fatalf("rebuild %d: %v, want an error with %q", i+1, err, s.fail)
					}
					crashed = true
					continue
				case err != nil:
					t.Fatalf("rebuild %d: %v", i+1, err)
				case coldErr != nil:
					t.Fatalf("rebuild %d: the build without the session: %v", i+1, coldErr)
				case string(warm.HTML) != string(cold.HTML):
					t.Errorf("rebuild %d after writing %s gave other bytes than a build without the session", i+1, s.file)
				}
				switch p := session.b.css.runner.Pid(); {
				case p == 0:
					t.Fatalf("rebuild %d: no Node process", i+1)
				case crashed:
					pid, crashed = p, false
				case p != pid:
					t.Errorf("rebuild %d ran in Node process %d, not the session's %d", i+1, p, pid)
				}
			}
		})
	}
}

// TestFrameworkExamplesQuiet: the examples' vite.config plugins of the frameworks
// (@vitejs/plugin-vue, @sveltejs/vite-plugin-svelte, vite-plugin-solid) are not warned of as
// plugins bundle does not run: bundle does their work.
func TestFrameworkExamplesQuiet(t *testing.T) {
	for _, app := range []string{"basic-server-vue", "basic-server-svelte", "basic-server-solid"} {
		t.Run(app, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(examples, app))
			text, _, err := buildAt(t, dir, nil)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if strings.Contains(text, `"vite:vue"`) || strings.Contains(text, `"vite-plugin-svelte`) || strings.Contains(text, `"solid"`) || strings.Contains(text, "refuses") {
				t.Errorf("a warning of a framework's plugin:\n%s", text)
			}
		})
	}
}
