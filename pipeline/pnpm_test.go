package pipeline

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// pnpmApps are apps whose packages pnpm installs (scripts/test runs pnpm install in each).
var pnpmApps = filepath.Join("testdata", "pnpm")

// pnpm is the pnpm scripts/test installs with, run through npx.
var pnpm = []string{"npx", "--yes", "pnpm@12.4.2"}

func needPnpmInstall(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".modules.yaml")); err != nil {
		t.Fatalf("%s needs its packages installed by pnpm: run (cd %s && %s install --frozen-lockfile), as scripts/test does", dir, dir, strings.Join(pnpm, " "))
	}
}

// buildErrors builds dir and returns its errors, as text.
func buildErrors(t *testing.T, dir string) (string, error) {
	t.Helper()
	_, err := Build(context.Background(), dir, Options{NoWrite: true})
	var el *diag.ListError
	if err != nil && !errors.As(err, &el) {
		t.Fatal(err)
	}
	var lines []string
	if el != nil {
		for _, d := range el.List {
			lines = append(lines, d.String()+"\n  "+d.Note)
		}
	}
	return strings.Join(lines, "\n"), err
}

// TestTailwindPnpm: Tailwind CSS v4 as pnpm installs it, with @tailwindcss/vite or
// @tailwindcss/postcss, whose @tailwindcss/node and @tailwindcss/oxide pnpm keeps in
// node_modules/.pnpm beside them: the build finds them there (TestRenderTailwindPnpm shows
// the styles in a host frame).
func TestTailwindPnpm(t *testing.T) {
	for _, app := range []string{"vite-plugin", "postcss-plugin"} {
		t.Run(app, func(t *testing.T) {
			dir := filepath.Join(pnpmApps, app)
			needPnpmInstall(t, dir)
			if _, err := os.Stat(filepath.Join(dir, "node_modules", "@tailwindcss", "node")); err == nil {
				t.Fatalf("@tailwindcss/node is at the top of node_modules: not pnpm's layout")
			}
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(res.HTML), ".underline{") || !strings.Contains(string(res.HTML), ".m-8{") {
				t.Errorf("the page lacks the utilities the markup uses")
			}
		})
	}
}

// TestTailwindAdviceFixes: the build's advice for Tailwind CSS installed without an
// integration, followed as written with the app's package manager (pnpm), makes the app build.
// The app's own packages install offline from pnpm's store; the advice's package is added with
// --prefer-offline: what the store holds is taken from it, and a dependency the registry has
// published since the test apps' lockfiles (enhanced-resolve 5.27.1, which pnpm's metadata then
// names and its store lacks) is fetched, as the author's own pnpm add would.
func TestTailwindAdviceFixes(t *testing.T) {
	src := filepath.Join(pnpmApps, "tailwind-only")
	needPnpmInstall(t, src)
	needPnpmInstall(t, filepath.Join(pnpmApps, "postcss-plugin")) // puts @tailwindcss/postcss in the store
	dir := filepath.Join(t.TempDir(), "app")
	for _, f := range []string{"package.json", "pnpm-lock.yaml", "miniapp.toml", "index.html", "src/app.css", "src/main.ts"} {
		b, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), string(b))
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run(append(pnpm, "install", "--offline", "--frozen-lockfile")...)
	text, err := buildErrors(t, dir)
	const advice = "pnpm add -D @tailwindcss/postcss"
	if err == nil || !strings.Contains(text, "Tailwind CSS needs the npm package @tailwindcss/node") || !strings.HasSuffix(text, "\n  "+advice) {
		t.Fatalf("want the refusal with %q, got %v:\n%s", advice, err, text)
	}
	fields := strings.Fields(advice)
	run(append(append(pnpm, fields[1:]...), "--prefer-offline")...)
	if text, err := buildErrors(t, dir); err != nil {
		t.Errorf("after %q the build still fails: %v\n%s", advice, err, text)
	}
}

// TestCSSToolAdvice: the advice names the app's package manager, and Yarn Plug'n'Play (whose
// archives Node cannot load) is refused with the setting that installs into node_modules.
func TestCSSToolAdvice(t *testing.T) {
	css := map[string]string{
		"miniapp.toml": "id = \"t\"\nname = \"T\"\ndescription = \"Tailwind.\"\nentry = \"main.ts\"\n",
		"main.ts":      "import \"./app.css\";\n",
		"app.css":      "@import \"tailwindcss\";\n",
	}
	for _, row := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"npm_with_tailwindcss", map[string]string{"package-lock.json": "{}", "node_modules/tailwindcss/package.json": `{"name":"tailwindcss"}`}, []string{"\n  npm install -D @tailwindcss/postcss"}},
		{"yarn", map[string]string{"yarn.lock": ""}, []string{"\n  yarn add -D tailwindcss @tailwindcss/postcss"}},
		{"bun", map[string]string{"bun.lock": "{}"}, []string{"\n  bun add -d tailwindcss @tailwindcss/postcss"}},
		{"yarn_pnp", map[string]string{"yarn.lock": "", ".pnp.cjs": "#!/usr/bin/env node\n/* generated by Yarn */\n", ".yarnrc.yml": "nodeLinker: pnp\n"},
			[]string{"the app installs its packages with Yarn Plug'n'Play (.pnp.cjs), whose archives Node cannot load without Yarn's loader", "set nodeLinker: node-modules in .yarnrc.yml and run yarn install"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			for f, body := range css {
				writeFile(t, filepath.Join(dir, f), body)
			}
			for f, body := range row.files {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), body)
			}
			text, err := buildErrors(t, dir)
			for _, want := range row.want {
				if err == nil || !strings.Contains(text, want) {
					t.Errorf("want %q, got %v:\n%s", want, err, text)
				}
			}
		})
	}
}
