package markup_test

import (
	"fmt"

	"github.com/miniapp/bundle/markup"
)

// A page that hides a refresh in a template and writes a self-closing <style/>: the tree
// says which <meta> is live and where the style really ends, and the repairs say where the
// markup is not what it looks like.
func Example() {
	page := []byte(`<!doctype html><meta charset=utf-8><template><meta http-equiv=refresh content=0></template><style/><img src=x.png></style><p>Hi</p>`)
	d := markup.Parse(page, markup.Options{})

	for n := range d.Root.Descendants() {
		if n.Is(markup.HTML, "meta") {
			fmt.Printf("%s at %d, inert %v\n", d.Src[n.Tag.Start:n.Tag.End], n.Tag.Start, n.Inert())
		}
		if n.Type == markup.TextNode && n.IsRawText() {
			fmt.Printf("raw text of <%s>: %q\n", n.Parent.Name, n.Data)
		}
	}
	for _, r := range d.Repairs {
		if r.Kind.MovesContent() {
			fmt.Printf("%v: %s\n", r.Kind, d.Src[r.At.Start:r.At.End])
		}
	}
	fmt.Println("first child of head:", d.Head().FirstChild.Name)
	// Output:
	// <meta charset=utf-8> at 15, inert false
	// <meta http-equiv=refresh content=0> at 45, inert true
	// raw text of <style>: "<img src=x.png>"
	// self-closing non-void element: <style/>
	// first child of head: meta
}

// ParseFragment reads markup as the inner HTML of an element: here an SVG element, where
// <style> is markup, not raw text.
func ExampleParseFragment() {
	ctx := &markup.Node{Type: markup.ElementNode, Namespace: markup.SVG, Name: "g"}
	d := markup.ParseFragment([]byte(`<style><image href="a.png"/></style>`), ctx, markup.Options{})
	for n := range d.Root.Descendants() {
		if n.Type == markup.ElementNode {
			v, _ := n.AttrValue("href")
			fmt.Printf("%v %s %q\n", n.Namespace == markup.SVG, n.Name, v)
		}
	}
	// Output:
	// true style ""
	// true image "a.png"
}
