package offline

import (
	"fmt"
	"strings"
	"testing"
)

// TestCSSTokens checks the tokenizer on the cases CSS Syntax §4 spells out: url( forms (a
// quote makes a function; a space, a quote or a parenthesis inside an unquoted one makes a
// bad url that runs to a ')' no escape hides), strings (a newline makes a bad string;
// an escaped newline is nothing), escapes in names (u\72l( is url(), \:), comments, numbers
// and what starts an ident, CDO and CDC, NUL.
func TestCSSTokens(t *testing.T) {
	rows := []struct{ css, want string }{
		{`url(a.png)`, `url(a.png)`},
		{`url(  a.png  )`, `url(a.png)`},
		{`URL(a.png)`, `url(a.png)`},
		{`u\72l(a.png)`, `url(a.png)`},
		{`url("a.png")`, `function(url) string(a.png) )`},
		{`url( 'a.png' x)`, `function(url) ws string(a.png) ws ident(x) )`},
		{`url(a b)`, `badurl`},
		{`url(a"b)c`, `badurl ident(c)`},
		{`url(a\)b) x`, `url(a)b) ws ident(x)`},
		{`url(a(b)`, `badurl`},
		{`url(a\`, "url(a\uFFFD)"},
		{`url(a`, `url(a)`},
		{`url(a b\) c) d`, `badurl ws ident(d)`},
		{`"a\"b"`, `string(a"b)`},
		{"\"a\\\nb\"", `string(ab)`},
		{"\"a\nb\"", `badstring ws ident(b) string()`},
		{`'a`, `string(a)`},
		{`\75 rl(x)`, `url(x)`},
		{`\:a`, `ident(:a)`},
		{`a/* x */b`, `ident(a) ident(b)`},
		{`/* unclosed`, ``},
		{`-->`, `cdc`},
		{`<!--`, `cdo`},
		{`--x:"a"`, `ident(--x) : string(a)`},
		{`-1px +.5e3 1e+ 2%`, `dim(px) ws number ws dim(e) delim ws %`},
		{`@im\70 ort"x"`, `at(import) string(x)`},
		{`@ 1`, `delim ws number`},
		{`#a #1 # `, `hash(a) ws hash(1) ws delim ws`},
		{"a\x00b", "ident(a\uFFFDb)"},
		{`image-set("a" 1x)`, `function(image-set) string(a) ws dim(x) )`},
		{`\`, "ident(\uFFFD)"},
		{"\\\n", `delim ws`},
	}
	for _, r := range rows {
		z := cssTokenizer{s: r.css}
		var got []string
		for {
			tok := z.next()
			if tok.kind == cssEOF {
				break
			}
			got = append(got, tokenString(tok))
		}
		if strings.Join(got, " ") != r.want {
			t.Errorf("%q: %q, want %q", r.css, strings.Join(got, " "), r.want)
		}
	}
}

func tokenString(t cssToken) string {
	switch t.kind {
	case cssIdent:
		return fmt.Sprintf("ident(%s)", t.value)
	case cssFunction:
		return fmt.Sprintf("function(%s)", strings.ToLower(t.value))
	case cssAtKeyword:
		return fmt.Sprintf("at(%s)", t.value)
	case cssHash:
		return fmt.Sprintf("hash(%s)", t.value)
	case cssString:
		return fmt.Sprintf("string(%s)", t.value)
	case cssURL:
		return fmt.Sprintf("url(%s)", t.value)
	case cssDimension:
		return fmt.Sprintf("dim(%s)", t.value)
	}
	return map[cssKind]string{cssBadString: "badstring", cssBadURL: "badurl", cssDelim: "delim", cssNumber: "number",
		cssPercentage: "%", cssWhitespace: "ws", cssCDO: "cdo", cssCDC: "cdc", cssColon: ":", cssSemicolon: ";",
		cssComma: ",", cssOpenSquare: "[", cssCloseSquare: "]", cssOpenParen: "(", cssCloseParen: ")",
		cssOpenCurly: "{", cssCloseCurly: "}"}[t.kind]
}

// TestCheckCSSRoutes: the URLs a stylesheet loads, through each route a string becomes one,
// and the look-alikes that load nothing.
func TestCheckCSSRoutes(t *testing.T) {
	rows := []struct{ css, want string }{
		{`a{b:url(x.png)}`, "x.png"},
		{`a{b:url("x.png" cross-origin(anonymous))}`, "x.png"},
		{`a{b:image-set("x.png" 1x, url(y.png) 2x)}`, "x.png y.png"},
		{`a{b:image-set(var(--u, "x.png") 1x)}`, "x.png"},
		{`a{b:image-set(var(--u, var(--v, "x.png")) 1x)}`, "x.png"},
		{`a{b:image-set(if(media(print): "x.png"; else: "y.png") 1x)}`, "x.png y.png"},
		{`a{b:image-set(attr(data-x) 1x)}`, "attr()"},
		{`a{b:image("x.png")}`, "x.png"},
		{`a{b:src("x.png")}`, "x.png"},
		{`a{--u:"x.png"} b{c:image-set(var(--u) 1x)}`, "x.png"},
		{`a{--u:"x.png"} b{c:image-set(--f() 1x)}`, "x.png"},
		{`@property --u{syntax:"<string>";inherits:true;initial-value:"x.png"}b{c:image-set(var(--u) 1x)}`, "x.png"},
		{`@function --f(--a: "x.png"){result:"y.png"}b{c:image-set(--f() 1x)}`, "x.png y.png"},
		{`@import "x.css";`, "x.css"},
		{`@import url(x.css) layer(a) supports(display:grid);`, "x.css"},
		{`@import "x.css" layer("y");`, "x.css"},
		{`@font-face{src:url(f.woff2) format("woff2"), local("g")}`, "f.woff2"},
		{`a{b:image-set(} "x.png" 1x)}`, "x.png"},
		{`a{b:image-set("x.png"`, "x.png"},
		{`a{b:url("x.png"`, "x.png"},
		{`@namespace s url(n.xml); a{b:url(x.png)}`, "x.png"},
		{`@namespace s url(n.xml) ; @namespace t "m.xml";`, ""},
		{`a{@namespace url(x.png);}`, "x.png"},
		{`a{content:"x.png"}`, ""},
		{`a{--u:"x.png"} b{content:var(--u)}`, ""},
		{`@property --u{syntax:"<string>";inherits:true;initial-value:"x.png"}b{content:var(--u)}`, ""},
		{`a{b:url(x y)}`, ""},
		{`a{b:url(#f)}`, ""},
		{`a{b:format("x.png") local("y.png")}`, ""},
	}
	c := &checker{}
	for _, r := range rows {
		var got []string
		for _, h := range resolveConditional(c.checkCSS(r.css, scope{}), hasURLVar(c.checkCSS(r.css, scope{}))) {
			got = append(got, h.url)
		}
		if strings.Join(got, " ") != r.want {
			t.Errorf("%s: %q, want %q", r.css, strings.Join(got, " "), r.want)
		}
	}
}
