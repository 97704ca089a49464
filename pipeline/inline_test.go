package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInlineCode: code written in the page (a <style>, an inline module script) is named by
// the page, at its place in the page, in every diagnostic (a note's place too), in the source
// map and in the inputs, for a page at the top of the app folder or in a folder of it (whose
// inline code was once named by the folder twice, pages/pages/x.html, at its place in the
// code); and bundling it with the page's other entries in one esbuild build (prebuild) gives
// the same page, map, warnings and inputs as bundling each alone.
func TestInlineCode(t *testing.T) {
	const page = `<!doctype html><html><head><title>I</title>
<style>
.x { colr: red }
</style>
<link rel="stylesheet" href="./a.css">
</head><body><p id="out"></p>
<script type="module">
import { v } from './lib.js';
const o = { a: 1, a: v };
document.getElementById('out').textContent = o.a;
</script>
<script type="module" src="./main.js"></script>
</body></html>`
	for _, entry := range []string{"index.html", "pages/x.html"} {
		t.Run(entry, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			pageDir := filepath.Dir(filepath.Join(dir, filepath.FromSlash(entry)))
			writeFile(t, filepath.Join(dir, "miniapp.toml"), fmt.Sprintf("id = \"i\"\nname = \"I\"\ndescription = \"Inline code.\"\nentry = %q\n", entry))
			writeFile(t, filepath.Join(dir, filepath.FromSlash(entry)), page)
			writeFile(t, filepath.Join(pageDir, "lib.js"), "export const v = 2;\n")
			writeFile(t, filepath.Join(pageDir, "main.js"), "import { v } from './lib.js';\nconsole.log(v);\n")
			writeFile(t, filepath.Join(pageDir, "a.css"), ".a{color:red}\n")

			type build struct {
				html, sourceMap, out string
				warnings, inputs     []string
			}
			run := func(min int) build {
				defer func(n int) { prebuildMin = n }(prebuildMin)
				prebuildMin = min
				out := t.TempDir()
				res, err := Build(context.Background(), dir, Options{OutDir: out, Sourcemap: true})
				if err != nil {
					t.Fatal(err)
				}
				m, err := os.ReadFile(filepath.Join(out, "i.js.map"))
				if err != nil {
					t.Fatal(err)
				}
				b := build{html: string(res.HTML), sourceMap: string(m), out: out}
				for _, w := range res.Warnings {
					if w.Path == "" {
						b.warnings = append(b.warnings, fmt.Sprintf("%s:%d:%d %s (%s)", w.File, w.Line, w.Column, w.Text, w.Note))
					}
				}
				for _, in := range res.Inputs {
					b.inputs = append(b.inputs, in.Path)
				}
				return b
			}
			together, alone := run(2), run(1<<30)

			file := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(entry)))
			want := []string{
				fmt.Sprintf("%s:3:6 \"colr\" is not a known CSS property (did you mean \"color\"?)", file),
				fmt.Sprintf("%s:9:19 Duplicate key \"a\" in object literal (The original key \"a\" is here (%s:9:13))", file, file),
			}
			if !slices.Equal(together.warnings, want) {
				t.Errorf("warnings\n%q\nwant\n%q", together.warnings, want)
			}
			var m struct {
				Sources []string `json:"sources"`
			}
			if err := json.Unmarshal([]byte(together.sourceMap), &m); err != nil {
				t.Fatal(err)
			}
			// Named from the folder the map is written in.
			page, _ := filepath.Rel(together.out, filepath.Join(dir, filepath.FromSlash(entry)))
			if !slices.Contains(m.Sources, filepath.ToSlash(page)) || slices.ContainsFunc(m.Sources, func(s string) bool { return strings.Contains(s, inlineNamespace) }) {
				t.Errorf("the map's sources %q do not name the page's module script %s", m.Sources, page)
			}
			if !slices.Contains(together.inputs, entry) || slices.ContainsFunc(together.inputs, func(s string) bool {
				return strings.Contains(s, inlineNamespace) || path.Base(s) == path.Base(path.Dir(s))
			}) {
				t.Errorf("the inputs %q do not name the page %s", together.inputs, entry)
			}
			if together.html != alone.html || together.sourceMap != alone.sourceMap || !slices.Equal(together.warnings, alone.warnings) || !slices.Equal(together.inputs, alone.inputs) {
				t.Errorf("bundled together and alone differ:\n%+v\n%+v", together, alone)
			}
		})
	}
}

// TestSessionInlineCode: in a Session (bundle dev), an edit of the code written in the page
// is taken (esbuild's contexts load it again from the page each build), and the session's
// build makes the bytes a fresh one makes.
func TestSessionInlineCode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"s\"\nname = \"S\"\ndescription = \"Inline code.\"\nentry = \"index.html\"\n")
	writeFile(t, filepath.Join(dir, "main.js"), "console.log('main');\n")
	page := func(word, colour string) string {
		return `<!doctype html><title>S</title><style>p { color: ` + colour + ` }</style><p id="p"></p>` +
			`<script type="module">document.getElementById("p").textContent = "` + word + `";</script><script type="module" src="./main.js"></script>`
	}
	session := NewSession()
	defer session.Close()
	for _, edit := range [][2]string{{"first", "red"}, {"second", "red"}, {"second", "#123456"}} {
		writeFile(t, filepath.Join(dir, "index.html"), page(edit[0], edit[1]))
		kept, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(kept.HTML), `"`+edit[0]+`"`) || !strings.Contains(string(kept.HTML), "color:"+edit[1]) {
			t.Errorf("the session's build of %q, %s lacks them", edit[0], edit[1])
		}
		if string(kept.HTML) != string(fresh.HTML) {
			t.Errorf("after %v, the session's build differs from a fresh one", edit)
		}
	}
}

// TestInlineCodeErrors: an error in the code written in a page in a folder of the app is at
// its place in the page, and an import that does not resolve is looked for beside the page
// (it was once looked for in pages/pages, "there is no folder"), together with other entries
// or alone.
func TestInlineCodeErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"e\"\nname = \"E\"\ndescription = \"Errors.\"\nentry = \"pages/x.html\"\n")
	writeFile(t, filepath.Join(dir, "pages", "x.html"), "<!doctype html><title>E</title>\n<style>@import \"./missing.css\";</style>\n"+
		"<script type=\"module\">\nimport { nope } from \"./nope.js\";\nnope();\n</script>\n<script type=\"module\" src=\"./main.js\"></script>\n")
	writeFile(t, filepath.Join(dir, "pages", "main.js"), "console.log(1);\n")
	page, folder := filepath.ToSlash(filepath.Join(dir, "pages", "x.html")), filepath.ToSlash(filepath.Join(dir, "pages"))
	for _, min := range []int{2, 1 << 30} {
		func() {
			defer func(n int) { prebuildMin = n }(prebuildMin)
			prebuildMin = min
			var got []string
			for _, m := range refusedErrors(t, dir) {
				got = append(got, fmt.Sprintf("%s:%d:%d %s", m.File, m.Line, m.Column, m.Text))
			}
			want := []string{
				fmt.Sprintf("%s:2:16 Could not resolve \"./missing.css\": no such file in %s", page, folder),
				fmt.Sprintf("%s:4:22 Could not resolve \"./nope.js\": no such file in %s", page, folder),
			}
			if !slices.Equal(got, want) {
				t.Errorf("prebuildMin %d: errors\n%q\nwant\n%q", min, got, want)
			}
		}()
	}
}

// TestInlineCodeResolves: code written in the page resolves its imports as the page's files
// do, in the one build of all entries too: a file of the public folder by its absolute path
// (from a script and from a <style>), and a URL, which is refused at its place. So prebuild
// bundles such a page in one build, and gives what building each entry alone gives.
func TestInlineCodeResolves(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"r\"\nname = \"R\"\ndescription = \"Resolves.\"\nentry = \"index.html\"\n")
	writeFile(t, filepath.Join(dir, "public", "logo.svg"), `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>`)
	writeFile(t, filepath.Join(dir, "main.js"), "console.log('main');\n")
	page := func(extra string) string {
		return "<!doctype html><title>R</title><style>body { background: url(/logo.svg) }</style>\n" +
			"<script type=\"module\">\nimport logo from \"/logo.svg\";\n" + extra + "console.log(logo);\n</script>\n<script type=\"module\" src=\"./main.js\"></script>\n"
	}
	for _, c := range []struct {
		name, extra string
		refused     bool
	}{{"public", "", false}, {"url", "import x from \"https://cdn.example/x.js\";\nconsole.log(x);\n", true}} {
		t.Run(c.name, func(t *testing.T) {
			writeFile(t, filepath.Join(dir, "index.html"), page(c.extra))
			if !c.refused {
				a := appAssembler(t, dir)
				a.prebuild()
				if len(a.prebuilt) != 2 { // the <style>, and the module scripts as one graph
					t.Errorf("prebuild bundled %d entries of 2", len(a.prebuilt))
				}
			}
			build := func(min int) (string, error) {
				defer func(n int) { prebuildMin = n }(prebuildMin)
				prebuildMin = min
				res, err := Build(context.Background(), dir, Options{NoWrite: true})
				if err != nil {
					return "", err
				}
				return string(res.HTML), nil
			}
			together, errTogether := build(2)
			alone, errAlone := build(1 << 30)
			if (errTogether != nil) != c.refused || fmt.Sprint(errTogether) != fmt.Sprint(errAlone) || together != alone {
				t.Errorf("together: %v\nalone: %v\n(pages equal: %v)", errTogether, errAlone, together == alone)
			}
			if c.refused && !strings.Contains(errTogether.Error(), "index.html:4:15: error: the import of \"https://cdn.example/x.js\" loads from outside the bundle") {
				t.Errorf("the URL is not refused at its place: %v", errTogether)
			}
		})
	}
}

// TestInlineCodeTransforms: an inline module script gets what the app's script files get, as
// in Vite, whose inline scripts go through its plugins: new URL('./x', import.meta.url) and
// import.meta.glob work, fetch of a local file is warned of, and eval refused, each at its
// place in the page, together with the page's other entries and alone.
func TestInlineCodeTransforms(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"t\"\nname = \"T\"\ndescription = \"Transforms.\"\nentry = \"pages/index.html\"\n")
	writeFile(t, filepath.Join(dir, "pages", "img", "dot.svg"), `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>`)
	writeFile(t, filepath.Join(dir, "pages", "parts", "a.js"), "export const name = 'a';\n")
	writeFile(t, filepath.Join(dir, "pages", "main.js"), "console.log('main');\n")
	page := func(extra string) string {
		return "<!doctype html><title>T</title><style>p { margin: 0 }</style>\n<script type=\"module\">\n" +
			"const dot = new URL('./img/dot.svg', import.meta.url).href;\n" +
			"const parts = import.meta.glob('./parts/*.js', { eager: true });\n" +
			"const rows = await fetch('./rows.json');\n" + extra +
			"document.title = dot.slice(0, 10) + Object.keys(parts).join() + rows.status;\n</script>\n<script type=\"module\" src=\"./main.js\"></script>\n"
	}
	file := filepath.ToSlash(filepath.Join(dir, "pages", "index.html"))
	for _, min := range []int{2, 1 << 30} {
		func() {
			defer func(n int) { prebuildMin = n }(prebuildMin)
			prebuildMin = min
			writeFile(t, filepath.Join(dir, "pages", "index.html"), page(""))
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatalf("prebuildMin %d: %v", min, err)
			}
			html := string(res.HTML)
			if !strings.Contains(html, "data:image/svg+xml") || !strings.Contains(html, "./parts/a.js") || strings.Contains(html, "import.meta") {
				t.Errorf("prebuildMin %d: new URL or import.meta.glob left as written: %.400s", min, html[strings.Index(html, "<script type=\"module\">"):])
			}
			var fetches []string
			for _, w := range res.Warnings {
				if strings.HasPrefix(w.Text, "fetch(") {
					fetches = append(fetches, fmt.Sprintf("%s:%d:%d", w.File, w.Line, w.Column))
				}
			}
			if want := fmt.Sprintf("%s:5:27", file); len(fetches) != 1 || fetches[0] != want {
				t.Errorf("prebuildMin %d: fetch warnings %q, want one at %s", min, fetches, want)
			}
			writeFile(t, filepath.Join(dir, "pages", "index.html"), page("eval('1');\n"))
			_, err = Build(context.Background(), dir, Options{NoWrite: true})
			if err == nil || !strings.Contains(err.Error(), file+":6:1: error: eval and new Function cannot run under the bundle's policy") {
				t.Errorf("prebuildMin %d: eval not refused at its place: %v", min, err)
			}
		}()
	}
}
