package dev

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/miniapp/bundle/internal/testfs"
	"github.com/miniapp/bundle/pipeline"
)

// chartsApp copies testdata/charts (React 19, recharts, Tailwind CSS v4, installed by
// scripts/test from its package-lock.json) into a new folder, its node_modules hard-linked,
// and returns the folder.
func chartsApp(t testing.TB) string {
	t.Helper()
	src := filepath.Join("testdata", "charts")
	if _, err := os.Stat(filepath.Join(src, "node_modules", "recharts")); err != nil {
		t.Fatalf("%s needs its npm packages: run (cd %s && npm ci), as scripts/test does", src, src)
	}
	dst := filepath.Join(t.TempDir(), "charts")
	testfs.Copy(t, src, dst, "node_modules", "dist")
	testfs.HardLink(t, filepath.Join(src, "node_modules"), filepath.Join(dst, "node_modules"))
	return dst
}

// TestSessionTailwindSameBytes: the Tailwind CSS compiler kept between a session's builds
// gives the bytes a fresh build gives, when a class is added and when one goes away.
func TestSessionTailwindSameBytes(t *testing.T) {
	dir := chartsApp(t)
	session := pipeline.NewSession()
	defer session.Close()
	build := func(s *pipeline.Session) []byte {
		t.Helper()
		res, err := pipeline.Build(context.Background(), dir, pipeline.Options{NoWrite: true, Session: s})
		if err != nil {
			t.Fatal(err)
		}
		return res.HTML
	}
	app := filepath.Join(dir, "src", "App.tsx")
	src, _ := os.ReadFile(app)
	for _, step := range []struct {
		name string
		src  []byte
	}{
		{"first", src},
		{"a_class_added", bytes.Replace(src, []byte(`"mt-2 text-sm`), []byte(`"mt-2 underline text-sm`), 1)},
		{"the_class_gone", src},
		{"text_edited", bytes.Replace(src, []byte("Monthly sales"), []byte("Sales by month"), 1)},
	} {
		os.WriteFile(app, step.src, 0o644)
		kept := build(session)
		if fresh := build(nil); !bytes.Equal(kept, fresh) {
			t.Errorf("%s: the session's build (%d bytes) differs from a fresh one (%d bytes)", step.name, len(kept), len(fresh))
		}
		if step.name == "a_class_added" && !bytes.Contains(kept, []byte("text-decoration-line:underline")) {
			t.Errorf("%s: no underline rule in the page", step.name)
		}
		if step.name == "the_class_gone" && bytes.Contains(kept, []byte("text-decoration-line:underline")) {
			t.Errorf("%s: the underline rule stayed", step.name)
		}
	}
}
