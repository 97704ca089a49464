package markup

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// checkOffsets checks the Offsets of every text node and attribute of d: each decoded byte
// maps into the node's own ranges, in order, and a byte the map calls the source's own is
// that byte of Src.
func checkOffsets(d *Document) error {
	check := func(what, data string, o *Offsets, ranges []Range) error {
		prev := -1
		for i := 0; i < len(data); i++ {
			s := o.Source(i)
			in := false
			for _, r := range ranges {
				in = in || r.Start <= s && s < r.End
			}
			if !in || s < prev {
				return fmt.Errorf("%s %q: byte %d maps to %d, outside %v or before %d", what, data, i, s, ranges, prev)
			}
			prev = s
			k := 0
			for k+1 < len(o.segs) && o.segs[k+1].d <= i {
				k++
			}
			if o.segs[k].linear && d.Src[s] != data[i] {
				return fmt.Errorf("%s %q: byte %d (%q) maps to %q at %d", what, data, i, data[i], d.Src[s], s)
			}
			if sp := o.Span(i, 1); sp.Start != s || sp.End <= s {
				return fmt.Errorf("%s %q: span of byte %d is %v", what, data, i, sp)
			}
		}
		return nil
	}
	for _, n := range d.Nodes {
		switch {
		case n.Type == TextNode && n.Flags&Clone == 0 && len(n.Raw) > 0:
			if err := check("text", n.Data, d.TextOffsets(n), n.Raw); err != nil {
				return err
			}
		case n.Type == ElementNode && n.Flags&Clone == 0:
			for i := range n.Attr {
				a := &n.Attr[i]
				if err := check("attribute "+a.Name, a.Value, d.ValueOffsets(a), []Range{a.ValueRange}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// TestOffsets checks the maps from decoded text and values to the source on every html5lib
// tree case, random pages made from their pieces, and written cases.
func TestOffsets(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(html5libDir(t), "tree-construction", "*.dat"))
	var pieces []string
	for _, f := range files {
		for _, c := range readTreeCases(t, f) {
			if c.context != "" {
				continue
			}
			if err := checkOffsets(parseCase(c, true, false)); err != nil {
				t.Errorf("%s: %v", c.name(), err)
			}
			pieces = append(pieces, splitPieces(c.data)...)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		page := randomPage(rng, pieces, 1+rng.IntN(40))
		if err := checkOffsets(Parse([]byte(page), Options{})); err != nil {
			t.Errorf("random page %q: %v", page, err)
		}
	}
	rows := []struct {
		page   string
		attr   bool
		i, n   int
		source string
	}{
		{"<p title='a&amp;b'>", true, 1, 1, "&amp;"},
		{"<p title='a&amp;b'>", true, 2, 1, "b"},
		{"<style>\r\na{b:url(x)}</style>", false, 5, 6, "url(x)"},
		{"<svg><style>a&#x7b;b:u&#x72;l(x)}</style>", false, 4, 6, "u&#x72;l(x)"},
		{"<svg><style><![CDATA[a{]]>b:url(x)}</style>", false, 4, 6, "url(x)"},
		{"<svg><style><![CDATA[a{b:url(x)}]]></style>", false, 4, 6, "url(x)"},
	}
	for _, r := range rows {
		d := Parse([]byte(r.page), Options{})
		var o *Offsets
		for _, n := range d.Nodes {
			if r.attr && n.Type == ElementNode && len(n.Attr) > 0 {
				o = d.ValueOffsets(&n.Attr[0])
			}
			if !r.attr && n.Type == TextNode {
				o = d.TextOffsets(n)
			}
		}
		sp := o.Span(r.i, r.n)
		if got := d.Src[sp.Start:sp.End]; got != r.source {
			t.Errorf("%q: bytes %d+%d come from %q, want %q", r.page, r.i, r.n, got, r.source)
		}
	}
}

// TestParseString: ParseString's tree is Parse's, on the string itself when it is UTF-8.
func TestParseString(t *testing.T) {
	for _, page := range []string{"<p title=a>x<svg><style>b</style>", "\uFEFF<p>x", "<p>\xff<img src=a>", ""} {
		a, b := Parse([]byte(page), Options{}), ParseString(page, Options{})
		if dumpTree(a.Root) != dumpTree(b.Root) || a.Src != b.Src || len(a.Repairs) != len(b.Repairs) {
			t.Errorf("%q: ParseString differs from Parse", page)
		}
	}
}
