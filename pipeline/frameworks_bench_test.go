package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/miniapp/bundle/sdk"
)

// BenchmarkFrameworkExamples builds each example of testdata/examples (shaped like the official
// MCP Apps basic-server-*) and reports, per example: the median build with Node started and
// the compilers loaded anew (ms-cold, as bundle build runs), the median rebuild after a change
// to the component in a Session whose Node runner is warm (ms-warm, as bundle dev runs), their
// ratio, the page's gzip size, the gzip size of the example's own `vite build` (vite-plugin-
// singlefile, run once in the same run; its wall time, ms-vite, is the baseline of ms-cold, since
// a busy machine slows both) and of the SDK's script, and the page's gzip over Vite's plus the
// SDK's (≤ 1 is the target); and, to show what renaming the local names (localnames.go) and
// writing unwritten bindings as their values (unwritten.go) save and cost, that ratio for the
// page without each pass and the ratio of the median cold builds with and without it.
//
//	go test ./pipeline -run '^$' -bench FrameworkExamples -benchtime=5x
func BenchmarkFrameworkExamples(b *testing.B) {
	if _, err := os.Stat(filepath.Join(examples, "node_modules", ".bin", "vite")); err != nil {
		b.Fatalf("the examples need their npm packages: run (cd %s && npm ci), as scripts/test does", examples)
	}
	carried, err := sdk.Compile(true)
	if err != nil {
		b.Fatal(err)
	}
	sdkGzip := gzipSize([]byte(carried))
	for _, row := range []struct{ app, component string }{
		{"basic-server-vue", "src/App.vue"},
		{"basic-server-svelte", "src/App.svelte"},
		{"basic-server-solid", "src/GetTimeApp.tsx"},
		{"basic-server-preact", "src/mcp-app.tsx"},
		{"basic-server-react", "src/mcp-app.tsx"},
		{"basic-server-vanillajs", "src/mcp-app.ts"},
	} {
		b.Run(row.app, func(b *testing.B) {
			dir, _ := filepath.Abs(filepath.Join(examples, row.app))
			out := b.TempDir()
			vite := exec.Command(filepath.Join("..", "node_modules", ".bin", "vite"), "build", "--outDir", out, "--emptyOutDir", "--logLevel", "error")
			vite.Dir = dir
			viteStart := time.Now()
			if msg, err := vite.CombinedOutput(); err != nil {
				b.Fatalf("vite build: %v\n%s", err, msg)
			}
			viteTime := time.Since(viteStart)
			vitePage, err := os.ReadFile(filepath.Join(out, "mcp-app.html"))
			if err != nil {
				b.Fatal(err)
			}
			file := filepath.Join(dir, filepath.FromSlash(row.component))
			src, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			defer os.WriteFile(file, src, 0o644)
			session := NewSession()
			defer session.Close()
			res, err := Build(context.Background(), dir, Options{NoWrite: true, Session: session})
			if err != nil {
				b.Fatal(err)
			}
			plain, err := Build(context.Background(), dir, Options{NoWrite: true, noLocalNames: true})
			if err != nil {
				b.Fatal(err)
			}
			written, err := Build(context.Background(), dir, Options{NoWrite: true, noUnwritten: true})
			if err != nil {
				b.Fatal(err)
			}
			var cold, warm, coldPlain, coldWritten []time.Duration
			b.ResetTimer()
			for i := range b.N {
				// The cold build with esbuild's local names (noLocalNames) and with the
				// unwritten bindings left (noUnwritten) too, in turns, so that a busy machine
				// slows each alike.
				for k := range 3 {
					variant := (i + k) % 3
					start := time.Now()
					if _, err := Build(context.Background(), dir, Options{NoWrite: true, NoGzip: true, noLocalNames: variant == 0, noUnwritten: variant == 2}); err != nil {
						b.Fatal(err)
					}
					switch variant {
					case 0:
						coldPlain = append(coldPlain, time.Since(start))
					case 1:
						cold = append(cold, time.Since(start))
					default:
						coldWritten = append(coldWritten, time.Since(start))
					}
				}
				os.WriteFile(file, append(slices.Clip(src), []byte("\n")[:i%2]...), 0o644)
				start := time.Now()
				if _, err := Build(context.Background(), dir, Options{NoWrite: true, NoGzip: true, Session: session}); err != nil {
					b.Fatal(err)
				}
				warm = append(warm, time.Since(start))
			}
			b.StopTimer()
			median := func(d []time.Duration) float64 {
				slices.Sort(d)
				return float64(d[len(d)/2].Microseconds()) / 1000
			}
			page, viteGzip := gzipSize(res.HTML), gzipSize(vitePage)
			b.ReportMetric(median(cold), "ms-cold")
			b.ReportMetric(median(warm), "ms-warm")
			b.ReportMetric(median(cold)/median(warm), "cold/warm")
			b.ReportMetric(float64(viteTime.Microseconds())/1000, "ms-vite")
			b.ReportMetric(median(cold)/(float64(viteTime.Microseconds())/1000), "cold/vite")
			b.ReportMetric(float64(page), "gzip-B")
			b.ReportMetric(float64(viteGzip), "vite-gzip-B")
			b.ReportMetric(float64(sdkGzip), "sdk-gzip-B")
			b.ReportMetric(float64(page)/float64(viteGzip+sdkGzip), "gzip/(vite+sdk)")
			b.ReportMetric(float64(gzipSize(plain.HTML))/float64(viteGzip+sdkGzip), "esbuild-names-gzip/(vite+sdk)")
			b.ReportMetric(median(cold)/median(coldPlain), "cold/esbuild-names-cold")
			b.ReportMetric(float64(gzipSize(written.HTML))/float64(viteGzip+sdkGzip), "unwritten-kept-gzip/(vite+sdk)")
			b.ReportMetric(median(cold)/median(coldWritten), "cold/unwritten-kept-cold")
		})
	}
}
