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
			`@font-face{src:local("X"),url(a.woff2) format('woff2');font-weight:400}`},
		{"by_extension", `@FONT-FACE { src: url("a.eot?#iefix"), url("a.woff2?v=1"), url("a.woff") }`,
			`@FONT-FACE { src: url("a.woff2?v=1")}`},
		{"no_woff2_untouched", `@font-face{src:url(a.woff) format("woff"),url(a.ttf)}`, `@font-face{src:url(a.woff) format("woff"),url(a.ttf)}`},
		{"other_rules_untouched", `a{src:url(x.woff),url(y.woff2)} @font-face{src:url(a.ttf),url(a.woff2)} b{c:d}`,
			`a{src:url(x.woff),url(y.woff2)} @font-face{src:url(a.woff2)} b{c:d}`},
		{"strings_with_braces", `@font-face{font-family:"a}b";src:url("x,}.woff2"),url(y.woff)}`, `@font-face{font-family:"a}b";src:url("x,}.woff2")}`},
	}
	for _, r := range rows {
		if got := pruneFontFaces(r.in); got != r.want {
			t.Errorf("%s:\n got %s\nwant %s", r.name, got, r.want)
		}
	}
}

func TestDedupeAssets(t *testing.T) {
	big := "url(data:image/png;base64," + strings.Repeat("A", 2000) + ")"
	css := "a{background:" + big + "}b{background:" + big + " no-repeat}@font-face{src:" + big + "}c{x:url(data:small)}d{y:url(data:small)}"
	got := dedupeAssets(css)
	if strings.Count(got, strings.Repeat("A", 2000)) != 2 {
		t.Errorf("want the asset once for the rules and once in @font-face: %d", strings.Count(got, strings.Repeat("A", 2000)))
	}
	if !strings.HasPrefix(got, ":root{--miniapp-asset-0:url(") || strings.Count(got, "var(--miniapp-asset-0)") != 2 || strings.Count(got, "url(data:small)") != 2 {
		t.Errorf("dedupe: %.200s", got)
	}
	if dedupeAssets("a{b:c}") != "a{b:c}" {
		t.Error("CSS without repeats changed")
	}
}

// TestEscapesInAnyCase: the closing tags are found in any ASCII case, and text before them that
// changes length when lower-cased (İ) does not shift where the escape lands.
func TestEscapesInAnyCase(t *testing.T) {
	rows := []struct{ got, want string }{
		{escapeScript(`x="İ</SCRIPT>";y="<ScRiPt";z="<!--"`), `x="İ\x3C/SCRIPT>";y="\x3CScRiPt";z="\x3C!--"`},
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
