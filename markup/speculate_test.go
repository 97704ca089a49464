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
		{`<svg><![CDATA[ ><img src=x> ]]></svg>`, "img"},
		{`<svg><![CDATA[ <img src=x> ]]></svg>`, ""},
		{`<svg><style><!--</style><img src=x><!----></style></svg>`, "style(<!--) img"},
		{`<svg><style>a{b:url(x)}</style></svg>`, ""},
		{`<frameset><img src=x></frameset>`, "img"},
		{`<style><img src=x></style><p>`, ""},
		{`<select><script>a<b</script></select>`, ""},
		{`<noscript><img src=x></noscript>`, ""},
		{`<title><img src=x></title><plaintext><img src=y>`, ""},
		{`<template><img src=x></template>`, ""},
		{`<template><col><style></template><img src=x></style>`, "style(</template><img src=x>)"},
		{`<!doctype html><p>Hi <b>there</b><img src=x><table><tr><td>1</td></tr></table>`, ""},
	}
	for _, r := range rows {
		nodes := Parse([]byte(r.page), Options{}).Speculate(Options{})
		got := []string{}
		for _, n := range nodes {
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
	// The scanner of a page without scripts against the tree built so: they agree.
	if nodes := Parse([]byte(`<noscript><img src=x></noscript>`), Options{NoScripting: true}).Speculate(Options{NoScripting: true}); len(nodes) != 0 {
		t.Errorf("without scripting, <noscript> is markup to both: %v", nodes)
	}
	// Against the tree with scripting on, the scanner without scripts reads an img.
	if nodes := Parse([]byte(`<noscript><img src=x></noscript>`), Options{}).Speculate(Options{NoScripting: true}); len(nodes) != 1 || nodes[0].Name != "img" {
		t.Errorf("the scanner without scripts: %v", nodes)
	}
	nodes := Parse([]byte(`<svg><![CDATA[ ><template><img src=x></template> ]]></svg>`), Options{}).Speculate(Options{})
	if len(nodes) != 2 || nodes[1].Flags&InTemplate == 0 {
		t.Errorf("an element between <template> and </template> is InTemplate: %v", nodes)
	}
}
