package markup

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// cost parses src and returns the parser's steps (pushes, pops, and each turn of a loop
// whose length depends on the input) and the bytes it allocated: measures that do not
// depend on how busy the machine is.
func cost(src string) (steps, bytes uint64, d *Document) {
	var work int
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	d = Parse([]byte(src), Options{after: func(p *parser) { work = p.work + int(p.tz.pos) }})
	runtime.ReadMemStats(&m1)
	return uint64(work), m1.TotalAlloc - m0.TotalAlloc, d
}

// TestLinear doubles each pathological input (and the realistic page's parts) and checks
// that the steps and the bytes allocated at most about double: a literal reading of the
// standard's walks down the stack, of the list of active formatting elements, of the
// Noah's Ark clause or of attribute merging would make them grow four times.
func TestLinear(t *testing.T) {
	inputs := map[string]func(n int) string{}
	for name, f := range pathological {
		inputs[name] = f
	}
	inputs["realistic_rows"] = func(n int) string {
		return "<table>" + strings.Repeat(`<tr class=c data-x=1><td><a href="#a">x</a><td><svg><use href="#i"/></svg>`, n)
	}
	inputs["adoption_foreign_special"] = func(n int) string {
		return fmtMany(n/4) + "<div><svg>" + strings.Repeat("<g>", n) + "<foreignObject>" + strings.Repeat("</b>", n)
	}
	inputs["body_attr_merge"] = func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "<body a%d>", i)
		}
		return b.String()
	}
	inputs["reopen_fostered"] = func(n int) string { return "<table>" + fmtMany(n) + strings.Repeat("x<tr>", n) }
	for _, name := range sortedKeys(inputs) {
		f := inputs[name]
		t.Run(name, func(t *testing.T) {
			// n, 2n and 4n: each doubling must at most about double the steps and the
			// bytes (slices that grow by a factor leave some slack in the bytes), where a
			// quadratic reading would multiply them by four.
			const n = 3000
			s1, b1, _ := cost(f(n))
			s2, b2, _ := cost(f(2 * n))
			s4, b4, _ := cost(f(4 * n))
			t.Logf("n=%d: %d steps, %d bytes; 2n: ×%.2f, ×%.2f; 4n: ×%.2f, ×%.2f", n, s1, b1,
				float64(s2)/float64(s1), float64(b2)/float64(b1), float64(s4)/float64(s2), float64(b4)/float64(b2))
			for _, r := range []struct {
				what   string
				ratio  float64
				bound  float64
				factor string
			}{
				{"steps", float64(s2) / float64(s1), 2.5, "n to 2n"}, {"steps", float64(s4) / float64(s2), 2.5, "2n to 4n"},
				{"bytes", float64(b2) / float64(b1), 2.8, "n to 2n"}, {"bytes", float64(b4) / float64(b2), 2.8, "2n to 4n"},
			} {
				if r.ratio > r.bound {
					t.Errorf("from %s the %s grow ×%.2f (linear: 2, quadratic: 4)", r.factor, r.what, r.ratio)
				}
			}
		})
	}
}

// TestLimit: the standard's tree for a paragraph full of open formatting elements, copied
// into every later paragraph, has Θ(n²) elements; Parse stops copying at its budget, says
// so at the place (Limit), and stays linear.
func TestLimit(t *testing.T) {
	_, _, d := cost(pathological["formatting_in_paragraph"](40000))
	found := false
	for _, r := range d.Repairs {
		if r.Kind == Limit {
			found = true
			if !strings.HasPrefix(d.Src[r.At.Start:], "x") {
				t.Errorf("Limit at %v, not at the text that would have reopened the elements", r.At)
			}
			break
		}
	}
	if !found {
		t.Error("no Limit repair")
	}
	// A page that stays within the budget gets every copy the standard makes.
	_, _, d = cost("<p><b><i><u>" + strings.Repeat("<p>x", 1000))
	copies := 0
	for _, n := range d.Nodes {
		if n.Flags&Clone != 0 {
			copies++
		}
	}
	if copies != 3*1000 {
		t.Errorf("%d copies, want 3000", copies)
	}
}

// TestDeep: no depth limit loses an element. 100,000 nested elements are all in the tree,
// each the child of the one before, and ranges and text are intact at the bottom.
func TestDeep(t *testing.T) {
	const n = 100000
	d := Parse([]byte(strings.Repeat("<div>", n)+"<img src=deep.png>"+strings.Repeat("</div>", n)), Options{})
	depth := 0
	var img *Node
	for x := range d.Root.Descendants() {
		if x.Is(HTML, "div") {
			depth++
		}
		if x.Is(HTML, "img") {
			img = x
		}
	}
	if depth != n || img == nil {
		t.Fatalf("%d divs, img %v", depth, img)
	}
	up := 0
	for a := range img.Ancestors() {
		if a.Is(HTML, "div") {
			up++
		}
	}
	if v, _ := img.AttrValue("src"); up != n || v != "deep.png" {
		t.Errorf("img under %d divs, src %q", up, v)
	}
}
