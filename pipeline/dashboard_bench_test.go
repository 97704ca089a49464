package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// generateDashboard writes, inside the hostframe workspace (whose node_modules hold the
// packages), an admin dashboard of the weight issue 28 measured: Tailwind CSS v4, TanStack
// Router and Table, lucide-react's icons from its barrel, and pages components of its own
// imported through an index of its own (components of them: 1,400 make about 1,800 modules
// in all). It returns the app's folder, removed when the test ends.
func generateDashboard(tb testing.TB, name string, components int) string {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(hostframeApps, "node_modules", "lucide-react")); err != nil {
		tb.Fatalf("the dashboard needs the hostframe workspace's npm packages: run (cd %s && npm ci), as scripts/test does", hostframeApps)
	}
	dir, err := filepath.Abs(filepath.Join(hostframeApps, "tmp-"+name))
	if err != nil {
		tb.Fatal(err)
	}
	os.RemoveAll(dir)
	tb.Cleanup(func() { os.RemoveAll(dir) })
	barrel, err := os.ReadFile(filepath.Join(hostframeApps, "node_modules", "lucide-react", "dist", "esm", "lucide-react.mjs"))
	if err != nil {
		tb.Fatal(err)
	}
	var icons []string
	for name := range parseBarrel(string(barrel)) {
		if !strings.HasPrefix(name, "Lucide") && !strings.HasSuffix(name, "Icon") && name != "icons" && name != "createLucideIcon" && name != "Icon" {
			icons = append(icons, name)
		}
	}
	slices.Sort(icons)
	const pages, iconsUsed = 30, 260
	files := map[string]string{
		"miniapp.toml": "id = \"dashboard\"\nname = \"Dashboard\"\ndescription = \"A generated admin dashboard.\"\nmaxKB = 8192\n",
		"index.html":   "<!doctype html><html><head><meta charset=\"utf-8\"><title>Dashboard</title></head><body><div id=\"root\"></div><script type=\"module\" src=\"/src/main.tsx\"></script></body></html>\n",
		"src/app.css":  "@import \"tailwindcss\";\n",
	}
	var index strings.Builder
	for i := range components {
		var imp, use []string
		for k := range 3 {
			icon := icons[(i*7+k*131)%iconsUsed*len(icons)/iconsUsed]
			imp = append(imp, icon)
			use = append(use, "<"+icon+" className=\"size-4\" />")
		}
		slices.Sort(imp)
		imp = slices.Compact(imp)
		child := ""
		if i%10 != 0 {
			child = fmt.Sprintf("<C%d label={label} />", i-1)
		}
		src := fmt.Sprintf("import { %s } from \"lucide-react\";\n", strings.Join(imp, ", "))
		if i%10 != 0 {
			src += fmt.Sprintf("import { C%d } from \"./c%d\";\n", i-1, i-1)
		}
		src += fmt.Sprintf("\nexport function C%d({ label }: { label: string }) {\n  return (\n    <div className=\"flex items-center gap-%d rounded-md p-%d text-sm text-slate-%d00\">\n      %s\n      <span>{label} %d</span>\n      %s\n    </div>\n  );\n}\n",
			i, i%8+1, i%6+1, i%9+1, strings.Join(use, "\n      "), i, child)
		files[fmt.Sprintf("src/components/c%d.tsx", i)] = src
		fmt.Fprintf(&index, "export { C%d } from \"./c%d\";\n", i, i)
	}
	files["src/components/index.ts"] = index.String()
	var routes []string
	for p := range pages {
		var names, uses []string
		// The heads of chains of ten components, each page some of them: every component is
		// in the page.
		for c := p*10 + 9; c < components; c += pages * 10 {
			names = append(names, fmt.Sprintf("C%d", c))
			uses = append(uses, fmt.Sprintf("<C%d label=\"page %d\" />", c, p))
		}
		files[fmt.Sprintf("src/pages/page%d.tsx", p)] = fmt.Sprintf(`import { useTable } from "@tanstack/react-table";
import { Link } from "@tanstack/react-router";
import { %s } from "../components";

export function Page%d() {
  const table = useTable;
  return (
    <section className="grid grid-cols-3 gap-4" data-table={typeof table}>
      <Link to="/" className="underline">home</Link>
      %s
    </section>
  );
}
`, strings.Join(names, ", "), p, strings.Join(uses, "\n      "))
		routes = append(routes, fmt.Sprintf("createRoute({ getParentRoute: () => root, path: \"/p%d\", component: lazyRouteComponent(() => import(\"./pages/page%d\"), \"Page%d\") })", p, p, p))
	}
	files["src/main.tsx"] = fmt.Sprintf(`import "./app.css";
import { createRoot } from "react-dom/client";
import { createHashHistory, createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, RouterProvider } from "@tanstack/react-router";

const root = createRootRoute({ component: () => <main className="p-6"><Outlet /></main> });
const router = createRouter({
  history: createHashHistory(),
  routeTree: root.addChildren([
    %s,
  ]),
});
createRoot(document.getElementById("root")!).render(<RouterProvider router={router} />);
`, strings.Join(routes, ",\n    "))
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkDashboard builds the generated dashboard (about 1,800 modules: Tailwind CSS, TanStack
// Router and Table, lucide-react's icons) with barrel imports rewritten and not, each with the
// build's folder cache and without it, in the same run, and reports each build's time and the
// ratios. Run it with -benchtime=3x or more.
func BenchmarkDashboard(b *testing.B) {
	dir := generateDashboard(b, "bench-dashboard", 1400)
	manifestFile := filepath.Join(dir, "miniapp.toml")
	base, _ := os.ReadFile(manifestFile)
	build := func(barrels, cache bool) (time.Duration, int) {
		text := string(base)
		if !barrels {
			text += "[build]\nbarrels = false\n"
		}
		os.WriteFile(manifestFile, []byte(text), 0o644)
		noFolderCache.Store(!cache)
		defer noFolderCache.Store(false)
		start := time.Now()
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(start), len(res.Inputs)
	}
	_, modules := build(true, true) // warm the SDK's and the CSS tools' caches, and the disk's
	type config struct {
		name           string
		barrels, cache bool
	}
	configs := []config{{"barrels-cache", true, true}, {"barrels-nocache", true, false}, {"nobarrels-cache", false, true}, {"nobarrels-nocache", false, false}}
	times := make([]time.Duration, len(configs))
	b.ResetTimer()
	for range b.N {
		for i, c := range configs {
			d, _ := build(c.barrels, c.cache)
			times[i] += d
		}
	}
	for i, c := range configs {
		b.ReportMetric(float64(times[i].Milliseconds())/float64(b.N), "ms-"+c.name)
	}
	b.ReportMetric(float64(times[1])/float64(times[0]), "nocache/cache")
	b.ReportMetric(float64(times[2])/float64(times[0]), "nobarrels/barrels")
	b.ReportMetric(float64(modules), "modules")
}

// TestFolderCacheSamePage: the barrel rewriting gives the same page with the build's folder
// cache as without it (each resolution asked of esbuild), on a smaller dashboard.
func TestFolderCacheSamePage(t *testing.T) {
	dir := generateDashboard(t, "cache-dashboard", 100)
	build := func(cache bool) []byte {
		noFolderCache.Store(!cache)
		defer noFolderCache.Store(false)
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.HTML
	}
	with, without := build(true), build(false)
	if string(with) != string(without) {
		t.Errorf("the page differs with the folder cache (%d bytes) and without (%d bytes)", len(with), len(without))
	}
	if !strings.Contains(string(with), "lucide") && !strings.Contains(string(with), "size-4") {
		t.Errorf("the page holds no icon")
	}
}
