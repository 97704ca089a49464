package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/manifest"
)

// hostframeApps is the workspace of the apps of issue 28's classes (routers, CommonJS interop,
// public files named at run time, a package that runs eval at load).
var hostframeApps = filepath.Join("testdata", "hostframe")

// buildIn builds an app made of files in a folder of the hostframe workspace, so that its npm
// packages resolve; it returns the build's diagnostics, errors or warnings, as text with the
// app's folder left out.
func buildIn(t *testing.T, name string, files map[string]string) (string, error) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(hostframeApps, "node_modules")); err != nil {
		t.Fatalf("the apps need their npm packages: run (cd %s && npm ci), as scripts/test does", hostframeApps)
	}
	dir := filepath.Join(hostframeApps, "tmp-"+name)
	os.RemoveAll(dir)
	t.Cleanup(func() { os.RemoveAll(dir) })
	text, _, err := buildAt(t, dir, files)
	return text, err
}

// TestCjsInteropWarning: a default import of a CommonJS module that sets __esModule, in a file
// that is an ES module by Node's rules, is warned of at the import with the option that
// chooses the other reading; nothing else is (TestRenderCjsInterop runs both readings).
func TestCjsInteropWarning(t *testing.T) {
	manifestFile := "id = \"c\"\nname = \"C\"\ndescription = \"CJS.\"\nentry = \"main.jsx\"\n"
	typeModule := `{ "name": "c", "private": true, "type": "module" }`
	for _, row := range []struct {
		name  string
		files map[string]string
		want  string // "" for no warning
	}{
		{"type_module", map[string]string{"package.json": typeModule, "main.jsx": "import { version } from \"cjs-chart\";\nimport Chart from \"cjs-chart\";\nwindow.x = [Chart, version];\n"},
			`main.jsx:2:19: warning: the default import of "cjs-chart" gives the module's module.exports, not its exports.default`},
		{"mjs", map[string]string{"main.jsx": "import \"./chart.mjs\";\n", "chart.mjs": "import Chart from \"cjs-chart\";\nwindow.x = Chart;\n"},
			`chart.mjs:1:19: warning: the default import of "cjs-chart" gives the module's module.exports`},
		{"named_only", map[string]string{"package.json": typeModule, "main.jsx": "import { version } from \"cjs-chart\";\nwindow.x = version;\n"}, ""},
		{"not_node_mode", map[string]string{"package.json": `{ "name": "c", "private": true }`, "main.jsx": "import Chart from \"cjs-chart\";\nwindow.x = Chart;\n"}, ""},
		{"cjs_without_flag", map[string]string{"package.json": typeModule, "main.jsx": "import React from \"react\";\nwindow.x = React;\n"}, ""},
		{"option_set", map[string]string{"package.json": typeModule, "main.jsx": "import Chart from \"cjs-chart\";\nwindow.x = Chart;\n",
			"miniapp.toml": manifestFile + "[build]\ninconsistentCjsInterop = true\n"}, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			if _, ok := row.files["miniapp.toml"]; !ok {
				row.files["miniapp.toml"] = manifestFile
			}
			text, err := buildIn(t, "cjs-"+row.name, row.files)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if row.want == "" {
				if strings.Contains(text, "default import") {
					t.Errorf("a false warning:\n%s", text)
				}
				return
			}
			if !strings.Contains(text, row.want) || !strings.Contains(text, "set inconsistentCjsInterop = true under [build] in miniapp.toml") {
				t.Errorf("want %q with the fix, got:\n%s", row.want, text)
			}
			// The fix, applied, silences it.
			m, _ := manifest.Parse("miniapp.toml", []byte(row.files["miniapp.toml"]+"[build]\ninconsistentCjsInterop = true\n"))
			if m == nil || !m.Build.InconsistentCjsInterop {
				t.Errorf("the fix does not parse")
			}
		})
	}
}

// TestCjsWithFlag reads whether a CommonJS module sets __esModule.
func TestCjsWithFlag(t *testing.T) {
	for _, row := range []struct {
		name, src string
		want      bool
	}{
		{"define_property", `"use strict";Object.defineProperty(exports,"__esModule",{value:!0});exports.default=1;`, true},
		{"assignment", `exports.__esModule = true; exports.default = function () {};`, true},
		{"module_exports", `module.exports.__esModule = true; module.exports.default = 2;`, true},
		{"index", `exports["__esModule"] = true;`, true},
		{"esbuild_helper", `var __defProp=Object.defineProperty;var __toCommonJS=(m)=>__copyProps(__defProp({},"__esModule",{value:true}),m);module.exports=__toCommonJS(x);`, true},
		{"reads_only", `function i(e){return e&&e.__esModule?e:{default:e}}module.exports=i(require("x")).default;`, false},
		{"plain", `module.exports = function () { return "__esModule"; };`, false},
		{"esm", `export const __esModule = true; Object.defineProperty(exports, "__esModule", {value: true});`, false},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "m.js")
			os.WriteFile(p, []byte(row.src), 0o644)
			b := &bundler{readRoot: dir, root: dir}
			if got := b.cjsWithFlag(p); got != row.want {
				t.Errorf("cjsWithFlag = %v, want %v", got, row.want)
			}
		})
	}
}
