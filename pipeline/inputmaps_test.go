package pipeline

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestInputMapsConfined: a build that writes a source map made esbuild read the map a file's
// sourceMappingURL comment names, through no plugin: a map outside the app (../, a file: URL,
// an absolute path, a link out of the app) put its sources' text into the page's map with
// exit 0 where the kernel's fence is not on (library callers, BUNDLE_FENCE=off, kernels
// without Landlock). Each is refused at the comment, whether the file is the app's, a
// package's, a stylesheet, a module script written in the page or the vite.config (whose
// build always writes a map), and the secret is in no
// output; a map inside the app, and a data: URL, build.
func TestInputMapsConfined(t *testing.T) {
	const secret = "TOPSECRET-4711"
	page := `<!doctype html><title>t</title><link rel="stylesheet" href="./style.css"><script type="module" src="./main.js"></script>`
	for _, row := range []struct {
		name  string
		files map[string]string
		link  string // a link app/own.map to the secret map
		at    string // file:line:col of the refusal; "" builds
	}{
		{name: "relative", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=../secret/x.map\n"}, at: "main.js:2:22"},
		{name: "at_sign", files: map[string]string{"main.js": "document.title = 1;\n//@ sourceMappingURL=../secret/x.map\n"}, at: "main.js:2:22"},
		{name: "block_comment", files: map[string]string{"main.js": "document.title = 1;\n/*# sourceMappingURL=../secret/x.map*/\n"}, at: "main.js:2:22"},
		{name: "file_url", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=file://SECRET/x.map\n"}, at: "main.js:2:22"},
		{name: "absolute", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=SECRET/x.map\n"}, at: "main.js:2:22"},
		{name: "escaped", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=..%2Fsecret/x.map\n"}, at: "main.js:2:22"},
		{name: "link_out", link: "own.map", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n"}, at: "main.js:2:22"},
		{name: "typescript", files: map[string]string{"main.js": "import './t.ts';\n", "t.ts": "const n: number = 1;\ndocument.title = String(n);\n//# sourceMappingURL=../secret/x.map\n"}, at: "t.ts:3:22"},
		{name: "package", files: map[string]string{"main.js": "import 'p';\n", "node_modules/p/package.json": `{"name": "p", "main": "index.js"}`,
			"node_modules/p/index.js": "document.title = 1;\n//# sourceMappingURL=../../../secret/x.map\n"}, at: "index.js:2:22"},
		{name: "stylesheet", files: map[string]string{"style.css": "p { color: red }\n/*# sourceMappingURL=../secret/x.map */\n"}, at: "style.css:2:22"},
		{name: "stylesheet_nbsp", files: map[string]string{"style.css": "p { color: red }\n/*# sourceMappingURL=../secret/x.map\u00a0*/\n"}, at: "style.css:2:22"},
		{name: "inline_module", files: map[string]string{"index.html": strings.Replace(page, `<script type="module" src="./main.js"></script>`,
			"<script type=\"module\">document.title = 1;\n//# sourceMappingURL=../secret/x.map\n</script>", 1)}, at: "index.html:2:22"},
		{name: "vite_config", files: map[string]string{"vite.config.js": "export default {};\n//# sourceMappingURL=../secret/x.map\n"}, at: "vite.config.js:2:22"},
		{name: "inside", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n", "own.map": `{"version":3,"sources":["a.js"],"sourcesContent":["x"],"mappings":"AAAA"}`}},
		{name: "data_url", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=data:application/json,{}\n"}},
		// A map the app may read whose sources esbuild reads itself: a source without its text
		// in sourcesContent is read from the disk, through no plugin, into the page's map.
		{name: "map_source_outside", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n",
			"own.map": `{"version":3,"sources":["../secret/x.map"],"mappings":"AAAA"}`}, at: "main.js:2:22"},
		{name: "map_source_root", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=maps/own.map\n",
			"maps/own.map": `{"version":3,"sourceRoot":"../../secret/","sources":["x.map"],"sourcesContent":[null],"mappings":"AAAA"}`}, at: "main.js:2:22"},
		{name: "map_source_absolute", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n",
			"own.map": `{"version":3,"sources":["a.js","SECRET/x.map"],"sourcesContent":["x"],"mappings":"AAAA"}`}, at: "main.js:2:22"},
		{name: "map_source_sections", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n",
			"own.map": `{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sources":["file://SECRET/x.map"],"mappings":"AAAA"}}]}`}, at: "main.js:2:22"},
		{name: "data_url_source", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=data:application/json,{\"version\":3,\"sources\":[\"../secret/x.map\"],\"mappings\":\"AAAA\"}\n"}, at: "main.js:2:22"},
		{name: "data_url_source_inline_module", files: map[string]string{"index.html": strings.Replace(page, `<script type="module" src="./main.js"></script>`,
			"<script type=\"module\">document.title = 1;\n//# sourceMappingURL=data:application/json,{\"version\":3,\"sources\":[\"file://SECRET/x.map\"],\"mappings\":\"AAAA\"}\n</script>", 1)}, at: "index.html:2:22"},
		{name: "data_url_base64_source", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=data:application/json;base64," +
			base64.StdEncoding.EncodeToString([]byte(`{"version":3,"sources":["../secret/x.map"],"mappings":"AAAA"}`)) + "\n"}, at: "main.js:2:22"},
		{name: "map_source_in_package", files: map[string]string{"main.js": "import 'p';\n", "node_modules/p/package.json": `{"name": "p", "main": "index.js"}`,
			"node_modules/p/index.js":     "document.title = 1;\n//# sourceMappingURL=index.js.map\n",
			"node_modules/p/index.js.map": `{"version":3,"sources":["../../../secret/x.map"],"mappings":"AAAA"}`}, at: "index.js:2:22"},
		{name: "stylesheet_map_source", files: map[string]string{"style.css": "p { color: red }\n/*# sourceMappingURL=style.css.map */\n",
			"style.css.map": `{"version":3,"sources":["../secret/x.map"],"mappings":"AAAA"}`}, at: "style.css:2:22"},
		// esbuild's JavaScript lexer ends the URL at its own white space (U+00A0 is, U+0085 is
		// not), and a /* comment's only at white space or its end (U+2028 does not end it).
		{name: "nel_then_nbsp", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=x\u0085/../../secret/x.map\u00a0\n"}, at: "main.js:2:22"},
		{name: "line_separator_in_block", files: map[string]string{"main.js": "document.title = 1;\n/*# sourceMappingURL=x\u2028/../../secret/x.map\u00a0*/\n"}, at: "main.js:2:22"},
		// A folder whose name holds backslashes: esbuild's file URL of it has slashes for them,
		// and "a\..\.." is two folders up.
		{name: "backslash_folder", files: map[string]string{"main.js": "import './a\\\\..\\\\../m.js';\n",
			"a\\..\\../m.js": "document.title = 1;\n//# sourceMappingURL=secret/x.map\n"}, at: "m.js:2:22"},
		// Named only, with its text: esbuild reads nothing, and the name is the author's.
		{name: "map_source_outside_with_text", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n",
			"own.map": `{"version":3,"sources":["../secret/x.map"],"sourcesContent":["document.title = 1;"],"mappings":"AAAA"}`}},
		{name: "map_source_inside", files: map[string]string{"main.js": "document.title = 1;\n//# sourceMappingURL=own.map\n",
			"own.map": `{"version":3,"sources":["main.js"],"mappings":"AAAA"}`}},
	} {
		t.Run(row.name, func(t *testing.T) {
			base := t.TempDir()
			secretDir := filepath.Join(base, "secret")
			os.Mkdir(secretDir, 0o755)
			os.WriteFile(filepath.Join(secretDir, "x.map"), []byte(`{"version":3,"sources":["s.js"],"sourcesContent":["`+secret+`"],"mappings":"AAAA"}`), 0o644)
			dir := filepath.Join(base, "app")
			files := map[string]string{"miniapp.toml": "id = \"im\"\nname = \"IM\"\ndescription = \"Input maps.\"\n",
				"index.html": page, "style.css": "p { color: red }\n", "main.js": "document.title = 1;\n"}
			for name, body := range row.files {
				files[name] = strings.ReplaceAll(body, "SECRET", secretDir)
			}
			writeFiles(t, dir, files)
			if row.link != "" {
				if err := os.Symlink(filepath.Join(secretDir, "x.map"), filepath.Join(dir, row.link)); err != nil {
					t.Fatal(err)
				}
			}
			out := t.TempDir()
			_, err := Build(context.Background(), dir, Options{Sourcemap: true, OutDir: out})
			leaked := func() bool {
				entries, _ := os.ReadDir(out)
				for _, e := range entries {
					if b, _ := os.ReadFile(filepath.Join(out, e.Name())); strings.Contains(string(b), secret) {
						return true
					}
				}
				return false
			}
			if row.at == "" {
				if err != nil {
					t.Fatal(err)
				}
				if leaked() {
					t.Error("the secret is in the output")
				}
				return
			}
			var el *diag.ListError
			if !errors.As(err, &el) {
				t.Fatalf("built (the secret in its output: %v), want refused at %s", leaked(), row.at)
			}
			var places []string
			for _, m := range el.List {
				places = append(places, fmt.Sprintf("%s:%d:%d", filepath.Base(m.File), m.Line, m.Column))
				if strings.Contains(m.Text+m.LineText+m.Note, secret) {
					t.Errorf("a message shows the secret: %+v", m)
				}
			}
			if len(places) != 1 || places[0] != row.at || !strings.Contains(el.List[0].Text, "the source map this comment names") {
				t.Errorf("refused at %v (%v), want %s", places, el, row.at)
			}
		})
	}
}
