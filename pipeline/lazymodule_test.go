package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestLazyModuleNames: a CSS Module esbuild would name that only import() reaches, in
// Chromium: its names by the config's localsConvention, a name it composes from a module the
// page imports statically (esbuild's name, its rules in the page from load), its own rules
// added when the import runs and applied to its names, a same-named module in another folder
// given other names; and the same bytes from a second build.
func TestLazyModuleNames(t *testing.T) {
	dir := t.TempDir()
	_, res, err := buildAt(t, dir, map[string]string{
		"miniapp.toml":   "id = \"lazy\"\nname = \"Lazy\"\ndescription = \"A lazy CSS Module.\"\nentry = \"index.html\"\n",
		"vite.config.js": "export default { css: { modules: { localsConvention: \"camelCaseOnly\" } } };\n",
		"index.html":     "<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>Lazy</title>\n</head>\n<body>\n<p id=\"a\">a</p><p id=\"b\">b</p>\n<script type=\"module\" src=\"./main.js\"></script>\n</body>\n</html>\n",
		"main.js": `import base from "./base.module.css";
const color = (id) => getComputedStyle(document.getElementById(id)).color;
window.seen = { before: color("a"), base: base.base };
window.load = () => Promise.all([import("./part.js"), import("./other/part.js")]).then(([m, o]) => {
  document.getElementById("a").className = m.default.wideBox;
  document.getElementById("b").className = o.default.wideBox;
  return JSON.stringify({ ...window.seen, keys: Object.keys(m.default).sort(), composed: m.default.wideBox.split(" ").includes(base.base),
    same: m.default.wideBox === o.default.wideBox, a: color("a"), b: color("b") });
});
`,
		"part.js":            "import s from \"./x.module.css\";\nexport default s;\n",
		"x.module.css":       ".wide-box { composes: base from \"./base.module.css\"; color: rgb(0, 128, 0); }\n",
		"other/part.js":      "import s from \"./x.module.css\";\nexport default s;\n",
		"other/x.module.css": ".wide-box { color: rgb(0, 0, 255); }\n",
		"base.module.css":    ".base { color: rgb(200, 0, 0); font-weight: 700; }\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil || string(again.HTML) != string(res.HTML) {
		t.Errorf("a second build gave other bytes (%v)", err)
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/lazy.html", res.HTML, "text/html"), 0)
	if !b.Await(t, `window.load`) {
		t.Fatalf("the page never defined load; console: %q", b.Console())
	}
	got := browsertest.Eval[string](t, b, `window.load()`)
	for _, want := range []string{`"before":"rgb(0, 0, 0)"`, `"keys":["wideBox"]`, `"composed":true`, `"same":false`, `"a":"rgb(0, 128, 0)"`, `"b":"rgb(0, 0, 255)"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the page saw %s, want %s in it", got, want)
		}
	}
}
