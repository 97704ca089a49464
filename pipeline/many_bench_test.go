package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// generateApps writes n small apps (a TypeScript entry with a module, CSS and a tool each)
// under root.
func generateApps(b *testing.B, root string, n int) []string {
	b.Helper()
	var dirs []string
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("team-%d", i%10), fmt.Sprintf("app-%03d", i))
		writeScriptApp(b, dir, fmt.Sprintf("app-%03d", i), fmt.Sprintf(`import { registerTool } from "@miniapp/sdk";
import { total } from "./sum";
import "./style.css";
const items = Array.from({ length: %d }, (_, k) => ({ id: k, price: k * 1.5 }));
document.getElementById("root")!.textContent = "Total: " + total(items).toFixed(2);
registerTool({ name: "total_%d", description: "The total of the items.", execute: () => total(items) });
`, 10+i, i))
		os.WriteFile(filepath.Join(dir, "sum.ts"), []byte("export const total = (xs: { price: number }[]) => xs.reduce((s, x) => s + x.price, 0);\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "style.css"), []byte(fmt.Sprintf("#root { font: 14px system-ui; color: #%06x; padding: 8px }\n", i*4099%0xffffff)), 0o644)
		dirs = append(dirs, dir)
	}
	return dirs
}

// BenchmarkBuildMany builds 200 generated apps into one folder, on one core's worth of jobs
// and then on every core, in the same run, and reports the wall time of each and the
// speed-up. Run it with -benchtime=1x.
func BenchmarkBuildMany(b *testing.B) {
	const n = 200
	dirs := generateApps(b, b.TempDir(), n)
	build := func(jobs int) time.Duration {
		out := b.TempDir()
		start := time.Now()
		results, _, err := BuildAll(context.Background(), dirs, Options{OutDir: out}, jobs, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range results {
			if r.Err != nil {
				b.Fatalf("%s: %v", r.Dir, r.Err)
			}
		}
		return time.Since(start)
	}
	build(0) // warm the SDK's and esbuild's caches
	var serial, parallel time.Duration
	b.ResetTimer()
	for range b.N {
		serial += build(1)
		parallel += build(runtime.GOMAXPROCS(0))
	}
	b.ReportMetric(float64(serial.Milliseconds())/float64(b.N), "ms-1-job")
	b.ReportMetric(float64(parallel.Milliseconds())/float64(b.N), "ms-all-cores")
	b.ReportMetric(float64(serial)/float64(parallel), "speedup")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
}

// BenchmarkRebuildOneLine rebuilds samples/order-book after a one-line change to a source
// file, as bundle dev does on each save (esbuild's incremental contexts kept in a Session, no
// gzip figure), and reports the median.
func BenchmarkRebuildOneLine(b *testing.B) {
	dir := copyApp(b, sampleDir(b, "order-book"))
	file := filepath.Join(dir, "src", "App.tsx")
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	session := NewSession()
	defer session.Close()
	if _, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session}); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	b.ResetTimer()
	for i := range b.N {
		os.WriteFile(file, append(src, []byte(fmt.Sprintf("\n// edit %d\n", i))...), 0o644)
		start := time.Now()
		if _, err := Build(context.Background(), dir, Options{NoWrite: true, NoGzip: true, Session: session}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
}
