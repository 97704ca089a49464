package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTsconfigReferences: a project reference names its config as TypeScript takes it
// (resolveConfigFileProjectName) and Vite's tsconfig reader does: a path ending in .json is
// the file, any other the tsconfig.json in that folder, with nothing looked at to decide (the
// build stat'ed the path, outside the app too, and took a file without .json as the config,
// where TypeScript looks for its folder's tsconfig.json). A reference out of the app is never
// taken, whether or not it is there.
func TestTsconfigReferences(t *testing.T) {
	for _, row := range []struct {
		name, ref string
		files     []string // written in the app, each a config whose include is src
		want      string   // the config taken, in the app; "" none
	}{
		{name: "json_file", ref: "./tsconfig.app.json", files: []string{"tsconfig.app.json"}, want: "tsconfig.app.json"},
		{name: "folder", ref: "./web", files: []string{"web/tsconfig.json"}, want: "web/tsconfig.json"},
		{name: "file_without_json", ref: "./app.cfg", files: []string{"app.cfg"}, want: ""},
		{name: "folder_named_json", ref: "./cfg.json", files: []string{"cfg.json/tsconfig.json"}, want: ""},
		{name: "outside_folder", ref: "../out", want: ""},
		{name: "outside_file", ref: "../out/tsconfig.json", want: ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(base, "app")
			write := func(p, s string) {
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(root, "tsconfig.json"), `{ "files": [], "references": [{ "path": "`+row.ref+`" }] }`)
			write(filepath.Join(root, "src", "main.ts"), "export {}\n")
			write(filepath.Join(base, "out", "tsconfig.json"), `{ "include": ["../app/src"] }`)
			for _, f := range row.files {
				cfg := filepath.Join(root, filepath.FromSlash(f))
				src, _ := filepath.Rel(filepath.Dir(cfg), filepath.Join(root, "src"))
				write(cfg, `{ "include": ["`+filepath.ToSlash(src)+`"] }`)
			}
			want := ""
			if row.want != "" {
				want = filepath.Join(root, filepath.FromSlash(row.want))
			}
			if got := solutionTsconfig(root, filepath.Join(root, "dist")); got != want {
				t.Errorf("solutionTsconfig: %q, want %q", got, want)
			}
			if got := projectFile(filepath.Join(root, "tsconfig.json"), filepath.Join(root, "src", "main.ts"), root); want != "" && got != want || want == "" && got != filepath.Join(root, "tsconfig.json") {
				t.Errorf("projectFile: %q, want %q", got, want)
			}
		})
	}
}
