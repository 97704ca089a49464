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
// imports, a CSS Module, a scoped CSS Module and its rules, a CSS Module's localsConvention
// module, the picked names of a dynamic import) were named by their absolute path: the same
// app built in another folder gave other bytes.
func TestNoAppPathInBundle(t *testing.T) {
	for _, r := range []struct {
		name  string
		files map[string]string
		want  string // in the page
	}{
		{"stylesheets and CSS Modules", map[string]string{
			"miniapp.toml": "id = \"p\"\nname = \"P\"\ndescription = \"Paths.\"\nentry = \"index.html\"\n",
			"index.html": `<!doctype html><title>P</title><script type="module" src="./a.js"></script>` +
				`<script type="module">import s from "./b.module.css"; import "./a.css"; document.title = s.box;</script>` +
				`<script type="module">const { v } = await import("./lazy.js"); window.v = v;</script>`,
			"a.js":         "import './a.css';\nimport s from './b.module.css';\nwindow.a = s.box;\n",
			"a.css":        ".a { color: red }\n",
			"b.module.css": ".box { padding: 1px }\n",
			"lazy.js":      "import './lazy.css';\nimport s from './b.module.css';\nexport const v = s.box;\nexport const w = 2;\n",
			"lazy.css":     ".lazy { color: blue }\n",
		}, ""},
		{"scoped CSS Modules and a convention", map[string]string{
			"miniapp.toml":     "id = \"p\"\nname = \"P\"\ndescription = \"d\"\n",
			"vite.config.js":   "export default { css: { modules: { localsConvention: 'camelCase', generateScopedName: 'pg_[local]' } } }\n",
			"index.html":       `<!doctype html><meta charset="utf-8"><p id="m">m</p><script type="module" src="./main.js"></script>`,
			"main.js":          "import('./later.js').then(({ cls }) => { document.getElementById('m').className = cls })\n",
			"later.js":         "import s from './m.module.css'\nimport './plain.css'\nexport const cls = s.fooBar\nexport const unused = 1\n",
			"m.module.css":     ".foo-bar { color: rgb(1, 2, 3) }\n",
			"plain.css":        "p { margin: 0 }\n",
			"other.module.css": ".x { color: red }\n",
		}, ".pg_foo-bar{"},
	} {
		t.Run(r.name, func(t *testing.T) {
			var pages [2]string
			for i := range pages {
				dir := filepath.Join(t.TempDir(), "app")
				writeFiles(t, dir, r.files)
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
			if !strings.Contains(pages[0], r.want) {
				t.Errorf("the page lacks %q:\n%s", r.want, pages[0])
			}
		})
	}
}
