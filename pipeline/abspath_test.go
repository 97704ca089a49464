package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoAppPathInBundle: a bundle holds no path of the machine that built it. esbuild names
// each module it wraps for lazy evaluation (a module of the page's graph, one that import()
// reaches) by its namespace and path; the plugins' own modules (a stylesheet a script
// imports, a CSS Module, the picked names of a dynamic import) were named by their absolute
// path: the same app built in another folder gave other bytes.
func TestNoAppPathInBundle(t *testing.T) {
	files := map[string]string{
		"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"Paths.\"\nentry = \"index.html\"\n",
		"index.html": `<!doctype html><title>P</title><script type="module" src="./a.js"></script>` +
			`<script type="module">import s from "./b.module.css"; import "./a.css"; document.title = s.box;</script>` +
			`<script type="module">const { v } = await import("./lazy.js"); window.v = v;</script>`,
		"a.js":         "import './a.css';\nimport s from './b.module.css';\nwindow.a = s.box;\n",
		"a.css":        ".a { color: red }\n",
		"b.module.css": ".box { padding: 1px }\n",
		"lazy.js":      "import './lazy.css';\nimport s from './b.module.css';\nexport const v = s.box;\nexport const w = 2;\n",
		"lazy.css":     ".lazy { color: blue }\n",
	}
	var pages [2]string
	for i := range pages {
		dir := filepath.Join(t.TempDir(), "app")
		writeFiles(t, dir, files)
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		pages[i] = string(res.HTML)
		if at := strings.Index(pages[i], filepath.ToSlash(dir)); at >= 0 {
			t.Fatalf("the bundle holds the app's folder %s: …%s…", dir, pages[i][max(0, at-80):min(len(pages[i]), at+len(dir)+40)])
		}
	}
	if pages[0] != pages[1] {
		t.Errorf("the same app built in two folders gave two pages")
	}
}
