package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestSourceMap: --sourcemap writes the map of the page's first module script, whatever was
// bundled before it (hello's stylesheet) or inside it (workers, bundled on their own), with
// no absolute path in it; where the script was minified in a second pass (CSS Modules) the
// map still leads to the sources; every later module script, which has no map, is warned of
// at its place. Its sources are named from where it is written: want are the app's files they
// must lead to, from an output folder outside the app and from the app's dist/.
func TestSourceMap(t *testing.T) {
	for _, r := range []struct {
		dir       string
		want, not []string
		unmapped  []int // the lines of the module scripts the map is not of, each warned of
	}{
		{sampleDir(t, "hello"), []string{"main.js"}, []string{"style.css"}, nil},
		{filepath.Join("testdata", "features", "workers"), []string{"src/main.ts"}, nil, nil},
		{filepath.Join("testdata", "features", "cssmodules"), []string{"main.ts"}, []string{"main.js", "out.js"}, nil},
		// The page's module scripts are one graph (graph.go): the map is of all three.
		{filepath.Join("testdata", "features", "entries"), []string{"src/a.js", "index.html", "src/b.js", "src/shared.js"}, nil, nil},
	} {
		t.Run(filepath.Base(r.dir), func(t *testing.T) {
			dir := copyApp(t, r.dir)
			var res *Result
			var text []byte
			for _, out := range []string{t.TempDir(), filepath.Join(dir, "dist")} {
				var err error
				if res, err = Build(context.Background(), dir, Options{OutDir: out, Sourcemap: true}); err != nil {
					t.Fatal(err)
				}
				if text, err = os.ReadFile(filepath.Join(out, res.Manifest.ID+".js.map")); err != nil {
					t.Fatal(err)
				}
				var m struct {
					Version  int      `json:"version"`
					Sources  []string `json:"sources"`
					Mappings string   `json:"mappings"`
				}
				if err := json.Unmarshal(text, &m); err != nil || m.Version != 3 || m.Mappings == "" {
					t.Fatalf("not a source map (%v): %.200s", err, text)
				}
				var led []string // the files the sources lead to, from the map's folder
				for _, s := range m.Sources {
					led = append(led, filepath.Join(out, filepath.FromSlash(s)))
				}
				for _, s := range r.want {
					if !slices.Contains(led, filepath.Join(dir, s)) {
						t.Errorf("sources %q, written in %s, do not lead to %s", m.Sources, out, s)
					}
				}
				for _, s := range r.not {
					if slices.ContainsFunc(m.Sources, func(x string) bool { return strings.HasSuffix(x, s) }) {
						t.Errorf("sources %q hold %q: the map is not the page script's", m.Sources, s)
					}
				}
				if abs, _ := filepath.Abs(dir); strings.Contains(string(text), abs) || strings.Contains(string(text), filepath.Dir(abs)) {
					t.Errorf("the map holds an absolute path: %q", m.Sources)
				}
			}
			out := filepath.Join(dir, "dist")
			var unmapped []int
			for _, w := range res.Warnings {
				if strings.Contains(w.Text, "--sourcemap") {
					unmapped = append(unmapped, w.Line)
				}
			}
			if !slices.Equal(unmapped, r.unmapped) {
				t.Errorf("warned of unmapped module scripts on lines %v, want %v", unmapped, r.unmapped)
			}
			// A build without --sourcemap removes the map an earlier build wrote.
			if _, err := Build(context.Background(), dir, Options{OutDir: out}); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(out, res.Manifest.ID+".js.map")); !os.IsNotExist(err) {
				t.Errorf("the map of an earlier build is left: %v", err)
			}
		})
	}
}

// TestSourceMapWithoutModuleScript: a page of classic scripts has no map to write, and
// --sourcemap says so rather than writing nothing silently.
func TestSourceMapWithoutModuleScript(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"c\"\nname = \"C\"\ndescription = \"Classic.\"\nentry = \"index.html\"\n")
	writeFile(t, filepath.Join(dir, "index.html"), `<!doctype html><meta charset="utf-8"><p id="p"></p><script src="./app.js"></script>`)
	writeFile(t, filepath.Join(dir, "app.js"), "document.getElementById('p').textContent = 'classic';\n")
	out := t.TempDir()
	res, err := Build(context.Background(), dir, Options{OutDir: out, Sourcemap: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "c.js.map")); !os.IsNotExist(err) {
		t.Errorf("a map was written for a page without a module script: %v", err)
	}
	if !slices.ContainsFunc(res.Warnings, func(w diag.Message) bool {
		return strings.Contains(w.Text, "--sourcemap: no c.js.map") && strings.HasSuffix(w.File, "index.html")
	}) {
		t.Errorf("no warning that the map is not written: %v", res.Warnings)
	}
}
