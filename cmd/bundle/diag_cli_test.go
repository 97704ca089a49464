package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const scriptManifest = "id = \"t\"\nname = \"Test\"\ndescription = \"A test app.\"\nentry = \"src/main.ts\"\n"

// TestMessages runs the CLI on one mistake each, as a new user makes them, and compares the
// exit code and the whole of stderr with a golden file: each message at the place the author
// wrote, with a fix that works.
func TestMessages(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 16)
	rows := []struct {
		name  string
		files map[string]string
		args  []string // APP is the app folder
		code  int
		want  []string // substrings of stderr
	}{
		{"import_typo", map[string]string{"miniapp.toml": scriptManifest, "src/utils.ts": "export const x = 1;\n",
			"src/main.ts": "import { x } from \"./util.ts\";\nconsole.log(x);\n"}, nil, 1, []string{`no such file in APP/src`, `did you mean "./utils.ts"?`}},
		{"import_wrong_case", map[string]string{"miniapp.toml": scriptManifest, "src/utils.ts": "export const x = 1;\n",
			"src/main.ts": "import { x } from \"./Utils\";\nconsole.log(x);\n"}, nil, 1, []string{"src/main.ts:1:19", `the file on disk is utils.ts, with another case`, `write "./utils"`}},
		{"no_node_modules", map[string]string{"miniapp.toml": strings.Replace(scriptManifest, "main.ts", "main.tsx", 1),
			"src/main.tsx": "import { createRoot } from \"react-dom/client\";\nimport { create } from \"zustand\";\nimport React from \"react\";\ncreateRoot(document.body).render(<p>{String(create)}{String(React)}</p>);\n"}, nil, 1, []string{"the app has no package.json", "npm init -y"}},
		{"package_not_installed", map[string]string{"miniapp.toml": scriptManifest, "node_modules/.package-lock.json": "{}",
			"src/main.ts": "import debounce from \"lodash/debounce\";\nconsole.log(debounce);\n"}, nil, 1, []string{"the package lodash is not installed", "npm install lodash"}},
		{"public_path_missing", map[string]string{"miniapp.toml": scriptManifest,
			"src/main.ts": "import logo from \"/vite.svg\";\nconsole.log(logo);\n"}, nil, 1, []string{"public folder public/", "put the file in APP/public/"}},
		{"css_remote_url", map[string]string{"miniapp.toml": scriptManifest, "src/main.ts": "import \"./app.css\";\n",
			"src/app.css": "body {\n  background: url(https://cdn.example/bg.png);\n}\n"}, nil, 1, []string{"APP/src/app.css:2:15"}},
		{"script_remote_import", map[string]string{"miniapp.toml": scriptManifest,
			"src/main.ts": "const m = await import(\"https://esm.sh/confetti\");\nconsole.log(m);\n"}, nil, 1, []string{"APP/src/main.ts:1:24", "loads from outside the bundle at run time", `npm install confetti, then import "confetti"`}},
		{"top_level_await_target", map[string]string{"miniapp.toml": scriptManifest + "[build]\ntarget = \"es2017\"\n",
			"src/main.ts": "const r = await Promise.resolve(1);\nconsole.log(r);\n"}, nil, 1, []string{`the target is "es2017" (build.target in APP/miniapp.toml)`}},
		{"target_unknown", map[string]string{"miniapp.toml": scriptManifest + "[build]\ntarget = \"es2099\"\n", "src/main.ts": ""}, nil, 1, []string{`"es2099" in build.target is not an esbuild target`}},
		{"json_trailing_comma", map[string]string{"manifest.json": "{\n  \"id\": \"t\",\n  \"name\": \"T\",\n  \"description\": \"D.\",\n  \"entry\": \"src/main.ts\",\n}\n", "src/main.ts": ""}, nil, 1, []string{"manifest.json:5:25", "a trailing comma before }"}},
		{"json_empty", map[string]string{"manifest.json": "", "src/main.ts": ""}, nil, 1, []string{"manifest.json is empty"}},
		{"json_maxkb_float", map[string]string{"manifest.json": "{\"id\": \"t\", \"name\": \"T\", \"description\": \"D.\", \"entry\": \"src/main.ts\", \"maxKB\": 512.5}\n", "src/main.ts": ""}, nil, 1, []string{`not 512.5`, `write "maxKB": 513`}},
		{"origins", map[string]string{"miniapp.toml": scriptManifest + "allowedDomains = [\"http://x.example.com/path\", \"*.com\", \"https://api.example.com/\"]\n", "src/main.ts": ""}, nil, 1, []string{`write "https://x.example.com"`, `has a wildcard over all of com`}},
		// miniapp.toml wins; a manifest.json of another format is a file of the app (issue 26).
		{"toml_and_mcpb_manifest", map[string]string{"miniapp.toml": scriptManifest, "manifest.json": `{"manifest_version": "0.2", "name": "pdf", "server": {"type": "node"}}`, "src/main.ts": ""}, []string{"build", "--quiet", "APP"}, 0, nil},
		{"only_a_web_app_manifest", map[string]string{"manifest.json": `{"name": "My App", "start_url": "/", "icons": []}`, "index.html": "<p>x</p>"}, nil, 2,
			[]string{"no manifest (its manifest.json is a web app manifest (icons), a file of the app); write APP/miniapp.toml"}},
		{"auth_key", map[string]string{"miniapp.toml": scriptManifest + "[[capabilities]]\nid = \"auth\"\npurpose = \"Sign you in.\"\nauth = true\n", "src/main.ts": ""}, nil, 1, []string{`a capability whose id is "auth"`}},
		{"image_not_png", map[string]string{"miniapp.toml": goodManifest, "main.ts": "", "logo.png": "<!DOCTYPE html><html><body>Not found</body></html>",
			"index.html": strings.Replace(goodPage, `<p id="p">hi</p>`, `<img src="./logo.png">`, 1)}, nil, 1, []string{"logo.png is not a PNG image", "an HTML page"}},
		{"font_not_woff2", map[string]string{"miniapp.toml": scriptManifest, "src/main.ts": "import \"./app.css\";\n", "src/f.woff2": png,
			"src/app.css": "@font-face {\n  font-family: F;\n  src: url(./f.woff2);\n}\n"}, nil, 1, []string{"f.woff2 is not a WOFF2 font", "rename it to .png"}},
		{"empty_index", map[string]string{"miniapp.toml": goodManifest, "index.html": "\n"}, nil, 1, []string{"index.html is empty"}},
		{"out_is_file", map[string]string{"miniapp.toml": scriptManifest, "src/main.ts": "", "taken": "x"}, []string{"build", "--out", "APP/taken", "APP"}, 2, []string{"is a file, not a folder"}},
		{"flags_after_args", map[string]string{"miniapp.toml": scriptManifest, "src/main.ts": "console.log(1);\n"}, []string{"build", "APP", "--out", "APP/out", "--quiet"}, 0, nil},
		{"check_every_file", map[string]string{"a.html": "<p>clean</p>\n", "b.html": "<img src=\"https://cdn.example/x.png\">\n"}, []string{"check", "APP/missing.html", "APP/a.html", "APP/b.html"}, 2, []string{"cannot read APP/missing.html", "APP/b.html:1:11"}},
		{"help_command", map[string]string{}, []string{"help", "nope"}, 2, []string{`unknown command "nope"`}},
		{"init_not_empty", map[string]string{"notes.txt": "mine"}, []string{"init", "APP"}, 2, []string{"the folder is not empty", "--force"}},
		{"init_unknown_template", map[string]string{}, []string{"init", "--template", "reakt", "APP/new"}, 2, []string{`did you mean "react"?`}},
		{"jsx_in_js", map[string]string{"miniapp.toml": scriptManifest, "src/main.ts": "import App from \"./App.js\";\nconsole.log(App);\n",
			"src/App.js": "export default function App() {\n  return <p>hi</p>;\n}\n"}, nil, 1, []string{`name the file .jsx, or set loader = { ".js" = "jsx" } under [build] in miniapp.toml`}},
		{"css_url_missing_relative", map[string]string{"miniapp.toml": scriptManifest, "src/main.ts": "import \"./app.css\";\n", "src/img/dot.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
			"src/app.css": "body {\n  background: url(img/dott.svg);\n}\n"}, nil, 1, []string{"APP/src/app.css:2:15", "no such file in APP/src/img", `did you mean "./img/dot.svg"?`}},
		{"node_builtins", map[string]string{"miniapp.toml": scriptManifest, "node_modules/nodey/package.json": `{"name": "nodey", "main": "index.js"}`,
			"node_modules/nodey/index.js": "import fs from \"fs\";\nexport const read = fs.readFileSync;\n",
			"src/main.ts":                 "import { readFileSync } from \"node:fs\";\nimport path from \"path\";\nimport { extname } from \"node:path\";\nimport { read } from \"nodey\";\nconsole.log(readFileSync, path, extname, read);\n"},
			nil, 1, []string{`"node:fs" is built into Node.js`, "what needs fs runs on the app's MCP server", "npm install path", `import "path" and install`, "the package nodey imports it"}},
		{"classic_script_is_module", map[string]string{"miniapp.toml": goodManifest, "y.js": "export const v = 1;\n",
			"main.js":    "import { v } from \"./y.js\";\ndocument.body.dataset.v = v;\n",
			"index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>T</title></head>\n<body><script src=\"./main.js\"></script>\n<script>\n  import { v } from \"./y.js\";\n</script></body></html>\n"},
			nil, 1, []string{"APP/index.html:3:20", "./main.js is written as an ES module", "APP/index.html:4:1", `add type="module" to the <script>`}},
		// The export after an ideographic space (U+3000, white space to JavaScript): the same
		// refusal, where it built with exit 0 and the page threw.
		{"classic_script_is_module_after_unicode_space", map[string]string{"miniapp.toml": goodManifest,
			"main.js":    "const v = 1;\n\u3000export { v };\ndocument.body.dataset.v = v;\n",
			"index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>T</title></head>\n<body><script src=\"./main.js\"></script></body></html>\n"},
			nil, 1, []string{"APP/index.html:3:20", "./main.js is written as an ES module"}},
		{"process_env", map[string]string{"miniapp.toml": scriptManifest,
			"src/main.ts": "const key = process.env.API_KEY;\nconst mode = process.env.NODE_ENV;\nconsole.log(key, mode);\n"},
			nil, 0, []string{"APP/src/main.ts:1:13", "process.env.API_KEY is Node's", "import.meta.env.VITE_API_KEY"}},
		{"post_message_any_origin", map[string]string{"miniapp.toml": scriptManifest,
			"src/main.ts": "window.parent.postMessage({ type: \"ready\" }, \"*\");\nwindow.parent.postMessage(\"x\", \"https://chat.example.com\");\n"},
			nil, 0, []string{"APP/src/main.ts:1:46", `postMessage(…, "*") sends the message to whatever page frames the app`}},
		{"fetch_local_file", map[string]string{"miniapp.toml": scriptManifest,
			"src/main.ts": "const rows = await fetch(\"./rows.json\").then((r) => r.json());\nconsole.log(rows);\n"}, nil, 0, []string{"APP/src/main.ts:1:27", `fetch("./rows.json") loads a file at run time`, `import data from "./rows.json"`}},
		{"sdk_missing_export", map[string]string{"miniapp.toml": scriptManifest,
			"src/main.ts": "import { modelContext, registerTol } from \"@miniapp/sdk\";\nmodelContext.registerTool(registerTol);\n"},
			nil, 1, []string{"APP/src/main.ts:1:10", `@miniapp/sdk has no export "modelContext"`, "use it without an import", "APP/src/main.ts:1:24", `did you mean "registerTool"?`}},
		{"import_map_local_file", map[string]string{"miniapp.toml": goodManifest, "vendor/tiny.js": "export const hello = () => \"hi\";\n",
			"index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>T</title>\n<script type=\"importmap\">{\"imports\": {\"tiny\": \"./vendor/tiny.js\", \"cdn\": \"https://esm.example/x.js\"}}</script>\n</head><body><script type=\"module\">\n  import { hello } from \"tiny\";\n  document.body.textContent = hello();\n</script></body></html>\n"},
			nil, 1, []string{"APP/index.html:3:47", `alias = { "tiny" = "./vendor/tiny.js" }`, "and remove the import map", "download the module into the app folder"}},
		{"vite_path_alias", map[string]string{"miniapp.toml": scriptManifest, "src/components/Btn.ts": "export const Btn = () => \"btn\";\n",
			"src/main.ts": "import { Btn } from \"@/components/Btn\";\nconsole.log(Btn());\n"},
			nil, 1, []string{"APP/src/main.ts:1:21", `"@" is a path alias (no npm package has that name)`, `alias = { "@" = "./src" } under [build]`, `"paths": { "@/*": ["./src/*"] }`}},
		{"svgr_query", map[string]string{"miniapp.toml": scriptManifest, "src/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
			"src/main.ts": "import Logo from \"./logo.svg?react\";\nconsole.log(Logo);\n"},
			nil, 1, []string{"APP/src/main.ts:1:18", `bundle does not know the query ?react`, `import logo from "./logo.svg"`}},
		{"unknown_file_type", map[string]string{"miniapp.toml": scriptManifest, "src/data.csv": "a,b\n1,2\n",
			"src/main.ts": "import rows from \"./data.csv\";\nconsole.log(rows);\n"},
			nil, 1, []string{"APP/src/main.ts:1:18", `("./data.csv?raw")`, `loader = { ".csv" = "text" } under [build] in miniapp.toml`}},
		{"no_entry_no_index", map[string]string{"miniapp.toml": "id = \"x\"\nname = \"X\"\ndescription = \"d\"\n", "src/main.ts": "console.log(1);\n"},
			nil, 1, []string{`missing required field "entry"`, "the entry is the app folder's index.html when it has one"}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := app(t, row.files)
			os.MkdirAll(dir, 0o755)
			args := []string{"build", dir}
			if row.args != nil {
				args = nil
				for _, a := range row.args {
					args = append(args, strings.ReplaceAll(a, "APP", dir))
				}
			}
			code, stdout, stderr := bundle(t, "", args...)
			text := strings.ReplaceAll(stderr, dir, "APP")
			text = regexp.MustCompile(`~{2,}`).ReplaceAllString(text, "~~~")
			if code != row.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, row.code, stdout, text)
			}
			for _, w := range row.want {
				if !strings.Contains(text, w) {
					t.Errorf("stderr lacks %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, os.TempDir()) || strings.Contains(text, filepath.Dir(dir)) {
				t.Errorf("an absolute path in the message:\n%s", text)
			}
			goldenText(t, "messages_"+row.name, "exit "+string(rune('0'+code))+"\n"+text)
		})
	}
}
