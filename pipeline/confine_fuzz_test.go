package pipeline

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/testfs"
)

// fuzzToken is the secret of FuzzConfinement, in every file outside the workspace.
const fuzzToken = "Fuzzsekret41c9"

// fuzzBase64 is the start of a file that starts with the secret as a data: URL holds it.
var fuzzBase64 = base64.StdEncoding.EncodeToString([]byte(fuzzToken))[:len(fuzzToken)/3*4]

// FuzzConfinement builds apps made from a seed: tsconfig extends chains whose links go in and
// out of the workspace (through relative and absolute paths, symbolic links, chains of
// links, /proc/self/environ), symbolic link graphs that scripts import through, CSS @import
// and url() paths, Sass @use paths, import.meta.glob patterns, and a vite.config (bundled
// with that tsconfig) whose assetsInclude makes imports data: URLs. With the path checks alone
// (no kernel fence, NoFence for the CSS tools), the secret beside the workspace must be in no
// page and no message, no code outside may run, and the build must not fail inside.
func FuzzConfinement(f *testing.F) {
	for seed := range uint64(40) {
		f.Add(seed)
	}
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	writeFile(f, filepath.Join(ws, "package.json"), `{ "private": true, "workspaces": ["*"] }`)
	testfs.HardLink(f, filepath.Join("testdata", "apps", "node_modules"), filepath.Join(ws, "node_modules"))
	secrets := filepath.Join(base, "secrets")
	for name, body := range map[string]string{
		"t.txt": fuzzToken, "t.dat": fuzzToken, "s.css": ".s { content: \"" + fuzzToken + "\" }", "_s.scss": ".s { content: \"" + fuzzToken + "\"; }",
		"c.json":   `{ "compilerOptions": { "jsx": "react", "jsxFactory": "` + fuzzToken + `" } }`,
		"bad.json": fuzzToken + " { not json",
		"d/u.txt":  fuzzToken, "d/v.css": ".v { content: \"" + fuzzToken + "\" }", "d/_w.scss": ".w { content: \"" + fuzzToken + "\"; }",
		"i.png":     "\x89PNG\r\n\x1a\n" + fuzzToken,
		"p/p.mjs":   `import fs from "node:fs"; fs.writeFileSync("` + base + `/ran", "x"); export default {};`,
		"x/c2.json": `{ "extends": "../c.json" }`,
	} {
		writeFile(f, filepath.Join(secrets, filepath.FromSlash(name)), body)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		app := filepath.Join(ws, fmt.Sprintf("a%d", seed))
		os.RemoveAll(app)
		g := &fuzzApp{r: rand.New(rand.NewPCG(seed, 0x5eed)), app: app, secrets: secrets}
		g.generate(t)
		res, err := Build(context.Background(), app, Options{NoWrite: true, NoFence: true})
		var el *diag.ListError
		switch {
		case errors.As(err, &el):
			for _, m := range el.List {
				if s := m.File + m.Text + m.Note + m.LineText; strings.Contains(s, fuzzToken) {
					t.Errorf("a message holds the secret: %s", m)
				}
			}
		case err != nil:
			if strings.Contains(err.Error(), "internal error") || strings.Contains(err.Error(), fuzzToken) {
				t.Errorf("the build failed inside: %v", err)
			}
		default:
			if strings.Contains(string(res.HTML), fuzzToken) || strings.Contains(string(res.HTML), fuzzBase64) {
				t.Errorf("the page holds the secret")
			}
			for _, w := range res.Warnings {
				if strings.Contains(w.Text+w.Note+w.LineText, fuzzToken) {
					t.Errorf("a warning holds the secret: %s", w)
				}
			}
		}
		if _, err := os.Stat(filepath.Join(base, "ran")); err == nil {
			t.Errorf("code outside the workspace ran")
			os.Remove(filepath.Join(base, "ran"))
		}
		if t.Failed() {
			t.Logf("the app of seed %d:\n%s", seed, g.describe())
		}
	})
}

// fuzzApp generates one app of FuzzConfinement.
type fuzzApp struct {
	r            *rand.Rand
	app, secrets string
	log          []string
	links        int
}

func (g *fuzzApp) describe() string { return strings.Join(g.log, "\n") }

func (g *fuzzApp) write(t *testing.T, rel, body string) {
	writeFile(t, filepath.Join(g.app, filepath.FromSlash(rel)), body)
	g.log = append(g.log, rel+": "+body)
}

// link makes a new symbolic link in the app to target, sometimes through another link, and
// returns its path relative to the app.
func (g *fuzzApp) link(t *testing.T, target string) string {
	g.links++
	rel := fmt.Sprintf("l/%d%s", g.links, filepath.Ext(target))
	p := filepath.Join(g.app, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if g.r.IntN(3) == 0 { // a chain: the link names another link
		target = filepath.Join(g.app, filepath.FromSlash(g.link(t, target)))
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	g.log = append(g.log, rel+" -> "+target)
	return rel
}

// target picks a file (or folder) with the extension ext: inside the app (made now), one of
// the secrets, or a file of the system's.
func (g *fuzzApp) target(t *testing.T, ext string, dir bool) string {
	secret := map[string]string{".txt": "t.txt", ".dat": "t.dat", ".css": "s.css", ".scss": "_s.scss", ".json": "c.json", ".png": "i.png"}[ext]
	if dir {
		secret = "d"
	}
	switch g.r.IntN(5) {
	case 0, 1:
		if dir {
			g.write(t, "in/d/a"+ext, map[string]string{".txt": "inside", ".css": ".a{color:red}", ".scss": ".a{color:red;}"}[ext])
			return filepath.Join(g.app, "in", "d")
		}
		name := fmt.Sprintf("in/f%d%s", g.r.IntN(1000), ext)
		g.write(t, name, map[string]string{".txt": "inside", ".dat": "inside", ".css": ".a{color:red}", ".scss": ".a{color:red;}", ".json": `{}`, ".png": "\x89PNG\r\n\x1a\n"}[ext])
		return filepath.Join(g.app, filepath.FromSlash(name))
	case 2:
		if ext == ".json" && !dir {
			return []string{"/proc/self/environ", filepath.Join(g.secrets, "bad.json"), filepath.Join(g.secrets, "x", "c2.json")}[g.r.IntN(3)]
		}
		fallthrough
	default:
		return filepath.Join(g.secrets, filepath.FromSlash(secret))
	}
}

// ref names target from the file at rel (relative to the app) as a path may be written:
// relative, absolute, or through a new link in the app.
func (g *fuzzApp) ref(t *testing.T, rel, target string) string {
	from := filepath.Dir(filepath.Join(g.app, filepath.FromSlash(rel)))
	switch g.r.IntN(3) {
	case 0:
		return target
	case 1:
		target = filepath.Join(g.app, filepath.FromSlash(g.link(t, target)))
	}
	r, err := filepath.Rel(from, target)
	if err != nil {
		return target
	}
	r = filepath.ToSlash(r)
	if !strings.HasPrefix(r, "../") {
		r = "./" + r
	}
	return r
}

func (g *fuzzApp) generate(t *testing.T) {
	g.write(t, "miniapp.toml", "id = \"fz\"\nname = \"Fuzz\"\ndescription = \"A generated app.\"\nentry = \"index.html\"\n")
	head, main := "", "const h = (...a: unknown[]) => a;\nconsole.log(h);\n"
	// A tsconfig extends chain.
	if n := g.r.IntN(4); n > 0 {
		prev := "tsconfig.json"
		for i := range n {
			var next string
			if i == n-1 || g.r.IntN(2) == 0 {
				next = g.target(t, ".json", false)
			} else {
				next = filepath.Join(g.app, "cfg", fmt.Sprintf("c%d.json", i))
			}
			body := fmt.Sprintf(`{ "extends": %q, "compilerOptions": { "jsx": "react", "jsxFactory": "h" } }`, g.ref(t, prev, next))
			if g.r.IntN(4) == 0 && i == 0 {
				// The app's own config is a link.
				os.MkdirAll(filepath.Join(g.app, "cfg"), 0o755)
				g.write(t, "cfg/own.json", body)
				os.Symlink(filepath.Join(g.app, "cfg", "own.json"), filepath.Join(g.app, "tsconfig.json"))
			} else {
				g.write(t, prev, body)
			}
			if !strings.HasPrefix(next, g.app) {
				break
			}
			prev, _ = filepath.Rel(g.app, next)
			prev = filepath.ToSlash(prev)
		}
		main += "console.log(<div/>);\n"
	}
	// Scripts import text through the link graph, and glob folders.
	for i := range g.r.IntN(3) {
		main += fmt.Sprintf("import t%d from %q;\nconsole.log(t%d);\n", i, g.ref(t, "main.tsx", g.target(t, ".txt", false))+"?raw", i)
	}
	if g.r.IntN(3) == 0 {
		dir := g.ref(t, "main.tsx", g.target(t, ".txt", true))
		main += fmt.Sprintf("console.log(import.meta.glob(%q, { query: \"?raw\", eager: true }));\n", dir+"/*.txt")
	}
	// A stylesheet's @import and url().
	if g.r.IntN(2) == 0 {
		css := fmt.Sprintf("@import %q;\n.b { background: url(%q) }\n", g.ref(t, "style.css", g.target(t, ".css", false)), g.ref(t, "style.css", g.target(t, ".png", false)))
		g.write(t, "style.css", css)
		head += `<link rel="stylesheet" href="./style.css">`
	}
	// Sass, one app in four: Node starts for it.
	if g.r.IntN(4) == 0 {
		use := g.ref(t, "style.scss", g.target(t, ".scss", false))
		if g.r.IntN(3) == 0 {
			use = "file://" + filepath.ToSlash(g.target(t, ".scss", false))
		}
		g.write(t, "style.scss", fmt.Sprintf("@use %q;\n.c { color: red; }\n", strings.TrimSuffix(use, ".scss")))
		head += `<link rel="stylesheet" href="./style.scss">`
	}
	// A vite.config.ts, one app in four: esbuild bundles it with the app's tsconfig (the chain
	// above), and its assetsInclude makes the app's .dat imports data: URLs.
	if g.r.IntN(4) == 0 {
		g.write(t, "vite.config.ts", "export default { assetsInclude: [\"**/*.dat\"] };\n")
		for i := range 1 + g.r.IntN(2) {
			main += fmt.Sprintf("import d%d from %q;\nconsole.log(d%d);\n", i, g.ref(t, "main.tsx", g.target(t, ".dat", false)), i)
		}
	}
	// A PostCSS config that imports a plugin, one app in eight.
	if g.r.IntN(8) == 0 {
		g.write(t, "postcss.config.mjs", fmt.Sprintf("import p from %q;\nexport default { plugins: [] };\n", g.ref(t, "postcss.config.mjs", filepath.Join(g.secrets, "p", "p.mjs"))))
		if !strings.Contains(head, "style.css") {
			g.write(t, "style.css", ".d { color: red }")
			head += `<link rel="stylesheet" href="./style.css">`
		}
	}
	g.write(t, "main.tsx", main)
	g.write(t, "index.html", "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>F</title>"+head+"</head><body><script type=\"module\" src=\"./main.tsx\"></script></body></html>\n")
}
