package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/manifest"
)

// bigGlobApp writes an app whose data folder holds n files (100 folders of n/100) and whose
// script globs all of them (keys only) and ten of them (eagerly).
func bigGlobApp(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		d := filepath.Join(dir, "data", fmt.Sprintf("d%03d", i%100))
		if i < 100 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%06d.json", i)), []byte(fmt.Sprintf(`{"n":%d}`, i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"big\"\nname = \"Big\"\ndescription = \"A glob of many files.\"\nentry = \"main.ts\"\nmaxKB = 8192\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.ts"), []byte(`const all = Object.keys(import.meta.glob("./data/**/*.json"));
const few = import.meta.glob("./data/d042/f00*.json", { eager: true, import: "n" });
(window as any).result = { all: all.length, few };
`), 0o644)
	return dir
}

// TestGlob100k globs 100,000 files: every key is in the page, in Vite's order, and the ten a
// narrow pattern names are imported; the build's heap stays bounded.
func TestGlob100k(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100,000 files")
	}
	const n = 100000
	dir := bigGlobApp(t, n)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var m runtime.MemStats
		top := uint64(0)
		for {
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			select {
			case <-stop:
				peak <- top
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	close(stop)
	p := <-peak
	if err != nil {
		t.Fatal(err)
	}
	page := string(res.HTML)
	if got := strings.Count(page, `.json":0`); got != n {
		t.Errorf("the page holds %d keys, want %d", got, n)
	}
	first := strings.Index(page, `"./data/d000/f000000.json":0`)
	second := strings.Index(page, `"./data/d000/f000100.json":0`)
	last := strings.Index(page, `"./data/d099/f099999.json":0`)
	if first < 0 || second < first || last < second {
		t.Errorf("the keys are not in Vite's order (%d, %d, %d)", first, second, last)
	}
	// The page's keys alone are 2.7 MB; the walk, the object and esbuild's parse of it are a
	// few times that.
	if grown := int64(p) - int64(before.HeapInuse); grown > 1<<30 {
		t.Errorf("the build's heap grew by %d MB", grown>>20)
	}
	t.Logf("peak heap in use: %d MB over %d MB before", (p-before.HeapInuse)>>20, before.HeapInuse>>20)
}

// BenchmarkGlob100k measures the glob of 100,000 files (keys only, so that esbuild's work is
// small) against the baseline of a bare filepath.WalkDir of the same tree, in the same run.
func BenchmarkGlob100k(b *testing.B) {
	dir := bigGlobApp(b, 100000)
	m, err := manifestLoadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	bu, err := newBundler(m, dir, m.Root, nil, nil, Options{})
	if err != nil {
		b.Fatal(err)
	}
	importer := filepath.Join(m.Root, "main.ts")
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			n := 0
			filepath.WalkDir(filepath.Join(m.Root, "data"), func(p string, d fs.DirEntry, err error) error {
				if !d.IsDir() && strings.HasSuffix(p, ".json") {
					n++
				}
				return nil
			})
		}
	})
	b.Run("glob", func(b *testing.B) {
		for b.Loop() {
			files, _, msg := bu.globFiles(importer, []string{"./data/**/*.json"}, globOptions{})
			if msg != "" || len(files) != 100000 {
				b.Fatal(msg, len(files))
			}
		}
	})
}

func manifestLoadDir(dir string) (*manifest.Manifest, error) { return manifest.Load(dir) }
