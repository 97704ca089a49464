package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestPreprocessorPlaces builds apps whose vite.config gives Sass, Less and Stylus an
// additionalData (which Vite writes before each stylesheet of the language): an error in the
// stylesheet is still said at its own line and column, one in the additionalData says so, and
// a function among the options is an error at the config naming it. The apps are made in the
// playground's npm workspace, whose node_modules has the compilers.
func TestPreprocessorPlaces(t *testing.T) {
	page := `<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>`
	for _, c := range []struct {
		name, config, file, text string
		want                     []string
	}{
		{"sass_error_below_two_lines", "export default { css: { preprocessorOptions: { scss: { additionalData: '$a: 1;\\n$b: 2;\\n' } } } }",
			"a.scss", ".ok { width: $a; }\n\n.x { color: $nope; }\n", []string{"a.scss:3:13: error: Sass: Undefined variable.", ".x { color: $nope; }"}},
		{"less_error_on_the_shared_line", "export default { css: { preprocessorOptions: { less: { additionalData: '@a: 1px;' } } } }",
			"a.less", ".x { color: @nope; }\n", []string{"a.less:1:13: error: Less: variable @nope is undefined", ".x { color: @nope; }"}},
		{"stylus_error_below", "export default { css: { preprocessorOptions: { styl: { additionalData: '$a = 1px' } } } }",
			"a.styl", ".x\n  width unit($a, 'px')\n  color red(\n", []string{"a.styl:4:1: error: Stylus: expected \")\", got \"outdent\""}},
		// ac27: a url() in a partial the stylesheet @uses that leaves the root was placed at
		// the line of the compiled CSS, named as the entry's.
		{"sass_url_outside_in_partial", "export default {}", "a.scss", "@use \"./parts/p\";\n\n.ok { color: red; }\n", []string{"parts/_p.scss:3:15: error: ", "  background: url(../../../../../../../../../../../../etc/hostname);"}},
		{"sass_url_outside_below_additional_data", "export default { css: { preprocessorOptions: { scss: { additionalData: '$a: 1;\\n$b: 2;\\n' } } } }",
			"a.scss", "// the entry\n\n.x {\n  width: $a;\n  background: url(../../../../../../../../../../../../etc/hostname);\n}\n", []string{"a.scss:5:15: error: ", "  background: url(../../../../../../../../../../../../etc/hostname);"}},
		{"error_in_additional_data", "export default { css: { preprocessorOptions: { scss: { additionalData: '$a: ;' } } } }",
			"a.scss", ".x { color: red; }\n", []string{"error: Sass: Expected expression. (in css.preprocessorOptions.scss.additionalData)"}},
		{"additional_data_function", "export default { css: { preprocessorOptions: { scss: { additionalData: (src) => '$a: 1;' + src } } } }",
			"a.scss", ".x { color: red; }\n", []string{"vite.config.js: error: css.preprocessorOptions.scss.additionalData in vite.config.js is a function, which bundle does not call", "write it as a string: Vite prepends it to each scss stylesheet"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// In the workspace, for its compilers: a folder of its own, removed after.
			dir, err := os.MkdirTemp(playgroundRoot, "tmp-"+c.name+"-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			dir, _ = filepath.Abs(dir)
			files := map[string]string{"miniapp.toml": "id = \"x\"\nname = \"X\"\ndescription = \"A Vite app.\"\n", "index.html": page,
				"vite.config.js": c.config, "main.js": "import './" + c.file + "'\n", c.file: c.text,
				"parts/_p.scss": "// a partial\n.p {\n  background: url(../../../../../../../../../../../../etc/hostname);\n}\n"}
			for name, body := range files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err = Build(context.Background(), dir, Options{NoWrite: true})
			var el *diag.ListError
			if !errors.As(err, &el) {
				t.Fatalf("build gives %v, want the error", err)
			}
			var text string
			for _, d := range el.List {
				text += strings.ReplaceAll(d.String(), filepath.ToSlash(dir)+"/", "") + "\n  " + d.LineText + "\n  " + d.Note + "\n"
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("messages lack %q:\n%s", w, text)
				}
			}
		})
	}
}
