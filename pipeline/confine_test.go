package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// TestWriteAllOrNothing: when one file of a build cannot be written, none is replaced: the
// previous output stays as it was; and a file that is a link is replaced, not written through.
func TestWriteAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.html", "a.json"} {
		writeFile(t, filepath.Join(dir, name), "old "+name)
	}
	err := writeAll([]outFile{{filepath.Join(dir, "a.html"), []byte("new")}, {filepath.Join(dir, "gone", "a.map"), []byte("x")}, {filepath.Join(dir, "a.json"), []byte("new")}})
	if err == nil {
		t.Fatal("a file in a folder that does not exist was written")
	}
	for _, name := range []string{"a.html", "a.json"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != "old "+name {
			t.Errorf("%s is %q after a failed write", name, b)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	writeFile(t, victim, "the host's")
	os.Symlink(victim, filepath.Join(dir, "b.html"))
	if err := writeAll([]outFile{{filepath.Join(dir, "b.html"), []byte("page")}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "the host's" {
		t.Errorf("the write went through the link: %q", b)
	}
	if st, err := os.Lstat(filepath.Join(dir, "b.html")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("b.html is not the page: %v %v", st, err)
	}
}

// TestRootName: the root a message names. Built from inside the app folder (bundle build .),
// the workspace root was "the workspace root .." (and ".. is the workspace root because …" in
// the note of a file outside it), a path that names nothing: named by its path.
func TestRootName(t *testing.T) {
	for _, row := range []struct {
		name, root, readRoot, dir, want string
	}{
		{"the app folder", "/w/app", "/w/app", ".", "the app folder"},
		{"a workspace from above", "/w/ws/app", "/w/ws", "ws/app", "the workspace root ws"},
		{"a workspace from the app folder", "/w/ws/app", "/w/ws", ".", "the workspace root /w/ws"},
		{"a workspace two up from a subfolder", "/w/ws/apps/a", "/w/ws", "a", "the workspace root /w/ws"},
	} {
		t.Run(row.name, func(t *testing.T) {
			b := &bundler{root: row.root, readRoot: row.readRoot, dir: row.dir}
			if got := b.rootName(); got != row.want {
				t.Errorf("rootName() = %q, want %q", got, row.want)
			}
			if b.readRoot != b.root && !strings.HasPrefix(b.outsideNote(), strings.TrimPrefix(row.want, "the workspace root ")+" is the workspace root") {
				t.Errorf("outsideNote() = %q, want it to start with the root of %q", b.outsideNote(), row.want)
			}
		})
	}
}

// TestFenceWorkspaceRootOnce: the root Fence finds is the build's (workspaceRoot), not looked
// for again: a workspace marker made above the app after the fence changes neither, as the
// kernel's fence, which grants the root Fence found, keeps it.
func TestFenceWorkspaceRootOnce(t *testing.T) {
	for _, tc := range []struct{ name, marker, want string }{
		{"app", "", "app"},
		{"workspace", "package.json", "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			app := filepath.Join(ws, "app")
			writeFile(t, filepath.Join(app, "index.html"), "<p>hi</p>")
			if tc.marker != "" {
				writeFile(t, filepath.Join(ws, tc.marker), `{"workspaces": ["app"]}`)
			}
			f, err := Fence(app, Options{NoWrite: true})
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(ws, tc.want)
			if len(f.Read) != 1 || f.Read[0] != want {
				t.Fatalf("Fence reads %q, want [%s]", f.Read, want)
			}
			writeFile(t, filepath.Join(ws, "pnpm-workspace.yaml"), "packages: [app]\n")
			os.Remove(filepath.Join(ws, "package.json"))
			if got, _ := workspaceRoot(app); got != want {
				t.Errorf("the build's root is %s, Fence's %s", got, want)
			}
		})
	}
}

// TestNeedsNode: whether a build may start Node, which bundle build's fence grants only then
// (finding what Node loads was most of the fence's cost: 3.3 ms of order-book's 5.3). Files are
// under a base folder, the app in base/ws/app (base/ws is a workspace where ws/package.json
// says so); a file whose body starts with "->" is a symbolic link to the rest. An app that
// starts no Node says what a tool needs without it (TestConfinement's
// scss_app_packages_no_tool, sass_in_parent_node_modules_app_packages).
func TestNeedsNode(t *testing.T) {
	pj := func(deps ...string) string {
		var s []string
		for _, d := range deps {
			s = append(s, `"`+d+`": "1.0.0"`)
		}
		return `{ "private": true, "dependencies": { ` + strings.Join(s, ", ") + ` } }`
	}
	pkg := `{ "name": "x", "version": "1.0.0" }`
	for _, row := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"plain", map[string]string{"ws/app/index.html": "<p>hi</p>"}, false},
		// order-book and bench/heavy: packages, none a tool's.
		{"packages_no_tool", map[string]string{"ws/app/package.json": pj("react"), "ws/app/node_modules/react/package.json": pkg}, false},
		{"vite_config", map[string]string{"ws/app/vite.config.js": "export default {}"}, true},
		{"vite_config_ts_packages", map[string]string{"ws/app/vite.config.ts": "export default {}", "ws/app/node_modules/react/package.json": pkg}, true},
		{"postcss_config", map[string]string{"ws/app/postcss.config.js": "export default {}", "ws/app/node_modules/react/package.json": pkg}, true},
		{"postcssrc_mjs", map[string]string{"ws/app/.postcssrc.mjs": "export default {}", "ws/app/node_modules/react/package.json": pkg}, true},
		{"postcss_key", map[string]string{"ws/app/package.json": `{ "postcss": { "plugins": {} } }`, "ws/app/node_modules/react/package.json": pkg}, true},
		{"postcss_config_in_workspace", map[string]string{"ws/package.json": `{ "workspaces": ["app"] }`, "ws/.postcssrc.json": "{}", "ws/node_modules/react/package.json": pkg, "ws/app/index.html": ""}, true},
		{"sass", map[string]string{"ws/app/node_modules/sass/package.json": pkg}, true},
		{"sass_embedded", map[string]string{"ws/app/node_modules/sass-embedded/package.json": pkg}, true},
		{"less", map[string]string{"ws/app/node_modules/less/package.json": pkg}, true},
		{"stylus", map[string]string{"ws/app/node_modules/stylus/package.json": pkg}, true},
		{"vue", map[string]string{"ws/app/node_modules/vue/package.json": pkg}, true},
		{"svelte", map[string]string{"ws/app/node_modules/svelte/package.json": pkg}, true},
		{"babel_core", map[string]string{"ws/app/node_modules/@babel/core/package.json": pkg}, true},
		{"babel_preset_solid", map[string]string{"ws/app/node_modules/babel-preset-solid/package.json": pkg}, true},
		{"tailwind_node", map[string]string{"ws/app/node_modules/@tailwindcss/node/package.json": pkg}, true},
		{"other_of_a_tool_scope", map[string]string{"ws/app/node_modules/@tailwindcss/typography/package.json": pkg, "ws/app/node_modules/@babel/runtime/package.json": pkg}, false},
		// Node resolves a bare name to a file of it too.
		{"sass_file", map[string]string{"ws/app/node_modules/sass.js": "module.exports = {}"}, true},
		{"sass_linked", map[string]string{"ws/app/node_modules/store/sass/package.json": pkg, "ws/app/node_modules/sass": "->store/sass"}, true},
		{"in_workspace_root", map[string]string{"ws/package.json": `{ "workspaces": ["app"] }`, "ws/node_modules/sass/package.json": pkg, "ws/app/node_modules/react/package.json": pkg}, true},
		// The runner never loads an ancestor's package: not the app's to run.
		{"above_the_root", map[string]string{"ws/node_modules/sass/package.json": pkg, "ws/app/node_modules/react/package.json": pkg}, false},
		// The runner's find looks in the node_modules of each package the app depends on.
		{"nested_in_dependency", map[string]string{"ws/app/package.json": pj("ui"), "ws/app/node_modules/ui/package.json": pkg, "ws/app/node_modules/ui/node_modules/sass/package.json": pkg}, true},
		{"nested_in_scoped_dependency", map[string]string{"ws/app/package.json": pj("@acme/ui"), "ws/app/node_modules/@acme/ui/package.json": pkg, "ws/app/node_modules/@acme/ui/node_modules/less/package.json": pkg}, true},
		// The runner passes over a dependency's folder without a package.json.
		{"nested_in_dependency_without_package_json", map[string]string{"ws/app/package.json": pj("ui"), "ws/app/node_modules/ui/node_modules/sass/package.json": pkg}, false},
		{"nested_in_a_package_not_depended_on", map[string]string{"ws/app/package.json": pj("react"), "ws/app/node_modules/react/package.json": pkg, "ws/app/node_modules/ui/node_modules/sass/package.json": pkg}, false},
		// Where it cannot tell without reading more, it lets Node in.
		{"pnpm_store", map[string]string{"ws/app/package.json": pj("react"), "ws/app/node_modules/.pnpm/react@1.0.0/node_modules/react/package.json": pkg}, true},
		{"dependency_linked", map[string]string{"ws/app/package.json": pj("ui"), "ws/app/node_modules/ui": "->../../lib/ui", "ws/lib/ui/package.json": pkg}, true},
		// Nothing outside the root is looked at: a folder or file that leads out lets Node in,
		// whose runner refuses it (as it did), whatever is there.
		{"node_modules_linked_outside", map[string]string{"ws/app/node_modules": "->../../outside/node_modules", "outside/node_modules/react/package.json": pkg}, true},
		{"package_json_linked_outside", map[string]string{"ws/app/package.json": "->../../outside/package.json", "outside/package.json": pj("react"), "ws/app/node_modules/react/package.json": pkg}, true},
		{"nested_node_modules_linked_outside", map[string]string{"ws/app/package.json": pj("ui"), "ws/app/node_modules/ui/package.json": pkg, "ws/app/node_modules/ui/node_modules": "->../../../../outside/nm", "outside/nm/react/package.json": pkg}, true},
		{"dependency_named_outside", map[string]string{"ws/app/package.json": pj("../../../outside"), "ws/app/node_modules/react/package.json": pkg, "outside/node_modules/sass/package.json": pkg}, false},
	} {
		t.Run(row.name, func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			app := filepath.Join(base, "ws", "app")
			if err := os.MkdirAll(app, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, body := range row.files {
				p := filepath.Join(base, filepath.FromSlash(name))
				if target, ok := strings.CutPrefix(body, "->"); ok {
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
						t.Fatal(err)
					}
					continue
				}
				writeFile(t, p, body)
			}
			if got := NeedsNode(app); got != row.want {
				t.Errorf("NeedsNode = %v, want %v", got, row.want)
			}
			// The fence of a build with NoNode runs nothing.
			if f, err := Fence(app, Options{NoWrite: true, NoNode: !row.want}); err != nil || len(f.Exec) > 0 && !row.want {
				t.Errorf("Fence with NoNode: %v, Exec %q", err, f.Exec)
			}
		})
	}
}

// saidWithNotes is what a build's error says, each message with its note.
func saidWithNotes(err error) string {
	var le *diag.ListError
	if !errors.As(err, &le) {
		return fmt.Sprint(err)
	}
	var b strings.Builder
	for _, m := range le.List {
		fmt.Fprintf(&b, "%s\n  %s\n", m, m.Note)
	}
	return b.String()
}

// TestBuildNoNode: a build whose caller's fence left Node out (Options.NoNode) starts no Node
// and says what each tool needs as the same build with Node says it (the package the tool
// loads first, which NeedsNode found not installed, with the range to install); a vite.config
// that appeared after the fence was made is refused with the fix (build again), not with the
// kernel's refusal to run Node.
func TestBuildNoNode(t *testing.T) {
	page := func(head string) string {
		return `<!doctype html><html><head><title>t</title>` + head + `</head><body></body></html>`
	}
	scss := page(`<link rel="stylesheet" href="./s.scss">`)
	css := page(`<link rel="stylesheet" href="./s.css">`)
	jsx := page(`<script type="module" src="./main.jsx"></script>`)
	for _, row := range []struct {
		name  string
		files map[string]string
		want  string
		node  bool // a build with Node says the same
		bare  bool // the app has no package.json and no node_modules
	}{
		{"scss", map[string]string{"index.html": scss, "s.scss": ".a { color: red }"}, "Sass needs the npm package sass, which is not installed in the app", true, false},
		{"vite_config", map[string]string{"index.html": scss, "s.scss": ".a { color: red }", "vite.config.js": "export default {}"}, "Node is not inside this build's fence", false, false},
		// A tool's package installed after the fence was made (with NoNode): built again.
		{"sass_installed_since", map[string]string{"index.html": scss, "s.scss": ".a { color: red }", "node_modules/sass/package.json": `{ "name": "sass" }`}, "Node is not inside this build's fence", false, false},
		// Tailwind's compiler is @tailwindcss/node, the package Node loads first; tailwindcss
		// (v4, or v3's @tailwind) may be installed without it.
		{"tailwind_v4", map[string]string{"index.html": css, "s.css": `@import "tailwindcss";`}, "Tailwind CSS needs the npm package @tailwindcss/node, which is not installed", true, false},
		{"tailwind_v3", map[string]string{"index.html": css, "s.css": "@tailwind base;\n@tailwind utilities;"}, "Tailwind CSS needs the npm package @tailwindcss/node, which is not installed", true, false},
		{"tailwindcss_installed", map[string]string{"index.html": css, "s.css": `@import "tailwindcss";`, "node_modules/tailwindcss/package.json": `{ "name": "tailwindcss", "version": "4.1.0" }`},
			"Tailwind CSS needs the npm package @tailwindcss/node, which is not installed", true, false},
		// Solid's compiler runs on @babel/core, which Node loads first.
		{"solid", map[string]string{"index.html": jsx, "main.jsx": "document.body.append(<p>hi</p>);", "package.json": `{ "private": true, "dependencies": { "left-pad": "1.3.0", "solid-js": "1.9.0" } }`,
			"node_modules/solid-js/package.json": `{ "name": "solid-js", "version": "1.9.0" }`}, "Solid's JSX files need the npm package @babel/core, which is not installed", true, false},
		// Without node_modules, the tool's own package is named, with Node or without.
		{"tailwind_no_packages", map[string]string{"index.html": css, "s.css": `@import "tailwindcss";`}, "Tailwind CSS needs the npm package tailwindcss, which is not installed", true, true},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"miniapp.toml": "id = \"t\"\nname = \"T\"\ndescription = \"A test app.\"\nentry = \"index.html\"\n"})
			if !row.bare {
				writeFiles(t, dir, map[string]string{"package.json": `{ "private": true, "dependencies": { "left-pad": "1.3.0" } }`, "node_modules/left-pad/package.json": `{ "name": "left-pad" }`})
			}
			writeFiles(t, dir, row.files)
			if row.node && NeedsNode(dir) {
				t.Fatalf("NeedsNode = true: the row's app is not one a fenced build leaves Node out for")
			}
			_, err := Build(context.Background(), dir, Options{NoWrite: true, NoNode: true})
			if err == nil || !strings.Contains(err.Error(), row.want) {
				t.Errorf("Build: %v, want an error saying %q", err, row.want)
			}
			if !row.node {
				return
			}
			_, withNode := Build(context.Background(), dir, Options{NoWrite: true})
			if a, b := saidWithNotes(err), saidWithNotes(withNode); a != b {
				t.Errorf("without Node:\n%s\nwith Node:\n%s", a, b)
			}
		})
	}
}
