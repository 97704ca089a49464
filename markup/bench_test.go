package markup

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/benchpage"
	"golang.org/x/net/html"
)

// pathological are inputs built to make a literal reading of the standard's algorithms
// quadratic, by size n: deep nesting then end tags that look down the stack, many open
// formatting elements, deep tables, adoption agency storms, foreign content end tags.
var pathological = map[string]func(n int) string{
	"nested_div_then_p_end": func(n int) string { return strings.Repeat("<div>", n) + strings.Repeat("</p>", n) },
	"nested_span_then_other_end": func(n int) string {
		return strings.Repeat("<span>", n) + strings.Repeat("</x>", n)
	},
	"li_in_deep_spans":        func(n int) string { return "<ul><li>" + strings.Repeat("<span>", n) + strings.Repeat("<li></li>", n) },
	"formatting_elements":     func(n int) string { return fmtMany(n) + strings.Repeat("<a></a>", n) },
	"formatting_in_paragraph": func(n int) string { return "<p>" + fmtMany(n) + "</p>" + strings.Repeat("<p>x</p>", n) },
	"deep_tables":             func(n int) string { return strings.Repeat("<table><tr><td>", n) + strings.Repeat("</table>", n) },
	"tables_in_deep_divs":     func(n int) string { return strings.Repeat("<div>", n) + strings.Repeat("<table></table>", n) },
	"adoption_storm": func(n int) string {
		return strings.Repeat("<b>", 3) + "<div>" + strings.Repeat("<div>", n) + strings.Repeat("</b><b>", n)
	},
	"adoption_with_foreign": func(n int) string {
		return fmtMany(n/4) + "<div><svg>" + strings.Repeat("<g>", n) + strings.Repeat("</b>", n)
	},
	"foreign_end_tags":    func(n int) string { return "<svg>" + strings.Repeat("<g>", n) + strings.Repeat("</x>", n) },
	"many_attributes":     func(n int) string { return "<div " + strings.Repeat("a ", n) + ">" },
	"distinct_attributes": func(n int) string { return "<b" + distinctAttrs(n) + ">" + strings.Repeat("<b a>", n) },
	"text_after_ignored":  func(n int) string { return strings.Repeat("a</x>", n) },
	"form_in_deep_divs": func(n int) string {
		return strings.Repeat("<div>", n) + strings.Repeat("<form><div></form>", n)
	},
	"select_options": func(n int) string {
		return "<select><button><selectedcontent></selectedcontent></button>" + strings.Repeat("<div>", n) + strings.Repeat("<option selected>x</option>", n)
	},
	"nested_templates": func(n int) string { return strings.Repeat("<template>", n) + strings.Repeat("</template>", n) },
}

// fmtMany opens n formatting elements that the Noah's Ark clause keeps (each differs).
func fmtMany(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<b x=%d>", i)
	}
	return b.String()
}

func distinctAttrs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " a%d", i)
	}
	return b.String()
}

// BenchmarkParse parses the realistic page and the pathological inputs, and, in the same
// run, html.Parse of x/net on the same bytes: the figure is "x-html.Parse", Parse's time
// over html.Parse's (the target is at most 2), and for the realistic page
// "peak-heap/input" (the target is at most 4).
func BenchmarkParse(b *testing.B) {
	inputs := map[string][]byte{"realistic": benchpage.Realistic()}
	for name, f := range pathological {
		// As big as html.Parse takes: it gives up past 512 open elements, which would time
		// a third of its work against the whole of Parse's.
		n := 400
		for ; n > 10; n = n * 3 / 4 {
			if _, err := html.Parse(strings.NewReader(f(n))); err == nil {
				break
			}
		}
		inputs[name] = []byte(f(n))
	}
	for _, name := range append([]string{"realistic"}, sortedKeys(pathological)...) {
		doc := inputs[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			var ours, theirs time.Duration
			for b.Loop() {
				t0 := time.Now()
				Parse(doc, Options{})
				t1 := time.Now()
				html.Parse(bytes.NewReader(doc))
				ours, theirs = ours+t1.Sub(t0), theirs+time.Since(t1)
			}
			b.ReportMetric(float64(ours)/float64(theirs), "x-html.Parse")
			if name == "realistic" {
				b.StopTimer()
				b.ReportMetric(peakHeap(func() { Parse(doc, Options{}) })/float64(len(doc)), "peak-heap/input")
				b.ReportMetric(peakHeap(func() { html.Parse(bytes.NewReader(doc)) })/float64(len(doc)), "html.Parse-peak-heap/input")
			}
		})
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
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
