package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
