// Command playground measures, for each fixture app of pipeline's TestPlayground (Vite's
// playground, ported), bundle build against vite build of the same app in the same run: median
// whole-process wall time over interleaved runs and peak RSS of each (wait4's ru_maxrss: the
// largest process of its tree, the Node process of bundle's CSS tools and Vite's esbuild
// included), then the total. It is not run in CI;
// TestPlayground counts the assertions each build's page passes.
//
//	(cd pipeline/testdata/playground && npm ci) && go run ./bench/playground -runs 5
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/miniapp/bundle/bench/internal/measure"
)

func main() {
	runs := flag.Int("runs", 5, "builds of each tool, interleaved")
	only := flag.String("app", "", "the fixtures to build, comma-separated (default: all)")
	flag.Parse()
	root, _ := filepath.Abs(filepath.Join("pipeline", "testdata", "playground"))
	vite := filepath.Join(root, "node_modules", "vite", "bin", "vite.js")
	if _, err := os.Stat(vite); err != nil {
		fmt.Fprintln(os.Stderr, "playground: Vite is not installed: run npm ci in", root)
		os.Exit(2)
	}
	work, err := os.MkdirTemp("", "bench-playground")
	if err != nil {
		fmt.Fprintln(os.Stderr, "playground:", err)
		os.Exit(3)
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "bundle")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/bundle").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "playground: go build: %v\n%s", err, out)
		os.Exit(3)
	}
	// An app is a folder with a miniapp.toml, at the top or one level down (html/<page>: a
	// playground of many pages is an app per page).
	var apps []string
	for _, pattern := range []string{"*/miniapp.toml", "*/*/miniapp.toml"} {
		found, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, f := range found {
			name, _ := filepath.Rel(root, filepath.Dir(f))
			name = filepath.ToSlash(name)
			if strings.HasPrefix(name, "node_modules") || *only != "" && !strings.Contains(","+*only+",", ","+name+",") {
				continue
			}
			apps = append(apps, name)
		}
	}
	sort.Strings(apps)
	fmt.Printf("%-24s %12s %10s %12s %10s %8s\n", "playground", "bundle wall", "bundle RSS", "vite wall", "vite RSS", "speedup")
	var sumB, sumV time.Duration
	var maxB, maxV int64
	built := 0
	for _, app := range apps {
		dir := filepath.Join(root, filepath.FromSlash(app))
		out := strings.ReplaceAll(app, "/", "-")
		bundle := func() *exec.Cmd {
			return exec.Command(bin, "build", "--out", filepath.Join(work, "out-"+out), dir)
		}
		viteCmd := func() *exec.Cmd {
			c := exec.Command("node", vite, "build", "--outDir", filepath.Join(work, "vite-"+out), "--emptyOutDir", "--logLevel", "error")
			c.Dir = dir
			return c
		}
		var tb, tv []time.Duration
		var rb, rv int64
		failed := ""
		for i := 0; i < *runs && failed == ""; i++ {
			for j := 0; j < 2; j++ {
				if (i+j)%2 == 0 {
					d, r, err := measure.Run(bundle())
					if err != nil {
						failed = "bundle: " + firstLine(err.Error())
						break
					}
					tb, rb = append(tb, d), max(rb, r)
				} else {
					d, r, err := measure.Run(viteCmd())
					if err != nil {
						failed = "vite: " + firstLine(err.Error())
						break
					}
					tv, rv = append(tv, d), max(rv, r)
				}
			}
		}
		if failed != "" {
			fmt.Printf("%-24s %s\n", app, failed)
			continue
		}
		mb, mv := measure.Median(tb), measure.Median(tv)
		fmt.Printf("%-24s %10dms %8.1fMB %10dms %8.1fMB %7.1fx\n", app, mb.Milliseconds(), float64(rb)/1024, mv.Milliseconds(), float64(rv)/1024, float64(mv)/float64(mb))
		sumB, sumV, maxB, maxV, built = sumB+mb, sumV+mv, max(maxB, rb), max(maxV, rv), built+1
	}
	if built > 0 {
		fmt.Printf("%-24s %10dms %8.1fMB %10dms %8.1fMB %7.1fx   (%d apps: the medians summed, the largest peak)\n", "total", sumB.Milliseconds(), float64(maxB)/1024, sumV.Milliseconds(), float64(maxV)/1024, float64(sumV)/float64(sumB), built)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
