package pipeline

import (
	"strings"
	"testing"
)

func TestPruneFontFaces(t *testing.T) {
	rows := []struct{ name, in, want string }{
		{"keeps_woff2", `@font-face{font-family:x;src:url(a.woff2) format("woff2"),url(a.woff) format("woff"),url(a.ttf) format("truetype")}`,
			`@font-face{font-family:x;src:url(a.woff2) format("woff2")}`},
		{"keeps_local", `@font-face{src:local("X"),url(a.woff) format('woff'),url(a.woff2) format('woff2');font-weight:400}`,
			`@font-face{src:local("X"),url(a.woff) format('woff');font-weight:400}`},
		{"by_extension", `@FONT-FACE { src: url("a.eot?#iefix"), url("a.woff2?v=1"), url("a.woff") }`,
			`@FONT-FACE { src: url("a.woff2?v=1")}`},
		{"first_supported", `@font-face{src:url(a.woff) format("woff"),url(a.ttf)}`, `@font-face{src:url(a.woff) format("woff")}`},
		{"other_rules_untouched", `a{src:url(x.woff),url(y.woff2)} @font-face{src:url(a.ttf),url(a.woff2)} b{c:d}`,
			`a{src:url(x.woff),url(y.woff2)} @font-face{src:url(a.ttf)} b{c:d}`},
		{"strings_with_braces", `@font-face{font-family:"a}b";src:url("x,}.woff2"),url(y.woff)}`, `@font-face{font-family:"a}b";src:url("x,}.woff2")}`},
		// As Chromium chooses: tech() and the *-variations formats it supports are taken, and
		// what it does not support is skipped for the next source.
		{"tech_variations", `@font-face{src:url(v.woff2) format("woff2") tech(variations),url(s.woff2) format("woff2")}`,
			`@font-face{src:url(v.woff2) format("woff2") tech(variations)}`},
		{"woff2_variations", `@font-face{src:url(v.woff2) format("woff2-variations"),url(s.woff2) format("woff2")}`,
			`@font-face{src:url(v.woff2) format("woff2-variations")}`},
		{"tech_unsupported", `@font-face{src:url(c.woff2) format("woff2") tech(color-SVG),url(s.woff2) format("woff2")}`,
			`@font-face{src:url(s.woff2) format("woff2")}`},
		{"tech_all_needed", `@font-face{src:url(c.woff2) tech(variations, incremental),url(s.woff2)}`, `@font-face{src:url(s.woff2)}`},
		{"format_unsupported", `@font-face{src:url(a.eot) format("embedded-opentype"),url(a.svg#f) format("svg"),url(a.woff) format("woff")}`,
			`@font-face{src:url(a.woff) format("woff")}`},
		{"none_supported_untouched", `@font-face{src:url(a.eot) format("embedded-opentype")}`, `@font-face{src:url(a.eot) format("embedded-opentype")}`},
	}
	for _, r := range rows {
		if got := pruneFontFaces(r.in); got != r.want {
			t.Errorf("%s:\n got %s\nwant %s", r.name, got, r.want)
		}
	}
}

// TestDedupeAssets: a large data: URL used twice in a stylesheet's rules is defined once, by
// a name its URL gives (so another stylesheet's can never take it), on :root and :host (so it
// reaches a shadow tree), after the statements that must come first; descriptors, comments
// and strings keep theirs.
func TestDedupeAssets(t *testing.T) {
	big := "url(data:image/png;base64," + strings.Repeat("A", 2000) + ")"
	other := "url(\"data:image/png;base64," + strings.Repeat("B", 2000) + "\")"
	rows := []struct {
		name, in string
		check    func(got string) string
	}{
		{"rules_not_font_face", "a{background:" + big + "}b{background:" + big + " no-repeat}@font-face{src:" + big + "}c{x:url(data:small)}d{y:url(data:small)}",
			func(got string) string {
				if strings.Count(got, strings.Repeat("A", 2000)) != 2 || strings.Count(got, "var(--miniapp-asset-") != 2 || strings.Count(got, "url(data:small)") != 2 {
					return "want the asset once for the rules and once in @font-face, the small ones as they were"
				}
				if !strings.HasPrefix(got, ":root,:host{--miniapp-asset-") {
					return "want the definitions first, on :root and :host"
				}
				return ""
			}},
		{"statements_first", `@charset "utf-8";@import url(x.css) screen;@namespace svg url(http://www.w3.org/2000/svg);@layer a,b;` + "a{background:" + big + "}c{background-image:" + big + "}",
			func(got string) string {
				if !strings.HasPrefix(got, `@charset "utf-8";@import url(x.css) screen;@namespace svg url(http://www.w3.org/2000/svg);@layer a,b;:root,:host{--miniapp-asset-`) {
					return "want the definitions after @charset, @import, @namespace, @layer"
				}
				return ""
			}},
		{"nested_and_grouped", "@media screen{a{background:" + big + "}}a{&:hover{background:" + big + "}}@supports (x:y){c{background-image:" + other + "}e{background:" + other + "}}",
			func(got string) string {
				if strings.Count(got, "var(--miniapp-asset-") != 4 || strings.Count(got, strings.Repeat("A", 2000)) != 1 || strings.Count(got, strings.Repeat("B", 2000)) != 1 {
					return "want each asset defined once and used by var() four times"
				}
				return ""
			}},
		{"comments_and_strings", "/* " + big + " */a{content:\"" + big + "\"}b{background:" + big + "}",
			func(got string) string {
				if got != "/* "+big+" */a{content:\""+big+"\"}b{background:"+big+"}" {
					return "a URL in a comment or a string is no use: nothing to share"
				}
				return ""
			}},
		// A declaration the browser drops when parsed keeps its url(): with var() it would be
		// valid at parse time and invalid at computed-value time, unsetting the property
		// instead of keeping the declaration before it.
		{"dropped_when_parsed", ".a{background:#0000c8;background:" + big + " nonsense-value}.b{background:" + big + " no-repeat center}.c{background-image:" + big + "!important}",
			func(got string) string {
				if !strings.Contains(got, ".a{background:#0000c8;background:"+big+" nonsense-value}") || strings.Count(got, "var(--miniapp-asset-") != 2 || strings.Count(got, strings.Repeat("A", 2000)) != 2 {
					return "want .a's declaration as written, .b's and .c's by var()"
				}
				return ""
			}},
		{"one_use_parses", "a{background:" + big + ",nonsense}b{cursor:" + big + "}c{background:" + big + "}",
			func(got string) string {
				if strings.Contains(got, "var(") {
					return "one use in a declaration that parses: nothing to share"
				}
				return ""
			}},
		// A ";" inside a function or ( ) does not end the declaration: what follows it is
		// no declaration of its own.
		{"semicolon_in_function", "a{x:f(1;background-image:" + big + ";2)}b{background-image:" + big + "}",
			func(got string) string {
				if strings.Contains(got, "var(") {
					return "one use in a declaration: nothing to share"
				}
				return ""
			}},
		{"descriptors", "@property --x{syntax:'*';inherits:false;initial-value:" + big + "}@font-face{src:" + big + "}", func(got string) string {
			if strings.Contains(got, "var(") {
				return "descriptors do not take var()"
			}
			return ""
		}},
	}
	for _, r := range rows {
		got := dedupeAssets(r.in)
		if msg := r.check(got); msg != "" {
			t.Errorf("%s: %s: %.300s", r.name, msg, got)
		}
	}
	// Two stylesheets, each with its own image used twice: the names differ, and the same
	// image gives the same name.
	a, b := dedupeAssets("x{background:"+big+"}z{background-image:"+big+"}"), dedupeAssets("x{background:"+other+"}z{background-image:"+other+"}")
	name := func(s string) string { return s[strings.Index(s, "--miniapp-asset-"):strings.Index(s, ":url")] }
	if name(a) == name(b) || name(a) != name(dedupeAssets("q{background:"+big+"}s{background:"+big+"}")) {
		t.Errorf("names: %s %s", name(a), name(b))
	}
	if dedupeAssets("a{b:c}") != "a{b:c}" {
		t.Error("CSS without repeats changed")
	}
}

// TestEscapesInAnyCase: the closing tags are found in any ASCII case, and text before them that
// changes length when lower-cased (İ) does not shift where the escape lands.
func TestEscapesInAnyCase(t *testing.T) {
	rows := []struct{ got, want string }{
		{escapeScript(`x="İ</SCRIPT>";y="<ScRiPt";z="<!--"`), `x="İ\x3C/SCRIPT>";y="<ScRiPt";z="<!--"`},
		{escapeScript(`a<b&&c</scrip`), `a<b&&c</scrip`},
		{escapeStyle(`a{content:"İ</Style>"}b{content:"</STYLE"}`), `a{content:"İ<\/Style>"}b{content:"<\/STYLE"}`},
		{escapeStyle(`a{b:c}`), `a{b:c}`},
	}
	for _, r := range rows {
		if r.got != r.want {
			t.Errorf("got %s, want %s", r.got, r.want)
		}
	}
}

// TestImageSetURLs holds image-set()'s strings to being read as URLs, as CSS Images 4 reads
// them, and nothing else.
func TestImageSetURLs(t *testing.T) {
	for in, want := range map[string]string{
		`a { background: image-set('a.png' 1x, "b.png" 2x) }`:                            `a { background: image-set(url('a.png') 1x, url("b.png") 2x) }`,
		`a { background: -webkit-image-set("a.png" 1x) }`:                                `a { background: -webkit-image-set(url("a.png") 1x) }`,
		`a { background: image-set("a.avif" type("image/avif"), url(b.png) type("x")) }`: `a { background: image-set(url("a.avif") type("image/avif"), url(b.png) type("x")) }`,
		`a { content: "image-set('a.png' 1x)" } /* image-set("b.png") */`:                `a { content: "image-set('a.png' 1x)" } /* image-set("b.png") */`,
		`a { b: c }`: `a { b: c }`,
	} {
		if got := imageSetURLs(in); got != want {
			t.Errorf("imageSetURLs(%s)\n = %s\nwant %s", in, got, want)
		}
	}
}
