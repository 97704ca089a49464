package sourcemap

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Compose returns the source map of outer's generated code to inner's sources: outer maps the
// code to one text, which inner maps to its sources, as a compiler's map is joined to the map
// of the step before it (a Rollup plugin's to the one before it in Vite's chain). A place of
// the code is given the source place of the inner mapping at or before the text's place that
// outer gives it (as @ampproject/remapping traces a segment); one that inner does not map is
// left out.
func Compose(outer, inner []byte) ([]byte, error) {
	o, err := Parse(outer)
	if err != nil {
		return nil, err
	}
	in, err := Parse(inner)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	var src, line, col int // the previous segment's, as VLQ's deltas run across lines
	for li, segs := range o.lines {
		if li > 0 {
			b.WriteByte(';')
		}
		gen, first := 0, true
		for _, s := range segs {
			if s.src < 0 || s.line >= len(in.lines) {
				continue
			}
			l := in.lines[s.line]
			i := sort.Search(len(l), func(i int) bool { return l[i].col > s.scol }) - 1
			if i < 0 || l[i].src < 0 {
				continue
			}
			t := l[i]
			if !first {
				b.WriteByte(',')
			}
			first = false
			for _, v := range [4]int{s.col - gen, t.src - src, t.line - line, t.scol - col} {
				writeVLQ(&b, v)
			}
			gen, src, line, col = s.col, t.src, t.line, t.scol
		}
	}
	out, err := json.Marshal(struct {
		Version        int       `json:"version"`
		Sources        []string  `json:"sources"`
		SourcesContent []*string `json:"sourcesContent,omitempty"`
		Names          []string  `json:"names"`
		Mappings       string    `json:"mappings"`
	}{3, in.sources, in.contents, []string{}, b.String()})
	if err != nil {
		return nil, fmt.Errorf("write source map: %w", err)
	}
	return out, nil
}

// writeVLQ writes v in Base64 VLQ.
func writeVLQ(b *strings.Builder, v int) {
	u := v << 1
	if v < 0 {
		u = (-v << 1) | 1
	}
	for {
		digit := u & 31
		u >>= 5
		if u > 0 {
			digit |= 32
		}
		b.WriteByte(base64[digit])
		if u == 0 {
			return
		}
	}
}
