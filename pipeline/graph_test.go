package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestModuleGraph: a page's module scripts are bundled as one graph (a module that several
// import is in the page once, and evaluated once: TestBuildKeepsWhatThePageDoes/modules shows
// it in Chromium), each later script's element kept, its text the one line that runs its
// member (TestBuildKeepsWhatThePageDoes/microtask: as its own script); a diagnostic in the code of a
// later inline module script is placed at its line in the page; a page of 50 module scripts
// builds, each of its modules once.
func TestModuleGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	var page strings.Builder
	page.WriteString("<!doctype html><title>M</title>\n")
	files := map[string]string{
		"miniapp.toml": "id = \"m\"\nname = \"M\"\ndescription = \"Module scripts.\"\nentry = \"index.html\"\n",
		"store.js":     "window.evals = (window.evals ?? 0) + 1;\nexport const marker = 'STORE-MARKER';\n",
	}
	for i := range 50 {
		name := fmt.Sprintf("m%d.js", i)
		files[name] = fmt.Sprintf("import { marker } from './store.js';\nconsole.log(marker, %d);\n", i)
		if i%2 == 0 {
			fmt.Fprintf(&page, "<script type=\"module\" src=\"./%s\" data-i=\"%d\"></script>\n", name, i)
		} else {
			fmt.Fprintf(&page, "<script type=\"module\">import './%s';</script>\n", name)
		}
	}
	page.WriteString("<script type=\"module\">\nlet x = 1;\nx == -0;\n</script>\n")
	files["index.html"] = page.String()
	writeFiles(t, dir, files)
	for _, min := range []int{2, 1 << 30} { // prebuilt with the page's other entries, and alone
		t.Run(fmt.Sprint("prebuildMin=", min), func(t *testing.T) {
			defer func(n int) { prebuildMin = n }(prebuildMin)
			prebuildMin = min
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			html := string(res.HTML)
			if n := strings.Count(html, "STORE-MARKER"); n != 1 {
				t.Errorf("store.js is in the page %d times, want once", n)
			}
			if n := strings.Count(html, `<script type="module" data-i="2">await globalThis[Symbol.for("miniapp.graph")]();`+"\n</script>"); n != 1 {
				t.Errorf("the third module script's element is not kept, running its member of the graph:\n%s", html)
			}
			found := false
			for _, w := range res.Warnings {
				if strings.Contains(w.Text, "-0") {
					found = true
					if w.Line != 54 || w.Column != 6 || filepath.Base(w.File) != "index.html" {
						t.Errorf("the warning in the last module script is at %s:%d:%d, want index.html:54:6", w.File, w.Line, w.Column)
					}
				}
			}
			if !found {
				t.Errorf("no warning of the comparison with -0: %v", res.Warnings)
			}
		})
	}
}

// BenchmarkOneGraph builds, in one run, the order-book sample (one module script) and a page
// of 50 module scripts sharing a module, with the page's module scripts bundled as one graph
// and, for the baseline, each bundled alone (as builds did before); bytes are the page's.
func BenchmarkOneGraph(b *testing.B) {
	many := filepath.Join(b.TempDir(), "app")
	files := map[string]string{
		"miniapp.toml": "id = \"m\"\nname = \"M\"\ndescription = \"Module scripts.\"\nentry = \"index.html\"\n",
		"store.js":     "export const log = [];\n",
	}
	page := "<!doctype html><title>M</title>\n"
	for i := range 50 {
		files[fmt.Sprintf("m%d.js", i)] = fmt.Sprintf("import { log } from './store.js';\nlog.push(%d);\n", i)
		page += fmt.Sprintf("<script type=\"module\" src=\"./m%d.js\"></script>\n", i)
	}
	files["index.html"] = page
	writeFiles(b, many, files)
	defer func(v bool) { oneGraph = v }(oneGraph)
	for _, app := range []struct{ name, dir string }{{"order-book", sampleDir(b, "order-book")}, {"50-modules", many}} {
		for _, mode := range []struct {
			name  string
			graph bool
		}{{"alone", false}, {"graph", true}} {
			b.Run(app.name+"/"+mode.name, func(b *testing.B) {
				oneGraph = mode.graph
				benchBuild(b, app.dir)
			})
		}
	}
}

// TestDeferredClassicOnly: a page whose only scripts are classic ones with defer runs them
// after parsing, in order, as globals, from a module script the build adds just before each
// (the first holds the graph; each script's element stays, emptied, and runs the code as its
// own: document.currentScript is it), in Chromium; an async one still runs.
func TestDeferredClassicOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFiles(t, dir, map[string]string{
		"miniapp.toml": "id = \"d\"\nname = \"D\"\ndescription = \"Deferred scripts.\"\nentry = \"index.html\"\n",
		"index.html": `<!doctype html><title>D</title><script defer src="./a.js" id="a"></script><script async src="./c.js"></script>` +
			`<script defer src="./b.js"></script><p id="end">end</p>`,
		"a.js": "var fromA = 1;\nwindow.order = ['a ' + document.readyState + ' ' + !!document.getElementById('end')];\nwindow.current = document.currentScript.id;\n",
		"b.js": "window.order.push('b ' + document.readyState + ' ' + typeof fromA);\n",
		"c.js": "window.asyncRan = true;\n",
	})
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.HTML), `<script defer id="a" type="miniapp-deferred-0"></script>`) {
		t.Errorf("the first deferred script's element is not kept, emptied, waiting for the graph")
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/d.html", res.HTML), 0)
	if !b.Await(t, `window.order?.length === 2 && window.asyncRan`) {
		t.Fatalf("the scripts did not run: %v %q", browsertest.Eval[any](t, b, `window.order ?? null`), b.Console())
	}
	if got := browsertest.Eval[string](t, b, `window.order.join(", ")`); got != "a interactive true, b interactive number" {
		t.Errorf("order: %s", got)
	}
	if got := browsertest.Eval[string](t, b, `window.current + " " + document.getElementById("a").outerHTML`); got != `a <script defer="" id="a"></script>` {
		t.Errorf("document.currentScript and the element after: %s", got)
	}
}
