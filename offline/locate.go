package offline

import (
	"strings"

	"github.com/miniapp/bundle/markup"

	"golang.org/x/net/html"
)

// locate turns anchored hits into hits with byte offsets into src. Decisions are made on the
// parser's tree; only here, and only when something was found, does the tokenizer run, to find
// the byte offset of each anchor (x/net/html's Raw lengths partition the input, so a token's
// offset is the sum of the lengths before it).
func locate(src string, fs []found) []hit {
	need := make(map[anchor]int, len(fs))
	for _, f := range fs {
		if f.occ+1 > need[f.anchor] {
			need[f.anchor] = f.occ + 1
		}
	}
	type place struct {
		off, length int
		exact       bool // the decoded value equals the raw bytes, so inner offsets map
	}
	at := make(map[anchor][]place, len(need))
	wantTag := map[string]bool{}
	for a := range need {
		wantTag[a.tag] = true
	}
	z := html.NewTokenizer(strings.NewReader(src))
	off := 0
	prevTag := ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		start := off
		off += len(raw)
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			prevTag = ""
			if !wantTag[string(name)] {
				continue
			}
			tag := string(name)
			prevTag = tag
			if !hasAttr {
				continue
			}
			var ras []markup.RawAttr
			for i := 0; ; i++ {
				k, v, more := z.TagAttr()
				key := string(k)
				{
					a := anchor{tag, key, string(v)}
					if need[a] > len(at[a]) {
						if ras == nil {
							ras = markup.RawAttrs(raw)
						}
						p := place{off: start, length: 1}
						if i < len(ras) && ras[i].Name == key {
							r := ras[i]
							p = place{off: start + r.ValOff, length: r.ValLen,
								exact: r.ValLen == len(v) && string(raw[r.ValOff:r.ValOff+r.ValLen]) == string(v)}
						}
						at[a] = append(at[a], p)
					}
				}
				if !more {
					break
				}
			}
		case html.TextToken:
			if prevTag != "" {
				a := anchor{prevTag, "#text", string(z.Text())}
				if need[a] > len(at[a]) {
					at[a] = append(at[a], place{off: start, length: len(raw), exact: len(raw) == len(a.value)})
				}
			}
			prevTag = ""
		default:
			prevTag = ""
		}
	}
	var out []hit
	for _, f := range fs {
		p, ok := place{}, false
		if ps := at[f.anchor]; len(ps) > 0 {
			p, ok = ps[min(f.occ, len(ps)-1)], true
		}
		if !ok {
			// The tokenizer and the tree disagree (foreign content, a reparented element):
			// fall back to the first place the value is written as it is.
			p = place{off: 0, length: 1}
			if f.anchor.value != "" {
				if i := strings.Index(src, f.anchor.value); i >= 0 {
					p = place{off: i, length: len(f.anchor.value), exact: true}
				}
			}
		}
		for _, h := range f.hits {
			if h.off >= 0 && p.exact {
				h.off += p.off
			} else {
				h.off, h.length = p.off, p.length
			}
			out = append(out, h)
		}
	}
	return out
}
