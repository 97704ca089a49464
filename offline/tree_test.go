package offline

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// treeRows are the classes of issue 21, both ways: a page that loads in Chromium (clean
// false: the checker must refuse it, with a finding whose URL is want, "" for any), and a
// look-alike that loads nothing (clean true). TestRulesInChromium loads each in Chromium.
// Each class was a way to hide markup from a checker that read a token stream.
var treeRows = makeTreeRows("cdn.example")

// treeRow is one row of treeRows.
type treeRow struct {
	name, html, want string
	clean            bool
}

// makeTreeRows makes the rows with host as the outside host, so that a browser test can give
// each row its own and count only the requests it makes.
func makeTreeRows(host string) []treeRow {
	// A payload's host is given before it is encoded.
	b64 := func(s string) string { return b64(strings.ReplaceAll(s, "cdn.example", host)) }
	utf16 := func(s string, bigEndian bool) string {
		return utf16(strings.ReplaceAll(s, "cdn.example", host), bigEndian)
	}
	rows := []treeRow{
		// Tree-builder state: self-closing raw text elements.
		{"style_self_closing", `<style/>html{background:url(https://cdn.example/a.png)}</style>`, "https://cdn.example/a.png", false},
		{"style_self_closing_markup_is_css", `<style/><img src="https://cdn.example/a.png"></style>`, "", true},
		{"script_self_closing", `<script/>import("https://cdn.example/x.js")</script>`, "https://cdn.example/x.js", false},
		{"script_self_closing_markup_is_script", `<script/>var s = '<img src="https://cdn.example/a.png">'</script>`, "", true},
		{"svg_style_self_closing", `<svg><style/><img src="https://cdn.example/a.png"></svg>`, "https://cdn.example/a.png", false},
		{"svg_style_self_closing_text", `<svg><style/><text>https://cdn.example/a.png</text></svg>`, "", true},
		{"svg_title_self_closing", `<svg><title/><image href="https://cdn.example/a.png"/></svg>`, "https://cdn.example/a.png", false},
		{"svg_title_image_is_html_img", `<svg><title><image href="https://cdn.example/a.png"/></title></svg>`, "", true},
		{"svg_plaintext_self_closing", `<svg><plaintext/></svg><img src="https://cdn.example/a.png">`, "https://cdn.example/a.png", false},
		{"plaintext_is_text", `<plaintext><img src="https://cdn.example/a.png">`, "", true},
		// Breakouts from foreign content.
		{"breakout_script_comment", `<svg><p><script type=module>let a = "<!--"; import("https://cdn.example/x.js")</script>`, "https://cdn.example/x.js", false},
		{"integration_point_style_is_raw", `<svg><desc><style><img src="https://cdn.example/a.png"></style></desc></svg>`, "", true},
		{"cdata_after_breakout", `<svg><p><![CDATA[ ><img src="https://cdn.example/a.png"> ]]>`, "https://cdn.example/a.png", false},
		// Chromium's preload scanner knows no foreign content: it fetches what it reads as markup.
		{"cdata_in_svg_preload_scanner", `<svg><![CDATA[ ><img src="https://cdn.example/a.png"> ]]></svg>`, "https://cdn.example/a.png", false},
		{"cdata_in_svg_is_text", `<svg><![CDATA[ <img src="https://cdn.example/a.png"> ]]></svg>`, "", true},
		{"mismatched_math_end", `<math><svg></math><![CDATA[ ><img src="https://cdn.example/a.png"> ]]>`, "https://cdn.example/a.png", false},
		{"ignored_svg_end", `<svg><desc><div></svg></div></desc><style><img src="https://cdn.example/a.png"></style></svg>`, "https://cdn.example/a.png", false},
		{"svg_end_in_integration_point_closes", `<svg><desc></svg><style><img src="https://cdn.example/a.png"></style>`, "", true},
		// HTML integration points, where <!-- in a raw text hides nothing.
		{"mi_style_comment", `<math><mi><style><!--</style><img src="https://cdn.example/a.png"><!----></style></mi></math>`, "https://cdn.example/a.png", false},
		{"foreignobject_style_comment", `<svg><foreignObject><style><!--</style><img src="https://cdn.example/a.png"><!----></style></foreignObject></svg>`, "https://cdn.example/a.png", false},
		{"svg_style_preload_scanner", `<svg><style><!--</style><img src="https://cdn.example/a.png"><!----></style></svg>`, "https://cdn.example/a.png", false},
		{"svg_script_comment_is_comment", `<svg><script><!--<img src="https://cdn.example/a.png">--></script></svg>`, "", true},
		{"frameset_ignored_img", `<frameset><img src="https://cdn.example/a.png"></frameset>`, "https://cdn.example/a.png", false},
		// ... and, where no tree holds them, what SVG elements name (found by TestDifferential
		// in html5lib-tests' contexts): judged as HTML and as SVG.
		{"frameset_svg_script_href", `<p><frameset><frame><svg><script href="https://cdn.example/x.js"></script></svg>`, "https://cdn.example/x.js", false},
		{"frameset_svg_image_href", `<frameset><frame><svg><image href="https://cdn.example/a.png"/></svg>`, "https://cdn.example/a.png", false},
		{"after_frameset_svg_script_href", `<frameset></frameset><svg><script href="https://cdn.example/x.js"></script></svg>`, "https://cdn.example/x.js", false},
		// Its CSS scanner takes an @import's unquoted prelude as a URL (CSS Syntax ignores the rule).
		{"style_import_unquoted", `<style>@import https://cdn.example/i.css</style>`, "https://cdn.example/i.css", false},
		{"style_import_unquoted_semicolon", `<style>@import https://cdn.example/i.css;</style>`, "https://cdn.example/i.css;", false},
		{"style_import_unquoted_comment_before", `<style>@import /**/https://cdn.example/i.css;</style>`, "https://cdn.example/i.css;", false},
		{"style_import_nothing", `<style>@import;</style>`, "", true},
		// Chromium 156 reads a <select>'s content as any other (page 15,083 of the differential
		// run, in html5lib-tests' context): its scanner reads the style in the svg as raw text.
		{"select_svg_style_preload_scanner", `<select><svg><style><!--</style><img src="https://cdn.example/a.png"><!----></style></svg></select>`, "https://cdn.example/a.png", false},
		{"style_import_open_url", `<style>@import url(</style><img src="https://cdn.example/a.png">`, "url(", false},
		{"style_import_url_with_spaces", `<style>@import url( https://cdn.example/i.css );</style>`, "url(", false},
		{"style_import_string", `<style>@import "data:text/css,p{color:red}";</style>`, "", true},
		{"math_cdata_preload_scanner", `<math><![CDATA[ ><img src="https://cdn.example/a.png"> ]]></math>`, "https://cdn.example/a.png", false},
		// Start tags the tree builder ignores: the tokenizer is not switched to raw text.
		{"template_col_style", `<template><col><style></template><img src="https://cdn.example/a.png"></style>`, "https://cdn.example/a.png", false},
		{"template_style_is_raw", `<template><style></template><img src="https://cdn.example/a.png"></style></template>`, "", true},
		{"frameset_style", `<frameset><style><frame src="https://cdn.example/f.html"></style></frameset>`, "https://cdn.example/f.html", false},
		{"frameset_noframes_is_raw", `<frameset><noframes><frame src="https://cdn.example/f.html"></noframes></frameset>`, "", true},
		// Nested encodings.
		{"data_css_utf16_bom", `<link rel=stylesheet href="data:text/css;base64,` + b64(utf16("\uFEFFhtml{background:url(https://cdn.example/a.png)}", false)) + `">`, "https://cdn.example/a.png", false},
		{"data_script_utf16_bom", `<script src="data:text/javascript;base64,` + b64(utf16("\uFEFFimport('https://cdn.example/x.js')", false)) + `"></script>`, "https://cdn.example/x.js", false},
		{"script_charset_attr", `<script charset="shift_jis" src="data:text/javascript;base64,` + b64("var s = \"\x81\\\"; import('https://cdn.example/x.js'); //\";") + `"></script>`, "https://cdn.example/x.js", false},
		{"script_utf8_string", `<script src="data:text/javascript;base64,` + b64("var s = \"\x81\\\"; import('https://cdn.example/x.js'); //\";") + `"></script>`, "", true},
		{"link_charset_attr", `<link rel=stylesheet charset="shift_jis" href="data:text/css;base64,` + b64("a{content:\"\x81\\\"}html{background:url(https://cdn.example/a.png)}a{content:\"}") + `">`, "https://cdn.example/a.png", false},
		{"css_charset_rule", `<link rel=stylesheet href="data:text/css;base64,` + b64("@charset \"shift_jis\";a{content:\"\x81\\\"}html{background:url(https://cdn.example/a.png)}a{content:\"}") + `">`, "https://cdn.example/a.png", false},
		{"css_utf8_string", `<link rel=stylesheet href="data:text/css;base64,` + b64("a{content:\"\x81\\\"}html{background:url(https://cdn.example/a.png)}a{content:\"}") + `">`, "", true},
		{"data_css_page_encoding", "<meta charset=\"shift_jis\"><link rel=stylesheet href=\"data:text/css;base64," + b64("a{content:\"\x81\\\"}html{background:url(https://cdn.example/a.png)}a{content:\"}") + "\">", "https://cdn.example/a.png", false},
		// CSS strings that become URLs.
		{"css_if_imageset", `<style>html{background-image:image-set(if(media(width > 1px): "https://cdn.example/a.png"; else: "https://cdn.example/b.png") 1x)}</style>`, "https://cdn.example/a.png", false},
		{"css_var_fallback_imageset", `<style>html{background-image:image-set(var(--none, "https://cdn.example/a.png") 1x)}</style>`, "https://cdn.example/a.png", false},
		{"css_var_fallback_not_url", `<style>html::before{content:var(--none, "https://cdn.example/a.png")}</style>`, "", true},
		{"css_property_initial_value", `<style>@property --i{syntax:"<string>";inherits:true;initial-value:"https://cdn.example/a.png"}html{background-image:image-set(var(--i) 1x)}</style>`, "https://cdn.example/a.png", false},
		{"css_property_not_read", `<style>@property --i{syntax:"<string>";inherits:true;initial-value:"https://cdn.example/a.png"}html::before{content:var(--i)}</style>`, "", true},
		{"css_function_result", `<style>@function --u(){result:"https://cdn.example/a.png"}html{background-image:image-set(--u() 1x)}</style>`, "https://cdn.example/a.png", false},
		{"css_badurl_out_of_step", `<style>html{background:url("a)" x)} body{background:url(https://cdn.example/b.png)}</style>`, "https://cdn.example/b.png", false},
		{"css_namespace_prelude_closed", `<style>@namespace s url("a)" y);` + "\n" + `html{background:url(https://cdn.example/b.png)}</style>`, "https://cdn.example/b.png", false},
		{"css_namespace_url", `<style>@namespace s url(https://cdn.example/ns);s|x{color:red}</style>`, "", true},
		{"css_badurl_unquoted_paren", `<style>html{background:url(https://cdn.example/a.png x)}</style>`, "", true},
		{"svg_attr_entity_paren", `<svg width=10 height=10><rect width=10 height=10 cursor="url&#40;https://cdn.example/c.png), auto"/></svg>`, "https://cdn.example/c.png", false},
		{"srcset_nested_parens", `<img srcset="data:,x 2x (a (b) , https://cdn.example/c.png 1x">`, "https://cdn.example/c.png", false},
		{"webbundle", `<script type="webbundle">{"source":"https://cdn.example/b.wbn","resources":["https://cdn.example/r.js"]}</script>`, "https://cdn.example/b.wbn", false},
		// XML documents shown in a frame.
		{"xml_smil_set", frameSVG(`<image width='9' height='9'><set attributeName='href' to='https://cdn.example/a.png'/></image>`), "https://cdn.example/a.png", false},
		{"xml_smil_set_data", frameSVG(`<image width='9' height='9'><set attributeName='href' to='data:image/gif;base64,R0lGODlhAQABAAAAACw='/></image>`), "", true},
		{"xhtml_meta_refresh", frameXHTML(`<head><meta http-equiv='refresh' content='0;url=https://cdn.example/r'/></head>`), "https://cdn.example/r", false},
		{"xhtml_meta_other", frameXHTML(`<head><meta name='referrer' content='https://cdn.example/r'/></head>`), "", true},
		{"xhtml_javascript_frame", frameXHTML(`<body><iframe src='javascript:"<img src=https://cdn.example/j.png>"'/></body>`), "", false},
		{"xml_stylesheet_decoy", `<iframe src="data:image/svg+xml,<?xml-stylesheet title='x href=&quot;data:,&quot;' href='https://cdn.example/s.css'?><svg xmlns='http://www.w3.org/2000/svg'/>"></iframe>`, "https://cdn.example/s.css", false},
		{"xml_stylesheet_decoy_clean", `<iframe src="data:image/svg+xml,<?xml-stylesheet title='href=&quot;https://cdn.example/s.css&quot;' href='data:text/css,'?><svg xmlns='http://www.w3.org/2000/svg'/>"></iframe>`, "", true},
		{"xml_xslt", `<iframe src="data:text/xml,` + url.PathEscape(`<?xml-stylesheet type="text/xsl" href="data:text/xsl,`+url.PathEscape(xslImg)+`"?><x/>`) + `"></iframe>`, "", false},
		{"xml_attlist_default", `<iframe src="data:image/svg+xml,<!DOCTYPE svg [<!ATTLIST image href CDATA 'https://cdn.example/a.png'>]><svg xmlns='http://www.w3.org/2000/svg'><image width='9' height='9'/></svg>"></iframe>`, "", false},
		{"xml_external_doctype", `<iframe src="data:image/svg+xml,<!DOCTYPE svg PUBLIC '-//W3C//DTD SVG 1.1//EN' 'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd'><svg xmlns='http://www.w3.org/2000/svg'><rect width='9' height='9'/></svg>"></iframe>`, "", true},
		// False positives: one value of to, from or by is not split; a classic script is a script.
		{"svg_set_to_data_base64", `<svg><image width="10" height="10"><set attributeName="href" to="data:image/gif;base64,R0lGODlhAQABAAAAACw="/></image></svg>`, "", true},
		{"svg_animate_from_by_data_base64", `<svg><image width="10" height="10"><animate attributeName="href" from="data:image/gif;base64,R0lGODlhAQABAAAAACw=" by="data:image/gif;base64,R0lGODlhAQABAAAAACw=" dur="1s"/></image></svg>`, "", true},
		{"classic_with", `<script>with (Math) { var r = max(1, 2) }</script>`, "", true},
		{"classic_package_name", `<script>var package = 1, yield = 2; window.n = package + yield</script>`, "", true},
		{"classic_with_import", `<script>with (Math) { import("https://cdn.example/x.js") }</script>`, "https://cdn.example/x.js", false},
	}
	for i := range rows {
		rows[i].html = strings.ReplaceAll(rows[i].html, "cdn.example", host)
		rows[i].want = strings.ReplaceAll(rows[i].want, "cdn.example", host)
	}
	return rows
}

// xslImg is an XSLT stylesheet whose output loads an image.
const xslImg = `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><html xmlns="http://www.w3.org/1999/xhtml"><body><img src="https://cdn.example/x.png"/></body></html></xsl:template></xsl:stylesheet>`

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// frameSVG frames an SVG document holding body as a data: URL.
func frameSVG(body string) string {
	return `<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'>` + body + `</svg>"></iframe>`
}

// frameXHTML frames an XHTML document holding body (a head, a body) as a data: URL.
func frameXHTML(body string) string {
	return `<iframe src="data:application/xhtml+xml,<html xmlns='http://www.w3.org/1999/xhtml'>` + body + `</html>"></iframe>`
}

// TestTreeClasses checks each class both ways: refused with a placed finding, or clean.
func TestTreeClasses(t *testing.T) {
	for _, row := range treeRows {
		t.Run(row.name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(row.html), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if row.clean {
				for _, f := range fs {
					t.Errorf("unexpected finding: %s", f.Message)
				}
				return
			}
			if len(fs) == 0 {
				t.Fatalf("no finding for %s", row.html)
			}
			for _, f := range fs {
				if f.Line < 1 || f.Column < 1 || f.Note == "" {
					t.Errorf("finding lacks a place or a note: %+v", f)
				}
				if row.want == "" || f.URL == row.want {
					return
				}
			}
			var urls []string
			for _, f := range fs {
				urls = append(urls, f.URL)
			}
			t.Errorf("no finding with URL %q; got %s", row.want, strings.Join(urls, ", "))
		})
	}
}
