package offline

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/benchpage"
	"github.com/miniapp/bundle/markup"
	"golang.org/x/net/html"
)

// BenchmarkCheck checks the realistic bundle and, in the same run, between the checks (the
// timer stopped), builds the trees of the same bytes that the check is held to: x/net's
// (html.Parse) and the page model's (markup.Parse). x-html.Parse is the check's time over
// html.Parse's (the check builds a tree, and more: the target is at most 2), x-markup.Parse
// over markup.Parse's; peak-heap/input is the most heap the check holds over the input's size
// (the target is at most 4).
func BenchmarkCheck(b *testing.B) {
	doc := benchpage.Realistic()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	var check, xnet, model time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		fs, err := Check("bench.html", doc, Options{})
		check += time.Since(t0)
		if err != nil || len(fs) != 0 {
			b.Fatalf("err %v, %d findings: %v", err, len(fs), fs)
		}
		b.StopTimer()
		t1 := time.Now()
		html.Parse(bytes.NewReader(doc))
		t2 := time.Now()
		markup.Parse(doc, markup.Options{})
		xnet, model = xnet+t2.Sub(t1), model+time.Since(t2)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(check)/float64(xnet), "x-html.Parse")
	b.ReportMetric(float64(check)/float64(model), "x-markup.Parse")
	b.ReportMetric(peakHeap(func() { Check("bench.html", doc, Options{}) })/float64(len(doc)), "peak-heap/input")
}

// peakHeap runs f once and returns the most heap in use above the starting point, sampled
// every 50µs from runtime/metrics while f runs.
func peakHeap(f func()) float64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() float64 { metrics.Read(sample); return float64(sample[0].Value.Uint64()) }
	base := read()
	done := make(chan struct{})
	peak := make(chan float64)
	go func() {
		p := 0.0
		t := time.NewTicker(50 * time.Microsecond)
		defer t.Stop()
		for {
			if v := read(); v > p {
				p = v
			}
			select {
			case <-done:
				peak <- p
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	return <-peak - base
}

// BenchmarkCheckScriptImports is the same bundle with one dynamic import added to its script,
// so that esbuild parses the whole 3 MB script: the cost a script with imports adds.
func BenchmarkCheckScriptImports(b *testing.B) {
	doc := bytes.Replace(benchpage.Realistic(), []byte("</script>"), []byte("import('data:text/javascript,export default 1')</script>"), 1)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if fs, err := Check("bench.html", doc, Options{}); err != nil || len(fs) != 0 {
			b.Fatalf("err %v, %d findings", err, len(fs))
		}
	}
}

// BenchmarkLinear checks each dimension of TestLinear at sizes n and 4n: time per byte
// (ns/op over the bytes) stays flat from n to 4n when the check is linear.
func BenchmarkLinear(b *testing.B) {
	for _, name := range sortedDims() {
		for _, n := range []int{2000, 8000} {
			doc := []byte(linearDims[name](n))
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				for b.Loop() {
					if _, err := Check("l.html", doc, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDense checks a 14 MB page of 600,000 small elements, the input with the most heap
// per byte, and reports its peak heap over its size.
func BenchmarkDense(b *testing.B) {
	doc := []byte(strings.Repeat(`<i class=c><b>x</b></i>`+"\n", 600_000))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Check("dense.html", doc, Options{})
	}
	b.StopTimer()
	b.ReportMetric(peakHeap(func() { Check("dense.html", doc, Options{}) })/float64(len(doc)), "peak-heap/input")
}
