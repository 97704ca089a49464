// Package benchpage holds the page the benchmarks of the page model (markup) and the offline
// check share, so that their figures are of the same bytes.
package benchpage

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

var (
	once sync.Once
	doc  []byte
)

// Realistic returns a 5 MB single-file app in the proportions a build emits: about 0.8 MB
// of CSS with data: URLs, an inline SVG sprite and a table of about 10,000 elements, and a 3 MB
// inline module script (React renders at run time, so most of a built app is script) full of
// URL strings that are not loads, and of words such as "important" and "importNode" that are
// not the import keyword. The same bytes on every call: do not change them.
func Realistic() []byte {
	once.Do(func() {
		var b bytes.Buffer
		b.WriteString("<!doctype html><html lang=en><head><meta charset=utf-8><title>Orders</title><style>")
		icon := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAR0lEQVQ4y2NgGAWjYBSMglEwCkbBKBgFo2AUjIJRMAoAAAD", 4)
		for i := 0; b.Len() < 800_000; i++ {
			fmt.Fprintf(&b, ".c%d{background:url(data:image/png;base64,%s) no-repeat;color:#%06x!important;padding:%dpx}\n", i, icon, i*2654435761&0xffffff, i%17)
		}
		b.WriteString("</style></head><body><svg style=display:none>")
		for i := 0; i < 1500; i++ {
			fmt.Fprintf(&b, `<symbol id="i%d" viewBox="0 0 24 24"><path fill="url(#g%d)" d="M%d 2L2 7l10 5 10-5-10-5zM2 17l10 5 10-5M2 12l10 5 10-5 %s"/></symbol>`+"\n", i, i%8, i%24, strings.Repeat("l1 1 ", 40))
		}
		b.WriteString("</svg><div id=root><table><tbody>")
		for i := 0; i < 1500; i++ {
			fmt.Fprintf(&b, `<tr class="c%d" data-id="%d"><td><a href="#o%d" title="https://orders.example/%d">Order %d</a></td><td><svg width=16 height=16><use href="#i%d"/></svg></td><td style="background:url(data:image/png;base64,iVBORw0KGgo=)">%d.%02d</td></tr>`+"\n", i%4000, i, i, i, i, i, i*7, i%100)
		}
		b.WriteString("</tbody></table></div><script type=module>\n")
		for i := 0; b.Len() < 5_000_000; i++ {
			fmt.Fprintf(&b, "const u%d=\"https://api.example/v1/orders/%d?expand=items\",d%d={href:'https://docs.example/%d',img:\"url(https://cdn.example/%d.png)\",n:%d};function f%d(x){x.style.setProperty('color','red','important');return x>%d?u%d+d%d.href:\"<img src=https://x.example/%d.png>\"}\n", i, i, i, i, i, i, i, i, i, i, i)
		}
		b.WriteString("</script></body></html>\n")
		doc = b.Bytes()
	})
	return doc
}
