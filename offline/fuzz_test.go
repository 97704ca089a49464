package offline

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzCheck checks that Check never panics or fails, and that every URL the parser exposes in a
// single-URL attribute that loads is reported when it is not own.
func FuzzCheck(f *testing.F) {
	for _, r := range refuseRows {
		f.Add(r.html)
	}
	for _, r := range passRows {
		f.Add(r.html)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		fs, err := Check("f.html", []byte(doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		reported := map[string]bool{}
		for _, f := range fs {
			reported[f.URL] = true
			if f.Line < 1 || f.Column < 1 {
				t.Fatalf("finding without a place: %+v", f)
			}
		}
		root, err := html.Parse(strings.NewReader(doc))
		if err != nil {
			return // deeper than x/net/html builds; Check judged it token by token
		}
		var walk func(n *html.Node, depth int)
		walk = func(n *html.Node, depth int) {
			if depth > 2000 {
				return
			}
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					switch attrName(a) {
					case "src", "href", "poster", "data", "background", "icon", "manifest", "xlink:href", "action", "formaction":
						if !isOwn(a.Val) && !reported[a.Val] {
							t.Fatalf("<%s %s=%q> is not reported; findings: %+v", n.Data, attrName(a), a.Val, fs)
						}
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, depth+1)
			}
		}
		walk(root, 0)
	})
}
