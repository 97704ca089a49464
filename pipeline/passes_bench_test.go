package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// BenchmarkPasses times the passes over esbuild's minified module script of each example of
// testdata/examples, on the script as esbuild wrote it (a build with both passes off; the
// shorter forms, shorterforms.go, written), in the
// same run as the build: the unwritten bindings written as values and minified again
// (unwritten.go; ms-unwritten), the local names given anew, the top level's too
// (localnames.go; ms-rename), and each over the median build with both passes off
// (ms-build-without), which is what each adds to a build.
//
//	go test ./pipeline -run '^$' -bench Passes -benchtime=5x
func BenchmarkPasses(b *testing.B) {
	if _, err := os.Stat(filepath.Join(examples, "node_modules")); err != nil {
		b.Fatalf("the examples need their npm packages: run (cd %s && npm ci), as scripts/test does", examples)
	}
	moduleScript := regexp.MustCompile(`(?s)<script type="module">(.*?)</script>`)
	for _, app := range []string{"basic-server-vue", "basic-server-svelte", "basic-server-solid", "basic-server-preact", "basic-server-react", "basic-server-vanillajs"} {
		b.Run(app, func(b *testing.B) {
			dir, _ := filepath.Abs(filepath.Join(examples, app))
			opts := Options{NoWrite: true, NoGzip: true, noLocalNames: true, noUnwritten: true}
			res, err := Build(context.Background(), dir, opts)
			if err != nil {
				b.Fatal(err)
			}
			var js string
			for _, m := range moduleScript.FindAllSubmatch(res.HTML, -1) {
				if len(m[1]) > len(js) {
					js = string(m[1])
				}
			}
			if js == "" {
				b.Fatal("no module script in the page")
			}
			if inlineUnwritten(code{js: js}, api.BuildOptions{}).js == js {
				b.Fatal("the pass changes nothing")
			}
			var build, unwritten, rename []time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if _, err := Build(context.Background(), dir, opts); err != nil {
					b.Fatal(err)
				}
				build = append(build, time.Since(start))
				start = time.Now()
				c := inlineUnwritten(code{js: js}, api.BuildOptions{})
				unwritten = append(unwritten, time.Since(start))
				start = time.Now()
				renameLocals(c, true)
				rename = append(rename, time.Since(start))
			}
			b.StopTimer()
			median := func(d []time.Duration) float64 {
				slices.Sort(d)
				return float64(d[len(d)/2].Microseconds()) / 1000
			}
			b.ReportMetric(median(build), "ms-build-without")
			b.ReportMetric(median(unwritten), "ms-unwritten")
			b.ReportMetric(median(rename), "ms-rename")
			b.ReportMetric(median(unwritten)/median(build), "unwritten/build")
			b.ReportMetric(median(rename)/median(build), "rename/build")
		})
	}
}
