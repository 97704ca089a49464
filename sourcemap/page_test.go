package sourcemap

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPageAbsoluteBase holds a map read from a temporary folder (bundle render's child build
// writes one there) to naming its sources from the working folder, as a relative base names
// them: a lexical join of a relative way to the temporary folder and a source that climbs out
// of it named the file through the root ("../../work/app/a.js").
func TestPageAbsoluteBase(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	src, err := filepath.Rel(out, filepath.Join(wd, "app", "a.js"))
	if err != nil {
		t.Fatal(err)
	}
	page := []byte("<!doctype html><script type=\"module\">x()</script>")
	m := []byte(`{"version":3,"sources":["` + filepath.ToSlash(src) + `"],"sourcesContent":["x()"],"names":[],"mappings":"AAAA"}`)
	pos, ok := NewPage(page, m, filepath.ToSlash(out)).Locate(1, len("<!doctype html><script type=\"module\">")+1)
	if !ok || pos.File != "app/a.js" {
		t.Errorf("%q (found %v), want app/a.js", pos.File, ok)
	}
}
