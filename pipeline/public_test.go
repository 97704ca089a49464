package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestCSSAbsoluteURLs: a stylesheet's url(/x) and @import "/x" resolve as Vite resolves them,
// to the public folder's file if there is one, else to the app folder's, and are inlined; one
// that names neither is refused once, at its place (it was refused for a file the public
// folder held, and said twice for a stylesheet both linked and imported).
func TestCSSAbsoluteURLs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	svg := func(fill string) string {
		return `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect width="2" height="2" fill="` + fill + `"/></svg>`
	}
	writeFiles(t, dir, map[string]string{
		"miniapp.toml":         "id = \"css\"\nname = \"CSS\"\ndescription = \"Absolute URLs in CSS.\"\nentry = \"index.html\"\n",
		"public/logo.svg":      svg("teal"),
		"src/assets/dot.svg":   svg("olive"),
		"src/more.css":         ".more { background: url(/src/assets/dot.svg) }\n",
		"src/style.css":        "@import \"/src/more.css\";\nbody { background: url(/logo.svg) }\n",
		"src/main.js":          "import './style.css';\nconsole.log(1);\n",
		"index.html":           `<!doctype html><title>C</title><link rel="stylesheet" href="/src/style.css"><script type="module" src="/src/main.js"></script>`,
		"../outside/logo2.svg": svg("red"),
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	html := string(res.HTML)
	for _, fill := range []string{"teal", "olive"} {
		if !strings.Contains(html, "fill=%22"+fill) && !strings.Contains(html, `fill='`+fill) && !strings.Contains(html, `fill="`+fill) {
			t.Errorf("the %s image is not inlined", fill)
		}
	}
	if strings.Contains(html, "url(/") {
		t.Errorf("an absolute url() is left: %.300s", html[strings.Index(html, "url(/"):])
	}

	writeFile(t, filepath.Join(dir, "src", "style.css"), "body { background: url(/logo2.svg) }\n")
	if errs := refusedErrors(t, dir); len(errs) != 1 || errs[0].Line != 1 || errs[0].Column != 20 || !strings.Contains(errs[0].Text, `"/logo2.svg"`) || !strings.HasSuffix(errs[0].File, "src/style.css") {
		t.Errorf("want one error at src/style.css:1:20, got %v", errs)
	}
}
