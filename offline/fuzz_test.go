package offline

import (
	"testing"

	"github.com/miniapp/bundle/markup"
)

// FuzzCheck checks that Check never panics or fails, that every finding has a place, and that
// every URL the browser's tree holds in a single-URL attribute that loads is reported when it
// is not own.
func FuzzCheck(f *testing.F) {
	for _, r := range refuseRows {
		f.Add(r.html)
	}
	for _, r := range passRows {
		f.Add(r.html)
	}
	for _, r := range treeRows {
		f.Add(r.html)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		fs, err := Check("f.html", []byte(doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check("f.html", []byte(doc), Options{SingleFile: true}); err != nil {
			t.Fatal(err)
		}
		reported := map[string]bool{}
		for _, f := range fs {
			reported[f.URL] = true
			if f.Line < 1 || f.Column < 1 {
				t.Fatalf("finding without a place: %+v", f)
			}
		}
		d := markup.Parse([]byte(doc), markup.Options{})
		for _, n := range d.Nodes {
			if n.Type != markup.ElementNode {
				continue
			}
			for _, a := range append(append([]markup.Attr(nil), n.Attr...), n.Dropped...) {
				name := a.Name
				if a.Namespace == markup.XLink {
					name = "xlink:" + name
				}
				if name == "href" && n.Namespace == markup.HTML && n.Name != "a" && n.Name != "area" && n.Name != "link" && n.Name != "base" {
					continue // an HTML element's href loads only on these
				}
				switch name {
				case "src", "href", "poster", "data", "background", "icon", "manifest", "xlink:href", "action", "formaction":
					if !isOwn(a.Value) && !reported[a.Value] {
						t.Fatalf("<%s %s=%q> is not reported; findings: %+v", n.Name, name, a.Value, fs)
					}
				}
			}
		}
	})
}
