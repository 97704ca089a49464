package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPostCSSOnInlineStyle: a <style> in the page goes through the app's PostCSS config, as
// its stylesheet files do and as Vite runs it (a plugin of the config's own rewrites a colour
// in both).
func TestPostCSSOnInlineStyle(t *testing.T) {
	dir := filepath.Join("testdata", "apps", "tmp-inline-style") // under the workspace whose node_modules hold postcss
	os.RemoveAll(dir)
	t.Cleanup(func() { os.RemoveAll(dir) })
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":       "id = \"s\"\nname = \"S\"\ndescription = \"PostCSS on a style element.\"\nentry = \"index.html\"\n",
		"postcss.config.mjs": "export default { plugins: [{ postcssPlugin: \"recolour\", Declaration: { color: (d) => { if (d.value === \"red\") d.value = \"rgb(9, 8, 7)\"; } } }] };\n",
		"index.html":         `<!doctype html><title>S</title><link rel="stylesheet" href="./a.css"><style>.in-page { color: red }</style><p class="in-page">p</p>`,
		"a.css":              ".in-file { color: red }\n",
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	page := string(res.HTML)
	for _, sel := range []string{".in-file", ".in-page"} {
		i := strings.Index(page, sel+"{")
		if i < 0 || !strings.HasPrefix(page[i+len(sel)+1:], "color:") || strings.Contains(page[i:i+40], "red") {
			t.Errorf("%s did not go through PostCSS: %.60s", sel, page[max(i, 0):])
		}
	}
}
