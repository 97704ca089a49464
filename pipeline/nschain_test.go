package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestNamespaceChains: a package's module that reads a namespace through another
// (lib.iso.datetime(), where lib's index has export * as iso from "./iso.js") keeps only the
// exports it reads, as Vite's build does, where esbuild alone keeps every export of iso.js;
// the page does what it did (Chromium), a parameter of the same name is its own, and a
// namespace the module hands out whole is kept whole.
func TestNamespaceChains(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":                   "id = \"nc\"\nname = \"NC\"\ndescription = \"Namespace chains.\"\nentry = \"src/main.js\"\n",
		"src/main.js":                    "import { use, shadow, whole } from \"user\";\nwindow.result = [...use(), shadow({ iso: { datetime: () => \"own\" } }), Object.keys(whole()).join()];\n",
		"node_modules/lib/package.json":  `{"name": "lib", "type": "module", "sideEffects": false}`,
		"node_modules/lib/index.js":      "export * as iso from \"./iso.js\";\nexport * as util from \"./util.js\";\nexport * as kept from \"./kept.js\";\nexport const k = 1;\n",
		"node_modules/lib/iso.js":        "export function datetime() { return \"dt\"; }\nexport function unusedIso() { return \"UNUSED_ISO_MARKER\"; }\n",
		"node_modules/lib/util.js":       "export const tag = \"util\";\nexport function unusedUtil() { return \"UNUSED_UTIL_MARKER\"; }\n",
		"node_modules/lib/kept.js":       "export const a = 1;\nexport function b() { return \"KEPT_MARKER\"; }\n",
		"node_modules/user/package.json": `{"name": "user", "type": "module", "sideEffects": false}`,
		"node_modules/user/index.js": "import * as lib from \"lib\"\n" +
			"export function use() { return [lib.iso.datetime(), lib.util.tag, lib.kept.a]; }\n" +
			"export function shadow(lib) { return lib.iso.datetime(); }\n" +
			"export function whole() { return lib.kept; }\n",
	})
	res := built(t, dir)
	page := string(res.HTML)
	for _, marker := range []string{"UNUSED_ISO_MARKER", "UNUSED_UTIL_MARKER"} {
		if strings.Contains(page, marker) {
			t.Errorf("%s is in the page", marker)
		}
	}
	if !strings.Contains(page, "KEPT_MARKER") {
		t.Errorf("the namespace handed out whole lost an export")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/nc.html", res.HTML), 0)
	b.Await(t, `window.result !== undefined`)
	if got := browsertest.Eval[string](t, b, `JSON.stringify(window.result)`); got != `["dt","util",1,"own","a,b"]` {
		t.Errorf("the page shows %s", got)
	}
	if again := built(t, dir); string(again.HTML) != page {
		t.Errorf("a second build differs")
	}
}
