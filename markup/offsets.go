package markup

import "sort"

// Offsets maps byte offsets in a decoded string (a text node's Data, the text of an element's
// text children, an attribute's Value) back to the bytes of Document.Src it was decoded from,
// so that a finding inside a decoded value is placed where its source is written. Make one
// with Document.TextOffsets or Document.ValueOffsets. An Offsets is read-only and safe for
// concurrent use.
type Offsets struct {
	segs []seg
	n    int // the decoded length
	end  int // Src offset of the end of the last range
}

// seg is one piece of the decoded string: from data offset d, decoded from the source at s;
// linear when the piece is the source's own bytes, one for one, up to the next seg.
type seg struct {
	d, s   int
	linear bool
}

// Source returns the offset in Src of the byte at offset i of the decoded string: exact where
// that byte is written as itself, the start of the character reference (or CR LF, or CDATA
// section marker) it was decoded from otherwise. i == the decoded length gives the end of
// the source; i outside the string is clamped to it.
func (o *Offsets) Source(i int) int {
	if o == nil || len(o.segs) == 0 {
		return 0
	}
	if i >= o.n {
		return o.end
	}
	i = max(i, 0)
	k := sort.Search(len(o.segs), func(k int) bool { return o.segs[k].d > i }) - 1
	sg := o.segs[max(k, 0)]
	if sg.linear {
		return sg.s + i - sg.d
	}
	return sg.s
}

// Span returns the source range of the n decoded bytes at i: from where the first is
// written to where the last one's source ends.
func (o *Offsets) Span(i, n int) Range {
	start := o.Source(i)
	if o == nil || len(o.segs) == 0 || n <= 0 {
		return Range{start, start}
	}
	last := min(i+n, o.n) - 1
	if last < 0 {
		return Range{start, start}
	}
	k := max(sort.Search(len(o.segs), func(k int) bool { return o.segs[k].d > last })-1, 0)
	end := o.end
	if sg := o.segs[k]; sg.linear {
		end = sg.s + last - sg.d + 1
	} else if k+1 < len(o.segs) {
		end = o.segs[k+1].s
	}
	return Range{start, max(end, start)}
}

// TextOffsets maps offsets in the concatenated Data of the text nodes texts (an element's
// text children, in order) to Src. Nodes that are not text are skipped.
func (d *Document) TextOffsets(texts ...*Node) *Offsets {
	o := &Offsets{}
	z := newTokenizer(d.Src)
	for _, n := range texts {
		if n == nil || n.Type != TextNode {
			continue
		}
		base := o.n
		refs := n.State == DataState || n.State == RCDATAState
		cdata := n.State == CDATAState
		j := 0
		for _, r := range n.Raw {
			j = o.decode(z, r, n.Data, base, j, refs, false, n.State == DataState || cdata)
		}
		o.n = base + len(n.Data)
	}
	return o
}

// ValueOffsets maps offsets in a.Value, an attribute of a node of d, to Src.
func (d *Document) ValueOffsets(a *Attr) *Offsets {
	o := &Offsets{}
	o.decode(newTokenizer(d.Src), a.ValueRange, a.Value, 0, 0, true, true, false)
	o.n = len(a.Value)
	if len(o.segs) == 0 {
		o.segs = []seg{{0, a.ValueRange.Start, true}}
		o.end = a.ValueRange.Start
	}
	return o
}

// decode walks the source range r as the tokenizer decoded it into data (from data offset j,
// which is base in the whole decoded string) and records its pieces; it returns the data
// offset after r. refs decodes character references (attr: by the attribute rule); cdata
// reads "<![CDATA[" ... "]]>" sections as their text. A piece the tree builder dropped (a
// NUL, characters a mode ignores) maps to the next piece kept.
func (o *Offsets) decode(z *tokenizer, r Range, data string, base, j int, refs, attr, cdata bool) int {
	src := z.src
	add := func(dj, s int, linear bool) {
		if k := len(o.segs); k > 0 {
			last := o.segs[k-1]
			if last.linear && linear && last.s+(base+dj-last.d) == s {
				return // continues the last piece
			}
		}
		o.segs = append(o.segs, seg{base + dj, s, linear})
	}
	inCDATA := false
	for i := r.Start; i < r.End; {
		c := src[i]
		switch {
		case cdata && !inCDATA && c == '<' && HasPrefixFold(src[i:r.End], "<![cdata["):
			inCDATA = true
			i += len("<![CDATA[")
			continue
		case inCDATA && c == ']' && i+3 <= r.End && src[i:i+3] == "]]>":
			inCDATA = false
			i += 3
			continue
		case c == '&' && refs && !inCDATA:
			end, val, ok := z.charRefIn(i, r.End, attr)
			if ok && len(data)-j >= len(val) && data[j:j+len(val)] == val {
				add(j, i, false)
				j += len(val)
				i = end
				continue
			}
			if !ok && j+(end-i) <= len(data) && data[j:j+end-i] == src[i:end] {
				add(j, i, true)
				j += end - i
				i = end
				continue
			}
		case c == '\r':
			if j < len(data) && data[j] == '\n' {
				add(j, i, false)
				j++
			}
			i++
			if i < r.End && src[i] == '\n' {
				i++
			}
			continue
		case c == 0:
			switch {
			case j+3 <= len(data) && data[j:j+3] == "\uFFFD":
				add(j, i, false)
				j += 3
			case j < len(data) && data[j] == 0:
				add(j, i, true)
				j++
			}
			i++
			continue
		}
		if j < len(data) && data[j] == c {
			add(j, i, true)
			j++
		}
		i++
	}
	o.end = r.End
	return j
}
