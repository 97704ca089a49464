package markup

import (
	"strings"
	"testing"
)

// TestRepairs: each kind of repair is reported at the bytes that caused it, with the node it
// made or moved; the kinds that move or hide content say so.
func TestRepairs(t *testing.T) {
	for _, r := range []struct {
		name, src string
		kind      RepairKind
		at        string // the source bytes of At
		node      string // the name of Node, "" for none
	}{
		{"self_closing_style", `<style/><img src=x>`, SelfClosingNonVoid, `<style/>`, ""},
		{"self_closing_div", `<div/>x`, SelfClosingNonVoid, `<div/>`, ""},
		{"self_closing_script", `<script/>alert(1)</script>`, SelfClosingNonVoid, `<script/>`, ""},
		{"breakout_svg_p", `<svg><g><p>x`, Breakout, `<p>`, "svg"},
		{"breakout_math_end_p", `<math><mi></mi><mo></p>`, Breakout, `</p>`, ""},
		{"ignored_end_svg", `<math></svg>x`, IgnoredEndTag, `</svg>`, ""},
		{"frameset_after_content", `<p>x<frameset>`, IgnoredStartTag, `<frameset>`, ""},
		{"template_col_drops", `<template><col><div>`, IgnoredStartTag, `<div>`, ""},
		{"template_col_text", `<template><col>x y`, IgnoredText, `x y`, ""},
		{"end_br", `<p></br>`, EndTagCreated, `</br>`, "br"},
		{"end_p", `<div></p>`, EndTagCreated, `</p>`, "p"},
		{"meta_after_head", `<head></head><meta http-equiv=refresh content=0>`, HeadReopened, `<meta http-equiv=refresh content=0>`, "meta"},
		{"after_body", `<body></body><p>x`, BodyReopened, `<p>`, ""},
		{"after_html", `</html>x`, BodyReopened, `x`, ""},
		{"foster", `<table><img src=x>`, FosterParented, `<img src=x>`, "img"},
		{"adoption", `<b><div>x</b>`, Adopted, `</b>`, "div"},
		{"duplicate_attr", `<a href=x href=y>`, DuplicateAttr, `href=y`, "a"},
		{"merged_attrs", `<body><body onload=x>`, MergedAttrs, `<body onload=x>`, "body"},
		{"image", `<image src=x>`, Renamed, `<image src=x>`, ""},
		{"frameset_detaches_body", `<div></div><frameset>`, BodyDetached, `<frameset>`, "body"},
		{"unclosed_script", `<script>x`, UnclosedRawText, `<script>x`, "script"},
		{"eof_in_tag", `<p><img src=x`, DroppedAtEOF, `<img src=x`, ""},
		{"frameset_text", `<frameset> x</frameset>`, IgnoredText, ` x`, ""},
		{"nested_a", `<a href=1><a href=2>`, Misnested, `<a href=2>`, "a"},
		{"tokenizer_error", `<p a="1"b>`, ParseError, ``, ""},
		{"too_deep", strings.Repeat("<div>", 510) + `<template><img src=x>`, TooDeep, `<img src=x>`, "img"},
	} {
		t.Run(r.name, func(t *testing.T) {
			d := Parse([]byte(r.src), Options{})
			for _, rp := range d.Repairs {
				if rp.Kind != r.kind {
					continue
				}
				got := d.Src[rp.At.Start:rp.At.End]
				name := ""
				if rp.Node != nil {
					name = rp.Node.Name
				}
				if got == r.at && name == r.node {
					if rp.Kind.MovesContent() == (rp.Kind == ParseError || rp.Kind == DuplicateAttr || rp.Kind == Misnested) {
						t.Errorf("%v: MovesContent %v", rp.Kind, rp.Kind.MovesContent())
					}
					return
				}
				t.Logf("a %v at %q node %q", rp.Kind, got, name)
			}
			t.Errorf("no %v at %q with node %q in %v", r.kind, r.at, r.node, d.Repairs)
		})
	}
}

// TestModelQuestions: what the checker and the build ask of a page.
func TestModelQuestions(t *testing.T) {
	d := Parse([]byte("<!doctype html><meta http-equiv=Content-Security-Policy content=x><title>t</title><template><meta http-equiv=refresh content=0></template><div><template shadowrootmode=open><img src=live.png></template></div><script>if (a<b) x()</script>"), Options{})
	if h := d.Head(); h == nil || !h.FirstChild.Is(HTML, "meta") || h.Flags&Implied == 0 {
		t.Fatalf("head %v, first child %v", h, h.FirstChild)
	}
	if d.Body() == nil || d.Quirks != NoQuirks {
		t.Fatalf("body %v, quirks %v", d.Body(), d.Quirks)
	}
	var metas, imgs, scripts []*Node
	for n := range d.Root.Descendants() {
		switch {
		case n.Is(HTML, "meta"):
			metas = append(metas, n)
		case n.Is(HTML, "img"):
			imgs = append(imgs, n)
		case n.Type == TextNode && n.Parent.Is(HTML, "script"):
			scripts = append(scripts, n)
		}
	}
	if len(metas) != 2 || metas[0].Inert() || !metas[1].Inert() {
		t.Errorf("metas %d; the first is live, the one in the template inert", len(metas))
	}
	if len(imgs) != 1 || imgs[0].Inert() {
		t.Errorf("an img in a declarative shadow root is live: %v", imgs)
	}
	if len(scripts) != 1 || !scripts[0].IsRawText() || scripts[0].Data != "if (a<b) x()" {
		t.Errorf("script text %v", scripts)
	}
	var order []string
	for _, n := range d.SourceOrder() {
		if n.Type == ElementNode {
			order = append(order, n.Name)
		}
	}
	if got := strings.Join(order, " "); got != "meta title template meta div template img script" {
		t.Errorf("source order %q", got)
	}
	// Every node in source order starts after the one before.
	last := -1
	for _, n := range d.SourceOrder() {
		if s := n.Source(); s.Start < last {
			t.Errorf("%v at %d before %d", n.Name, s.Start, last)
		} else {
			last = s.Start
		}
	}
}
