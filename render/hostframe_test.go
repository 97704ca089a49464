package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The apps of issue 28's classes, each built by bundle and run in Chromium inside render's
// host frame: what built but did not run, and now runs or is refused with the fix.

// hostframe is the workspace of the apps of issue 28's classes, which pipeline's tests build
// too.
var hostframe = filepath.Join("..", "pipeline", "testdata", "hostframe")

// TestRenderRouters: an app whose router reads the URL's path shows its router's not-found
// page in a host frame, which render loads at a path of its own, and fails with the fix; the
// same app on the hash shows its home page and passes.
func TestRenderRouters(t *testing.T) {
	if _, err := os.Stat(filepath.Join(hostframe, "node_modules")); err != nil {
		t.Fatalf("the apps need their npm packages: run (cd %s && npm ci), as scripts/test does", hostframe)
	}
	r := start(t, Options{Calls: []Call{{Tool: "state", Arguments: []byte("{}")}}})
	for _, row := range []struct{ app, problem string }{
		{"router-browser", `React Router's not-found page ("404 Not Found") at /`},
		{"router-hash", ""},
		{"tanstack-browser", `TanStack Router's not-found page ("Not Found") at /`},
		{"tanstack-hash", ""},
	} {
		t.Run(row.app, func(t *testing.T) {
			pg, entry := build(t, filepath.Join(hostframe, row.app))
			rep, err := r.Render(context.Background(), row.app+".html", pg, entry)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Path == "" || rep.Path == "/" {
				t.Errorf("the page was loaded at %q, want a path of render's own", rep.Path)
			}
			var routers []Problem
			for _, p := range rep.Problems {
				if p.Kind == "router" {
					routers = append(routers, p)
				}
			}
			if row.problem == "" {
				if rep.Failed() || len(rep.Calls) != 1 || rep.Calls[0].Text != "Home" {
					t.Errorf("want the home page, clean: %+v %+v", rep.Calls, rep.Problems)
				}
				return
			}
			if !rep.Failed() || len(routers) != 1 || !strings.Contains(routers[0].Text, row.problem) || !strings.Contains(routers[0].Text, "createHash") {
				t.Errorf("want one router error with %q and the fix: %+v", row.problem, rep.Problems)
			}
		})
	}
}

// TestRenderCjsInterop runs both readings of a default import of a CommonJS module that sets
// __esModule (shaped like react-apexcharts 1.x), in an app of "type": "module": as esbuild and
// Vite 8 read it (module.exports: React is given an object and throws), and with
// inconsistentCjsInterop (exports.default: the chart shows).
func TestRenderCjsInterop(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "state", Arguments: []byte("{}")}}})
	for _, row := range []struct{ app, state, problem string }{
		{"cjs-default", `{"chart":"object","version":"1.0.0","shown":""}`, "Minified React error #130"},
		{"cjs-interop", `{"chart":"function","version":"1.0.0","shown":"chart: line"}`, ""},
	} {
		t.Run(row.app, func(t *testing.T) {
			pg, entry := build(t, filepath.Join(hostframe, row.app))
			rep, err := r.Render(context.Background(), row.app+".html", pg, entry)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Calls) != 1 || rep.Calls[0].Text != row.state {
				t.Errorf("the page shows %+v, want %s", rep.Calls, row.state)
			}
			if row.problem == "" && rep.Failed() || row.problem != "" && (len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0].Text, row.problem)) {
				t.Errorf("problems %+v, want %q", rep.Problems, row.problem)
			}
		})
	}
}

// TestRenderEvalPackage: a package that runs eval when imported (a development build) throws
// under the page's policy, and the page shows nothing; with eval = true it draws.
func TestRenderEvalPackage(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "state", Arguments: []byte("{}")}}})
	for _, row := range []struct{ app, state, problem string }{
		{"eval-dep", "", "Uncaught EvalError"},
		{"eval-dep-allowed", "map drawn", ""},
	} {
		t.Run(row.app, func(t *testing.T) {
			pg, entry := build(t, filepath.Join(hostframe, row.app))
			rep, err := r.Render(context.Background(), row.app+".html", pg, entry)
			if err != nil {
				t.Fatal(err)
			}
			if row.problem == "" {
				if rep.Failed() || len(rep.Calls) != 1 || rep.Calls[0].Text != row.state {
					t.Errorf("want %q, clean: %+v %+v", row.state, rep.Calls, rep.Problems)
				}
				return
			}
			if !rep.Failed() || !strings.Contains(rep.Problems[0].Text, row.problem) || !strings.Contains(rep.Problems[0].Text, "set eval = true") {
				t.Errorf("want %q first, with the opt-in: %+v", row.problem, rep.Problems)
			}
		})
	}
}

// TestRenderPublicStrings: files of the public folder that the app names by strings at run time
// (a JSX src, a game engine's image source, a fetch) load in a host frame: the build put their
// data: URLs in the page.
func TestRenderPublicStrings(t *testing.T) {
	r := start(t, Options{Calls: []Call{{Tool: "state", Arguments: []byte("{}")}}})
	pg, entry := build(t, filepath.Join(hostframe, "public-strings"))
	rep, err := r.Render(context.Background(), "public-strings.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() || len(rep.Calls) != 1 || rep.Calls[0].Text != "[\"6x4\",3,5]" {
		t.Errorf("want the sword (6x4), the levels (3) and the logo (5 wide) loaded, clean: %+v %+v", rep.Calls, rep.Problems)
	}
}

// TestRenderTailwindPnpm: Tailwind CSS v4 installed by pnpm with @tailwindcss/vite, whose
// compiler pnpm keeps in node_modules/.pnpm: the page has the utilities its markup uses.
func TestRenderTailwindPnpm(t *testing.T) {
	dir := filepath.Join("..", "pipeline", "testdata", "pnpm", "vite-plugin")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".modules.yaml")); err != nil {
		t.Fatalf("%s needs its packages installed by pnpm, as scripts/test does", dir)
	}
	r := start(t, Options{Calls: []Call{{Tool: "state", Arguments: []byte("{}")}}})
	pg, entry := build(t, dir)
	rep, err := r.Render(context.Background(), "pnpm-tailwind.html", pg, entry)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"margin":"32px","weight":"700","decoration":"underline"}`; rep.Failed() || len(rep.Calls) != 1 || rep.Calls[0].Text != want {
		t.Errorf("want %s, clean: %+v %+v", want, rep.Calls, rep.Problems)
	}
}
