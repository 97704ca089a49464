package dev

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/oneshot"
	"github.com/miniapp/bundle/pipeline"
)

// BenchmarkRebuild times pipeline.Build with bundle dev's options and a Session on
// testdata/charts, after a script edit and after a stylesheet edit: the build alone, without
// the harness or the browser (BenchmarkReload has them). Its baseline is the same build
// without a Session (a fresh build, as bundle build makes), three times after the loop:
// x-fresh is the median rebuild over the median fresh build. -cpuprofile shows where it goes.
func BenchmarkRebuild(b *testing.B) {
	defer oneshot.Tune(oneshot.Floor)() // as bundle dev and bundle build run
	for _, kind := range []string{"script", "style"} {
		b.Run(kind, func(b *testing.B) {
			dir := chartsApp(b)
			session := pipeline.NewSession()
			defer session.Close()
			opts := pipeline.Options{NoWrite: true, NoGzip: true, Session: session, DevHosts: []string{"http://127.0.0.1:1"}, DevScript: client("http://127.0.0.1:1")}
			file := filepath.Join(dir, "src", "App.tsx")
			if kind == "style" {
				file = filepath.Join(dir, "src", "app.css")
			}
			src, _ := os.ReadFile(file)
			if _, err := pipeline.Build(context.Background(), dir, opts); err != nil {
				b.Fatal(err)
			}
			var times []time.Duration
			b.ResetTimer()
			for i := range b.N {
				var edited []byte
				if kind == "script" {
					edited = []byte(strings.Replace(string(src), "Read the monthly sales.", fmt.Sprintf("Read the monthly sales (%d).", i), 1))
				} else {
					edited = append(slices.Clone(src), fmt.Sprintf("\nh1 { letter-spacing: %dpx; }\n", i%50+1)...)
				}
				os.WriteFile(file, edited, 0o644)
				start := time.Now()
				if _, err := pipeline.Build(context.Background(), dir, opts); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			fresh := opts
			fresh.Session = nil
			var freshTimes []time.Duration
			for range 3 {
				start := time.Now()
				if _, err := pipeline.Build(context.Background(), dir, fresh); err != nil {
					b.Fatal(err)
				}
				freshTimes = append(freshTimes, time.Since(start))
			}
			b.ReportMetric(median(times), "ms-median-rebuild")
			b.ReportMetric(median(freshTimes), "ms-median-fresh")
			b.ReportMetric(median(times)/median(freshTimes), "x-fresh")
		})
	}
}
