package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestLazyComponentStyles: the styles of a Vue or Svelte component that only import() reaches
// apply when the import runs, in the built page as in Vite's build of the same page (the
// examples' workspace: its Vite, plugin and compiler), under a page policy that allows no
// inline style (style-src 'self': the built page's <style> by its hash, Vite's <link> by
// 'self'). They applied from page load, in the page's one stylesheet. A component imported
// statically still has its styles from load (the "static" interaction reads them first).
func TestLazyComponentStyles(t *testing.T) {
	page := `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self'">
<title>A lazily imported component</title>
</head>
<body>
<p id="t">Blue from load, green once the component's module has loaded.</p>
<script type="module" src="./main.ts"></script>
</body>
</html>
`
	main := `import "./base.css";
import Static from "./Static.EXT";
const color = (id: string) => getComputedStyle(document.getElementById(id)!).color;
(window as any).seen = { before: color("t"), static: color("s"), kind: typeof Static };
(window as any).load = () => import("./Lazy.EXT").then((m) => {
  (window as any).seen.after = color("t");
  (window as any).seen.lazy = typeof m.default;
  return (window as any).seen;
});
`
	rows := []struct {
		name, ext, plugin string
		files             map[string]string
	}{
		{"vue", "vue", `import vue from "@vitejs/plugin-vue";` + "\nexport default { base: \"./\", plugins: [vue()], build: { rollupOptions: { input: \"index.html\" } } };\n", map[string]string{
			"Lazy.vue":   "<template><b>lazy</b></template>\n<style>\n#t { color: rgb(0, 128, 0); }\n</style>\n",
			"Static.vue": "<template><b>static</b></template>\n<style>\n#s { color: rgb(128, 0, 128); }\n</style>\n",
		}},
		{"svelte", "svelte", `import { svelte } from "@sveltejs/vite-plugin-svelte";` + "\nexport default { base: \"./\", plugins: [svelte()], build: { rollupOptions: { input: \"index.html\" } } };\n", map[string]string{
			"Lazy.svelte":   "<b>lazy</b>\n<style>\n  :global(#t) { color: rgb(0, 128, 0); }\n</style>\n",
			"Static.svelte": "<b>static</b>\n<style>\n  :global(#s) { color: rgb(128, 0, 128); }\n</style>\n",
		}},
	}
	b := browsertest.Start(t)
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			dir := inExamples(t, "lazy-"+r.name)
			files := map[string]string{
				"index.html":     strings.Replace(page, `<p id="t">`, `<p id="s">Purple from load.</p>`+"\n"+`<p id="t">`, 1),
				"main.ts":        strings.ReplaceAll(main, "EXT", r.ext),
				"base.css":       "#t { color: rgb(0, 0, 255); }\n",
				"vite.config.js": r.plugin,
				"miniapp.toml":   "id = \"lazy\"\nname = \"Lazy\"\ndescription = \"A lazily imported component.\"\nentry = \"index.html\"\n",
			}
			for name, text := range r.files {
				files[name] = text
			}
			os.MkdirAll(dir, 0o755)
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if i := strings.Index(string(res.HTML), filepath.Dir(dir)); i >= 0 {
				t.Errorf("the built page holds the folder it was built in: %s", res.HTML[max(i-80, 0):min(i+120, len(res.HTML))])
			}
			vite, _ := filepath.Abs(filepath.Join(examples, "node_modules", "vite", "bin", "vite.js"))
			out := t.TempDir()
			cmd := exec.Command("node", vite, "build", "--outDir", out, "--emptyOutDir", "--logLevel", "warn")
			cmd.Dir = dir
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("vite build: %v\n%s", err, msg)
			}
			built := map[string][]byte{}
			filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(out, p)
					built[filepath.ToSlash(rel)], _ = os.ReadFile(p)
				}
				return nil
			})
			for name, data := range built {
				b.Serve("/vite-"+r.name+"/"+name, data, ctypeOf(name))
			}
			seen := func(u string) string {
				b.Visit(t, u, 0)
				if !b.Await(t, `window.load`) {
					t.Fatalf("%s never defined load; console: %q", u, b.Console())
				}
				return browsertest.Eval[string](t, b, `window.load().then((s) => JSON.stringify(s))`)
			}
			want := `{"before":"rgb(0, 0, 255)","static":"rgb(128, 0, 128)","kind":"%s","after":"rgb(0, 128, 0)","lazy":"%s"}`
			kind := map[string]string{"vue": "object", "svelte": "function"}[r.name]
			want = strings.ReplaceAll(want, "%s", kind)
			if got := seen(b.URL(0, "/vite-"+r.name+"/index.html")); got != want {
				t.Errorf("Vite's page saw %s, want %s", got, want)
			}
			if got := seen(b.Serve("/built-"+r.name+"/index.html", res.HTML)); got != want {
				t.Errorf("the built page saw %s, want %s (console: %q)", got, want, b.Console())
			}
		})
	}
}
