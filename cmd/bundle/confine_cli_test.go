package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/internal/testfs"
	"github.com/miniapp/bundle/internal/testwait"
)

// The bundle command, built once for the tests that run it as its own process: the kernel's
// fence is put on the whole process, which a test binary cannot take on.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func bundleBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "bundle-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "bundle")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// token is the secret of the leak tests: a word that is a JavaScript identifier, a CSS class
// and an environment value at once.
const token = "Sekret7f3a9c1d"

// tokenBase64 is the start of a file that starts with the secret, in base64 (a data: URL).
var tokenBase64 = base64.StdEncoding.EncodeToString([]byte(token))[:len(token)/3*4]

// near is a name one letter from the secret: an import of it is a typo whose advice must not
// suggest the secret.
const near = "Sekret7f3a9c1e"

// secrets are the files of the folder beside the app that no build may read.
var secrets = map[string]string{
	"token.txt":    token + "\n",
	"token.dat":    token + "\n",
	".env":         "VITE_X=" + token + "\n",
	"secret.css":   ".leak { content: \"" + token + "\" }\n",
	"_secret.scss": ".leak { content: \"" + token + "\"; }\n",
	"tsconfig.json": `{ "compilerOptions": { "jsx": "react", "jsxFactory": "` + token + `", "paths": { "` + token + `/*": ["./*"] } } }
`,
	"notjson.json": token + " is not { JSON\n",
	"plugin.js": `const fs = require("fs"); fs.writeFileSync(process.env.LEAK_BASE + "/ran-plugin", "x");
module.exports = function ({ addBase }) { addBase({ ".leak": { content: "` + token + `" } }); };
`,
	"plugin.mjs": `import fs from "node:fs"; fs.writeFileSync(process.env.LEAK_BASE + "/ran-plugin-mjs", "x");
export default { postcssPlugin: "leak", Once(root) { root.append({ selector: ".leak", nodes: [] }) } };
`,
	"evil.cjs":                          `require("fs").writeFileSync(process.env.LEAK_BASE + "/ran-node-options", "x");` + "\n",
	"scan/page.html":                    `<div class="content-['` + token + `']"></div>` + "\n",
	"evilpkg/package.json":              `{ "name": "evilpkg", "main": "index.js" }` + "\n",
	"evilpkg/index.js":                  `export const s = "` + token + `";` + "\n",
	"tailwind.config.js":                `require("fs").writeFileSync(process.env.LEAK_BASE + "/ran-config", "x"); module.exports = {};` + "\n",
	"pkgtsconfig/package.json":          `{ "name": "@leak/tsconfig", "tsconfig": "tsconfig.json" }` + "\n",
	"pkgtsconfig/tsconfig.json":         `{ "compilerOptions": { "jsx": "react", "jsxFactory": "` + token + `" } }` + "\n",
	"image.png":                         "\x89PNG\r\n\x1a\n" + token,
	"deps/package.json":                 `{ "dependencies": { "` + token + `": "1" } }` + "\n",
	"names/" + token + "/package.json":  `{ "name": "` + token + `" }` + "\n",
	"../node_modules/evil/index.js":     `require("fs").writeFileSync(process.env.LEAK_BASE + "/ran-ancestor-module", "x"); module.exports = () => ({ postcssPlugin: "evil" }); module.exports.postcss = true;` + "\n",
	"../node_modules/evil/package.json": `{ "name": "evil", "main": "index.js" }` + "\n",
}

// fakeSass is a package named sass that a build must never run: it writes a marker and gives
// the secret as CSS.
var fakeSass = map[string]string{
	"package.json": `{ "name": "sass", "main": "index.js" }`,
	"index.js": `require("fs").writeFileSync(process.env.LEAK_BASE + "/ran-sass", "x");
const css = { css: ".leak { content: \"` + token + `\" }" };
module.exports = { compile: () => css, compileString: () => css };
`,
}

const leakManifest = "id = \"t\"\nname = \"Test\"\ndescription = \"A test app.\"\nentry = \"index.html\"\n"

func leakPage(head string) string {
	return leakPageBody(head, "")
}

// leakPageBody is leakPage with markup at the start of <body> (an <img> in <head> would end
// it early, which the build refuses).
func leakPageBody(head, body string) string {
	return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>T</title>" + head + "</head>\n<body>" + body + "<p>hi</p></body></html>\n"
}

// leakTree makes the folders of one leak test: secrets beside the app; a workspace (ws) whose
// node_modules holds the CSS tools (hard links to pipeline/testdata/apps' packages) with the
// app ws/app; a folder that is no workspace but has a package.json and a tsconfig.json
// (plain/app); a folder whose node_modules has a sass of its own (parent/app); a NODE_PATH
// folder with another; a home folder holding the secret; and a folder of a host's files
// (elsewhere). It returns the base folder.
func leakTree(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, body string) {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range secrets {
		write("secrets/"+name, body)
	}
	write("home/.npmrc", "//registry.npmjs.org/:_authToken="+token+"\n")
	write("ws/package.json", `{ "private": true, "workspaces": ["app"] }`+"\n")
	testfs.HardLink(t, filepath.Join("..", "..", "pipeline", "testdata", "apps", "node_modules"), filepath.Join(base, "ws", "node_modules"))
	write("plain/package.json", `{ "name": "plain", "browser": { "./app/real.js": "./app/swapped.js" } }`+"\n")
	write("plain/tsconfig.json", `{ "compilerOptions": { "jsx": "react", "jsxFactory": "`+token+`" } }`+"\n")
	for name, body := range fakeSass {
		write("parent/node_modules/sass/"+name, body)
		write("npath/sass/"+name, body)
	}
	write("elsewhere/registry.json", `{ "the host's": "`+token+`" }`+"\n")
	write("elsewhere/victim.html", "the host's page "+token+"\n")
	for _, app := range []string{"ws/app", "plain/app", "parent/app"} {
		if err := os.MkdirAll(filepath.Join(base, app), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

// withLeftPad adds to files an npm package that is no tool's, and the app's package.json
// depending on it where files has none.
func withLeftPad(files map[string]string) map[string]string {
	out := maps.Clone(files)
	out["node_modules/left-pad/package.json"] = `{ "name": "left-pad", "version": "1.3.0", "main": "index.js" }`
	out["node_modules/left-pad/index.js"] = "module.exports = (s) => s;\n"
	if _, ok := out["package.json"]; !ok {
		out["package.json"] = `{ "private": true, "dependencies": { "left-pad": "1.3.0" } }`
	}
	return out
}

// leakRow is one way an app could make a build read outside it, run code from outside it, or
// write outside its output folder. In files, links, env and args, BASE is the base folder of
// leakTree and TOKEN the secret; a link's target is relative to BASE.
type leakRow struct {
	name  string
	app   string // "ws/app" when empty
	files map[string]string
	links map[string]string // in the app folder: name → target under BASE
	env   []string
	args  []string
	code  int
	want  string // in the messages, text and JSON
	// fenced, when set, is what a fenced build gives instead of code and want: a file the
	// path checks refuse (a package.json above the app) is one the fenced build cannot read.
	fenced *struct {
		code int
		want string
	}
	never string // in no message, fenced or not: advice to install a misspelt name
	// addons are native addons of the app: a .node file's path in the app folder → its C
	// source, built with the C compiler (cgo's, which builds bundle) before the build.
	addons map[string]string
	// pageHolds: the secret may be in the page (the .env row, where Vite's rule puts it
	// there, warned of); it is still in no message.
	pageHolds bool
	check     func(t *testing.T, base string)
}

func leakRows() []leakRow {
	scss := func(use string) map[string]string {
		return map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.scss">`),
			"style.scss": use + "\n.ok { color: red; }\n"}
	}
	tw := func(css string) map[string]string {
		return map[string]string{"miniapp.toml": leakManifest, "index.html": leakPageBody(`<link rel="stylesheet" href="./app.css">`, `<div class="p-4"></div>`),
			"app.css": "@import \"tailwindcss\";\n" + css + "\n"}
	}
	postcss := func(config, css string) map[string]string {
		return map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.css">`),
			"postcss.config.mjs": config, "style.css": css + "\n.ok { color: red }\n"}
	}
	less := func(src string, more map[string]string) map[string]string {
		f := map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.less">`), "style.less": src + "\n.ok { color: red; }\n"}
		maps.Copy(f, more)
		return f
	}
	// twPlugin is an app whose stylesheet loads the Tailwind plugin p.js (body) with the
	// @plugin's block (opts, "" for none).
	twPlugin := func(body, opts string) map[string]string {
		f := tw("@plugin \"./p.js\"" + opts + ";")
		if opts != "" {
			f["app.css"] = "@import \"tailwindcss\";\n@plugin \"./p.js\"" + opts + "\n"
		}
		f["p.js"] = body
		return f
	}
	pageHas := func(want string) func(*testing.T, string) {
		return func(t *testing.T, base string) {
			t.Helper()
			if b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html")); err != nil || !strings.Contains(string(b), want) {
				_, after, _ := strings.Cut(string(b), "<style>")
				t.Errorf("the page lacks %q (%v): %.300s", want, err, after)
			}
		}
	}
	script := func(main string, more map[string]string) map[string]string {
		f := map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<script type="module" src="./main.ts"></script>`), "main.ts": main}
		for k, v := range more {
			f[k] = v
		}
		return f
	}
	victimSame := func(t *testing.T, base string) {
		t.Helper()
		for name, want := range map[string]string{"registry.json": `{ "the host's": "` + token + `" }` + "\n", "victim.html": "the host's page " + token + "\n"} {
			if b, err := os.ReadFile(filepath.Join(base, "elsewhere", name)); err != nil || string(b) != want {
				t.Errorf("elsewhere/%s was changed: %q %v", name, b, err)
			}
		}
	}
	return []leakRow{
		// tsconfig.json
		{name: "tsconfig_extends_proc_environ", files: script("console.log(<div/>)", map[string]string{"tsconfig.json": `{ "extends": "/proc/self/environ" }`}),
			code: 1, want: `extends "/proc/self/environ" names a config outside`},
		{name: "tsconfig_extends_outside_file", files: script("console.log(1)", map[string]string{"tsconfig.json": `{ "extends": "../../secrets/tsconfig.json" }`}),
			code: 1, want: `extends "../../secrets/tsconfig.json" names a config outside`},
		{name: "tsconfig_extends_not_json_outside", files: script("console.log(1)", map[string]string{"tsconfig.json": `{ "extends": "BASE/secrets/notjson.json" }`}),
			code: 1, want: "names a config outside"},
		{name: "tsconfig_extends_package_above_root", app: "plain/app", files: script("console.log(1)", map[string]string{"tsconfig.json": `{ "extends": "@leak/tsconfig" }`, "package.json": `{ "private": true, "browser": {} }`}),
			code: 0, want: `cannot find base config file "@leak/tsconfig"`},
		{name: "tsconfig_symlinked_outside", files: script("console.log(1)", nil), links: map[string]string{"tsconfig.json": "secrets/tsconfig.json"},
			code: 1, want: "tsconfig.json is a symbolic link to a file outside"},
		// A folder's own tsconfig (its project, read for the files in it): an extends that
		// leaves the root was never read, and the config was left out without a word.
		{name: "tsconfig_of_folder_extends_outside", files: script(`import { x } from "./sub/x.ts"; console.log(x)`, map[string]string{
			"sub/x.ts": "export const x = 1;", "sub/tsconfig.json": `{ "extends": "../../../secrets/tsconfig.json" }`}),
			code: 1, want: `sub/tsconfig.json:1:14: error: extends "../../../secrets/tsconfig.json" names a config outside`},
		{name: "tsconfig_of_folder_extends_proc_environ", files: script(`import { x } from "./sub/x.ts"; console.log(x)`, map[string]string{
			"sub/x.ts": "export const x = 1;", "sub/tsconfig.json": `{ "extends": "/proc/self/environ" }`}),
			code: 1, want: `extends "/proc/self/environ" names a config outside`},
		{name: "tsconfig_paths_outside", files: script(`import s from "@s/token.txt"; console.log(s)`, map[string]string{"tsconfig.json": `{ "compilerOptions": { "paths": { "@s/*": ["../../secrets/*"] } } }`}),
			code: 1, want: "outside"},
		{name: "tsconfig_in_parent_not_applied", app: "plain/app", files: script("const h = (..._: unknown[]) => 0; console.log(<div/>, h)", map[string]string{"main.ts": "", "main.tsx": "console.log(<div/>)",
			"index.html": leakPage(`<script type="module" src="./main.tsx"></script>`), "package.json": `{ "private": true, "browser": {} }`}),
			code: 1, want: "react"},
		// package.json
		{name: "package_json_in_parent_browser_map", app: "plain/app", files: script(`import "./real.js"`, map[string]string{"real.js": `console.log("real")`, "swapped.js": `console.log("swapped ` + token + `")`}),
			code: 1, want: `has "browser", which esbuild would apply`, fenced: &struct {
				code int
				want string
			}{0, ""}},
		// A Yarn Plug'n'Play manifest above the app, which esbuild applies to every package
		// import (the nearest from the app folder up), swapped the app's installed package
		// for another folder with the path checks alone, exit 0.
		{name: "pnp_manifest_in_parent", app: "plain/app", files: script(`import s from "foo"; console.log(s)`, map[string]string{
			"package.json":                  `{ "private": true, "browser": {}, "dependencies": { "foo": "1" } }`,
			"node_modules/foo/package.json": `{ "name": "foo", "main": "index.js" }`, "node_modules/foo/index.js": `export default "the app's foo"`,
			"vendor/evil/package.json": `{ "name": "foo", "main": "index.js" }`, "vendor/evil/index.js": `export default "TOKEN"`,
			"../.pnp.data.json": `{ "__info": [], "dependencyTreeRoots": [{ "name": "app", "reference": "workspace:." }], "ignorePatternData": null,
  "enableTopLevelFallback": false, "fallbackPool": [], "fallbackExclusionList": [], "packageRegistryData": [
  [null, [[null, { "packageLocation": "./app/", "packageDependencies": [["foo", "npm:1.0.0"]], "linkType": "SOFT" }]]],
  ["app", [["workspace:.", { "packageLocation": "./app/", "packageDependencies": [["foo", "npm:1.0.0"]], "linkType": "SOFT" }]]],
  ["foo", [["npm:1.0.0", { "packageLocation": "./app/vendor/evil/", "packageDependencies": [], "linkType": "HARD" }]]] ] }`}),
			code: 1, want: "a Yarn Plug'n'Play manifest, which esbuild would apply", fenced: &struct {
				code int
				want string
			}{0, ""}},
		// The package.json above an app that has none of its own is the one esbuild resolves
		// a self-reference by: its "name" and "exports" swapped the app's installed package.
		{name: "package_json_in_parent_self_reference", app: "plain/app", files: script(`import s from "foo"; console.log(s)`, map[string]string{
			"node_modules/foo/package.json": `{ "name": "foo", "main": "index.js" }`, "node_modules/foo/index.js": `export default "the app's foo"`,
			"vendor/evil/index.js": `export default "TOKEN"`, "../package.json": `{ "name": "foo", "exports": { ".": "./app/vendor/evil/index.js" } }`}),
			code: 1, want: `has "exports", which esbuild would apply`, fenced: &struct {
				code int
				want string
			}{0, ""}},
		// The "type" of the package.json above an app that has none of its own is the one
		// esbuild reads the app's .js files by: "module" made a CommonJS file an ES module
		// ("No matching export in "cjs.js" for import "default"", where the app alone builds).
		{name: "package_json_in_parent_type", app: "plain/app", files: script(`import v from "./cjs.js"; console.log(v)`, map[string]string{
			"cjs.js": `exports.__esModule = true; exports.default = "the app's";`, "../package.json": `{ "type": "module" }`}),
			code: 1, want: `has "type", which esbuild would apply`, fenced: &struct {
				code int
				want string
			}{0, ""}},
		{name: "package_json_symlinked_outside", files: script(`console.log(1)`, nil), links: map[string]string{"package.json": "secrets/notjson.json"},
			code: 1, want: "outside"},
		{name: "package_in_node_modules_symlinked_outside", files: script(`import { s } from "evilpkg"; console.log(s)`, nil), links: map[string]string{"node_modules/evilpkg": "secrets/evilpkg"},
			code: 1, want: "outside"},
		{name: "package_json_of_package_symlinked_outside", files: script(`import x from "pj"; console.log(x)`, map[string]string{"node_modules/pj/index.js": "export default 1"}),
			links: map[string]string{"node_modules/pj/package.json": "secrets/notjson.json"}, code: 1, want: "outside"},
		{name: "package_imports_outside", files: script(`import s from "#s"; console.log(s)`, map[string]string{"package.json": `{ "private": true, "imports": { "#s": "./../../secrets/token.txt" } }`}),
			code: 1, want: "outside"},
		// The advice for a package that does not resolve ("did you mean …?") names what the
		// app's package.json declares and its node_modules holds: never through a link out.
		{name: "advice_package_json_symlinked_outside", files: script(`import x from "`+near+`"; console.log(x)`, nil), links: map[string]string{"package.json": "secrets/deps/package.json"},
			code: 1, want: "Could not resolve"},
		{name: "advice_node_modules_symlinked_outside", files: script(`import x from "`+near+`"; console.log(x)`, nil), links: map[string]string{"node_modules": "secrets/names"},
			code: 1, want: "Could not resolve"},
		{name: "advice_scope_symlinked_outside", files: script(`import x from "@x/`+near+`"; console.log(x)`, nil), links: map[string]string{"node_modules/@x": "secrets/names"},
			code: 1, want: "Could not resolve"},
		// A package whose entry leads out of the root: esbuild, fenced, finds no file there,
		// and the message says which field of which package.json leaves.
		{name: "package_main_outside", files: script(`import x from "pkg"; console.log(x)`, map[string]string{"node_modules/pkg/package.json": `{ "name": "pkg", "main": "../../../../secrets/evilpkg/index.js" }`}),
			code: 1, want: "outside", fenced: &struct {
				code int
				want string
			}{1, `node_modules/pkg/package.json's "main" is "../../../../secrets/evilpkg/index.js"`}},
		{name: "package_exports_outside", files: script(`import x from "pkg"; console.log(x)`, map[string]string{"node_modules/pkg/package.json": `{ "name": "pkg", "exports": "../../../../secrets/evilpkg/index.js" }`}),
			code: 1, want: `node_modules/pkg/package.json's "exports" (for ".") is "../../../../secrets/evilpkg/index.js"`},
		// The browser build takes a package's entry under the browser's conditions (browser,
		// import or require, module, production, default): a "node" target that leads out is
		// not the page's, and refused the build before (exit 1); an "import" one still does.
		{name: "package_exports_node_outside", files: script(`import x from "pkg"; import y from "pkg/y"; console.log(x, y)`, map[string]string{"node_modules/pkg/index.js": "export default 1\n", "node_modules/pkg/y.js": "export default 2\n",
			"node_modules/pkg/package.json": `{ "name": "pkg", "exports": { ".": { "node": "../../../../secrets/evilpkg/index.js", "default": "./index.js" }, "./y": [{ "node": "../../../../secrets/evilpkg/index.js" }, "./y.js"] } }`}),
			code: 0},
		{name: "package_exports_import_outside", files: script(`import x from "pkg"; console.log(x)`, map[string]string{"node_modules/pkg/index.js": "export default 1\n",
			"node_modules/pkg/package.json": `{ "name": "pkg", "exports": { "node": "./index.js", "import": "../../../../secrets/evilpkg/index.js", "default": "./index.js" } }`}),
			code: 1, want: `node_modules/pkg/package.json's "exports" (for ".") is "../../../../secrets/evilpkg/index.js"`},
		// A misspelt package, named by the app's code, its vite.config or its PostCSS config:
		// the advice names the installed package meant, never the typo to install (an
		// unrelated package of that name may exist on npm), and is the same fenced or not.
		{name: "advice_import_typo", files: script(`import x from "postcss-nestin"; console.log(x)`, nil),
			code: 1, want: `did you mean "postcss-nesting" (installed)?`, never: "install postcss-nestin"},
		{name: "advice_vite_config_import_typo", files: script("console.log(1)", map[string]string{"vite.config.js": `import p from "postcss-nestin"; export default {};`}),
			code: 1, want: `did you mean "postcss-nesting" (installed)?`, never: "install -D postcss-nestin"},
		{name: "advice_postcss_plugin_typo", files: postcss(`export default { plugins: { "postcss-nestin": {} } };`, ""),
			code: 1, want: `did you mean "postcss-nesting" (installed)?`, never: "install -D postcss-nestin"},
		// A Tailwind @plugin that names a package not installed, by Tailwind's own compiler or
		// inside @tailwindcss/postcss: the same advice, at the @plugin.
		{name: "advice_tailwind_plugin_typo", files: tw(`@plugin "@tailwindcss/postcs";`),
			code: 1, want: `did you mean "@tailwindcss/postcss" (installed)?`, never: "install -D @tailwindcss/postcs"},
		{name: "advice_tailwind_postcss_plugin_typo", files: postcss(`export default { plugins: { "@tailwindcss/postcss": {} } };`, "@import \"tailwindcss\";\n@plugin \"@tailwindcss/postcs\";"),
			code: 1, want: `style.css:2:1: error: Tailwind CSS: @plugin "@tailwindcss/postcs" names the npm package @tailwindcss/postcs`, never: "install -D @tailwindcss/postcs"},
		// A name far from every one the app has is not "meant" as one of them (a third of
		// postcss-preset-env's letters made it postcss-nesting), nor put in an install command.
		{name: "advice_postcss_plugin_far", files: postcss(`export default { plugins: { "postcss-preset-env": {} } };`, ""),
			code: 1, want: "no package.json of the app declares postcss-preset-env", never: "did you mean"},
		{name: "advice_tailwind_plugin_far", files: tw(`@plugin "tailwind-scrollbar";`),
			code: 1, want: `@plugin "tailwind-scrollbar" names the npm package tailwind-scrollbar`, never: "did you mean"},
		{name: "advice_vite_config_import_far", files: script("console.log(1)", map[string]string{"vite.config.js": `import p from "vite-plugin-checker"; export default {};`}),
			code: 1, want: "no package.json of the app declares vite-plugin-checker", never: "install -D vite-plugin-checker"},
		// the manifest and .env
		{name: "manifest_symlinked_outside", files: map[string]string{"index.html": leakPage("")}, links: map[string]string{"miniapp.toml": "secrets/token.txt"},
			code: 1, want: "miniapp.toml is a symbolic link to a file outside the app folder"},
		{name: "manifest_json_symlinked_outside", files: map[string]string{"index.html": leakPage("")}, links: map[string]string{"manifest.json": "secrets/notjson.json"},
			code: 1, want: "manifest.json is a symbolic link to a file outside the app folder"},
		{name: "env_symlinked_outside", files: script("console.log(import.meta.env)", nil), links: map[string]string{".env": "secrets/token.txt"},
			code: 1, want: ".env is a symbolic link that leaves the app folder"},
		{name: "env_takes_builder_variable", files: script("console.log(import.meta.env.VITE_X)", map[string]string{".env": "VITE_X=$BUNDLE_TEST_SECRET\n"}),
			code: 0, want: "VITE_X takes $BUNDLE_TEST_SECRET from the environment the build runs in", pageHolds: true},
		{name: "env_prefix_exposes_builder_variable", files: script("console.log(import.meta.env.BUNDLE_TEST_SECRET)", map[string]string{"vite.config.js": `export default { envPrefix: ["BUNDLE_TEST_"] };`}),
			code: 0, want: `envPrefix ["BUNDLE_TEST_"] makes $BUNDLE_TEST_SECRET of the environment the build runs in public`, pageHolds: true},
		{name: "env_dir_outside", files: script("console.log(import.meta.env.VITE_X)", map[string]string{"vite.config.js": `export default { envDir: "../../secrets" };`}),
			code: 1, want: "envDir BASE/secrets leaves the app folder"},
		// scripts and the page
		{name: "import_absolute_outside", files: script(`import s from "BASE/secrets/token.txt"; console.log(s)`, nil), code: 1, want: "outside"},
		{name: "import_proc_environ", files: script(`import s from "/proc/self/environ?raw"; console.log(s)`, nil), code: 1, want: "outside"},
		{name: "css_url_proc_environ", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./s.css">`), "s.css": ".a { background: url(/proc/self/environ) }"},
			code: 1, want: "/proc/self/environ"},
		// esbuild's own globs (a require or import() of a string a + continues, a require of a
		// template literal), which list the folder before any file found reaches the checks:
		// with the path checks alone the build named each file of a folder beside the app (the
		// secret's folder among them), and under the kernel's fence it found none and built.
		{name: "require_glob_outside", files: script(`import "./c.cjs"`, map[string]string{"c.cjs": "const x = String(Math.random());\nconsole.log(require(\"../../secrets/\" + x + \".json\"));\n"}),
			code: 1, want: "c.cjs:2:21: error: this require() names the files of ../../secrets/, outside the workspace root"},
		{name: "require_glob_inside", files: script(`import "./c.cjs"`, map[string]string{"c.cjs": "const x = String(Math.random());\nconsole.log(require(\"./loc/\" + x + \".json\"));\n", "loc/en.json": `{ "hi": 1 }`}), code: 0},
		{name: "require_template_glob_outside", files: script(`import "./c.cjs"`, map[string]string{"c.cjs": "const x = String(Math.random());\nconsole.log(require(`../../secrets/names/${x}/package.json`));\n"}),
			code: 1, want: "this require() names the files of ../../secrets/names/, outside"},
		{name: "import_concat_glob_through_link", files: script(`const x = String(Math.random()); import("./linked/" + x + ".json").then(console.log)`, nil),
			links: map[string]string{"linked": "secrets"}, code: 1, want: "this import() names the files of ./linked/, outside"},
		{name: "package_import_template_glob_outside", files: script(`import g from "gl"; console.log(g)`, map[string]string{
			"node_modules/gl/package.json": `{ "name": "gl", "main": "i.js" }`,
			"node_modules/gl/i.js":         "const x = String(Math.random());\nexport default () => import(`../../../../secrets/${x}.json`);\n"}),
			code: 1, want: "node_modules/gl/i.js:2:29: error: this import() names the files of ../../../../secrets/, outside"},
		{name: "import_raw_through_link", files: script(`import s from "./t.txt?raw"; console.log(s)`, nil), links: map[string]string{"t.txt": "secrets/token.txt"}, code: 1, want: "outside"},
		{name: "new_url_outside", files: script(`console.log(new URL("../../secrets/image.png", import.meta.url))`, nil), code: 1, want: "outside"},
		// A variable import() that leaves the root was said to be an "import.meta.glob pattern".
		{name: "variable_import_outside", files: script("const n = String(Math.random());\nimport(`../../secrets/${n}.txt`).then(console.log);", nil),
			code: 1, want: `main.ts:2:8: error: this variable import() (its files "../../secrets/*.txt") reaches outside the workspace root BASE/ws`},
		{name: "glob_outside", files: script(`console.log(import.meta.glob("../../secrets/*.txt", { query: "?raw", eager: true }))`, nil),
			code: 1, want: `import.meta.glob pattern "../../secrets/*.txt" reaches outside`},
		{name: "glob_through_link", files: script(`console.log(import.meta.glob("./s/*.txt", { query: "?raw", eager: true }))`, nil), links: map[string]string{"s": "secrets"},
			code: 1, want: "reaches outside"},
		{name: "public_dir_symlinked_outside", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPageBody("", `<img src="/image.png">`)}, links: map[string]string{"public": "secrets"},
			code: 1, want: "leaves the app folder"},
		{name: "alias_outside", files: script(`import s from "@s/token.txt"; console.log(s)`, map[string]string{"miniapp.toml": leakManifest + "\n[build]\nalias = { \"@s\" = \"../../secrets\" }\n"}),
			code: 1, want: "alias"},
		// A folder alias whose path goes on through a link out, and a package's file by its
		// path through a link in the package: refused by where they lead, said as such.
		{name: "alias_through_link", files: script(`import s from "@s/l/token.txt?raw"; console.log(s)`, map[string]string{"miniapp.toml": leakManifest + "\n[build]\nalias = { \"@s\" = \"./src\" }\n", "src/a.txt": "a"}),
			links: map[string]string{"src/l": "secrets"}, code: 1, want: `Could not resolve "@s/l/token.txt": the manifest's build.alias takes it to`},
		{name: "package_subpath_through_link", files: script(`import s from "p/l/token.txt?raw"; console.log(s)`, map[string]string{"node_modules/p/package.json": `{ "name": "p" }`}),
			links: map[string]string{"node_modules/p/l": "secrets"}, code: 1, want: `Could not resolve "p/l/token.txt": it names a file outside the workspace root BASE/ws, through a link in its package`},
		{name: "worker_outside", files: script(`new Worker(new URL("../../secrets/w.js", import.meta.url), { type: "module" })`, nil), code: 1, want: "outside"},
		{name: "img_outside", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPageBody("", `<img src="../../secrets/image.png">`)}, code: 1, want: "leaves the app folder"},
		{name: "css_url_outside", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./s.css">`), "s.css": ".a { background: url(../../secrets/image.png) }"},
			code: 1, want: "outside"},
		{name: "css_import_outside", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./s.css">`), "s.css": `@import "../../secrets/secret.css";`},
			code: 1, want: "outside"},
		// Sass
		{name: "sass_use_relative_outside", files: scss(`@use "../../secrets/secret";`), code: 1, want: "outside"},
		{name: "sass_use_absolute_outside", files: scss(`@use "BASE/secrets/secret";`), code: 1, want: "outside"},
		{name: "sass_use_file_url_outside", files: scss(`@use "file://BASE/secrets/secret";`), code: 1, want: "outside"},
		{name: "sass_import_outside", files: scss(`@import "../../secrets/secret";`), code: 1, want: "outside"},
		{name: "sass_partial_symlinked_outside", files: scss(`@use "part";`), links: map[string]string{"_part.scss": "secrets/_secret.scss"}, code: 1, want: "outside"},
		{name: "sass_in_parent_node_modules", app: "parent/app", files: scss(""), code: 1, want: "needs the npm package sass"},
		// An app whose npm packages hold no tool's: the fenced build leaves Node out of its fence
		// (pipeline.NeedsNode) and says what the stylesheet needs, as Node said it.
		{name: "sass_in_parent_node_modules_app_packages", app: "parent/app", files: withLeftPad(scss("")), code: 1, want: "needs the npm package sass"},
		{name: "scss_app_packages_no_tool", app: "plain/app", files: withLeftPad(map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.scss">`),
			"style.scss": ".ok { color: red; }", "package.json": `{ "private": true, "browser": {}, "dependencies": { "left-pad": "1.3.0" } }`}), code: 1, want: "Sass needs the npm package sass, which is not installed in the app"},
		{name: "sass_on_node_path", app: "plain/app", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.scss">`),
			"style.scss": ".ok { color: red; }", "package.json": `{ "private": true, "browser": {} }`}, env: []string{"NODE_PATH=BASE/npath"}, code: 1, want: "needs the npm package sass"},
		{name: "node_modules_symlinked_outside", files: scss(""), links: map[string]string{"node_modules": "parent/node_modules"}, code: 1, want: "outside"},
		{name: "node_options_require", files: scss(""), env: []string{"NODE_OPTIONS=--require BASE/secrets/evil.cjs"}, code: 0},
		// Less: data-uri() and image-size() read their file through Less's own reader, which,
		// refused, said "file not found" and wrote url() of it; the build refused that at a
		// line of the compiled CSS, named as the entry's (style.less:5:19, a line it does not
		// have). Refused where the call is, in the file Less names (an @import's too).
		{name: "less_data_uri_outside", files: less(`.a { background: data-uri("../../secrets/token.txt"); }`, nil),
			code: 1, want: "style.less:1:18: error: Less: Error evaluating function `data-uri`: BASE/secrets/token.txt is outside the folder bundle lets the CSS tools read (BASE/ws)"},
		{name: "less_data_uri_in_import_outside", files: less(`@import "./sub/part.less";`, map[string]string{"sub/part.less": "// part\n.a {\n  background: data-uri(\"../../../secrets/token.txt\");\n}\n"}),
			code: 1, want: "sub/part.less:3:15: error: Less: Error evaluating function `data-uri`: BASE/secrets/token.txt is outside"},
		{name: "less_image_size_in_import_through_link", files: less(`@import "./sub/part.less";`, map[string]string{"sub/part.less": "// part\n.a {\n  width: image-width(\"./l.png\");\n}\n"}),
			links: map[string]string{"l.png": "secrets/image.png"}, code: 1, want: "sub/part.less:3:10: error: Less: Error evaluating function `image-width`: BASE/ws/app/l.png is outside"},
		// Tailwind CSS
		{name: "tailwind_import_outside", files: tw(`@import "../../secrets/secret.css";`), code: 1, want: "outside"},
		{name: "tailwind_source_outside", files: tw(`@source "../../secrets/scan";`), code: 1, want: "outside"},
		// A Tailwind @plugin of the app's, as a function, as plugin()'s { handler } and as an
		// options function (plugin.withOptions): the runner imports it and notes its calls
		// (a plugin that never returns is said at its @plugin, TestCSSToolHangs), and its
		// CSS is in the page as Tailwind gives it.
		{name: "tailwind_plugin_function", files: twPlugin("module.exports = function ({ addBase }) { addBase({ \":root\": { \"--from\": \"fn\" } }); };\n", ""),
			code: 0, check: pageHas("--from: fn")},
		{name: "tailwind_plugin_handler", files: twPlugin("module.exports = { handler({ addBase }) { addBase({ \":root\": { \"--from\": \"handler\" } }); } };\n", ""),
			code: 0, check: pageHas("--from: handler")},
		{name: "tailwind_plugin_with_options", files: twPlugin("const f = (o) => ({ handler({ addBase }) { addBase({ \":root\": { \"--from\": o.v } }); } });\nf.__isOptionsFunction = true;\nmodule.exports = f;\n", " { v: opts; }"),
			code: 0, check: pageHas("--from: opts")},
		{name: "tailwind_plugin_outside", files: tw(`@plugin "../../secrets/plugin.js";`), code: 1, want: "outside"},
		{name: "tailwind_config_outside", files: tw(`@config "../../secrets/tailwind.config.js";`), code: 1, want: "outside"},
		{name: "tailwind_scan_through_link", files: tw(""), links: map[string]string{"src": "secrets/scan"}, code: 0},
		{name: "tailwind_scan_file_link", files: tw(""), links: map[string]string{"page.html": "secrets/scan/page.html"}, code: 0},
		{name: "tailwind_import_source_outside", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./app.css">`),
			"app.css": "@import \"tailwindcss\" source(\"../../secrets/scan\");\n"}, code: 1, want: "outside"},
		{name: "tailwind_reference_outside", files: tw(`@reference "../../secrets/secret.css";`), code: 1, want: "outside"},
		{name: "tailwind_postcss_source_outside", files: postcss(`export default { plugins: { "@tailwindcss/postcss": {} } };`, "@import \"tailwindcss\";\n@source \"../../secrets/scan\";"), code: 1, want: "outside"},
		{name: "tailwind_postcss_plugin_outside", files: postcss(`export default { plugins: { "@tailwindcss/postcss": {} } };`, "@import \"tailwindcss\";\n@plugin \"../../secrets/plugin.js\";"), code: 1, want: "outside"},
		{name: "tailwind_postcss_scan_through_link", files: postcss(`export default { plugins: { "@tailwindcss/postcss": {} } };`, "@import \"tailwindcss\";"), links: map[string]string{"src": "secrets/scan"}, code: 0},
		// PostCSS
		{name: "postcss_import_outside", files: postcss(`export default { plugins: {} };`, `@import "../../secrets/secret.css";`), code: 1, want: "outside"},
		{name: "postcss_config_reads_outside", files: postcss(`import fs from "node:fs"; const s = fs.readFileSync("BASE/secrets/token.txt", "utf8");
export default { plugins: [{ postcssPlugin: "p", Once(root) { root.append({ selector: ".leak", nodes: [] }); root.append("/* " + s + " */") } }] };`, ""), code: 1, want: "outside"},
		{name: "postcss_config_writes_outside", files: postcss(`import fs from "node:fs"; fs.writeFileSync("BASE/ran-config-write", "x"); export default { plugins: [] };`, ""), code: 1, want: "BASE/ran-config-write is outside the folder bundle lets the CSS tools write (their temporary folder, os.tmpdir())"},
		{name: "postcss_plugin_outside", files: postcss(`import p from "../../secrets/plugin.mjs"; export default { plugins: [p] };`, ""), code: 1, want: "outside"},
		// The app's own Node code creates no socket: not a UNIX socket of the machine by its
		// path (Landlock holds it only from ABI 9), not UDP (Landlock does not hold it), not
		// TCP. With BUNDLE_FENCE=off nothing held it (unix ENOENT, udp sent), and a config
		// fetched what a service of the machine answers (a cloud's metadata endpoint: here
		// the test's server, which answers the secret) into the page (exit 0).
		{name: "postcss_config_sockets", files: postcss(`import net from "node:net"; import dgram from "node:dgram";
const unix = await new Promise((res) => { const c = net.connect("BASE/no.sock"); c.on("error", (e) => res(e.code)); c.on("connect", () => res("connected")); });
const udp = await new Promise((res) => { try { const s = dgram.createSocket("udp4"); s.on("error", (e) => res(e.code)); s.send("x", 9, "127.0.0.1", (e) => { s.close(); res(e ? e.code : "sent"); }); } catch (e) { res(e.code); } });
if (unix !== "EACCES" || udp !== "EACCES") throw new Error("sockets: unix " + unix + ", udp " + udp);
export default { plugins: [] };`, ""), code: 0},
		{name: "vite_config_fetches_machine_service", files: script("console.log(__X__)", map[string]string{"vite.config.js": `export default { define: { __X__: JSON.stringify(await (await fetch("SERVER/latest/meta-data/iam/security-credentials/role")).text()) } };`}),
			code: 1, want: "bundle's checks refused it, not Vite, which runs the config with no fence: bundle lets a vite.config open no socket (no fetch)", never: "Vite would refuse it too"},
		// Native addons read files in their own code, which Node's fs guards and its
		// permission model do not see: with BUNDLE_FENCE=off Lightning CSS's bundle() of a
		// stylesheet outside, Tailwind's scanner loaded from its platform package (the
		// runner confined @tailwindcss/oxide's only), and one of @tailwindcss/oxide asked for a
		// file's candidates each put the secret in the page (exit 0).
		{name: "postcss_config_lightningcss_bundle_outside", files: postcss(postcssLeaks(`const { bundle } = require("lightningcss"); return bundle({ filename: "BASE/secrets/secret.css" }).code.toString();`), ""),
			code: 1, want: "outside"},
		{name: "postcss_config_lightningcss_bundle_async_outside", files: postcss(postcssLeaks(`const { bundleAsync } = require("lightningcss"); return (await bundleAsync({ filename: "BASE/secrets/secret.css" })).code.toString();`), ""),
			code: 1, want: "outside"},
		{name: "postcss_config_lightningcss_import_outside", files: func() map[string]string {
			f := postcss(postcssLeaks(`const { bundleAsync } = require("lightningcss"); return (await bundleAsync({ filename: "BASE/ws/app/in.css" })).code.toString();`), "")
			f["in.css"] = `@import "../../secrets/secret.css";` + "\n"
			return f
		}(), code: 1, want: "outside"},
		{name: "postcss_config_oxide_platform_scanner_outside", files: postcss(postcssLeaks(`const { Scanner } = require("@tailwindcss/oxide-" + process.platform + "-" + process.arch + "-gnu"); return new Scanner({ sources: [{ base: "BASE/secrets/scan", pattern: "**/*", negated: false }] }).scan().join(" ");`), ""),
			code: 1, want: "outside"},
		{name: "postcss_config_oxide_file_candidates_outside", files: postcss(postcssLeaks(`const { Scanner } = require("@tailwindcss/oxide"); const s = new Scanner({ sources: [] });
return Object.getPrototypeOf(s).getCandidatesWithPositions.call(s, { file: "BASE/secrets/scan/page.html", extension: "html" }).map((c) => c.candidate).join(" ");`), ""),
			code: 1, want: "outside"},
		// Another package's addon read for the app's code what no check saw: with
		// BUNDLE_FENCE=off @parcel/watcher (sass's dependency) listed a folder beside the app
		// into a file of Node's temporary folder, which went into the page, and into a file
		// beside the app (exit 0). Outside the kernel's fence its functions are refused.
		{name: "postcss_config_addon_lists_outside", files: postcss(postcssLeaks(`const w = require("@parcel/watcher"); const snap = require("node:os").tmpdir() + "/snap";
await w.writeSnapshot("BASE/secrets/names", snap); await w.writeSnapshot("BASE/secrets/names", "BASE/ran-snapshot"); return require("node:fs").readFileSync(snap, "utf8");`), ""),
			code: 1, want: "style.css: error: PostCSS (from postcss.config.mjs): @parcel/watcher-linux-x64-glibc's native addon (its writeSnapshot) reads and writes files in its own code", fenced: &struct {
				code int
				want string
			}{1, "style.css: error: PostCSS (from postcss.config.mjs)"}},
		{name: "vite_config_addon_writes_outside", files: script("console.log(1)", map[string]string{"vite.config.js": `import { createRequire } from "node:module";
await createRequire(import.meta.url)("@parcel/watcher").writeSnapshot("BASE/ws/app", "BASE/ran-snapshot-config"); export default {};`}),
			code: 1, want: "bundle's checks refused it, not Vite, which runs the config with no fence: bundle lets a vite.config call a native addon it does not confine (@parcel/watcher-linux-x64-glibc's) only inside the kernel's fence", fenced: &struct {
				code int
				want string
			}{1, "vite.config.js threw"}},
		{name: "postcss_plugin_in_ancestor_node_modules", files: postcss(`export default { plugins: { evil: {} } };`, ""), code: 1, want: "evil"},
		{name: "postcss_config_symlinked_outside", files: map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.css">`), "style.css": ".ok { color: red }"}, links: map[string]string{"postcss.config.mjs": "secrets/plugin.mjs"}, code: 1, want: "outside"},
		// vite.config: esbuild bundles it in the build's process, and the place of what it
		// throws is the stack it writes
		// Ignored before: the page's /token.txt was the app's public/ file, where Vite serves
		// the folder outside.
		{name: "vite_config_public_dir_outside", files: script("console.log(1)", map[string]string{"vite.config.js": `export default { publicDir: "../../secrets" };`}),
			code: 1, want: "publicDir BASE/secrets is outside the app folder"},
		{name: "vite_config_imports_outside", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import s from "../../secrets/tsconfig.json"; export default { define: { __X__: JSON.stringify(s) } };`}),
			code: 1, want: "secrets/tsconfig.json is outside"},
		{name: "vite_config_imports_link_outside", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import s from "./s.json"; export default { define: { __X__: JSON.stringify(s) } };`}),
			links: map[string]string{"s.json": "secrets/tsconfig.json"}, code: 1, want: "secrets/tsconfig.json is outside"},
		{name: "vite_config_stack_through_link", files: script("console.log(1)", map[string]string{"vite.config.js": `const e = new Error("boom"); e.stack = "Error: boom\n    at f (BASE/ws/app/link.txt:1:1)"; throw e;`}),
			links: map[string]string{"link.txt": "secrets/token.txt"}, code: 1, want: "vite.config.js threw: boom"},
		// What a fence refused the config was said to be what "Vite would refuse too": Vite
		// runs the config with no fence. The note names the fence and what the config may do
		// instead.
		// The config is Node code: where the kernel's fence is off, Node's permission model
		// is its second fence (no program runs, no worker escapes it, no file outside is
		// read, by its path or through a link the app holds). With BUNDLE_FENCE=off the
		// program, the worker and the Blob put the secret in the page before (exit 0); the
		// runner's fs guards refused readFileSync and the stream (fs.open) already.
		{name: "vite_config_reads_outside", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import fs from "node:fs"; export default { define: { __X__: JSON.stringify(fs.readFileSync("BASE/secrets/token.txt", "utf8")) } };`}),
			code: 1, want: "bundle's path checks refused it, not Vite, which runs the config with no fence: bundle lets a vite.config read only BASE/ws: move what it reads into that folder", never: "Vite would refuse it too"},
		{name: "vite_config_runs_program", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import { execFileSync } from "node:child_process"; export default { define: { __X__: JSON.stringify(execFileSync("cat", ["BASE/secrets/token.txt"], { encoding: "utf8" })) } };`}),
			code: 1, want: "Node's permission model (bundle's fence where the kernel's is off) refused it, not Vite, which runs the config with no fence: bundle lets a vite.config start no program",
			fenced: &struct {
				code int
				want string
			}{1, "the kernel's fence (" + confine.Available().String() + ") refused it, not Vite, which runs the config with no fence: bundle lets a vite.config start no program"},
			never: "Vite would refuse it too"},
		{name: "vite_config_worker_without_fence", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import { Worker } from "node:worker_threads";
const s = await new Promise((res, rej) => { const w = new Worker("require('worker_threads').parentPort.postMessage(require('fs').readFileSync('BASE/secrets/token.txt', 'utf8'))", { eval: true, execArgv: [] }); w.on("message", res); w.on("error", rej); });
export default { define: { __X__: JSON.stringify(s) } };`}),
			code: 1, want: "Node's permission model (bundle's fence where the kernel's is off) refused it, not Vite, which runs the config with no fence: bundle lets a vite.config start no worker",
			fenced: &struct {
				code int
				want string
			}{1, "the kernel's fence (" + confine.Available().String() + ") refused it, not Vite, which runs the config with no fence: bundle lets a vite.config read only BASE/ws and write only its temporary folder"},
			never: "Vite would refuse it too"},
		{name: "vite_config_blob_through_link", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import fs from "node:fs"; const s = await (await fs.openAsBlob("BASE/ws/app/l.txt")).text(); export default { define: { __X__: JSON.stringify(s) } };`}),
			links: map[string]string{"l.txt": "secrets/token.txt"}, code: 1, want: "bundle's path checks refused it, not Vite", never: "Vite would refuse it too"},
		{name: "vite_config_stream_through_link", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import fs from "node:fs"; let s = ""; for await (const c of new fs.ReadStream("BASE/ws/app/l.txt", "utf8")) s += c; export default { define: { __X__: JSON.stringify(s) } };`}),
			links: map[string]string{"l.txt": "secrets/token.txt"}, code: 1, want: "bundle's path checks refused it, not Vite", never: "Vite would refuse it too"},
		// Hooks the config registers (module.register) run on the hooks' thread, where the
		// runner's blocks and fs guards were not: with BUNDLE_FENCE=off a worker started there
		// with execArgv: [] escaped Node's permission model, and a read through a link the app
		// holds was followed out (the model follows links), each putting the secret in the
		// page (exit 0). No code of the config's registers hooks, fenced or not: the call is
		// refused where the config makes it.
		{name: "vite_config_hooks_worker", files: script("console.log(__X__)", map[string]string{"vite.config.js": viteConfigHooks(`const { Worker } = await import("node:worker_threads");
return await new Promise((res, rej) => { const w = new Worker("require('worker_threads').parentPort.postMessage(require('fs').readFileSync('BASE/secrets/token.txt', 'utf8'))", { eval: true, execArgv: [] }); w.on("message", res); w.on("error", rej); });`)}),
			code: 1, want: "vite.config.js:4:1: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_hooks_read_through_link", files: script("console.log(__X__)", map[string]string{"vite.config.js": viteConfigHooks(`const fs = await import("node:fs"); return fs.readFileSync("BASE/ws/app/l.txt", "utf8");`)}),
			links: map[string]string{"l.txt": "secrets/token.txt"}, code: 1, want: "vite.config.js:4:1: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// module.register under the path checks was undefined (so that Tailwind CSS's
		// F.register?.() skips): the config's call said "register is not a function" with a
		// note of every fence; and inside the kernel's fence the hooks ran. The call is refused
		// at its place with what to do, through each way of naming node:module, and a local
		// file the config imports; Tailwind CSS's own register?.() still skips
		// (TestNodePermissionSameBytes).
		{name: "vite_config_module_register_default", files: script("console.log(1)", map[string]string{"vite.config.js": `import module from "module";
const require = module.createRequire(import.meta.url);
export default () => { module.register("./hooks.mjs", import.meta.url); return {}; };`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js:3:31: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_module_register_hooks", files: script("console.log(1)", map[string]string{"vite.config.ts": `import "./setup.ts";
export default {};`, "setup.ts": `import * as m from "node:module";
if (m.registerHooks) m.registerHooks({}); else m.register("./hooks.mjs", import.meta.url);`}),
			code: 1, want: "setup.ts:2:"},
		// node:module reached another way than the import the config's bundling names: the
		// hooks registered inside the kernel's fence, and outside it the call said "register
		// is not a function" with a note of every fence. Refused at the call, whatever the way,
		// or at the config where nothing of it called (a promise's then).
		{name: "vite_config_require_module_register", files: script("console.log(1)", map[string]string{"vite.config.js": `import { createRequire } from "node:module";
const m = createRequire(import.meta.url)("node:module");
m.register("./hooks.mjs", import.meta.url);
export default {};`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js:3:3: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_builtin_module_register", files: script("console.log(1)", map[string]string{"vite.config.js": `const m = process.getBuiltinModule("module");
export default () => { m.register("./hooks.mjs", import.meta.url); return {}; };`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js:2:26: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_computed_import_module_register", files: script("console.log(1)", map[string]string{"vite.config.js": `const name = ["node", "module"].join(":");
const m = await import(name);
m.default.register("./hooks.mjs", import.meta.url);
export default {};`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js:3:11: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_module_register_from_then", files: script("console.log(1)", map[string]string{"vite.config.js": `const m = process.getBuiltinModule("module");
await Promise.resolve("./hooks.mjs").then(m.register);
export default {};`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// A function vm gives a package's name, called by a timer with register: no frame of
		// the app's, and one that looked like a package's (inside the kernel's fence the hooks
		// ran). A package's frame is a file inside the root. Thrown on a timer, it stopped Node
		// (exit 3, "node stopped"): it is the config's failure, placed at the config.
		{name: "vite_config_module_register_vm_named_package", files: script("console.log(1)", map[string]string{"vite.config.js": `import vm from "node:vm";
const m = process.getBuiltinModule("module");
const f = vm.runInThisContext("(r, u, b) => r(u, b)", { filename: "/x/node_modules/p/i.js" });
setTimeout(f, 0, m.register, "./hooks.mjs", import.meta.url);
await new Promise((r) => setTimeout(r, 0));
export default {};`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// The refusal thrown in a timer, by a vite.config's own callback and by a PostCSS
		// plugin's: Node stopped (exit 3, "node stopped: … Error: module.register …"). Placed
		// at the call, exit 1.
		{name: "vite_config_module_register_from_timer", files: script("console.log(1)", map[string]string{"vite.config.js": `const m = process.getBuiltinModule("module");
setTimeout(() => m.register("./hooks.mjs", import.meta.url), 0);
await new Promise((r) => setTimeout(r, 0));
export default {};`, "hooks.mjs": "export async function load(u, c, n) { return n(u, c); }"}),
			code: 1, want: "vite.config.js:2:20: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "postcss_plugin_module_register_from_timer", files: postcss(`export default { plugins: [{ postcssPlugin: "p", async Once() {
  setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
  await new Promise((r) => setTimeout(r, 0));
} }] };`, ""), code: 1, want: "postcss.config.mjs:2:55: error: PostCSS (from postcss.config.mjs): module.register registers loader hooks, which bundle does not run"},
		// A package of the root's node_modules that registers hooks from a timer (or any time
		// but as Node loads it, as Tailwind CSS does): its call passed as a package's, and
		// inside the kernel's fence the hooks ran (exit 0). Refused at the package's line.
		{name: "vite_config_package_module_register_from_timer", files: script("console.log(1)", map[string]string{"vite.config.js": `import later from "later-hooks";
await later();
export default {};`,
			"../node_modules/later-hooks/package.json": `{ "name": "later-hooks", "main": "index.js" }`,
			"../node_modules/later-hooks/index.js": `const m = require("node:module");
module.exports = () => new Promise((r) => setTimeout(() => { m.register("data:text/javascript,"); r(); }, 0));`}),
			code: 1, want: "node_modules/later-hooks/index.js:2:64: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// ac26 (attack, held): the config's own code, made by Function (a frame with no
		// file), set as the CommonJS loader's handler of .js, runs when a package of the root
		// requires a file as Node loads it: the stack is that package's and the loader's only.
		{name: "vite_config_module_register_in_require_hook", files: script("console.log(1)", map[string]string{"vite.config.js": `import { createRequire } from "node:module";
const M = createRequire(import.meta.url)("node:module");
const js = M._extensions[".js"];
M._extensions[".js"] = Function("js", "return function (m, f) { process.getBuiltinModule('module').register('data:text/javascript,'); return js.call(this, m, f); }")(js);
await import("innocent");
M._extensions[".js"] = js;
export default {};`,
			"node_modules/innocent/package.json": `{ "name": "innocent", "main": "index.js" }`,
			"node_modules/innocent/index.js":     `module.exports = require("./a.js");`,
			"node_modules/innocent/a.js":         `module.exports = 1;`}),
			code: 1, want: "vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// ac26 (attack, no fix): the config replaces Error.captureStackTrace, which the check
		// of whether a package calls register as Node loads it reads the stack with, by one
		// that gives a package's frame and the loader's: the call passed as a package's as Node
		// loads it, exit 0, fenced (Node's register ran) and with the path checks.
		{name: "vite_config_module_register_forged_stack", files: script("console.log(1)", map[string]string{"vite.config.js": `const real = Error.captureStackTrace;
Error.captureStackTrace = function (o, fn) {
  if (typeof Error.prepareStackTrace === "function" && o && Object.keys(o).length === 0) { o.stack = [{ getFileName: () => "BASE/ws/app/node_modules/innocent/index.js" }, { getFileName: () => "node:internal/modules/cjs/loader" }]; return; }
  return real.call(this, o, fn);
};
try { process.getBuiltinModule("module").register("data:text/javascript,"); } finally { Error.captureStackTrace = real; }
export default {};`,
			"node_modules/innocent/package.json": `{ "name": "innocent", "main": "index.js" }`,
			"node_modules/innocent/index.js":     `module.exports = 1;`}),
			code: 1, want: "vite.config.js:6:42: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// ac27: the config replaces String.prototype.startsWith and includes and
		// Array.prototype.includes, which the check of who calls module.register read its
		// stack's files with, so that its own frame reads as a package's file and Node's loader
		// as a frame of each: the call passed as a package's as Node loads it, exit 0.
		{name: "vite_config_module_register_prototypes_replaced", files: script("console.log(1)", map[string]string{"vite.config.js": `const { startsWith, includes } = String.prototype, arrayIncludes = Array.prototype.includes;
String.prototype.startsWith = function (s, ...r) { return s === "node:internal/modules/" || startsWith.call(this, s, ...r); };
String.prototype.includes = function (s, ...r) { return s !== "?miniapp-config=" && includes.call(this, s, ...r); };
Array.prototype.includes = function (s, ...r) { return s === "node_modules" || arrayIncludes.call(this, s, ...r); };
try { process.getBuiltinModule("module").register("data:text/javascript,"); } finally { Object.assign(String.prototype, { startsWith, includes }); Array.prototype.includes = arrayIncludes; }
export default {};`,
			"node_modules/innocent/package.json": `{ "name": "innocent", "main": "index.js" }`,
			"node_modules/innocent/index.js":     `module.exports = 1;`}),
			code: 1, want: "vite.config.js:5:42: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// pl28: a PostCSS plugin that reads Node's input and the runner's descriptors and
		// writes answers on them: Node's input is /dev/null (a config's fs.readSync(0) took the
		// next request's line, which then waited for ever), the runner's pipes (3, 4) are
		// refused as not open, and a line on stdout is no answer. The page holds the plugin's
		// CSS, not a forged answer.
		{name: "postcss_plugin_runner_pipes", files: postcss(`import fs from "node:fs";
export default { plugins: [{ postcssPlugin: "p", Once(root) {
  const buf = Buffer.alloc(4096), seen = [];
  for (const fd of [0, 3, 4]) { try { seen.push(fd + ":" + fs.readSync(fd, buf, 0, buf.length, null)); } catch (e) { seen.push(fd + ":" + e.code); } }
  for (const fd of [1, 3, 4]) for (let id = 1; id <= 4; id++) try { fs.writeSync(fd, JSON.stringify({ id, css: ".forged { color: red }" }) + "\n"); } catch {}
  root.append(".seen { content: " + JSON.stringify(seen.join(" ")) + " }");
} }] };`, ""), code: 0,
			check: func(t *testing.T, base string) {
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil || !strings.Contains(string(b), `.seen{content:"0:0 3:EBADF 4:EBADF"}`) || strings.Contains(string(b), "forged") {
					_, seen, _ := strings.Cut(string(b), ".seen")
					t.Errorf("the page: %v; want the plugin's .seen{content:\"0:0 3:EBADF 4:EBADF\"} and no forged answer, got .seen%.60s", err, seen)
				}
			}},
		// pl28: the check of who calls module.register read only the first
		// Error.stackTraceLimit frames (10, or what the app set): Tailwind CSS's own call, at
		// the top level of @tailwindcss/node, was refused when the app's code (a PostCSS config
		// that requires it, however deep its stack) or Node's task queue fell in that window
		// (TestNodePermissionSameBytes/tailwind failed 1 run in 4), and a call the app's code
		// made passed when it set the limit to 2. The rule reads the three frames nearest with
		// a limit of the runner's own: a package's top-level code run by Node's loader.
		{name: "postcss_config_requires_tailwind_deep", files: postcss(`import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const deep = (n) => (n === 0 ? require("@tailwindcss/node") : deep(n - 1));
deep(50);
export default { plugins: [require("@tailwindcss/postcss")()] };`, ""), code: 0},
		{name: "postcss_config_package_register_later", files: func() map[string]string {
			f := postcss(`import later from "reg-later";
later();
export default { plugins: [] };`, "")
			f["node_modules/reg-later/package.json"] = `{ "name": "reg-later", "main": "index.js" }`
			f["node_modules/reg-later/index.js"] = "const m = require(\"node:module\");\nmodule.exports = function later() { m.register(\"data:text/javascript,\"); };\n"
			return f
		}(), code: 1, want: "node_modules/reg-later/index.js:2:39: error: PostCSS (from postcss.config.mjs): module.register registers loader hooks, which bundle does not run"},
		{name: "postcss_config_register_forged_compile", files: func() map[string]string {
			f := postcss(`import { createRequire, Module } from "node:module";
const require = createRequire(import.meta.url);
const file = require.resolve("innocent");
Error.stackTraceLimit = 2;
new Module(file)._compile("require(\"node:module\").register(\"data:text/javascript,\");", file);
export default { plugins: [] };`, "")
			f["node_modules/innocent/package.json"] = `{ "name": "innocent", "main": "index.js" }`
			f["node_modules/innocent/index.js"] = "module.exports = 1;\n"
			return f
		}(), code: 1, want: "module.register registers loader hooks, which bundle does not run"},
		{name: "postcss_config_register_forged_loader_vm", files: func() map[string]string {
			f := postcss(`import vm from "node:vm";
const top = vm.runInThisContext("(r) => r(\"data:text/javascript,\")", { filename: "BASE/ws/app/node_modules/innocent/index.js" });
const loader = vm.runInThisContext("(f, r) => f(r)", { filename: "node:internal/modules/cjs/loader" });
Error.stackTraceLimit = 2;
loader(top, process.getBuiltinModule("module").register);
export default { plugins: [] };`, "")
			f["node_modules/innocent/package.json"] = `{ "name": "innocent", "main": "index.js" }`
			f["node_modules/innocent/index.js"] = "module.exports = 1;\n"
			return f
		}(), code: 1, want: "module.register registers loader hooks, which bundle does not run"},
		// ac26: a package's file required by a promise's reaction (the config's require given
		// to then: no frame of the config's), long after the package loaded. Refused before only
		// because Node's task queue fell in the frames read (the same file imported by the
		// config, or required by a config's function under a stack of 10 frames, passed): it is
		// a package's top-level code as Node's loader runs it, which the rule lets register
		// (pl28), as it lets Tailwind CSS's: Node's register (its hooks inside the kernel's
		// fence), none under Node's permission model.
		{name: "vite_config_package_module_register_required_from_then", files: script("console.log(1)", map[string]string{"vite.config.js": `import { createRequire } from "node:module";
await Promise.resolve("later-reg/reg.js").then(createRequire(import.meta.url));
export default {};`,
			"node_modules/later-reg/package.json": `{ "name": "later-reg", "main": "index.js" }`,
			"node_modules/later-reg/index.js":     `module.exports = 1;`,
			"node_modules/later-reg/reg.js":       `require("node:module").register("data:text/javascript,");`}),
			code: 0},
		// ac26 (attack, held): a throw with no caller from a setImmediate, from an EventEmitter's
		// listener emitted on a process.nextTick, and from a worker thread of the config's.
		{name: "vite_config_throws_in_immediate", files: script("console.log(1)", map[string]string{"vite.config.js": `setImmediate(() => { throw new Error("immediate boom"); });
await new Promise((r) => setTimeout(r, 0));
await new Promise((r) => setImmediate(r));
export default {};`}), code: 1, want: "vite.config.js:1:28: error: vite.config.js threw: immediate boom"},
		{name: "vite_config_throws_in_emitter_tick", files: script("console.log(1)", map[string]string{"vite.config.js": `import { EventEmitter } from "node:events";
const e = new EventEmitter(); e.on("x", () => { throw new Error("emitter boom"); });
process.nextTick(() => e.emit("x"));
await new Promise((r) => setImmediate(r));
export default {};`}), code: 1, want: "vite.config.js:2:55: error: vite.config.js threw: emitter boom"},
		{name: "vite_config_throws_in_worker", files: script("console.log(1)", map[string]string{"vite.config.js": `import { Worker } from "node:worker_threads";
let w; try { w = new Worker("throw new Error('worker boom')", { eval: true }); } catch (e) { throw new Error("no worker"); }
await new Promise((r) => w.once("exit", r));
export default {};`}), code: 1, want: "boom"},
		// ac27: a refusal thrown where nothing catches it, once the config has taken away
		// what the runner found its request by or caught it with: from a FinalizationRegistry's
		// callback (no async context at all), after clearing the store of the async context
		// it runs in (executionAsyncResource's symbols) or replacing AsyncLocalStorage's
		// getStore, after removing the runner's uncaughtException and unhandledRejection
		// listeners, with a listener put first that throws again, or one of
		// uncaughtExceptionMonitor that throws: Node stopped (exit 3, "node stopped"). And a
		// config that stops Node itself (process.exit). Each is the config's failure, exit 1.
		{name: "vite_config_register_in_finalization_registry", files: script("console.log(1)", map[string]string{"vite.config.js": `import v8 from "node:v8";
import vm from "node:vm";
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const m = process.getBuiltinModule("module");
let ran = false;
const r = new FinalizationRegistry(() => { ran = true; m.register("data:text/javascript,"); });
(() => r.register({}, 0))();
while (!ran) { gc(); await new Promise((res) => setImmediate(res)); }
export default {};`}), code: 1, want: "vite.config.js:7:58: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_register_after_store_cleared", files: script("console.log(1)", map[string]string{"vite.config.js": `import { executionAsyncResource } from "node:async_hooks";
const res = executionAsyncResource();
for (const s of Object.getOwnPropertySymbols(res)) if (!String(s.description).includes("async_id")) res[s] = undefined;
setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
await new Promise((r) => setTimeout(r, 10));
export default {};`}), code: 1, want: "vite.config.js:4:53: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// Every symbol of the async resource cleared, Node's own async ids too: Node aborts
		// (Assertion failed: (env_->execution_async_id()) == (0)), exit 3 before.
		{name: "vite_config_clears_async_resource", files: script("console.log(1)", map[string]string{"vite.config.js": `import { executionAsyncResource } from "node:async_hooks";
const res = executionAsyncResource();
for (const s of Object.getOwnPropertySymbols(res)) res[s] = undefined;
setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
await new Promise((r) => setTimeout(r, 10));
export default {};`}), code: 1, want: "vite.config.js: error: vite.config.js threw: Node stopped while running it (signal: aborted)"},
		{name: "vite_config_register_after_get_store_replaced", files: script("console.log(1)", map[string]string{"vite.config.js": `import { AsyncLocalStorage } from "node:async_hooks";
AsyncLocalStorage.prototype.getStore = () => undefined;
setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
await new Promise((r) => setTimeout(r, 10));
export default {};`}), code: 1, want: "vite.config.js:3:53: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_register_after_listeners_removed", files: script("console.log(1)", map[string]string{"vite.config.js": `process.removeAllListeners("uncaughtException");
process.removeAllListeners("unhandledRejection");
setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
await new Promise((r) => setTimeout(r, 10));
export default {};`}), code: 1, want: "vite.config.js:3:53: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		{name: "vite_config_register_rethrowing_listener", files: script("console.log(1)", map[string]string{"vite.config.js": `process.prependListener("uncaughtException", (e) => { throw e; });
Promise.reject(new Error("rejected boom"));
setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
await new Promise((r) => setTimeout(r, 10));
export default {};`}), code: 1, want: "vite.config.js:2:16: error: vite.config.js threw: rejected boom"},
		{name: "vite_config_throwing_exception_monitor", files: script("console.log(1)", map[string]string{"vite.config.js": `process.on("uncaughtExceptionMonitor", () => { throw new Error("monitor boom"); });
setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
await new Promise((r) => setTimeout(r, 10));
export default {};`}), code: 1, want: "vite.config.js:1:54: error: vite.config.js threw: Node stopped while running it (exit status 7): Error: monitor boom"},
		{name: "vite_config_process_exit", files: script("console.log(1)", map[string]string{"vite.config.js": `process.exitCode = 0;
process.exit();
export default {};`}), code: 1, want: "vite.config.js:2:9: error: vite.config.js threw: it ended Node (exit code 0)"},
		{name: "vite_config_really_exit", files: script("console.log(1)", map[string]string{"vite.config.js": `process.reallyExit(0);
export default {};`}), code: 1, want: "vite.config.js: error: vite.config.js threw: Node stopped while running it (exit status 0)"},
		{name: "postcss_plugin_register_after_listeners_removed", files: postcss(`export default { plugins: [{ postcssPlugin: "p", async Once() {
  process.removeAllListeners("uncaughtException");
  setTimeout(() => process.getBuiltinModule("module").register("data:text/javascript,"), 0);
  await new Promise((r) => setTimeout(r, 10));
} }] };`, ""), code: 1, want: "postcss.config.mjs:3:55: error: PostCSS (from postcss.config.mjs): module.register registers loader hooks, which bundle does not run"},
		// ac27: fs functions given a path as Node reads one that the runner's guards did
		// not: an object Node takes for a file: URL by its href and protocol (Node's isURL),
		// a URL whose Symbol.hasInstance the config replaced, a Buffer once Buffer.isBuffer
		// was replaced. The guards let each through (Node's permission model or the kernel
		// refused it after); they refuse each as they refuse a path.
		{name: "vite_config_reads_url_like_object", files: script("console.log(1)", map[string]string{"vite.config.js": `import fs from "node:fs";
fs.readFileSync({ href: "file://BASE/secrets/token.txt", protocol: "file:", hostname: "", pathname: "BASE/secrets/token.txt" });
export default {};`}), code: 1, want: "vite.config.js:2:4: error: vite.config.js threw: BASE/secrets/token.txt is outside the folder bundle lets the CSS tools read (BASE/ws)"},
		// Stat and its kin, which Landlock does not restrict: whether the secret is there
		// (the build failed, "there", exit 1, fenced).
		{name: "vite_config_exists_url_like_object", files: script("console.log(1)", map[string]string{"vite.config.js": `import fs from "node:fs";
if (fs.existsSync({ href: "file://BASE/secrets/token.txt", protocol: "file:", hostname: "", pathname: "BASE/secrets/token.txt" })) throw new Error("there");
export default {};`}), code: 0},
		// Function.prototype.apply replaced: the fs guards called it with the function they
		// guard as this, which the config kept (readdirSync, which lists a folder without
		// another guarded function) and could call past the guard.
		{name: "vite_config_apply_takes_guarded_fs", files: script("console.log(1)", map[string]string{"vite.config.js": `import fs from "node:fs";
const apply = Function.prototype.apply;
let raw;
Function.prototype.apply = function (t, a) { if (this.name === "readdirSync") raw = this; return Reflect.apply(this, t, a ?? []); };
try { fs.readdirSync("."); } finally { Function.prototype.apply = apply; }
if (raw) throw new Error("took the unguarded readdirSync");
export default {};`}), code: 0},
		{name: "vite_config_reads_url_unbranded", files: script("console.log(1)", map[string]string{"vite.config.js": `import fs from "node:fs";
Object.defineProperty(URL, Symbol.hasInstance, { value: () => false });
fs.readFileSync(new URL("file://BASE/secrets/token.txt"));
export default {};`}), code: 1, want: "vite.config.js:3:4: error: vite.config.js threw: BASE/secrets/token.txt is outside the folder bundle lets the CSS tools read (BASE/ws)"},
		{name: "vite_config_reads_buffer_path", files: script("console.log(1)", map[string]string{"vite.config.js": `import fs from "node:fs";
Buffer.isBuffer = () => false;
fs.readFileSync(Buffer.from("BASE/secrets/token.txt"));
export default {};`}), code: 1, want: "vite.config.js:3:4: error: vite.config.js threw: BASE/secrets/token.txt is outside the folder bundle lets the CSS tools read (BASE/ws)"},
		// ac27: a config that writes an answer of its own on Node's stdout, the runner's
		// channel to the build, before its refused call: the build took it for the runner's,
		// and the refusal vanished (exit 0). Only the runner's lines are answers.
		{name: "vite_config_forges_answer", files: script("console.log(1)", map[string]string{"vite.config.js": `process.stdout.write(JSON.stringify({ id: 1, css: JSON.stringify({ plugins: [], workerPlugins: [], env: {} }) }) + "\n");
console.log(JSON.stringify({ id: 1, css: "{}" }));
process.getBuiltinModule("module").register("data:text/javascript,");
export default {};`}), code: 1, want: "vite.config.js:3:36: error: vite.config.js threw: module.register registers loader hooks, which bundle does not run"},
		// ac26 (attack, held): Less's data-uri() of a path in a variable, interpolated.
		{name: "less_data_uri_variable_outside", files: less(`@d: "../../secrets";
@p: "@{d}/token.txt";
.a { background: data-uri(@p); }`, nil), code: 1, want: "outside"},
		{name: "less_image_size_variable_through_link", files: less(`@p: "./l.png";
.a { width: image-width(@p); height: image-size(~"@{p}"); }`, nil), links: map[string]string{"l.png": "secrets/image.png"}, code: 1, want: "outside"},
		// ac26 (attack, held): a Less @plugin of the app's that reads through Less's own file
		// manager: the read is refused, which Less's reader gives as no contents (an empty
		// value, exit 0 before ac27); the secret is nowhere. The refusal fails the build, at
		// the @plugin.
		{name: "less_plugin_file_manager_outside", files: less(`@plugin "./p.js";
.a { content: leak(); }`, map[string]string{"p.js": `module.exports = { install(less, pm, functions) {
  functions.add("leak", () => new less.tree.Quoted('"', new less.FileManager().loadFileSync("BASE/secrets/token.txt", "/", {}, {}).contents));
} };`}), code: 1, want: `style.less:1:1: error: Less: BASE/secrets/token.txt is outside the folder bundle lets the CSS tools read (BASE/ws) (read by the code of @plugin "./p.js")`},
		{name: "less_second_plugin_file_manager_outside", files: less(`@plugin "./a.js";
.b { color: red; }
  @plugin "./p.js";
.a { content: leak(); width: twice(2px); }`, map[string]string{"a.js": `module.exports = { install(less, pm, functions) { functions.add("twice", (n) => new less.tree.Dimension(n.value * 2, n.unit)); } };`,
			"p.js": `module.exports = { install(less, pm, functions) {
  functions.add("leak", () => new less.tree.Quoted('"', new less.FileManager().loadFileSync("BASE/secrets/token.txt", "/", {}, {}).contents));
} };`}), code: 1, want: `style.less:3:3: error: Less: BASE/secrets/token.txt is outside the folder bundle lets the CSS tools read (BASE/ws) (read by the code of @plugin "./p.js")`},
		// ac27: a Less @plugin that names a file outside the root, and one of a package
		// outside it (the node_modules above the workspace).
		{name: "less_plugin_outside", files: less(`@plugin "../../secrets/plugin.js";
.a { content: leak(); }`, nil), code: 1, want: "style.less:1:1: error: Less: "},
		{name: "less_plugin_package_above_root", files: less(`@plugin "evil";
.a { color: red; }`, nil), code: 1, want: "style.less:1:1: error: Less: "},
		// ac26 (attack, held): svg-gradient() reads no file.
		{name: "less_svg_gradient", files: less(`.a { background: svg-gradient(to right, red, green 30%, blue); }`, nil), code: 0},
		// ac26 (attack, no fix): what a report still tells of the machine past the header's
		// fixed values: the shared libraries Node loaded, by their paths (sharedObjects), and
		// the machine's limits (userLimits), in the page, exit 0.
		{name: "vite_config_report_shared_objects", files: script("console.log(__X__)", map[string]string{"vite.config.js": `export default { define: { __X__: JSON.stringify(process.report.getReport().sharedObjects.join(" ")) } };`}), code: 0,
			check: func(t *testing.T, base string) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(b), "libc.so") {
					t.Errorf("the page holds the machine's shared libraries:\n%s", b)
				}
			}},
		{name: "vite_config_report_user_limits", files: script("console.log(__X__)", map[string]string{"vite.config.js": `export default { define: { __X__: JSON.stringify(Object.entries(process.report.getReport().userLimits).map(([k, l]) => k + "=" + l.soft + "/" + l.hard).join(" ")) } };`}), code: 0,
			check: func(t *testing.T, base string) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil {
					t.Fatal(err)
				}
				machine, err := exec.Command("node", "-p", `Object.entries(process.report.getReport().userLimits).filter(([k]) => k === "open_files" || k === "max_user_processes").map(([k, l]) => k + "=" + l.soft + "/" + l.hard).join(" ")`).Output()
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range strings.Fields(string(machine)) {
					if strings.Contains(string(b), l) {
						t.Errorf("the page holds the machine's limit %s:\n%s", l, b)
					}
				}
			}},
		// @swc/core 1.16's native addon does not load inside the kernel's fence: its loader
		// reads the machine's mount table (/proc/self/mountinfo, which names the builder's
		// folders, and which the fence keeps from the app's code) and fails with "Failed to
		// load native binding", which was said at the config with a general note. The package
		// here loads, as @swc/core 1.16.22 does (measured with @vitejs/plugin-react-swc 4), a
		// native addon (swcAddon, built by the test) whose initialization reads the mount table
		// and throws where it cannot: said at the import that loads it, naming @swc/core and
		// the fix, by the .node file whose loading threw, whatever it says (it was chosen by
		// the text of Rust's EACCES, "(os error 13)", which this addon does not write).
		{name: "vite_config_swc_native_binding", files: script("console.log(1)", map[string]string{"vite.config.js": `// the app's Vite config
import react from "react-swc-plugin";
export default { plugins: [react()] };`,
			"node_modules/react-swc-plugin/package.json": `{ "name": "react-swc-plugin", "main": "index.js", "dependencies": { "@swc/core": "^1.16.0" } }`,
			"node_modules/react-swc-plugin/index.js":     `require("@swc/core"); module.exports = () => ({ name: "vite:react-swc" });`,
			"node_modules/@swc/core/package.json":        `{ "name": "@swc/core", "main": "binding.js" }`,
			"node_modules/@swc/core/binding.js":          swcBinding}),
			addons: map[string]string{"node_modules/@swc/core/swc.linux.node": swcAddon},
			code:   0,
			fenced: &struct {
				code int
				want string
			}{1, "vite.config.js:2:19: error: vite.config.js threw: Failed to load native binding: @swc/core's native addon does not load inside the kernel's fence"}},
		{name: "postcss_config_swc_native_binding", files: func() map[string]string {
			f := postcss(`import { createRequire } from "node:module";
createRequire(import.meta.url)("@swc/core");
export default { plugins: [] };`, "")
			f["node_modules/@swc/core/package.json"] = `{ "name": "@swc/core", "main": "binding.js" }`
			f["node_modules/@swc/core/binding.js"] = swcBinding
			return f
		}(), addons: map[string]string{"node_modules/@swc/core/swc.linux.node": swcAddon}, code: 0, fenced: &struct {
			code int
			want string
		}{1, "PostCSS (from postcss.config.mjs): Failed to load native binding: @swc/core's native addon does not load inside the kernel's fence"}},
		// A config that throws while a handle of its own (a MessagePort) holds Node's event
		// loop: Node was left running, and under the kernel's fence the build's kill of it was
		// refused (the thread that sent it is not in the fence Node was started in), so the
		// build never ended. Node ends with its input.
		{name: "vite_config_throws_holding_port", files: script("console.log(1)", map[string]string{"vite.config.js": `const { port1 } = new MessageChannel();
port1.on("message", () => {});
throw new Error("boom");`}), code: 1, want: "vite.config.js:3:7: error: vite.config.js threw: boom"},
		// An import() of an absolute path the config computes: it said " is not installed",
		// naming nothing. Said the same for a file outside and a missing one, by its path, at
		// the call (it was said at the config, with no line: the error has the loader's stack).
		{name: "vite_config_import_value_outside", files: script("console.log(1)", map[string]string{"vite.config.js": `const p = "file://BASE/secrets/" + "plugin.mjs";
await import(p);
export default {};`}), code: 1, want: "vite.config.js:2:7: error: vite.config.js threw: BASE/secrets/plugin.mjs cannot be imported: bundle lets a vite.config import only files inside BASE/ws, and those that are there"},
		{name: "vite_config_import_value_missing", files: script("console.log(1)", map[string]string{"vite.config.js": `const p = "BASE/secrets/" + "none.mjs";
await import(p);
export default {};`}), code: 1, want: "vite.config.js:2:7: error: vite.config.js threw: BASE/secrets/none.mjs cannot be imported: bundle lets a vite.config import only files inside BASE/ws, and those that are there"},
		// What Node asks the machine in native code, past the fs guards, the socket refusals
		// and Node's permission model: with the kernel's fence off the page held the machine's
		// name servers (/etc/resolv.conf), what /etc/hosts answers (and the query of a name
		// left the machine), the user's name, home and shell (/etc/passwd), and the machine's
		// network addresses, exit 0. Refused as the kernel's fence refuses them, fenced or not.
		{name: "vite_config_dns_servers", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import dns from "node:dns";
export default { define: { __X__: JSON.stringify(dns.getServers()) } };`}), code: 1, want: "vite.config.js:2:54: error: vite.config.js threw: getServers EACCES"},
		{name: "vite_config_dns_lookup", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import { lookup } from "node:dns/promises";
export default { define: { __X__: JSON.stringify(await lookup("localhost")) } };`}), code: 1, want: "bundle's checks refused it, not Vite, which runs the config with no fence: bundle lets a vite.config open no socket"},
		{name: "vite_config_dns_resolver", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import dns from "node:dns";
const a = await new Promise((res, rej) => new dns.Resolver().resolve4("example.com", (e, a) => (e ? rej(e) : res(a))));
export default { define: { __X__: JSON.stringify(a) } };`}), code: 1, want: "resolve4 EACCES"},
		{name: "vite_config_report_addresses", files: script("console.log(__X__)", map[string]string{"vite.config.js": `process.report.excludeNetwork = false;
export default { define: { __X__: JSON.stringify(process.report.getReport().header.networkInterfaces ?? "none") } };`}), code: 0,
			check: func(t *testing.T, base string) {
				if b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html")); err != nil || !strings.Contains(string(b), `console.log("none")`) {
					t.Errorf("the report gave the machine's addresses, or no page: %v", err)
				}
			}},
		{name: "vite_config_user_info", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import { userInfo, networkInterfaces } from "node:os";
let n; try { n = networkInterfaces(); } catch { n = userInfo(); }
export default { define: { __X__: JSON.stringify(n) } };`}), code: 1, want: "uv_os_get_passwd returned EACCES"},
		// What node:os and process tell of the machine, which no fence held (uname, sysinfo and
		// /proc/cpuinfo are no file of the app's, or were read with the kernel's fence off):
		// the page held the machine's name, processors, memory, kernel, load and Node's path,
		// exit 0. Fixed values, whichever fence holds, by every way a config or a PostCSS
		// plugin asks (a report too); the binding and a report written on a signal, refused.
		{name: "vite_config_machine", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import os from "node:os";
const h = process.report.getReport().header;
export default { define: { __X__: JSON.stringify([os.hostname(), os.cpus(), os.availableParallelism(), os.totalmem(), os.freemem(), os.uptime(), os.loadavg(), os.release(), os.version(), os.machine(),
  process.execPath, process.argv0, process.argv[0], process.title, h.host, h.osRelease, h.osVersion, h.cpus, h.commandLine].join("|")) } };`}), code: 0,
			check: machineFixed(filepath.Join("ws", "app", "dist", "t.html"))},
		{name: "postcss_config_machine", files: postcss(postcssLeaks(`const os = require("os"); return [os.hostname(), os.cpus().length, os.totalmem(), os.release(), os.version(), process.execPath, process.report.getReport().header.host].join("|");`), ""), code: 0,
			check: func(t *testing.T, base string) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil {
					t.Fatal(err)
				}
				if want := "localhost|0|4294967296|0.0.0|#1|node|localhost"; !strings.Contains(string(b), want) {
					t.Errorf("the page lacks the fixed values %q:\n%s", want, b)
				}
			}},
		// The machine's glibc, in a report's header (glibcVersionRuntime), went into the page
		// under both fences: it is the one Node was built against (glibcVersionCompiler),
		// which detect-libc reads to choose glibc's addon, as Lightning CSS still does.
		{name: "postcss_config_report_glibc", files: postcss(postcssLeaks(`const d = require("detect-libc"); const h = process.report.getReport().header;
return [d.familySync(), d.versionSync(), h.glibcVersionRuntime, require("lightningcss").transform({ filename: "a.css", code: Buffer.from(".a{color:#ff0000}"), minify: true }).code.toString()].join("|");`), ""), code: 0,
			check: func(t *testing.T, base string) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil {
					t.Fatal(err)
				}
				built, err := exec.Command("node", "-p", `process.report.getReport().header.glibcVersionCompiler`).Output()
				if err != nil {
					t.Fatal(err)
				}
				v := strings.TrimSpace(string(built))
				if want := "glibc|" + v + "|" + v + "|.a{color:red}"; !strings.Contains(string(b), want) {
					t.Errorf("the page lacks %s:\n%s", want, b)
				}
			}},
		// The machine's time zone: ICU reads /etc/localtime when TZ is unset, whichever fence
		// holds, so a config's dates differed from machine to machine. Node runs in UTC.
		{name: "vite_config_time_zone", files: script("console.log(__X__)", map[string]string{"vite.config.js": `export default { define: { __X__: JSON.stringify([Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(0).getTimezoneOffset(), new Date(0).toString()]) } };`}), code: 0,
			check: func(t *testing.T, base string) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil {
					t.Fatal(err)
				}
				if want := `["UTC",0,"Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"]`; !strings.Contains(string(b), want) {
					t.Errorf("the page lacks %s:\n%s", want, b)
				}
			}},
		// The disk the root is on (fs.statfs: its size and free space) and the machine's memory
		// (V8's heap limit follows it) went into the page: statfs refused, the limit fixed.
		{name: "vite_config_disk_heap", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import fs from "node:fs"; import v8 from "node:v8";
let d; try { d = fs.statfsSync(".").blocks; } catch (e) { d = e.code; }
let p; try { p = (await fs.promises.statfs(".")).bfree; } catch (e) { p = e.code; }
const c = await new Promise((res) => fs.statfs(".", (e, s) => res(e ? e.code : s.bavail)));
export default { define: { __X__: JSON.stringify([v8.getHeapStatistics().heap_size_limit, d, p, c].join("|")) } };`}), code: 0,
			check: func(t *testing.T, base string) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html"))
				if err != nil {
					t.Fatal(err)
				}
				limit, err := exec.Command("node", "--max-old-space-size=4096", "-p", `require("v8").getHeapStatistics().heap_size_limit`).Output()
				if err != nil {
					t.Fatal(err)
				}
				if want := strings.TrimSpace(string(limit)) + "|ERR_SYSTEM_ERROR|ERR_SYSTEM_ERROR|ERR_SYSTEM_ERROR"; !strings.Contains(string(b), want) {
					t.Errorf("the page lacks %s:\n%s", want, b)
				}
			}},
		{name: "vite_config_os_binding", files: script("console.log(__X__)", map[string]string{"vite.config.js": `export default { define: { __X__: JSON.stringify(process.binding("os").getHostname()) } };`}),
			code: 1, want: "vite.config.js:1:58: error: vite.config.js threw: A system error occurred: process.binding(\"os\") returned EACCES"},
		{name: "vite_config_write_report", files: script("console.log(__X__)", map[string]string{"vite.config.js": `import fs from "node:fs"; import os from "node:os";
const f = process.report.writeReport(os.tmpdir() + "/r.json");
export default { define: { __X__: JSON.stringify(fs.readFileSync(f, "utf8")) } };`}), code: 1, want: "vite.config.js:2:26: error: vite.config.js threw: A system error occurred: process.report.writeReport returned EACCES"},
		{name: "vite_config_report_on_signal", files: script("console.log(__X__)", map[string]string{"vite.config.js": `process.report.reportOnSignal = true;
process.report.reportOnUncaughtException = true;
export default { define: { __X__: JSON.stringify([process.report.reportOnSignal, process.report.reportOnUncaughtException]) } };`}), code: 0,
			check: func(t *testing.T, base string) {
				if b, err := os.ReadFile(filepath.Join(base, "ws", "app", "dist", "t.html")); err != nil || !strings.Contains(string(b), `=[!1,!1]`) {
					t.Errorf("a report would be written on a signal, or no page: %v", err)
				}
			}},
		// esbuild bundles the config in a build of its own, which read the tsconfig itself (its
		// extends, and one above the root) and showed what its messages quote.
		{name: "vite_config_tsconfig_extends_proc_environ", files: script("console.log(1)", map[string]string{"vite.config.ts": `export default { base: "./" };`,
			"tsconfig.json": `{ "extends": "/proc/self/environ" }`}), code: 1, want: `extends "/proc/self/environ" names a config outside`},
		{name: "vite_config_tsconfig_in_parent", app: "plain/app", files: script("console.log(1)", map[string]string{"vite.config.ts": `export default { base: "./" };`,
			"package.json": `{ "private": true, "browser": {} }`, "../tsconfig.json": `{ "extends": "/proc/self/environ" }`}), code: 0},
		{name: "vite_config_package_json_in_parent_not_json", app: "plain/app", files: script("console.log(1)", map[string]string{"vite.config.js": `export default { base: "./" };`,
			"../package.json": `{ "name": "plain", "v": TOKEN }`}), code: 1, want: "package.json, outside the app folder, cannot be used", fenced: &struct {
			code int
			want string
		}{0, ""}},
		// A file of an extension the config's assetsInclude names was loaded by a callback of
		// its own, before the one that confines every file: with the path checks alone it
		// went into the page as a data: URL, exit 0.
		{name: "vite_assets_include_outside", files: script(`import u from "../../secrets/token.dat"; console.log(u)`, map[string]string{"vite.config.js": `export default { assetsInclude: ["**/*.dat"] };`}),
			code: 1, want: "outside"},
		{name: "vite_assets_include_through_link", files: script(`import u from "./linked/token.dat"; console.log(u)`, map[string]string{"vite.config.js": `export default { assetsInclude: ["**/*.dat"] };`}),
			links: map[string]string{"linked": "secrets"}, code: 1, want: "outside"},
		// An output folder the app writes (its dist/) names an app folder whose manifest links
		// out: the fence must not let the link's file be read.
		{name: "owners_manifest_link_outside", files: script("console.log(1)", map[string]string{"dist/.bundle-apps.json": `{ "schema_version": 1, "apps": { "zz": "evil" } }`,
			"vite.config.js": `const e = new Error("boom"); e.stack = "Error: boom\n    at f (BASE/ws/app/dist/evil/miniapp.toml:1:1)"; throw e;`}),
			links: map[string]string{"dist/evil/miniapp.toml": "secrets/token.txt"}, code: 1, want: "vite.config.js threw: boom"},
		// outputs
		{name: "dist_symlinked_outside", files: script("console.log(1)", nil), links: map[string]string{"dist": "elsewhere"}, code: 1, want: "is a symbolic link to a folder outside the app folder", check: victimSame},
		{name: "out_with_foreign_registry", files: script("console.log(1)", nil), args: []string{"--out", "BASE/elsewhere"}, code: 1, want: "registry.json is not a registry bundle writes", check: victimSame},
		{name: "out_file_symlinked_outside", files: script("console.log(1)", nil), args: []string{"--out", "BASE/out"}, code: 0, check: func(t *testing.T, base string) {
			victimSame(t, base)
			if st, err := os.Lstat(filepath.Join(base, "out", "t.html")); err != nil || !st.Mode().IsRegular() {
				t.Errorf("out/t.html is not the page: %v %v", st, err)
			}
		}},
	}
}

// swcBinding is a package's main that loads its native addon as @swc/core 1.16.22's
// binding.js does, and throws what it throws where the addon does not load.
const swcBinding = `const errors = [];
let native;
try { native = require("./swc.linux.node"); } catch (e) { errors.push(e); }
if (!native) throw new Error("Failed to load native binding", { cause: errors });
module.exports = native;`

// swcAddon is the C source of a Node-API addon whose initialization reads the machine's mount
// table, as @swc/core 1.16's does, and throws where it cannot (inside the kernel's fence).
const swcAddon = `#include <stdio.h>
typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
extern int napi_throw_error(napi_env env, const char *code, const char *msg);
napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  FILE *f = fopen("/proc/self/mountinfo", "r");
  if (f == NULL) {
    napi_throw_error(env, "ERR_MOUNT_TABLE", "read the mount table: refused");
    return NULL;
  }
  fclose(f);
  return exports;
}
`

// machineFixed checks that the page at rel (under the base folder) holds the fixed values
// the runner gives for what node:os and process tell of the machine (vite_config_machine's
// list, in its order).
func machineFixed(rel string) func(t *testing.T, base string) {
	return func(t *testing.T, base string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(base, rel))
		if err != nil {
			t.Fatal(err)
		}
		want := "localhost||1|4294967296|4294967296|0|0,0,0|0.0.0|#1|" + map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH] + "|node|node|node|node|localhost|0.0.0|#1||node"
		if !strings.Contains(string(b), want) {
			t.Errorf("the page lacks the fixed values %q:\n%s", want, b)
		}
	}
}

// viteConfigHooks is a vite.config that runs body (an async function's, BASE and TOKEN
// replaced) on the thread of the module hooks it registers and puts what it returns in the
// page as __X__; it throws what body throws.
func viteConfigHooks(body string) string {
	return `import { register } from "node:module";
const { port1, port2 } = new MessageChannel();
const got = new Promise((res) => port1.once("message", (m) => { port1.close(); res(m); }));
register("data:text/javascript," + encodeURIComponent("export function initialize({ port }) { (async () => { ` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(body) + ` })().then((v) => port.postMessage({ v: String(v) }), (e) => port.postMessage({ e: String(e) })); }"), { data: { port: port2 }, transferList: [port2] });
const m = await got;
if (m.e) throw new Error(m.e);
export default { define: { __X__: JSON.stringify(m.v) } };
`
}

// postcssLeaks is a PostCSS config that runs body (an async function's, with require) and
// puts what it returns in the stylesheet.
func postcssLeaks(body string) string {
	return `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const s = await (async () => { ` + body + ` })();
export default { plugins: [{ postcssPlugin: "leak", Once(root) { root.append(".leak { content: " + JSON.stringify(s) + " }") } }] };
`
}

// TestConfinement builds each leakRow with the bundle command, twice: fenced (the kernel's
// fence and the path checks) and with BUNDLE_FENCE=off (the path checks alone), as JSON, whose
// stderr is the text's messages but for the confined: banner (TestConfinedSays). The secret
// must be in no file written and no message, no code outside the app may run (each writes a
// marker beside the secrets), and the refusal names the place.
func TestConfinement(t *testing.T) {
	bin := bundleBinary(t)
	// A service of the machine that answers the secret, as a cloud's metadata endpoint
	// answers its keys.
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, token) }))
	t.Cleanup(service.Close) // after the parallel rows
	for _, row := range leakRows() {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			for _, run := range []struct {
				name  string
				fence bool
			}{{"fenced", true}, {"path_checks", false}} {
				base := leakTree(t)
				sub := func(s string) string {
					return strings.NewReplacer("BASE", base, "TOKEN", token, "SERVER", service.URL).Replace(s)
				}
				app := row.app
				if app == "" {
					app = "ws/app"
				}
				dir := filepath.Join(base, filepath.FromSlash(app))
				for name, body := range row.files {
					p := filepath.Join(dir, filepath.FromSlash(name))
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, []byte(sub(body)), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				for name, target := range row.links {
					p := filepath.Join(dir, filepath.FromSlash(name))
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.Symlink(filepath.Join(base, filepath.FromSlash(target)), p); err != nil {
						t.Fatal(err)
					}
				}
				for name, src := range row.addons {
					p := filepath.Join(dir, filepath.FromSlash(name))
					if err := os.WriteFile(p+".c", []byte(src), 0o644); err != nil {
						t.Fatal(err)
					}
					if out, err := exec.Command("cc", "-shared", "-fPIC", "-o", p, p+".c").CombinedOutput(); err != nil {
						t.Fatalf("cc %s: %v\n%s", name, err, out)
					}
				}
				if row.name == "out_file_symlinked_outside" {
					os.MkdirAll(filepath.Join(base, "out"), 0o755)
					os.Symlink(filepath.Join(base, "elsewhere", "victim.html"), filepath.Join(base, "out", "t.html"))
				}
				args := []string{"build", "--format", "json"}
				for _, a := range row.args {
					args = append(args, sub(a))
				}
				args = append(args, dir)
				cmd := exec.Command(bin, args...)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + os.TempDir(), "NO_COLOR=1",
					"BUNDLE_TEST_SECRET=" + token, "LEAK_BASE=" + base}
				if !run.fence {
					cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
				}
				for _, e := range row.env {
					cmd.Env = append(cmd.Env, sub(e))
				}
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				messages := stdout.String() + stderr.String()
				brief := stderr.String() // what a failure shows: the messages as text
				wantCode, want := row.code, row.want
				if row.fenced != nil && run.fence && confine.Available().ABI > 0 {
					wantCode, want = row.fenced.code, row.fenced.want
				}
				if code != wantCode {
					t.Errorf("%s: exit %d, want %d\n%s", run.name, code, wantCode, brief)
				}
				if want != "" && !strings.Contains(messages, sub(want)) {
					t.Errorf("%s: the messages lack %q:\n%s", run.name, sub(want), brief)
				}
				if row.never != "" && strings.Contains(messages, row.never) {
					t.Errorf("%s: the messages hold %q:\n%s", run.name, row.never, brief)
				}
				if strings.Contains(messages, token) {
					t.Errorf("%s: a message holds the secret:\n%s", run.name, messages)
				}
				var doc struct{ Confined string }
				if err := json.Unmarshal([]byte(stdout.String()), &doc); err != nil {
					t.Errorf("%s: stdout is not JSON: %v", run.name, err)
				} else if want := fenceSaid(run.fence); !slices.Contains(want, doc.Confined) {
					t.Errorf("%s: confined %q, want one of %q", run.name, doc.Confined, want)
				}
				if !row.pageHolds {
					for _, out := range []string{filepath.Join(dir, "dist"), filepath.Join(base, "out")} {
						filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
							if err == nil && d.Type().IsRegular() {
								// As written, or as a data: URL of a file that starts with it.
								if b, _ := os.ReadFile(p); strings.Contains(string(b), token) || strings.Contains(string(b), tokenBase64) {
									t.Errorf("%s: the output %s holds the secret", run.name, p)
								}
							}
							return nil
						})
					}
				}
				markers, _ := filepath.Glob(filepath.Join(base, "ran-*"))
				for _, m := range markers {
					t.Errorf("%s: code from outside the app ran (%s)", run.name, filepath.Base(m))
				}
				if row.check != nil {
					row.check(t, base)
				}
			}
		})
	}
}

// fenceSaid is what a build may say of its fences: with BUNDLE_FENCE=off, whether Node's
// permission model held Node depends on whether the build started Node (TestConfinedSays).
func fenceSaid(fenced bool) []string {
	if !fenced {
		return []string{"path checks (BUNDLE_FENCE=off)", "path checks, node permission model (BUNDLE_FENCE=off)"}
	}
	return []string{confine.Available().String()}
}

// TestDevFenced runs bundle dev as its own process: it confines itself, says so, builds an
// app whose Sass runs on Node inside the fence, serves the harness on localhost, and does
// not read the secret beside the app.
func TestDevFenced(t *testing.T) {
	bin := bundleBinary(t)
	base := leakTree(t)
	dir := filepath.Join(base, "ws", "app")
	for name, body := range map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./style.scss">`),
		"style.scss": "$c: red;\n.ok { color: $c; }\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "dev", "--port", "0", dir)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + os.TempDir(), "NO_COLOR=1", "BUNDLE_TEST_SECRET=" + token}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var seen strings.Builder
	limit := testwait.Scaled(2 * time.Minute) // more than Deadline: the first build starts Node and Sass
	deadline := time.After(limit)
wait:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				break wait
			}
			seen.WriteString(l + "\n")
			if strings.Contains(l, "built in") || strings.Contains(l, "error") {
				break wait
			}
		case <-deadline:
			t.Fatalf("dev did not build in %s:\n%s", limit, seen.String())
		}
	}
	go func() {
		for range lines {
		}
	}()
	out := seen.String()
	if want := "bundle dev: confined: " + confine.Available().String(); !strings.Contains(out, want) {
		t.Errorf("dev does not say %q:\n%s", want, out)
	}
	if !strings.Contains(out, "built in") || strings.Contains(out, token) {
		t.Errorf("dev did not build inside its fence, or showed the secret:\n%s", out)
	}
}

// TestRenderFenced: bundle render of an app folder builds it in a child bundle build, which
// confines itself as bundle build does (render's own process goes on to start Chromium), and
// places the page's error in the author's file through the map the child wrote elsewhere.
// An app that does not build is said as bundle build says it, in render's --format; a folder
// named like a flag or reached through a link is the app; renders at once do not meet; an
// interrupted render stops its build; and none leaves anything in the temporary folder
// (the child's output, Node's, Chromium's).
func TestRenderFenced(t *testing.T) {
	bin := bundleBinary(t)
	const throws, broken = "const o = null;\no.x = 1;\n", "const a = 1;\nconst b = ;\n"
	for _, row := range []struct {
		name   string
		js     string
		app    string            // the folder the app is in, under ws ("app" when empty)
		links  map[string]string // links made under ws, to the app folder
		args   []string          // before the folder
		folder string            // the folder given ("app" when empty)
		code   int
		stderr []string
		stdout []string
		twice  bool              // two renders at once
		files  map[string]string // more files of the app
	}{
		{name: "throws", js: throws, code: exitRefused, stderr: []string{"app/main.js:2:3: error: exception: Uncaught TypeError"}},
		{name: "build_error", js: broken, code: exitRefused,
			stderr: []string{"app/main.js:2:11: error: Unexpected \";\"", "bundle render: app refused: it does not build"}},
		{name: "build_error_github", js: broken, args: []string{"--format", "github"}, code: exitRefused,
			stdout: []string{"::error file=app/main.js,line=2,endLine=2,col=11"}},
		{name: "folder_named_like_a_flag", js: broken, app: "-app", args: []string{"--"}, folder: "-app", code: exitRefused,
			stderr: []string{"-app/main.js:2:11: error: Unexpected", "bundle render: -app refused: it does not build"}},
		{name: "app_through_link", js: throws, links: map[string]string{"linked": "app"}, folder: "linked", code: exitRefused,
			stderr: []string{"linked/main.js:2:3: error: exception: Uncaught TypeError"}},
		{name: "two_at_once", js: throws, twice: true, code: exitRefused, stderr: []string{"app/main.js:2:3: error: exception: Uncaught TypeError"}},
		// A package's file was named through the temporary folder the child built into
		// (../../work/…/node_modules/…): named from the working folder, as the app's are.
		{name: "package_file", js: "import \"thrower\";\n", code: exitRefused,
			files:  map[string]string{"node_modules/thrower/package.json": `{"name": "thrower", "main": "index.js"}`, "node_modules/thrower/index.js": throws},
			stderr: []string{"\napp/node_modules/thrower/index.js:2:3: error: exception: Uncaught TypeError"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			base := leakTree(t)
			app := cmp.Or(row.app, "app")
			dir := filepath.Join(base, "ws", app)
			os.MkdirAll(dir, 0o755)
			files := map[string]string{"miniapp.toml": leakManifest,
				"index.html": leakPage(`<link rel="stylesheet" href="./style.scss"><script type="module" src="./main.js"></script>`),
				"style.scss": "$c: red;\n.ok { color: $c; }\n", "main.js": row.js}
			maps.Copy(files, row.files)
			for name, body := range files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for link, to := range row.links {
				if err := os.Symlink(filepath.Join(base, "ws", to), filepath.Join(base, "ws", link)); err != nil {
					t.Fatal(err)
				}
			}
			tmp := t.TempDir()
			render := func() (int, string, string) {
				args := append([]string{"render", "--timeout", testwait.Scaled(60 * time.Second).String()}, row.args...)
				cmd := exec.Command(bin, append(args, cmp.Or(row.folder, "app"))...)
				cmd.Dir = filepath.Join(base, "ws")
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + tmp, "NO_COLOR=1", "BUNDLE_TEST_SECRET=" + token}
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				var ee *exec.ExitError
				if err != nil && !errors.As(err, &ee) {
					t.Fatal(err)
				}
				return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
			}
			runs := 1
			if row.twice {
				runs = 2
			}
			type result struct {
				code           int
				stdout, stderr string
			}
			results := make(chan result, runs)
			for range runs {
				go func() { c, o, e := render(); results <- result{c, o, e} }()
			}
			for range runs {
				r := testwait.Recv(t, "bundle render", results)
				if r.code != row.code {
					t.Errorf("bundle render: exit %d, want %d\n%s%s", r.code, row.code, r.stdout, r.stderr)
				}
				want := row.stderr
				if st := confine.Available(); st.ABI > 0 && row.js == throws {
					want = append(slices.Clip(want), "bundle render: built "+cmp.Or(row.folder, "app")+" confined: "+st.String())
				}
				for _, w := range want {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
					}
				}
				for _, w := range row.stdout {
					if !strings.Contains(r.stdout, w) {
						t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
					}
				}
				if strings.Contains(r.stdout+r.stderr, token) {
					t.Errorf("the secret is in the output:\n%s%s", r.stdout, r.stderr)
				}
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				var names []string
				for _, l := range left {
					names = append(names, l.Name())
				}
				t.Errorf("left in the temporary folder: %s", strings.Join(names, ", "))
			}
		})
	}
	// Interrupted while its build waits on a vite.config that never settles: the build is
	// stopped as bundle build is (it was killed: "signal: killed"), and nothing is left.
	t.Run("interrupted", func(t *testing.T) {
		base := leakTree(t)
		dir := filepath.Join(base, "ws", "app")
		for name, body := range map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<script type="module" src="./main.js"></script>`),
			"main.js": throws, "vite.config.js": "await new Promise(() => {});\nexport default {};\n"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tmp := t.TempDir()
		cmd := exec.Command(bin, "render", "app")
		cmd.Dir = filepath.Join(base, "ws")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + tmp, "NO_COLOR=1"}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The child build has started once its output folder is there.
		testwait.Until(t, "the child build's output folder", func() bool {
			left, _ := os.ReadDir(tmp)
			return len(left) > 0
		})
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		testwait.Recv(t, "bundle render to stop", done)
		if code := cmd.ProcessState.ExitCode(); code != exitInternal || !strings.Contains(out.String(), "bundle render: app: interrupted") {
			t.Errorf("exit %d, want %d and \"interrupted\":\n%s", code, exitInternal, out.String())
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("left in the temporary folder: %v", left)
		}
	})
}

// TestRenderPastRefusedApp: an app folder that does not build is said, and the other pages of
// the same render are rendered all the same, in either order, with exit 1: render stopped at
// the first such folder and showed none of the others (bundle render samples/* with one sample's
// packages not installed).
func TestRenderPastRefusedApp(t *testing.T) {
	bin := bundleBinary(t)
	ws := t.TempDir()
	for name, js := range map[string]string{"good": "document.querySelector(\"p\").textContent = \"ok\";\n", "bad": "const b = ;\n"} {
		dir := filepath.Join(ws, name)
		os.MkdirAll(dir, 0o755)
		for file, body := range map[string]string{"miniapp.toml": strings.Replace(leakManifest, `"t"`, `"`+name+`"`, 1),
			"index.html": leakPage(`<script type="module" src="./main.js"></script>`), "main.js": js} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, order := range [][]string{{"bad", "good"}, {"good", "bad"}} {
		for _, format := range []string{"text", "json"} {
			cmd := exec.Command(bin, append([]string{"render", "--format", format, "--timeout", testwait.Scaled(60 * time.Second).String()}, order...)...)
			cmd.Dir = ws
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws, "TMPDIR=" + t.TempDir(), "NO_COLOR=1"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != exitRefused {
				t.Errorf("%v %s: exit %d, want %d\n%s%s", order, format, code, exitRefused, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), "bundle render: bad refused: it does not build") {
				t.Errorf("%v %s: the refused app is not said:\n%s", order, format, stderr.String())
			}
			want := "good/good.html: ok"
			if format == "json" {
				want = `"file": "good/good.html"`
			}
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%v %s: the app that builds is not rendered, want %q in:\n%s\n%s", order, format, want, stdout.String(), stderr.String())
			}
		}
	}
}

// TestConfinedSays: where the kernel's fence is off, the build says which fences held, Node's
// permission model among them where it held the Node the build started: it said "path checks
// (BUNDLE_FENCE=off)" for an app whose vite.config and CSS tools ran under the model (this
// machine's Node, 20.12 or later, has it). A build that started no Node (no npm packages, no
// vite.config, or packages but nothing that needs Node) had the path checks alone, and says
// so once it is done (it looks up nothing to say it). The text and --format json say the same,
// fenced too; and for one app, built or refused, --format json's stderr is the text's but for
// that line, which is why TestConfinement builds each row (one app) as JSON only. (Of several
// apps, the text says once the warning each app without hosts gets.) bundle render of an app
// folder that builds, whose build in memory said nothing, says it too.
func TestConfinedSays(t *testing.T) {
	bin := bundleBinary(t)
	sass := map[string]string{"index.html": leakPage(`<link rel="stylesheet" href="./s.scss">`), "s.scss": "$c: red;\n.ok { color: $c; }\n"}
	for _, row := range []struct {
		name, app string
		files     map[string]string
		want      string
		fenced    bool
		code      int // the exit code of both runs
	}{
		{name: "fenced", app: "ws/app", files: sass, want: confine.Available().String(), fenced: true},
		// Refused, as most of TestConfinement's rows are: the messages are the same too.
		{name: "fenced_refused", app: "ws/app", files: map[string]string{"main.js": `import s from "../../secrets/token.txt";\nconsole.log(s)\n`},
			want: confine.Available().String(), fenced: true, code: 1},
		{name: "refused", app: "ws/app", files: map[string]string{"main.js": `import s from "../../secrets/token.txt";\nconsole.log(s)\n`},
			want: "path checks (BUNDLE_FENCE=off)", code: 1},
		{name: "no_node", app: "plain/app", files: map[string]string{"package.json": `{ "private": true, "browser": {} }`}, want: "path checks (BUNDLE_FENCE=off)"},
		{name: "packages_no_tool", app: "ws/app", want: "path checks (BUNDLE_FENCE=off)"},
		{name: "packages_sass", app: "ws/app", files: sass, want: "path checks, node permission model (BUNDLE_FENCE=off)"},
		{name: "vite_config", app: "plain/app", files: map[string]string{"package.json": `{ "private": true, "browser": {} }`, "vite.config.js": "export default {};\n"},
			want: "path checks, node permission model (BUNDLE_FENCE=off)"},
	} {
		t.Run(row.name, func(t *testing.T) {
			base := leakTree(t)
			dir := filepath.Join(base, filepath.FromSlash(row.app))
			files := map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<script type="module" src="./main.js"></script>`), "main.js": "console.log(1)\n"}
			maps.Copy(files, row.files)
			for name, body := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var text string // the text run's stderr
			for _, format := range []string{"text", "json"} {
				cmd := exec.Command(bin, "build", "--format", format, dir)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + os.TempDir(), "NO_COLOR=1"}
				if !row.fenced {
					cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
				}
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != row.code || !ok && (err != nil || row.code != 0) {
					t.Fatalf("%s: %v, want exit %d\n%s", format, err, row.code, stderr.String())
				}
				banner := "bundle build: confined: " + row.want + "\n"
				if format == "text" {
					if text = stderr.String(); !strings.Contains(text, banner) {
						t.Errorf("text: stderr lacks %q:\n%s", banner, text)
					}
					continue
				}
				var doc struct{ Confined string }
				if err := json.Unmarshal([]byte(stdout.String()), &doc); err != nil || doc.Confined != row.want {
					t.Errorf("json: confined %q (%v), want %q", doc.Confined, err, row.want)
				}
				if got, want := stderr.String(), strings.Replace(text, banner, "", 1); got != want {
					t.Errorf("json's stderr is not the text's but for the banner:\n%s\nwant\n%s", got, want)
				}
			}
			if row.code != 0 {
				return
			}
			// bundle render of the app folder builds it in memory here, and said nothing of
			// what held it.
			cmd := exec.Command(bin, "render", "--timeout", testwait.Scaled(60*time.Second).String(), dir)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + t.TempDir(), "NO_COLOR=1"}
			if !row.fenced {
				cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			cmd.Run()
			if want := "bundle render: built " + dir + " confined: " + row.want + "\n"; !strings.Contains(stderr.String(), want) {
				t.Errorf("render: stderr lacks %q:\n%s", want, stderr.String())
			}
		})
	}
}
