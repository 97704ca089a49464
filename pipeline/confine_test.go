package pipeline

import (
	"os"
	"path/filepath"
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
