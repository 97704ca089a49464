package pipeline

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
)

// renameLocals gives the local bindings of a minified script new names, each function's and
// block's anew from the shortest (package localnames: Vite's minifier, Oxc, names locals so,
// and gzip compresses the repeated names better than esbuild's), and moves the columns of
// its source map by what each line's renamed names before them grew or shrank. When module,
// c is an ES module the whole of its program (esbuild's output for a module script or a
// module worker): its top-level bindings are renamed too (localnames.RenameModule).
func renameLocals(c code, module bool) code {
	rename := localnames.Rename
	if module {
		rename = localnames.RenameModule
	}
	return applyToScript(c, rename(c.js))
}

// applyToScript applies edits, sorted by place, to c's script, the columns of its source map
// moved by what each line's edits before them grew or shrank.
func applyToScript(c code, edits []localnames.Edit) code {
	if edits == nil {
		return c
	}
	if c.jsMap != nil {
		c.jsMap = moveColumns(c.jsMap, c.js, edits)
	}
	c.js = localnames.Apply(c.js, edits)
	return c
}

// columnShift is an edit of a line: from its UTF-16 column col on, later columns move by by.
type columnShift struct{ col, by int }

// moveColumns returns the source map m of text with the generated column of each mapping
// moved by the edits before it on its line. A map it cannot read is returned as it is.
func moveColumns(m []byte, text string, edits []localnames.Edit) []byte {
	sm, ok := decodeMap(m)
	if !ok {
		return m
	}
	// The edits by line, at their UTF-16 columns.
	shifts := map[int][]columnShift{}
	line, col, pos := 0, 0, 0
	for _, e := range edits {
		for pos < e.Start {
			r, size := utf8.DecodeRuneInString(text[pos:])
			switch {
			case r == '\n' || r == '\r' && !strings.HasPrefix(text[pos+size:], "\n") || r == '\u2028' || r == '\u2029':
				line, col = line+1, 0
			case r == '\r':
			case r == utf8.RuneError && size == 1:
				col++
			default:
				col += utf16.RuneLen(r)
			}
			pos += size
		}
		shifts[line] = append(shifts[line], columnShift{col, len(e.Text) - (e.End - e.Start)})
	}
	var out strings.Builder
	for i, l := range strings.Split(sm.Mappings, ";") {
		if i > 0 {
			out.WriteByte(';')
		}
		sh := shifts[i]
		if len(sh) == 0 {
			out.WriteString(l)
			continue
		}
		prevOld, prevNew := 0, 0
		for j, seg := range strings.Split(l, ",") {
			if j > 0 {
				out.WriteByte(',')
			}
			if seg == "" {
				continue
			}
			d, next, err := vlq(seg, 0)
			if err != nil {
				return m
			}
			c := prevOld + d
			moved := c
			for _, s := range sh {
				if s.col < c {
					moved += s.by
				}
			}
			out.WriteString(vlqEncode(moved - prevNew))
			out.WriteString(seg[next:])
			prevOld, prevNew = c, moved
		}
	}
	sm.Mappings = out.String()
	if b, ok := sm.encode(); ok {
		return b
	}
	return m
}

// vlqEncode writes v as a Base64 VLQ number.
func vlqEncode(v int) string {
	u := v << 1
	if v < 0 {
		u = (-v)<<1 | 1
	}
	var b []byte
	for {
		d := u & 31
		u >>= 5
		if u > 0 {
			d |= 32
		}
		b = append(b, vlqChars[d])
		if u == 0 {
			return string(b)
		}
	}
}
