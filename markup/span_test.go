package markup

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/internal/benchpage"
)

// checkSpans checks every range a Document gives against its source: in bounds; a start
// tag's range is exactly the tag's "<...>", which tokenizes to a tag of the element's name;
// attribute ranges give back the name and, decoded, the value; text ranges, decoded, give
// the text (up to what the tree builder does to text: NUL dropped or made U+FFFD, only the
// whitespace kept in a frameset); elements with their own source are in Nodes in source
// order. It returns the first problem.
func checkSpans(d *Document) error {
	src := d.Src
	in := func(r Range) bool { return 0 <= r.Start && r.Start <= r.End && r.End <= len(src) }
	last := -1
	for _, n := range d.Nodes {
		switch n.Type {
		case ElementNode:
			if err := checkElement(d, n); err != nil {
				return err
			}
			if n.Flags&(Clone|Implied) == 0 {
				if n.Tag.Start <= last {
					return fmt.Errorf("<%s> at %d made after something at %d", n.Name, n.Tag.Start, last)
				}
				last = n.Tag.Start
			}
		case TextNode, CommentNode, DoctypeNode:
			prev := -1
			for _, r := range n.Raw {
				if !in(r) || r.Start < prev {
					return fmt.Errorf("%v: raw range %v out of bounds or order", n.Type, r)
				}
				prev = r.End
			}
			if n.Flags&Clone != 0 || len(n.Raw) == 0 {
				continue
			}
			if n.Raw[0].Start <= last && n.Type != TextNode {
				return fmt.Errorf("%v at %d made after something at %d", n.Type, n.Raw[0].Start, last)
			}
			if n.Type == TextNode {
				if err := checkText(d, n); err != nil {
					return err
				}
				continue
			}
			last = n.Raw[0].Start
			if src[n.Raw[0].Start] != '<' {
				return fmt.Errorf("%v range %v does not begin with '<'", n.Type, n.Raw[0])
			}
		}
	}
	for _, r := range d.Repairs {
		if !in(r.At) {
			return fmt.Errorf("repair %v at %v out of bounds", r.Kind, r.At)
		}
	}
	return nil
}

func checkElement(d *Document, n *Node) error {
	src := d.Src
	if n.Flags&Implied != 0 {
		if !n.Tag.IsEmpty() {
			return fmt.Errorf("implied <%s> has a tag %v", n.Name, n.Tag)
		}
		return nil
	}
	r := n.Tag
	if r.Start < 0 || r.End > len(src) || r.Len() < 3 || src[r.Start] != '<' || src[r.End-1] != '>' {
		return fmt.Errorf("<%s>: tag range %v is not a tag", n.Name, r)
	}
	if n.Flags&Clone != 0 && n.Original != nil && n.Original.Tag != n.Tag {
		return fmt.Errorf("clone <%s> has another tag than its original", n.Name)
	}
	if !n.EndTag.IsEmpty() && (!strings.HasPrefix(src[n.EndTag.Start:], "</") || src[n.EndTag.End-1] != '>') {
		return fmt.Errorf("<%s>: end tag range %v is not an end tag", n.Name, n.EndTag)
	}
	if n.Flags&ByEndTag != 0 {
		return nil
	}
	z := newTokenizer(src[:r.End])
	z.pos = r.Start
	var t token
	z.next(&t)
	if t.data == "image" && n.Name == "img" {
		t.data = "img" // <image> is read as <img>
	}
	if t.kind != tStart || t.r != r || t.data != ASCIILower(n.Name) && !strings.ContainsRune(t.data, '\uFFFD') {
		return fmt.Errorf("<%s>: tag range %v tokenizes to %q", n.Name, r, t.data)
	}
	for _, a := range append(append([]Attr(nil), n.Attr...), n.Dropped...) {
		tag := r
		if a.NameRange.Start < r.Start || a.NameRange.End > r.End {
			// An attribute of a second <html> or <body> tag, merged into the first.
			for _, m := range d.Repairs {
				if m.Kind == MergedAttrs && m.Node == n && m.At.Start <= a.NameRange.Start && a.NameRange.End <= m.At.End {
					tag = m.At
				}
			}
		}
		if a.NameRange.Start < tag.Start || a.NameRange.End > tag.End || a.ValueRange.Start < a.NameRange.End || a.ValueRange.End > tag.End {
			return fmt.Errorf("<%s %s>: attribute ranges %v %v outside the tag %v", n.Name, a.Name, a.NameRange, a.ValueRange, r)
		}
		raw := ASCIILower(src[a.NameRange.Start:a.NameRange.End])
		want := ASCIILower(a.Name)
		switch a.Namespace {
		case XLink:
			want = "xlink:" + a.Name
		case XML:
			want = "xml:" + a.Name
		case XMLNS:
			if a.Name != "xmlns" {
				want = "xmlns:" + a.Name
			}
		}
		if raw != want && !strings.ContainsRune(raw, 0) {
			return fmt.Errorf("<%s>: attribute name range %v is %q, want %q", n.Name, a.NameRange, raw, want)
		}
		if v := newTokenizer(src).attrValue(a.ValueRange); v != a.Value {
			return fmt.Errorf("<%s %s>: value range %v decodes to %q, want %q", n.Name, a.Name, a.ValueRange, v, a.Value)
		}
		if a.Quote != 0 && (src[a.ValueRange.Start-1] != a.Quote || src[a.ValueRange.End] != a.Quote) {
			return fmt.Errorf("<%s %s>: value range %v not inside its quotes", n.Name, a.Name, a.ValueRange)
		}
	}
	return nil
}

// checkText decodes a text node's ranges again and compares with its text.
func checkText(d *Document, n *Node) error {
	var b strings.Builder
	z := newTokenizer(d.Src)
	for _, r := range n.Raw {
		s := d.Src[r.Start:r.End]
		switch n.State {
		case DataState, RCDATAState, CDATAState:
			for i := r.Start; i < r.End; {
				if n.State != RCDATAState && d.Src[i] == '<' && strings.HasPrefix(d.Src[i:r.End], "<![CDATA[") {
					j := strings.Index(d.Src[i:r.End], "]]>")
					if j < 0 {
						j = r.End - i
					}
					b.WriteString(z.normalize(d.Src[i+9:i+j], false))
					i += min(j+3, r.End-i)
					continue
				}
				if d.Src[i] == '&' {
					end, v, ok := z.charRef(i, false)
					if ok && end <= r.End {
						b.WriteString(v)
						i = end
						continue
					}
				}
				j := i + 1
				for j < r.End && d.Src[j] != '&' && d.Src[j] != '<' {
					j++
				}
				b.WriteString(z.normalize(d.Src[i:j], n.State == RCDATAState))
				i = j
			}
		default:
			b.WriteString(z.normalize(s, true))
		}
	}
	dec := b.String()
	ws := func(s string) string {
		var o []byte
		for i := 0; i < len(s); i++ {
			if isWS(s[i]) {
				o = append(o, s[i])
			}
		}
		return string(o)
	}
	for _, v := range []string{dec, dropNUL(dec), strings.ReplaceAll(dec, "\x00", "\uFFFD"), ws(dec)} {
		if v == n.Data {
			return nil
		}
	}
	return fmt.Errorf("text %q at %v decodes to %q", n.Data, n.Raw, dec)
}

// realPages returns the HTML files of this repository and the real page x/net tests with.
func realPages(t testing.TB) map[string][]byte {
	t.Helper()
	pages := map[string][]byte{}
	filepath.WalkDir("..", func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() && (e.Name() == "node_modules" || strings.HasPrefix(e.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".html") {
			if b, err := os.ReadFile(path); err == nil {
				pages[path] = b
			}
		}
		return nil
	})
	go1 := filepath.Join(filepath.Dir(html5libDir(t)), "go1.html")
	b, err := os.ReadFile(go1)
	if err != nil {
		t.Fatal(err)
	}
	pages["x/net/html/testdata/go1.html"] = b
	pages["realistic bundle"] = benchpage.Realistic()
	return pages
}

// TestSpans checks the ranges of the trees of real pages, of every html5lib tree case, and
// of random pages made from their pieces.
func TestSpans(t *testing.T) {
	check := func(name string, d *Document) {
		t.Helper()
		if err := checkSpans(d); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	pages := realPages(t)
	if len(pages) < 20 {
		t.Fatalf("only %d real pages", len(pages))
	}
	for name, b := range pages {
		check(name, Parse(b, Options{}))
	}
	files, _ := filepath.Glob(filepath.Join(html5libDir(t), "tree-construction", "*.dat"))
	var pieces []string
	for _, f := range files {
		for _, c := range readTreeCases(t, f) {
			check(c.name(), parseCase(c, true, false))
			pieces = append(pieces, splitPieces(c.data)...)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		page := randomPage(rng, pieces, 1+rng.IntN(40))
		check(fmt.Sprintf("random page %d %q", i, page), Parse([]byte(page), Options{}))
	}
}

// splitPieces cuts markup before each '<', giving pieces to recombine into new pages.
func splitPieces(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s[1:], '<')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func randomPage(rng *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for j := 0; j < n; j++ {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
