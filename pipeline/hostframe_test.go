package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRouterWarnings: a router that reads the URL's path is warned of where the app makes it,
// with the fix; a hash or memory router, and names that only look alike, are not
// (TestRenderRouters runs such apps in a host frame).
func TestRouterWarnings(t *testing.T) {
	manifestFile := "id = \"r\"\nname = \"R\"\ndescription = \"Routes.\"\nentry = \"main.jsx\"\n"
	for _, row := range []struct {
		name  string
		files map[string]string
		want  string // "" for no warning
	}{
		{"browser_router_jsx", map[string]string{"main.jsx": "import { BrowserRouter, Routes, Route } from \"react-router\";\nexport const App = () => (\n  <BrowserRouter><Routes><Route path=\"/\" element={<p />} /></Routes></BrowserRouter>\n);\n"},
			"main.jsx:3:4: warning: React Router reads the URL's path (BrowserRouter)"},
		{"aliased", map[string]string{"main.jsx": "import { createBrowserRouter as make } from \"react-router\";\nexport const r = make([]);\n"},
			"main.jsx:2:18: warning: React Router reads the URL's path (createBrowserRouter)"},
		{"namespace", map[string]string{"main.jsx": "import * as RR from \"react-router\";\nexport const r = RR.createBrowserRouter([]);\n"},
			"main.jsx:2:21: warning: React Router reads the URL's path (createBrowserRouter)"},
		{"hash_and_memory", map[string]string{"main.jsx": "import { createHashRouter, createMemoryRouter, HashRouter, MemoryRouter } from \"react-router\";\n// createBrowserRouter, BrowserRouter\nexport const r = [createHashRouter([]), createMemoryRouter([]), HashRouter, MemoryRouter, \"BrowserRouter\"];\n"}, ""},
		{"own_name", map[string]string{"main.jsx": "const BrowserRouter = (p) => p.children;\nexport const App = () => <BrowserRouter>x</BrowserRouter>;\n"}, ""},
		{"tanstack_default_history", map[string]string{"main.jsx": "import { createRootRoute, createRouter } from \"@tanstack/react-router\";\nexport const router = createRouter({\n  routeTree: createRootRoute(),\n  defaultPreload: \"intent\",\n});\n"},
			"main.jsx:2:23: warning: TanStack Router's createRouter, given no history, takes the browser's"},
		{"tanstack_hash", map[string]string{"main.jsx": "import { createHashHistory, createRootRoute, createRouter } from \"@tanstack/react-router\";\nconst history = createHashHistory();\nexport const a = createRouter({ routeTree: createRootRoute(), history });\nexport const b = createRouter({ history: createHashHistory(), routeTree: createRootRoute({ history: 1 }) });\nconst opts = { routeTree: createRootRoute() };\nexport const c = createRouter(opts);\n"}, ""},
		{"tanstack_nested_history_key", map[string]string{"main.jsx": "import { createRootRoute, createRouter } from \"@tanstack/react-router\";\nexport const r = createRouter({ routeTree: createRootRoute({ history: 1 }) });\n"},
			"main.jsx:2:18: warning: TanStack Router's createRouter"},
		{"tanstack_browser_history", map[string]string{"main.jsx": "import { createBrowserHistory } from \"@tanstack/react-router\";\nexport const h = createBrowserHistory();\n"},
			"main.jsx:2:18: warning: TanStack Router reads the URL's path (createBrowserHistory)"},
		{"vue_web_history", map[string]string{"main.jsx": "import { createRouter, createWebHistory } from \"vue-router\";\nexport const r = createRouter({ history: createWebHistory(), routes: [] });\n"},
			"main.jsx:2:42: warning: Vue Router reads the URL's path (createWebHistory)"},
		{"vue_hash_history", map[string]string{"main.jsx": "import { createRouter, createWebHashHistory } from \"vue-router\";\nexport const r = createRouter({ history: createWebHashHistory(), routes: [] });\n"}, ""},
		{"wouter_browser", map[string]string{"main.jsx": "import { Route, Switch } from \"wouter\";\nexport const App = () => <Switch><Route path=\"/\">home</Route></Switch>;\n"},
			"main.jsx:2:27: warning: wouter's Switch routes on the browser's path"},
		{"wouter_hash_elsewhere", map[string]string{"main.jsx": "import { Route, Router } from \"wouter\";\nimport { hook } from \"./hook.js\";\nexport const App = () => <Router hook={hook}><Route path=\"/\">home</Route></Router>;\n",
			"hook.js": "import { useHashLocation } from \"wouter/use-hash-location\";\nexport const hook = useHashLocation;\n"}, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			row.files["miniapp.toml"] = manifestFile
			text, err := buildIn(t, "router-"+row.name, row.files)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if row.want == "" {
				if strings.Contains(text, "path") {
					t.Errorf("a false warning:\n%s", text)
				}
				return
			}
			if !strings.Contains(text, row.want) || strings.Count(text, "warning:") != 1 {
				t.Errorf("want one warning %q, got:\n%s", row.want, text)
			}
		})
	}
}

// TestPublicStrings: strings that name a file of the public folder at run time are the
// file's data: URL in the page (TestRenderPublicStrings loads them in a host frame); keys and
// compared values are left alone; a template literal that names a public folder is refused
// with the import that works, and that import builds.
func TestPublicStrings(t *testing.T) {
	png, err := os.ReadFile(filepath.Join(hostframeApps, "public-strings", "public", "images", "sword.png"))
	if err != nil {
		t.Fatal(err)
	}
	manifestFile := "id = \"p\"\nname = \"P\"\ndescription = \"Public.\"\nentry = \"src/main.jsx\"\n"
	files := func(main string) map[string]string {
		return map[string]string{"miniapp.toml": manifestFile, "public/images/a.png": string(png), "public/images/b.png": string(png), "src/main.jsx": main}
	}
	build := func(t *testing.T, name, main string) (string, string, error) {
		text, err := buildIn(t, name, files(main))
		if err != nil {
			return "", text, err
		}
		res, err := Build(context.Background(), filepath.Join(hostframeApps, "tmp-"+name), Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		return string(res.HTML), text, nil
	}
	t.Run("inlined", func(t *testing.T) {
		page, text, err := build(t, "public-inlined", "window.a = [<img src=\"/images/a.png\" />, new Image().src = \"./images/b.png\", `images/a.png`];\n")
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if strings.Contains(page, "images/a.png") || strings.Contains(page, "images/b.png") || strings.Count(page, "data:image/png;base64,") != 2 {
			t.Errorf("the page still names the public files, or lacks their data: URLs:\n%s", text)
		}
	})
	t.Run("left_alone", func(t *testing.T) {
		page, text, err := build(t, "public-left", "const m = { \"/images/a.png\": 1 };\nwindow.a = [m[\"/images/a.png\"], location.pathname === \"/images/a.png\", \"/images/missing.png\"];\n")
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if strings.Contains(page, "data:image/png") || strings.Count(page, "/images/a.png") != 3 {
			t.Errorf("a key or a compared value was replaced:\n%s", text)
		}
	})
	t.Run("template_refused", func(t *testing.T) {
		_, text, err := build(t, "public-template", "const name = \"a\";\nwindow.a = `/images/${name}.png`;\n")
		if err == nil || !strings.Contains(text, "src/main.jsx:2:12: error: this template literal names files of the public folder") ||
			!strings.Contains(text, `import.meta.glob("/public/images/*.png", { eager: true, query: "?url", import: "default" })`) {
			t.Fatalf("want the refusal with the glob, got %v:\n%s", err, text)
		}
		page, text, err := build(t, "public-template-fixed", "const name = \"a\";\nconst urls = import.meta.glob(\"/public/images/*.png\", { eager: true, query: \"?url\", import: \"default\" });\nwindow.a = urls[`/public/images/${name}.png`];\n")
		if err != nil || !strings.Contains(page, "data:image/png") {
			t.Errorf("the fix does not build: %v\n%s", err, text)
		}
	})
}
