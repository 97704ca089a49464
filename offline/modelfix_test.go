package offline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/miniapp/bundle/markup"
)

// modelFix does to page what the notes of its findings say, literally, as a model that
// follows them word for word would: it reads each note's instruction (its first words), and
// makes that edit at the finding's place. A note it has no edit for is returned in
// unfollowed, and its place left as it is. What a model would write from knowledge (a
// library's code, a stylesheet's rules, an image's bytes) is a stand-in of the same kind.
func modelFix(page []byte, fs Findings) (fixed []byte, unfollowed []string) {
	d := markup.Parse(page, markup.Options{})
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	var tail []string // scripts and data appended at the end of <body>
	src := string(page)
	element := func(off int) *markup.Node {
		var best *markup.Node
		for _, n := range d.Nodes {
			if n.Type == markup.ElementNode && n.Tag.Start <= off && off < n.Tag.End && (best == nil || n.Tag.Start >= best.Tag.Start) {
				best = n
			}
		}
		return best
	}
	whole := func(n *markup.Node) (int, int) {
		end := n.Tag.End
		if n.EndTag.End > 0 {
			end = n.EndTag.End
		}
		return n.Tag.Start, end
	}
	attrAt := func(n *markup.Node, off int) (markup.Attr, bool) {
		for _, a := range n.Attr {
			if a.ValueRange.Start <= off && off <= a.ValueRange.End {
				return a, true
			}
		}
		return markup.Attr{}, false
	}
	removeAttr := func(a markup.Attr) edit {
		end := a.ValueRange.End
		if a.Quote != 0 {
			end++
		}
		return edit{a.NameRange.Start - 1, end, ""}
	}
	for i, f := range fs {
		note, off := f.Note, f.Offset
		n := element(off)
		switch {
		case strings.HasPrefix(note, "write the script's code in the page") && n != nil:
			s, e := whole(n)
			typ := ""
			if v, ok := n.AttrValue("type"); ok {
				typ = fmt.Sprintf(" type=%q", v)
			}
			edits = append(edits, edit{s, e, fmt.Sprintf("<script%s>/* the code of %s */</script>", typ, f.URL)})
		case strings.HasPrefix(note, "Tailwind's Play CDN") && n != nil:
			s, e := whole(n)
			edits = append(edits, edit{s, e, "<style>/* the rules of the page's classes */</style>"})
		case strings.HasPrefix(note, "remove the import, and write the code it gave in this script"):
			// The import statement: from "import" before the specifier to its end.
			s := strings.LastIndex(src[:off], "import")
			e := off + f.Length
			if e < len(src) && src[e] == ';' {
				e++
			}
			edits = append(edits, edit{s, e, "/* the code the import gave */"})
		case strings.HasPrefix(note, "Google Fonts' stylesheet") && n != nil,
			strings.HasPrefix(note, "remove the <link>") && n != nil,
			strings.HasPrefix(note, "remove <base>") && n != nil:
			s, e := whole(n)
			edits = append(edits, edit{s, e, ""})
		case strings.HasPrefix(note, "write the stylesheet's rules in a <style> element in place of this one") && n != nil:
			s, e := whole(n)
			edits = append(edits, edit{s, e, fmt.Sprintf("<style>/* the rules of %s */</style>", f.URL)})
		case strings.HasPrefix(note, "write the stylesheet's rules in this stylesheet, in place of the @import"):
			s := strings.LastIndex(src[:off], "@import")
			e := strings.IndexByte(src[off:], ';')
			if s < 0 || e < 0 {
				unfollowed = append(unfollowed, note)
				continue
			}
			edits = append(edits, edit{s, off + e + 1, "/* the rules it imported */"})
		case strings.HasPrefix(note, "write the font into the page as a data: URL"),
			strings.HasPrefix(note, "write the image into the page as a data: URL"):
			typ := strings.TrimPrefix(note[strings.Index(note, "data:"):], "data:")
			if i := strings.Index(note, "base64,…"); i > 0 {
				typ = note[strings.LastIndex(note[:i], "data:")+len("data:") : i-1]
			}
			u := "data:" + typ + ";base64,AAAA"
			text := src[off : off+f.Length]
			if strings.HasPrefix(strings.ToLower(text), "url(") {
				u = "url(" + u + ")"
			}
			edits = append(edits, edit{off, off + f.Length, u})
		case strings.HasPrefix(note, "give the <") && n != nil:
			a, ok := attrAt(n, off)
			if !ok {
				unfollowed = append(unfollowed, note)
				continue
			}
			id := fmt.Sprintf("h%d", i)
			event := strings.TrimPrefix(a.Name, "on")
			edits = append(edits, removeAttr(a), edit{a.NameRange.Start - 1, a.NameRange.Start - 1, fmt.Sprintf(` id="%s"`, id)})
			tail = append(tail, fmt.Sprintf(`<script>document.getElementById(%q).addEventListener(%q, (event) => { %s })</script>`, id, event, a.Value))
		case strings.HasPrefix(note, "a page opens a link only through its host") && n != nil:
			s, e := whole(n)
			text := src[n.Tag.End:n.EndTag.Start]
			edits = append(edits, edit{s, e, fmt.Sprintf("%s (%s)", text, f.URL)})
		case strings.HasPrefix(note, "use a <button> and attach what it does in a <script>") && n != nil:
			s, e := whole(n)
			id := fmt.Sprintf("j%d", i)
			text := src[n.Tag.End:n.EndTag.Start]
			edits = append(edits, edit{s, e, fmt.Sprintf(`<button id="%s">%s</button>`, id, text)})
			code := strings.TrimPrefix(strings.TrimSpace(f.URL), "javascript:")
			tail = append(tail, fmt.Sprintf(`<script>document.getElementById(%q).addEventListener("click", () => { %s })</script>`, id, code))
		case strings.HasPrefix(note, "a page cannot submit a form anywhere: remove the action") && n != nil:
			a, ok := attrAt(n, off)
			if !ok {
				unfollowed = append(unfollowed, note)
				continue
			}
			id := fmt.Sprintf("f%d", i)
			edits = append(edits, removeAttr(a), edit{a.NameRange.Start - 1, a.NameRange.Start - 1, fmt.Sprintf(` id="%s"`, id)})
			tail = append(tail, fmt.Sprintf(`<script>document.getElementById(%q).addEventListener("submit", (e) => { e.preventDefault(); })</script>`, id))
		case strings.HasPrefix(note, "a page has no network at run time: write the data it needs into the page"),
			strings.HasPrefix(note, "a page has nothing beside it: write the data into the page"):
			// fetch(URL) becomes a read of the data written into the page; a stream
			// (WebSocket, EventSource) has no data to write.
			if !strings.HasPrefix(f.Place, "fetch()") || !strings.HasSuffix(src[:off], "fetch(") || off+f.Length >= len(src) || src[off+f.Length] != ')' {
				unfollowed = append(unfollowed, note)
				continue
			}
			id := fmt.Sprintf("d%d", i)
			edits = append(edits, edit{off - len("fetch("), off + f.Length + 1,
				fmt.Sprintf(`Promise.resolve(new Response(document.getElementById(%q).textContent))`, id)})
			tail = append(tail, fmt.Sprintf(`<script type="application/json" id="%s">{}</script>`, id))
		default:
			unfollowed = append(unfollowed, note)
		}
	}
	if len(tail) > 0 {
		at := len(src)
		if i := strings.LastIndex(strings.ToLower(src), "</body>"); i >= 0 {
			at = i
		}
		edits = append(edits, edit{at, at, strings.Join(tail, "\n")})
	}
	// Apply from the end; an edit inside one already made is dropped (an element replaced
	// whole takes its attribute's edits with it).
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.start != b.start {
			return b.start - a.start
		}
		return b.end - a.end
	})
	out := src
	floor := len(src) + 1
	for _, e := range edits {
		if e.end > floor || e.start < 0 {
			continue
		}
		out = out[:e.start] + e.text + out[e.end:]
		floor = e.start
	}
	return []byte(out), unfollowed
}
