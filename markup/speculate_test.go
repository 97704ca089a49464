package markup

import (
	"strings"
	"testing"
)

// TestSpeculate: the preload scanner's reading sees the start tags its tokenizer reads when
// tag names alone switch it, as Chromium's does (the offline check's Chromium tests show
// the fetches): markup in foreign content's CDATA and in an SVG style's comment, an <img>
// the tree builder ignores; not what raw text hides.
func TestSpeculate(t *testing.T) {
	rows := []struct {
		page, want string // want: the elements' names, and a style's or script's text
	}{
		{`<svg><![CDATA[ ><img src=x> ]]></svg>`, "svg img"},
		{`<svg><![CDATA[ <img src=x> ]]></svg>`, "svg"},
		{`<svg><style><!--</style><img src=x><!----></style></svg>`, "svg style(<!--) img"},
		{`<frameset><img src=x></frameset>`, "frameset img"},
		{`<style><img src=x></style><p>`, "style(<img src=x>) p"},
		{`<select><style><img src=x></style></select>`, "select style img"},
		{`<select><script>a<b</script></select>`, "select script(a<b)"},
		{`<noscript><img src=x></noscript>`, "noscript"},
		{`<title><img src=x></title><plaintext><img src=y>`, "title plaintext"},
		{`<template><img src=x></template>`, "template img"},
	}
	for _, r := range rows {
		d := Parse([]byte(r.page), Options{}).Speculate(Options{})
		var got []string
		for _, n := range d.Nodes {
			if n.Type != ElementNode {
				continue
			}
			s := n.Name
			if c := n.FirstChild; c != nil {
				s += "(" + c.Data + ")"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != r.want {
			t.Errorf("%s: %q, want %q", r.page, strings.Join(got, " "), r.want)
		}
	}
	d := Parse([]byte(`<noscript><img src=x></noscript>`), Options{}).Speculate(Options{NoScripting: true})
	if len(d.Nodes) != 3 || d.Nodes[2].Name != "img" {
		t.Errorf("without scripting, <noscript> is markup: %v", d.Nodes)
	}
	d = Parse([]byte(`<template><img src=x></template>`), Options{}).Speculate(Options{})
	if d.Nodes[2].Flags&InTemplate == 0 {
		t.Error("an element between <template> and </template> is not InTemplate")
	}
}
