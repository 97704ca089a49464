package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/internal/testfs"
)

// TestSassEmbeddedConfined: Sass's embedded compiler (the npm package sass-embedded, a native
// Dart program that the app's Node starts, used where the app has no sass) reads the files
// its load paths give it itself, not through Node's fs, which the path checks guard: a
// partial in a load path that linked out of the app went into the page with exit 0. Every
// load goes through bundle's importer, a load path's too: a partial inside is used, one that
// links out is refused where the @use names it (BUNDLE_FENCE=off).
//
// Under the kernel's fence the compiler cannot run: Node's spawn got EACCES (no file in
// node_modules may run), and with the right to run it the Dart VM aborts ("Failed to retrieve
// stack bounds": glibc reads /proc/self/maps for the main thread's stack), which Landlock
// cannot grant one process without every process's /proc. The build says so with the fixes
// (install sass, which runs inside the fence; or BUNDLE_FENCE=off): "spawn …/dart EACCES"
// named neither. With sass installed beside it, the fenced build uses sass and passes.
func TestSassEmbeddedConfined(t *testing.T) {
	bin := bundleBinary(t)
	const cannot = "a.scss: error: Sass: sass-embedded's compiler (a native program in node_modules) cannot run inside the kernel's fence"
	fenced := confine.Available().ABI > 0
	for _, row := range []struct {
		name, use string
		fence     bool
		sass      bool // sass installed too
		code      int
		want      string
	}{
		{"inside", `@use "ok";`, false, false, 0, "from-load-path"},
		{"link_outside", `@use "ok";` + "\n" + `@use "secret";`, false, false, 1, "a.scss:2:1: error: Sass: "},
		{"inside_fenced", `@use "ok";`, true, false, 1, cannot},
		{"link_outside_fenced", `@use "ok";` + "\n" + `@use "secret";`, true, false, 1, cannot},
		{"inside_fenced_with_sass", `@use "ok";`, true, true, 0, "from-load-path"},
		{"link_outside_fenced_with_sass", `@use "ok";` + "\n" + `@use "secret";`, true, true, 1, "a.scss:2:1: error: Sass: "},
	} {
		t.Run(row.name, func(t *testing.T) {
			base := leakTree(t)
			dir := filepath.Join(base, "plain", "app")
			if row.sass {
				testfs.HardLink(t, filepath.Join("..", "..", "pipeline", "testdata", "apps", "node_modules"), filepath.Join(dir, "node_modules"))
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
			for name, body := range map[string]string{"miniapp.toml": leakManifest, "index.html": leakPage(`<link rel="stylesheet" href="./a.scss">`),
				"a.scss": row.use + "\n.ok { color: red; }\n", "package.json": `{ "private": true, "browser": {} }`,
				"vite.config.js":  `export default { css: { preprocessorOptions: { scss: { loadPaths: ["styles"] } } } };`,
				"styles/_ok.scss": ".from-load-path { color: blue; }\n"} {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(filepath.Join(base, "secrets", "_secret.scss"), filepath.Join(dir, "styles", "_secret.scss")); err != nil {
				t.Fatal(err)
			}
			code, want := row.code, row.want
			if row.fence && !fenced && !row.sass {
				code, want = 0, "from-load-path" // no kernel fence here: the compiler runs
				if strings.Contains(row.use, "secret") {
					code, want = 1, "a.scss:2:1: error: Sass: "
				}
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
