package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkParamReads times the build of order-book and bench/heavy with the reading of the
// app's own functions' parameters at each sink (markupparam.go) and without it
// (noParamReads), in the same run, alternating: ms-with, ms-without (medians) and their
// ratio, which is what the reading adds to a build.
//
//	(cd bench/heavy && npm ci) && go test ./pipeline -run '^$' -bench ParamReads -benchtime 10x
func BenchmarkParamReads(b *testing.B) {
	for _, app := range []string{"../samples/order-book", "../bench/heavy"} {
		b.Run(filepath.Base(app), func(b *testing.B) {
			if _, err := os.Stat(filepath.Join(app, "node_modules")); err != nil {
				b.Fatalf("%s needs its npm packages: run (cd %s && npm ci)", app, app)
			}
			var took [2][]time.Duration
			for b.Loop() {
				for i, off := range []bool{false, true} {
					start := time.Now()
					if _, err := Build(context.Background(), app, Options{NoWrite: true, NoGzip: true, noParamReads: off}); err != nil {
						b.Fatal(err)
					}
					took[i] = append(took[i], time.Since(start))
				}
			}
			median := func(d []time.Duration) float64 {
				slices.Sort(d)
				return float64(d[len(d)/2].Microseconds()) / 1000
			}
			with, without := median(took[0]), median(took[1])
			b.ReportMetric(with, "ms-with")
			b.ReportMetric(without, "ms-without")
			b.ReportMetric(with/without, "with/without")
		})
	}
}
