package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// messagesOf is what a build says, in its order, for comparing one build with another.
func messagesOf(l diag.List) string {
	var b strings.Builder
	for _, m := range l {
		fmt.Fprintf(&b, "%s:%d:%d %s %s | %s\n", m.File, m.Line, m.Column, m.Severity, m.Text, m.Note)
	}
	return b.String()
}

// tenBuilds builds the app in dir ten times without writing, and gives each result to each.
func tenBuilds(t *testing.T, dir string, each func(n int, res *Result)) {
	t.Helper()
	for n := range 10 {
		res, err := Build(context.Background(), dir, Options{NoWrite: true})
		if err != nil {
			t.Fatal(err)
		}
		each(n, res)
	}
}

// sameWarnings builds the app in dir ten times and fails where a build's warnings differ
// from the first's; check is given the first's.
func sameWarnings(t *testing.T, dir string, check func(first string)) {
	t.Helper()
	var first string
	tenBuilds(t, dir, func(n int, res *Result) {
		got := messagesOf(res.Warnings)
		if n == 0 {
			first = got
			check(first)
		} else if got != first {
			t.Fatalf("build %d said otherwise than the first:\n%s\nthe first:\n%s", n+1, got, first)
		}
	})
}

// TestProjectProblemsInOrder: the problems of the projects (a folder's own tsconfig) the
// build's files belong to are said in the same order at every build: they were kept in a
// sync.Map and said in its Range order, which differs from one run to the next (twelve
// folders whose tsconfig extends a missing base: the warnings came in another order at
// almost every build).
func TestProjectProblemsInOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	files := map[string]string{
		"miniapp.toml": "id = \"pp\"\nname = \"PP\"\ndescription = \"Projects.\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><title>P</title><script type="module" src="./main.ts"></script>`,
	}
	var main strings.Builder
	for i := range 12 {
		files[fmt.Sprintf("p%02d/tsconfig.json", i)] = fmt.Sprintf(`{"extends": "./missing-%02d.json", "compilerOptions": {"experimentalDecorators": true}}`, i)
		files[fmt.Sprintf("p%02d/x.ts", i)] = fmt.Sprintf("export const x%02d: number = %d;\n", i, i)
		fmt.Fprintf(&main, "import { x%02d } from './p%02d/x';\nconsole.log(x%02d);\n", i, i, i)
	}
	files["main.ts"] = main.String()
	writeFiles(t, dir, files)
	sameWarnings(t, dir, func(first string) {
		if c := strings.Count(first, "cannot find base config file"); c != 12 {
			t.Fatalf("%d warnings of a missing base, want 12:\n%s", c, first)
		}
	})
}

// TestBarrelByProject: two files of one folder that belong to two projects (a solution's
// tsconfig whose references each include one) import the same specifier, which each
// project's paths map to its own barrel: each file's import is rewritten to its own barrel's
// modules. The barrel rewriting kept esbuild's resolution by folder and specifier, not by
// importer, and the file loaded second was given the first's barrel: one of the two values
// was the other project's, which one by the order the two were loaded.
func TestBarrelByProject(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	writeBarrelProjects(t, dir, "")
	tenBuilds(t, dir, func(n int, res *Result) {
		page := string(res.HTML)
		if !strings.Contains(page, "A0A1") || !strings.Contains(page, "B0B1") {
			t.Fatalf("build %d: each file's barrel is its project's, want A0A1 and B0B1 in the page: A0A1 %v, B0B1 %v", n+1, strings.Contains(page, "A0A1"), strings.Contains(page, "B0B1"))
		}
	})
}

// writeBarrelProjects writes TestBarrelByProject's app into dir, with build the manifest's
// [build] table.
func writeBarrelProjects(t *testing.T, dir, build string) {
	files := map[string]string{
		"miniapp.toml":       "id = \"bp\"\nname = \"BP\"\ndescription = \"Barrels by project.\"\nentry = \"index.html\"\n" + build,
		"index.html":         `<!doctype html><title>B</title><script type="module" src="./src/main.ts"></script>`,
		"tsconfig.json":      `{"files": [], "references": [{"path": "./tsconfig.a.json"}, {"path": "./tsconfig.b.json"}, {"path": "./tsconfig.main.json"}]}`,
		"tsconfig.a.json":    `{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["./libA/*"]}}, "include": ["src/a.ts"]}`,
		"tsconfig.b.json":    `{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["./libB/*"]}}, "include": ["src/b.ts"]}`,
		"tsconfig.main.json": `{"include": ["src/main.ts"]}`,
		"src/a.ts":           "import { n0, n1 } from \"@lib/index\";\nexport const a: string = n0 + n1;\n",
		"src/b.ts":           "import { n0, n1 } from \"@lib/index\";\nexport const b: string = n0 + n1;\n",
		"src/main.ts":        "import { a } from \"./a\";\nimport { b } from \"./b\";\ndocument.title = a + \"|\" + b;\n",
	}
	for _, lib := range []string{"A", "B"} {
		var barrel strings.Builder
		for i := range 60 {
			fmt.Fprintf(&barrel, "export { n%d } from \"./n%d\";\n", i, i)
			files[fmt.Sprintf("lib%s/n%d.ts", lib, i)] = fmt.Sprintf("export const n%d = \"%s%d\";\n", i, lib, i)
		}
		files["lib"+lib+"/index.ts"] = barrel.String()
		files["lib"+lib+"/package.json"] = `{"sideEffects": false}`
	}
	writeFiles(t, dir, files)
}

// TestWorkerWarnings: esbuild's warnings in a worker's files (a duplicate key) are the
// build's, once each, the same at every build: the worker's build kept them in a list
// nothing read, and the page built with exit 0 and no word of them. Twelve workers, started
// as the page's code starts them and one of them reached twice (?worker and new Worker), are
// built at once.
func TestWorkerWarnings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	files := map[string]string{
		"miniapp.toml": "id = \"ww\"\nname = \"WW\"\ndescription = \"Workers' warnings.\"\nentry = \"index.html\"\n",
		"index.html":   `<!doctype html><title>W</title><script type="module" src="./main.js"></script>`,
	}
	var main strings.Builder
	main.WriteString("import W0 from './w00.js?worker';\nnew W0();\n")
	for i := range 12 {
		files[fmt.Sprintf("w%02d.js", i)] = fmt.Sprintf("self.postMessage({k%d: 1, k%d: 2});\n", i, i)
		fmt.Fprintf(&main, "new Worker(new URL('./w%02d.js', import.meta.url));\n", i)
	}
	files["main.js"] = main.String()
	writeFiles(t, dir, files)
	sameWarnings(t, dir, func(first string) {
		for i := range 12 {
			if c := strings.Count(first, fmt.Sprintf("warning Duplicate key \"k%d\" in", i)); c != 1 {
				t.Fatalf("w%02d.js's duplicate key is said %d times, want once:\n%s", i, c, first)
			}
		}
	})
}

// TestRouterWarningPlace: wouter's routing on the browser's path is warned of once, at the
// same use at every build, the first by file and place: it was said at the first use a load
// callback met, and twelve modules that use it, loaded at once, gave it another place from
// one build to the next.
func TestRouterWarningPlace(t *testing.T) {
	files := map[string]string{"miniapp.toml": "id = \"rw\"\nname = \"RW\"\ndescription = \"Routes.\"\nentry = \"main.jsx\"\n"}
	var main strings.Builder
	for i := range 12 {
		files[fmt.Sprintf("r%02d.jsx", i)] = fmt.Sprintf("import { Route } from \"wouter\";\nexport const r%02d = () => <Route path=\"/%d\">x</Route>;\n", i, i)
		fmt.Fprintf(&main, "import { r%02d } from \"./r%02d.jsx\";\n", i, i)
	}
	main.WriteString("export const all = [")
	for i := range 12 {
		fmt.Fprintf(&main, "r%02d, ", i)
	}
	main.WriteString("];\n")
	files["main.jsx"] = main.String()
	if text, err := buildIn(t, "router-place", files); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	dir := filepath.Join(hostframeApps, "tmp-router-place")
	tenBuilds(t, dir, func(n int, res *Result) {
		var at []string
		for _, m := range res.Warnings {
			if strings.Contains(m.Text, "wouter's") {
				at = append(at, fmt.Sprintf("%s:%d:%d", filepath.Base(m.File), m.Line, m.Column))
			}
		}
		if fmt.Sprint(at) != "[r00.jsx:2:27]" {
			t.Fatalf("build %d: wouter's warning at %v, want once at r00.jsx:2:27", n+1, at)
		}
	})
}
