package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/internal/testfs"
)

// TestOutsideExistsOrNot: nothing a build says or writes depends on whether a file outside
// the app exists. Landlock (ABI 7 and older) does not restrict stat, so the build's own code
// could tell; the path checks decide by where a path leads before looking whether anything is
// there. Each row is built twice into the same folders, with the folder of secrets beside the
// app full and then empty, fenced and with the path checks alone, and the messages (as JSON,
// whose stderr is the text's but for the confined: banner: TestConfinedSays) and the exit code
// must be the same. Before, every one of these rows differed: an import of
// ../secrets/s.js said "w/secrets/s.js is outside the app folder" where the file was, "no such
// file" or "there is no folder" where not; a link in the app to a missing file outside "does
// not exist" where to a file "leaves the app folder" (entry, .env, tsconfig.json, dist, the
// manifest: "no manifest"); Sass's @use "../secrets/s" "is outside" or "Can't find
// stylesheet"; the app's PostCSS config wrote what stat said of a file outside into the page.
func TestOutsideExistsOrNot(t *testing.T) {
	bin := bundleBinary(t)
	page := func(head string) string {
		return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>T</title>" + head + "</head>\n<body><p>hi</p></body></html>\n"
	}
	script := func(main string) map[string]string {
		return map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": main}
	}
	style := func(name, css string) map[string]string {
		return map[string]string{"index.html": page(`<link rel="stylesheet" href="./` + name + `">`), name: css}
	}
	for _, row := range []struct {
		name  string
		files map[string]string
		links map[string]string // app path → path relative to the base folder
		sass  bool              // the app's node_modules holds the CSS tools (sass, postcss)
	}{
		{name: "import_relative", files: script(`import { s } from "../secrets/s.js"; console.log(s)`)},
		{name: "import_text", files: script(`import s from "../secrets/s.txt?raw"; console.log(s)`)},
		{name: "import_absolute", files: script(`import { s } from "BASE/secrets/s.js"; console.log(s)`)},
		{name: "import_folder", files: script(`import x from "../secrets/dir/"; console.log(x)`)},
		{name: "import_through_link", files: script(`import { s } from "./l.js"; console.log(s)`), links: map[string]string{"l.js": "secrets/s.js"}},
		{name: "import_without_extension_through_link", files: script(`import { s } from "./l"; console.log(s)`), links: map[string]string{"l.js": "secrets/s.js"}},
		{name: "import_through_folder_link", files: script(`import { s } from "./d/s.js"; console.log(s)`), links: map[string]string{"d": "secrets/dir"}},
		{name: "new_url", files: script(`console.log(new URL("../secrets/i.png", import.meta.url))`)},
		// new URL's path without ./ is the file beside the script where there is one, else a
		// package's: one that climbs out was looked for there.
		{name: "new_url_climbs_out", files: script(`console.log(new URL("a/../../secrets/i.png", import.meta.url))`)},
		// A glob whose walk meets a link out, and a tsconfig paths key whose target folder
		// is outside: the link was followed (stat) and refused where a folder was there,
		// passed over (exit 0) where not; the key's folder looked for, "reaches outside the
		// app folder" where it was, "names no file" where not.
		{name: "glob_walk_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`),
			"main.ts": `console.log(import.meta.glob("./d/**/*.txt", { query: "?raw", eager: true }))`, "d/a.txt": "a\n"}, links: map[string]string{"d/l": "secrets/dir"}},
		{name: "glob_tsconfig_paths", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`),
			"main.ts": `console.log(import.meta.glob("@s/*.js", { eager: true }))`, "tsconfig.json": `{ "compilerOptions": { "paths": { "@s/*": ["../secrets/dir/*"] } } }`}},
		{name: "worker", files: script(`new Worker(new URL("../secrets/s.js", import.meta.url), { type: "module" })`)},
		// The app's own package.json's "browser" object, which Vite applies to the app's
		// imports: esbuild looked for the target outside, built the file as written where
		// it was not there (exit 0), and refused it where it was.
		{name: "browser_map", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "./a.js"; console.log(s)`,
			"a.js": "export const s = 1\n", "package.json": `{ "name": "a", "browser": { "./a.js": "../secrets/s.js" } }`}},
		// A key esbuild matches and Vite does not (the file's extension: "./a.ts" for
		// "./a"), which esbuild maps once it has found the file: refused where the target
		// was, built as written (exit 0) where not, fenced too.
		{name: "browser_map_extension", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "./a"; console.log(s)`,
			"a.ts": "export const s = 1\n", "package.json": `{ "name": "a", "browser": { "./a.ts": "../secrets/s.js" } }`}},
		// A package's "main" that leads out: "secrets/s.js is outside" where the file was,
		// "the entry of the package p leaves the app folder" where not.
		{name: "package_main", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "main": "../../../secrets/s.js" }`}},
		// A bare import the app's tsconfig sends out (paths, baseUrl), or whose ".." climbs
		// out of node_modules: "secrets/s.js is outside the app folder" where the file was;
		// "tsconfig.json's paths map it to …", "the package x.js is not installed", "the
		// package p is installed, but has no …" where not.
		{name: "tsconfig_paths", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "@s/s.js"; console.log(s)`,
			"tsconfig.json": `{ "compilerOptions": { "paths": { "@s/*": ["../secrets/*"] } } }`}},
		{name: "tsconfig_base_url", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "s.js"; console.log(s)`,
			"tsconfig.json": `{ "compilerOptions": { "baseUrl": "../secrets" } }`}},
		{name: "package_subpath_climbs_out", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p/../../../secrets/s.js"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p" }`}},
		// A subpath a pattern of "exports" maps out ("./x/*" to a folder that links out, or
		// to "./../../../secrets/*"): "secrets/s.js is outside the app folder" where the file
		// was, "the package p is installed, but has no …" where not (the second fenced too).
		{name: "package_exports_pattern_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p/x/s.js"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "exports": { "./x/*": "./lib/*" } }`}, links: map[string]string{"node_modules/p/lib": "secrets"}},
		{name: "package_exports_pattern_climbs_out", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p/x/s"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "exports": { "./x/*": "./../../../secrets/*" } }`}},
		// A #subpath import the app's "imports" map through a link out: "secrets/s.js is
		// outside the app folder" where the file was, "the package #s is not in
		// package.json" where not.
		{name: "package_imports_through_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "#s/s.js"; console.log(s)`,
			"package.json": `{ "name": "a", "imports": { "#s/*": "./l/*" } }`}, links: map[string]string{"l": "secrets"}},
		// The manifest's build.alias, which esbuild applies after the resolve plugins saw the
		// import as written: a folder alias whose path goes through a link out, an alias to a
		// link out, and one to a package whose "main" leads out. "secrets/s.js is outside the
		// workspace root" where the file was, "an import by absolute path … there is none" (or
		// "the package x is not installed") where not, and fenced "there is none" either way.
		{name: "manifest_alias_through_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "@/l/s.js"; console.log(s)`,
			"miniapp.toml": leakManifest + "[build]\nalias = { \"@\" = \"./src\" }\n", "src/a.js": "export const a = 1\n"}, links: map[string]string{"src/l": "secrets"}},
		{name: "manifest_alias_to_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "x"; console.log(s)`,
			"miniapp.toml": leakManifest + "[build]\nalias = { \"x\" = \"./l.js\" }\n"}, links: map[string]string{"l.js": "secrets/s.js"}},
		{name: "manifest_alias_package_main", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "x"; console.log(s)`,
			"miniapp.toml": leakManifest + "[build]\nalias = { \"x\" = \"p\" }\n", "package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "main": "../../../secrets/s.js" }`}},
		// A package's "browser" object, which esbuild applies to the package's entry once it
		// has found it: a target through a link out, or climbing out, was looked for there,
		// "secrets/s.js is outside" where the file was, "the package p is installed, but has
		// no \"\"" where not.
		{name: "package_browser_map_through_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "main": "a.js", "browser": { "./a.js": "./l/s.js" } }`, "node_modules/p/a.js": "export const s = 1\n"},
			links: map[string]string{"node_modules/p/l": "secrets"}},
		{name: "package_browser_map_climbs_out", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "main": "a.js", "browser": { "./a.js": "../../../secrets/s.js" } }`, "node_modules/p/a.js": "export const s = 1\n"}},
		// A package's file by its path (no "exports": its subpaths are its files) through a
		// link in the package (node_modules/p/l → secrets), from a script and a stylesheet's
		// url(): "secrets/s.js is outside" where the file was, "the package p is installed,
		// but has no \"/l/s.js\"" where not.
		{name: "package_subpath_through_link", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": `import { s } from "p/l/s.js"; console.log(s)`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p" }`}, links: map[string]string{"node_modules/p/l": "secrets"}},
		{name: "css_url_package_subpath_through_link", files: map[string]string{"index.html": page(`<link rel="stylesheet" href="./a.css">`), "a.css": `.a { background: url(p/l/i.png) }`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p" }`}, links: map[string]string{"node_modules/p/l": "secrets"}},
		{name: "css_import", files: style("a.css", `@import "../secrets/s.css";`)},
		// A stylesheet's @import of a package, resolved as Vite's CSS resolver does (its
		// "style" field, a subpath), whose file leads out: "secrets/s.css is outside the app
		// folder" where the file was, "no such file" where not, fenced too.
		{name: "css_import_package_style", files: map[string]string{"index.html": page(`<link rel="stylesheet" href="./a.css">`), "a.css": `@import "p";`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p", "style": "../../../secrets/s.css" }`}},
		{name: "css_import_package_climbs_out", files: map[string]string{"index.html": page(`<link rel="stylesheet" href="./a.css">`), "a.css": `@import "p/../../../secrets/s.css";`,
			"package.json": `{ "name": "a" }`, "node_modules/p/package.json": `{ "name": "p" }`}},
		// A stylesheet's URL is percent-decoded as a URL (url(%2e%2e/…) is url(../…)): the
		// decoded path was looked for outside, "secrets/i.png is outside the app folder"
		// where the file was, "the package %2e%2e is not installed" where not, fenced too.
		{name: "css_url_percent_encoded", files: style("a.css", `.a { background: url(%2e%2e/secrets/i.png) }`)},
		{name: "css_import_percent_encoded", files: style("a.css", `@import "%2e%2e/secrets/s.css";`)},
		{name: "css_url", files: style("a.css", `.a { background: url(../secrets/i.png) }`)},
		{name: "tsconfig_extends", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": "console.log(1)", "tsconfig.json": `{ "extends": "../secrets/t.json" }`}},
		// A solution tsconfig's references out of the app (a folder, a .json file): the
		// folder was looked at (stat) before the reference was refused by where it leads.
		{name: "tsconfig_references", files: map[string]string{"index.html": page(`<script type="module" src="./main.ts"></script>`), "main.ts": "console.log(1)",
			"tsconfig.json": `{ "files": [], "references": [{ "path": "../secrets/dir" }, { "path": "../secrets/t.json" }] }`}},
		{name: "tsconfig_link", files: script("console.log(1)"), links: map[string]string{"tsconfig.json": "secrets/t.json"}},
		{name: "env_link", files: script("console.log(import.meta.env)"), links: map[string]string{".env": "secrets/s.txt"}},
		{name: "entry_link", files: map[string]string{}, links: map[string]string{"index.html": "secrets/s.html"}},
		{name: "manifest_link", files: map[string]string{"index.html": page(""), "miniapp.toml": ""}, links: map[string]string{"miniapp.toml": "secrets/m.toml"}},
		{name: "dist_link", files: map[string]string{"index.html": page("")}, links: map[string]string{"dist": "secrets/dir"}},
		{name: "sass_use", files: style("a.scss", `@use "../secrets/s";`), sass: true},
		// The source map a vite.config's comment names, which esbuild reads when it bundles
		// the config: refused where the file was, passed over where not.
		{name: "vite_config_source_map", files: map[string]string{"index.html": page(""), "vite.config.js": "export default {};\n//# sourceMappingURL=../secrets/t.json\n"}, sass: true},
		// A vite.config's root that is a link out: refused where its target was, built
		// from the link where not.
		{name: "vite_config_root_link", files: map[string]string{"index.html": page(""), "vite.config.js": "export default { root: \"l\" };\n"}, links: map[string]string{"l": "secrets/dir"}, sass: true},
		// The app's own PostCSS config, which runs (in Node, inside the fences), asks of a
		// file outside what stat says, and writes it into the CSS: the page held "true 15 …"
		// where the file was, "false ENOENT …" where not.
		{name: "postcss_config_stats", files: map[string]string{"index.html": page(`<link rel="stylesheet" href="./a.css">`), "a.css": ".a { color: red }\n",
			"postcss.config.mjs": `import fs from "node:fs";
const probe = ["BASE/secrets/s.txt", "BASE/secrets"].map((p) => {
  let st = null;
  try { st = fs.statSync(p).size; } catch (e) { st = e.code; }
  let real = null;
  try { real = fs.realpathSync(p); } catch (e) { real = e.code; }
  return [fs.existsSync(p), st, real, fs.statSync(p, { throwIfNoEntry: false }) === undefined].join(" ");
}).join(" / ");
export default { plugins: [{ postcssPlugin: "probe", Once(root) { root.append({ selector: ".probe" }); root.last.append({ prop: "--probe", value: JSON.stringify(probe) }); } }] };
`}, sass: true},
	} {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			app := filepath.Join(base, "app")
			os.MkdirAll(app, 0o755)
			files := map[string]string{"miniapp.toml": leakManifest}
			for k, v := range row.files {
				files[k] = strings.ReplaceAll(v, "BASE", base)
			}
			for name, body := range files {
				if _, linked := row.links[name]; linked {
					continue
				}
				os.MkdirAll(filepath.Dir(filepath.Join(app, name)), 0o755)
				if err := os.WriteFile(filepath.Join(app, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for name, target := range row.links {
				if err := os.Symlink(filepath.Join(base, filepath.FromSlash(target)), filepath.Join(app, name)); err != nil {
					t.Fatal(err)
				}
			}
			if row.sass {
				testfs.HardLink(t, filepath.Join("..", "..", "pipeline", "testdata", "apps", "node_modules"), filepath.Join(app, "node_modules"))
			}
			build := func(fenced bool, args ...string) string {
				cmd := exec.Command(bin, append(append([]string{"build"}, args...), app)...)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + os.TempDir(), "NO_COLOR=1"}
				if !fenced {
					cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
				}
				out, err := cmd.CombinedOutput()
				if _, ok := err.(*exec.ExitError); err != nil && !ok {
					t.Fatal(err)
				}
				built, _ := os.ReadFile(filepath.Join(app, "dist", "t.html"))
				os.RemoveAll(filepath.Join(app, "dist", "t.html"))
				return string(out) + "exit " + strings.TrimPrefix(cmd.ProcessState.String(), "exit status ") + "\npage:\n" + string(built)
			}
			runs := func() []string {
				var out []string
				for _, fenced := range []bool{true, false} {
					out = append(out, build(fenced, "--format", "json"))
				}
				return out
			}
			secrets := filepath.Join(base, "secrets")
			for name, body := range map[string]string{"s.js": "export const s = \"" + token + "\"\n", "s.txt": token + "\n", "s.css": "." + token + " {}\n",
				"_s.scss": "." + token + " { color: red }\n", "t.json": `{ "compilerOptions": { "jsxFactory": "` + token + `" } }`, "i.png": token,
				"s.html": "<p>" + token + "</p>", "m.toml": "id = \"" + token + "\"\n", "dir/index.js": "export default \"" + token + "\"\n", "dir/s.js": "export const s = 1\n"} {
				os.MkdirAll(filepath.Dir(filepath.Join(secrets, name)), 0o755)
				os.WriteFile(filepath.Join(secrets, name), []byte(body), 0o644)
			}
			full := runs()
			os.RemoveAll(secrets)
			os.MkdirAll(secrets, 0o755)
			empty := runs()
			for i, name := range []string{"fenced", "path_checks"} {
				if full[i] != empty[i] {
					t.Errorf("%s: the build says otherwise when the files outside exist:\nwith them:\n%s\nwithout:\n%s", name, full[i], empty[i])
				}
				if row.name == "postcss_config_stats" && !strings.Contains(full[i], "--probe") {
					t.Errorf("%s: the config's probe is not in the page:\n%s", name, full[i])
				}
				if strings.Contains(full[i], token) {
					t.Errorf("%s: a message holds the secret:\n%s", name, full[i])
				}
			}
		})
	}
}
