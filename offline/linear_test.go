package offline

import (
	"runtime"
	"strings"
	"testing"
)

// linearDims are the dimensions of a page an attacker controls, each a page of size about n:
// imports in one script (written with escapes, so that no search finds them), findings,
// attributes in one tag, nesting (HTML, foreign, tables, templates), CSS url()s and blocks,
// readings (encodings declared), nested data: documents and srcdocs, a preload scanner's
// reading unlike the tree's, and the realistic page's parts.
var linearDims = map[string]func(n int) string{
	"escaped_imports": func(n int) string {
		return "<script type=module>" + strings.Repeat(`import "\u0068ttps://x.example/a.js";`+"\n", n) + "</script>"
	},
	"findings":        func(n int) string { return strings.Repeat(`<img src="https://x.example/a.png">`, n) },
	"attributes":      func(n int) string { return "<div " + strings.Repeat(`data-a="1" `, n) + `src="x">` },
	"duplicate_attrs": func(n int) string { return "<svg><image " + strings.Repeat(`href="#a" `, n) + `/></svg>` },
	"nesting":         func(n int) string { return strings.Repeat("<div>", n) + `<img src="https://x.example/a.png">` },
	"svg_nesting":     func(n int) string { return strings.Repeat("<svg><g>", n) + `<image href="https://x.example/a.png"/>` },
	"tables":          func(n int) string { return strings.Repeat("<table><tr><td>", n) },
	"templates":       func(n int) string { return strings.Repeat("<template>", n) + `<img src="https://x.example/a.png">` },
	"formatting":      func(n int) string { return strings.Repeat("<b><i><a href=#>", n) + strings.Repeat("<p>x", n) },
	"css_urls": func(n int) string {
		return "<style>" + strings.Repeat("a{b:url(https://x.example/a.png)}", n) + "</style>"
	},
	"css_blocks": func(n int) string {
		return "<style>" + strings.Repeat("a{b:image-set(var(--x, (", n) + `"https://x.example/a.png"` + "</style>"
	},
	"css_custom_properties": func(n int) string {
		return "<style>" + strings.Repeat(`a{--x:"https://x.example/a.png"}`, n) + "b{c:image-set(var(--x) 1x)}</style>"
	},
	"readings": func(n int) string {
		return `<meta charset="shift_jis"><meta charset="gbk"><meta charset="big5">` + strings.Repeat(`<p title="x">y</p>`, n)
	},
	"data_documents": func(n int) string {
		return strings.Repeat(`<iframe src="data:text/html,<img src=https://x.example/a.png>"></iframe>`, n)
	},
	"srcdocs": func(n int) string {
		return strings.Repeat(`<iframe srcdoc="<svg><style>a{b:url(https://x.example/a.png)}</style></svg>"></iframe>`, n)
	},
	"speculative": func(n int) string {
		return strings.Repeat(`<svg><![CDATA[ ><img src="https://x.example/a.png"> ]]></svg>`, n)
	},
	"xml_documents": func(n int) string {
		return strings.Repeat(`<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='https://x.example/a.png'/></svg>"></iframe>`, n)
	},
	"noscript": func(n int) string {
		return strings.Repeat(`<noscript><img src="https://x.example/a.png"></noscript>`, n)
	},
	"realistic": func(n int) string {
		return "<!doctype html><meta charset=utf-8><table>" + strings.Repeat(`<tr class=c data-x=1><td><a href="#a" style="color:red">x</a><td><svg><use href="#i"/><path fill="url(#g)"/></svg>`, n)
	},
}

// checkCost checks doc and returns the bytes and objects it allocated: measures of the work
// done that do not depend on how busy the machine is.
func checkCost(t *testing.T, doc string) (bytes, objects uint64) {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	if _, err := Check("l.html", []byte(doc), Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, m1.Mallocs - m0.Mallocs
}

// TestLinear doubles each dimension twice and checks that the work (bytes and objects
// allocated) about doubles each time, where a reading quadratic in it would make it grow four
// times.
func TestLinear(t *testing.T) {
	for _, name := range sortedDims() {
		f := linearDims[name]
		t.Run(name, func(t *testing.T) {
			const n = 2000
			b1, o1 := checkCost(t, f(n))
			b2, o2 := checkCost(t, f(2*n))
			b4, o4 := checkCost(t, f(4*n))
			t.Logf("n=%d: %d bytes, %d objects; 2n: ×%.2f, ×%.2f; 4n: ×%.2f, ×%.2f", n, b1, o1,
				float64(b2)/float64(b1), float64(o2)/float64(o1), float64(b4)/float64(b2), float64(o4)/float64(o2))
			for _, r := range []struct {
				what       string
				ratio, max float64
			}{
				// One doubling can cross a slice's growth steps (×2.6 for bytes, ×5.5 over two); two
				// doublings of a linear reading give ×4, of a quadratic one ×16.
				{"bytes n→2n", float64(b2) / float64(b1), 3}, {"bytes 2n→4n", float64(b4) / float64(b2), 3},
				{"bytes n→4n", float64(b4) / float64(b1), 6.5},
				{"objects n→2n", float64(o2) / float64(o1), 3}, {"objects 2n→4n", float64(o4) / float64(o2), 3},
				{"objects n→4n", float64(o4) / float64(o1), 5},
			} {
				if r.ratio > r.max {
					t.Errorf("%s: ×%.2f: the check is not linear in %s", r.what, r.ratio, name)
				}
			}
		})
	}
}

func sortedDims() []string {
	var names []string
	for k := range linearDims {
		names = append(names, k)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] < names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	return names
}
