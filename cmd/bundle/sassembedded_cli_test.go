package main

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/internal/testfs"
)

// TestSassEmbeddedConfined: Sass's embedded compiler (the npm package sass-embedded, a native
// Dart program that the app's Node starts, used where the app has no sass) runs with none of
// Node's permissions, so it runs nowhere bundle can hold it:
//
// Outside the kernel's fence (BUNDLE_FENCE=off) Node's permission model holds the app's Node
// code, and Node was given the right to start programs for an app with sass-embedded: its
// PostCSS config, in the same process, ran cat on a file beside the app and put it in the page
// (exit 0). sass-embedded is refused there, at the stylesheet, with the fix (install sass);
// Node starts no program.
//
// Under the kernel's fence the compiler cannot run: Node's spawn got EACCES (no file in
// node_modules may run), and with the right to run it the Dart VM aborts ("Failed to retrieve
// stack bounds": glibc reads /proc/self/maps for the main thread's stack), which Landlock
// cannot grant one process without every process's /proc. The build says so with the fix
// (install sass, which runs inside the fence): "spawn …/dart EACCES" named neither. With sass
// installed beside it, either build uses sass and passes.
func TestSassEmbeddedConfined(t *testing.T) {
	bin := bundleBinary(t)
	const cannot = "a.scss: error: Sass: sass-embedded's compiler (a native program in node_modules) cannot run inside the kernel's fence"
	const unfenced = "a.scss: error: Sass: sass-embedded's compiler is a native program, which Node's permission model does not hold, and the kernel's fence is off"
	fenced := confine.Available().ABI > 0
	for _, row := range []struct {
		name, use string
		fence     bool
		sass      bool // sass installed too
		code      int
		want      string
		files     map[string]string // more files, or others (BASE the leak tree's base)
	}{
		{"inside", `@use "ok";`, false, false, 1, unfenced, nil},
		{"link_outside", `@use "ok";` + "\n" + `@use "secret";`, false, false, 1, unfenced, nil},
		{"inside_fenced", `@use "ok";`, true, false, 1, cannot, nil},
		{"link_outside_fenced", `@use "ok";` + "\n" + `@use "secret";`, true, false, 1, cannot, nil},
		{"inside_with_sass", `@use "ok";`, false, true, 0, "from-load-path", nil},
		{"inside_fenced_with_sass", `@use "ok";`, true, true, 0, "from-load-path", nil},
		{"link_outside_fenced_with_sass", `@use "ok";` + "\n" + `@use "secret";`, true, true, 1, "a.scss:2:1: error: Sass: ", nil},
		// No Sass stylesheet: the app's PostCSS config, in the process that may start
		// sass-embedded's compiler, starts cat.
		{"postcss_config_runs_program", "", false, false, 1, "Access to this API has been restricted (ChildProcess)", map[string]string{
			"index.html": leakPage(`<link rel="stylesheet" href="./b.css">`), "b.css": ".ok { color: red; }\n",
			"postcss.config.mjs": `import { execFileSync } from "node:child_process";
const s = execFileSync("cat", ["BASE/secrets/token.txt"], { encoding: "utf8" });
export default { plugins: [{ postcssPlugin: "leak", Once(root) { root.append(".leak { content: " + JSON.stringify(s) + " }") } }] };
`}},
	} {
		t.Run(row.name, func(t *testing.T) {
			base := leakTree(t)
			dir := filepath.Join(base, "plain", "app")
			if row.sass {
				testfs.HardLink(t, filepath.Join("..", "..", "pipeline", "testdata", "apps", "node_modules"), filepath.Join(dir, "node_modules"))
			} else if row.files["postcss.config.mjs"] != "" {
				for _, name := range []string{"postcss", "nanoid", "picocolors", "source-map-js"} {
					testfs.HardLink(t, filepath.Join("..", "..", "pipeline", "testdata", "apps", "node_modules", name), filepath.Join(dir, "node_modules", name))
				}
			}
			entries, err := os.ReadDir(filepath.Join("testdata", "sassembedded", "node_modules"))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if _, err := os.Lstat(filepath.Join(dir, "node_modules", e.Name())); err != nil {
					testfs.HardLink(t, filepath.Join("testdata", "sassembedded", "node_modules", e.Name()), filepath.Join(dir, "node_modules", e.Name()))
				}
			}
			files := map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./a.scss">`),
				"a.scss": row.use + "\n.ok { color: red; }\n", "package.json": `{ "private": true, "browser": {} }`,
				"vite.config.js":  `export default { css: { preprocessorOptions: { scss: { loadPaths: ["styles"] } } } };`,
				"styles/_ok.scss": ".from-load-path { color: blue; }\n"}
			maps.Copy(files, row.files)
			for name, body := range files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(body, "BASE", base)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(filepath.Join(base, "secrets", "_secret.scss"), filepath.Join(dir, "styles", "_secret.scss")); err != nil {
				t.Fatal(err)
			}
			code, want := row.code, row.want
			if row.fence && !fenced && want == cannot {
				want = unfenced // no kernel fence here
			}
			cmd := exec.Command(bin, "build", dir)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "TMPDIR=" + os.TempDir(), "NO_COLOR=1"}
			if !row.fence {
				cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
			}
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			page, _ := os.ReadFile(filepath.Join(dir, "dist", "t.html"))
			if got := cmd.ProcessState.ExitCode(); got != code || !strings.Contains(string(out)+string(page), want) {
				t.Errorf("exit %d, want %d and %q:\n%s", got, code, want, out)
			}
			if strings.Contains(string(out)+string(page), token) {
				t.Errorf("the secret is in the page or a message:\n%s", out)
			}
		})
	}
}
