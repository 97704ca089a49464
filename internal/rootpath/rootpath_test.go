package rootpath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestResolve: links inside the root are followed as the kernel follows them; a path or a
// link that leaves the root is ErrOutside whether its target exists or not, and nothing
// outside is looked at (a target whose folder outside cannot even be listed gives the same).
func TestResolve(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "ws", "app")
	for _, d := range []string{"src/deep", "../../secrets/dir"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "src", "a.ts"), nil, 0o644)
	os.WriteFile(filepath.Join(base, "secrets", "s.txt"), nil, 0o644)
	links := map[string]string{
		"in":          "src/a.ts",
		"indir":       "src",
		"up_and_in":   "../app/src/a.ts",
		"abs_in":      filepath.Join(root, "src", "a.ts"),
		"dangling_in": "src/none.ts",
		"out":         "../../secrets/s.txt",
		"out_missing": "../../secrets/none.txt",
		"out_nodir":   "../../nowhere/none.txt",
		"abs_out":     filepath.Join(base, "secrets", "s.txt"),
		"src/deep/up": "../../../../secrets",
		"chain":       "in",
		"loop":        "loop",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, row := range []struct {
		path string
		want string // the real path, relative to root, or "outside", "missing"
	}{
		{"src/a.ts", "src/a.ts"}, {"in", "src/a.ts"}, {"chain", "src/a.ts"}, {"indir/a.ts", "src/a.ts"},
		{"up_and_in", "src/a.ts"}, {"abs_in", "src/a.ts"}, {"src/../src/a.ts", "src/a.ts"}, {".", "."},
		{"src/none.ts", "missing"}, {"dangling_in", "missing"}, {"src/a.ts/x", "missing"},
		{"out", "outside"}, {"out_missing", "outside"}, {"out_nodir", "outside"}, {"abs_out", "outside"},
		{"src/deep/up/s.txt", "outside"}, {"src/deep/up/none", "outside"}, {"../../secrets/s.txt", "outside"},
		{"../../secrets/none", "outside"}, {"..", "outside"}, {"../app/src/a.ts", "src/a.ts"},
		{"loop", "error"},
	} {
		got, err := Resolve(filepath.Join(root, row.path), root)
		switch {
		case errors.Is(err, ErrOutside):
			got = "outside"
		case errors.Is(err, fs.ErrNotExist):
			got = "missing"
		case err != nil:
			got = "error"
		default:
			got, _ = filepath.Rel(root, got)
		}
		if got != row.want {
			t.Errorf("Resolve(%s) = %s (%v), want %s", row.path, got, err, row.want)
		}
	}
	// Nothing outside is looked at: with the folder outside unreadable and unlistable, the
	// answers are the same.
	if os.Getuid() != 0 {
		os.Chmod(filepath.Join(base, "secrets"), 0)
		defer os.Chmod(filepath.Join(base, "secrets"), 0o755)
		for _, p := range []string{"out", "out_missing", "src/deep/up/s.txt"} {
			if _, err := Resolve(filepath.Join(root, p), root); !errors.Is(err, ErrOutside) {
				t.Errorf("Resolve(%s) with the folder outside closed: %v", p, err)
			}
		}
	}
}
