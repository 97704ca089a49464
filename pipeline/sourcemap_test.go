package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"
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

// TestSourceMapSourcesResolve: every source the map names, resolved against the folder the
// map is written in as the source map format resolves it (a URL relative to the map's URL:
// lexically, ".." taking off the name before it, as DevTools and editors do), is the
// author's file: an output
// folder outside the app, inside it, deep inside it, one that is a link to a folder
// elsewhere, an app folder reached through a link, and sources whose names hold spaces,
// non-ASCII letters, "%" and "&".
func TestSourceMapSourcesResolve(t *testing.T) {
	files := map[string]string{
		"miniapp.toml":               "id = \"m\"\nname = \"M\"\ndescription = \"Mapped.\"\n",
		"index.html":                 `<!doctype html><meta charset="utf-8"><title>m</title><script type="module" src="./src/main.ts"></script>`,
		"src/main.ts":                "import { a } from './ünï cøde/naïve file.ts';\nimport { b } from './odd/100% & a.ts';\nimport './style.css';\ndocument.title = a() + b();\n",
		"src/ünï cøde/naïve file.ts": "export function a(): string { return document.body.dataset.a ?? 'a'; }\n",
		"src/odd/100% & a.ts":        "export function b(): string { return document.body.dataset.b ?? 'b'; }\n",
		"src/style.css":              ".x { color: red }\n",
	}
	sources := []string{"src/main.ts", "src/ünï cøde/naïve file.ts", "src/odd/100% & a.ts"}
	for _, row := range []struct {
		name string
		// out returns the output folder, given the app folder and a folder beside it.
		out     func(t *testing.T, app, beside string) string
		appLink bool   // build the app through a link to its folder
		appName string // the app folder's name, "app" when empty
		odd     bool   // sources named with a backslash and a colon too
	}{
		{"out_outside", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, false, "", false},
		{"out_dist", func(t *testing.T, app, beside string) string { return filepath.Join(app, "dist") }, false, "", false},
		{"out_deep_inside", func(t *testing.T, app, beside string) string { return filepath.Join(app, "build", "a", "b") }, false, "", false},
		{"out_is_link_elsewhere", func(t *testing.T, app, beside string) string {
			real := filepath.Join(beside, "deep", "er", "real")
			os.MkdirAll(real, 0o755)
			link := filepath.Join(beside, "out")
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			return link
		}, false, "", false},
		{"out_is_link_into_app", func(t *testing.T, app, beside string) string {
			real := filepath.Join(app, "dist")
			os.MkdirAll(real, 0o755)
			link := filepath.Join(beside, "x", "out")
			os.MkdirAll(filepath.Dir(link), 0o755)
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			return link
		}, false, "", false},
		{"app_through_link", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, true, "", false},
		// Folder names between the map and the sources are written into the sources too.
		{"app_folder_hash", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, false, "proj #1", false},
		{"app_folder_query", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, false, "what?", false},
		{"app_folder_percent", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, false, "50%41 done", false},
		{"app_folder_unicode", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, false, "ünï app", false},
		{"out_folder_odd", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "o #?%41", "out") }, false, "", false},
		{"dist_odd_sources", func(t *testing.T, app, beside string) string { return filepath.Join(app, "dist") }, false, "", true},
		{"out_odd_sources", func(t *testing.T, app, beside string) string { return filepath.Join(beside, "out") }, false, "", true},
	} {
		t.Run(row.name, func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			name := cmp.Or(row.appName, "app")
			app := filepath.Join(base, "work", name)
			writeFiles(t, app, files)
			sources := sources
			if row.odd {
				// A backslash and a colon are letters of a file name here (not on Windows).
				writeFiles(t, app, map[string]string{"src/main.ts": files["src/main.ts"] + "import { c } from './back\\\\slash.ts';\nimport { d } from './c:colon.ts';\ndocument.title += c() + d();\n",
					"src/back\\slash.ts": "export function c(): string { return document.body.dataset.c ?? 'c'; }\n",
					"src/c:colon.ts":     "export function d(): string { return document.body.dataset.d ?? 'd'; }\n"})
				sources = append(slices.Clip(sources), "src/back\\slash.ts", "src/c:colon.ts")
			}
			beside := filepath.Join(base, "elsewhere")
			os.MkdirAll(beside, 0o755)
			out := row.out(t, app, beside)
			dir := app
			if row.appLink {
				dir = filepath.Join(base, "links", name)
				os.MkdirAll(filepath.Dir(dir), 0o755)
				if err := os.Symlink(app, dir); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Build(context.Background(), dir, Options{OutDir: out, Sourcemap: true}); err != nil {
				t.Fatal(err)
			}
			text, err := os.ReadFile(filepath.Join(out, "m.js.map"))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Sources []string `json:"sources"`
			}
			if err := json.Unmarshal(text, &m); err != nil {
				t.Fatal(err)
			}
			for _, want := range sources {
				wantInfo, err := os.Stat(filepath.Join(app, filepath.FromSlash(want)))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(m.Sources, func(s string) bool {
					st, err := os.Stat(sourcePath(out, s))
					return err == nil && os.SameFile(st, wantInfo)
				}) {
					t.Errorf("no source leads to %s: sources %q, written in %s", want, m.Sources, out)
				}
			}
			if strings.Contains(string(text), base) {
				t.Errorf("the map holds an absolute path: %q", m.Sources)
			}
		})
	}
}

// sourcePath is the file a map written in the folder out names by its source s, as a browser
// reads it: a URL reference resolved against the map's file: URL (a backslash is a slash in
// a file: URL, as the URL standard parses one), its path percent-decoded.
func sourcePath(out, s string) string {
	base := &url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/x.js.map"}
	ref, err := url.Parse(strings.ReplaceAll(s, `\`, "/"))
	if err != nil {
		return ""
	}
	return filepath.FromSlash(base.ResolveReference(ref).Path)
}
