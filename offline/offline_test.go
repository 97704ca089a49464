package offline

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	utf16pkg "unicode/utf16"

	"github.com/miniapp/bundle/markup"
)

// refuse rows must produce at least one finding whose URL is want (or, for want "", any).
var refuseRows = []struct {
	name, html, want string
}{
	// URL attributes, HTML.
	{"img_src", `<img src="https://cdn.example/a.png">`, "https://cdn.example/a.png"},
	{"img_relative", `<img src="a.png">`, "a.png"},
	{"img_root_relative", `<img src=/a.png>`, "/a.png"},
	{"img_dot_relative", `<img src=./a.png>`, "./a.png"},
	{"img_query_only", `<img src="?q">`, "?q"},
	{"img_protocol_relative", `<img src="//cdn.example/a.png">`, "//cdn.example/a.png"},
	{"img_backslashes", `<img src="\\cdn.example\a.png">`, `\\cdn.example\a.png`},
	{"img_slash_backslash", `<img src="/\cdn.example/a.png">`, `/\cdn.example/a.png`},
	{"mixed_case_tag_attr", `<IMG SRC="HTTPS://cdn.example/a.png">`, "HTTPS://cdn.example/a.png"},
	{"unquoted", `<img src=https://cdn.example/a.png>`, "https://cdn.example/a.png"},
	{"entity_decimal_scheme", `<img src="&#104;ttps://cdn.example/a.png">`, "https://cdn.example/a.png"},
	{"entity_colon", `<img src="https&colon;//cdn.example/a.png">`, "https://cdn.example/a.png"},
	{"entity_hex_no_semicolon", `<img src="&#x68ttps://cdn.example/a.png">`, "https://cdn.example/a.png"},
	{"tab_in_scheme_not_data", "<img src=\"ht\ttps://cdn.example/a.png\">", "ht\ttps://cdn.example/a.png"},
	{"fake_data_prefix", `<img src="data.example/a.png">`, "data.example/a.png"},
	{"fake_javascript_path", `<img src="javascript.png">`, "javascript.png"},
	{"about_other", `<iframe src="about:config"></iframe>`, "about:config"},
	{"duplicate_attr_first_wins", `<img src="https://cdn.example/a.png" src="data:,x">`, "https://cdn.example/a.png"},
	{"duplicate_attr_svg_later_wins", `<svg><script href="#" href="https://cdn.example/x.js"></script></svg>`, "https://cdn.example/x.js"},
	{"data_doc_var_imageset", `<iframe src="data:text/html;base64,` + base64.StdEncoding.EncodeToString([]byte(`<style>body{--i:"https://cdn.example/a.png";background-image:image-set(var(--i) 1x)}</style>`)) + `"></iframe>`, "https://cdn.example/a.png"},
	{"script_src", `<script src="https://cdn.example/react.js"></script>`, "https://cdn.example/react.js"},
	{"script_src_datablock_type", `<script type="text/plain" src="https://cdn.example/x"></script>`, "https://cdn.example/x"},
	{"link_stylesheet", `<link rel=stylesheet href="https://fonts.example/css">`, "https://fonts.example/css"},
	{"link_preconnect", `<link rel=preconnect href="https://fonts.example">`, "https://fonts.example"},
	{"link_dns_prefetch", `<link rel=dns-prefetch href="//fonts.example">`, "//fonts.example"},
	{"link_icon", `<link rel=icon href="/favicon.ico">`, "/favicon.ico"},
	{"link_modulepreload", `<link rel=modulepreload href="/x.js">`, "/x.js"},
	{"iframe_src", `<iframe src="https://evil.example/"></iframe>`, "https://evil.example/"},
	{"frame_src", `<frameset><frame src="https://evil.example/"></frameset>`, "https://evil.example/"},
	{"object_data", `<object data="https://evil.example/x.pdf"></object>`, "https://evil.example/x.pdf"},
	{"embed_src", `<embed src="https://evil.example/x.swf">`, "https://evil.example/x.swf"},
	{"video_poster", `<video poster="https://cdn.example/p.jpg"></video>`, "https://cdn.example/p.jpg"},
	{"video_src", `<video src="https://cdn.example/v.mp4"></video>`, "https://cdn.example/v.mp4"},
	{"audio_source", `<audio><source src="https://cdn.example/a.mp3"></audio>`, "https://cdn.example/a.mp3"},
	{"track_src", `<video><track src="https://cdn.example/t.vtt"></video>`, "https://cdn.example/t.vtt"},
	{"input_image", `<input type=image src="https://cdn.example/b.png">`, "https://cdn.example/b.png"},
	{"body_background", `<body background="https://cdn.example/bg.png">`, "https://cdn.example/bg.png"},
	{"td_background", `<table><tr><td background="bg.png">x</td></tr></table>`, "bg.png"},
	{"html_manifest", `<html manifest="app.appcache">`, "app.appcache"},
	{"form_action", `<form action="https://evil.example/collect"></form>`, "https://evil.example/collect"},
	{"button_formaction", `<form><button formaction="/post">x</button></form>`, "/post"},
	{"a_href_not_allowed", `<a href="https://example.com/">x</a>`, "https://example.com/"},
	{"a_href_relative", `<a href="page2.html">x</a>`, "page2.html"},
	{"area_href", `<map><area href="https://example.com/"></map>`, "https://example.com/"},
	{"a_ping", `<a href="#x" ping="https://track.example/p">x</a>`, "https://track.example/p"},
	{"a_ping_second", `<a href="#x" ping="data:,a https://track.example/p">x</a>`, "https://track.example/p"},
	{"attributionsrc", `<img src="data:,x" attributionsrc="https://ads.example/r">`, "https://ads.example/r"},
	{"base_href", `<base href="https://cdn.example/">`, "https://cdn.example/"},
	{"meta_refresh", `<meta http-equiv="refresh" content="0;url=https://evil.example/">`, "https://evil.example/"},
	{"meta_refresh_quoted_case", `<meta http-equiv="Refresh" content="0; URL='https://evil.example/'">`, "https://evil.example/"},
	{"meta_refresh_no_url", `<meta http-equiv="refresh" content="5">`, ""},
	// URL lists.
	{"srcset_first", `<img srcset="https://cdn.example/a.png 1x, data:,b 2x">`, "https://cdn.example/a.png"},
	{"srcset_second", `<img src="data:,a" srcset="data:,a 1x, https://cdn.example/b.png 2x">`, "https://cdn.example/b.png"},
	{"srcset_comma_url", `<img srcset="data:,a 1x,https://cdn.example/b.png 2x">`, "https://cdn.example/b.png"},
	{"srcset_parens_descriptor", `<img srcset="data:,a 1x (foo, bar), https://cdn.example/c.png 3x">`, "https://cdn.example/c.png"},
	{"picture_source_srcset", `<picture><source srcset="https://cdn.example/a.webp"><img src="data:,x"></picture>`, "https://cdn.example/a.webp"},
	{"link_imagesrcset", `<link rel=preload as=image imagesrcset="https://cdn.example/a.png 1x">`, "https://cdn.example/a.png"},
	// SVG.
	{"svg_image_href", `<svg><image href="https://cdn.example/a.png"/></svg>`, "https://cdn.example/a.png"},
	{"svg_image_xlink", `<svg><image xlink:href="https://cdn.example/a.png"/></svg>`, "https://cdn.example/a.png"},
	{"svg_use_external", `<svg><use href="sprite.svg#icon"/></svg>`, "sprite.svg#icon"},
	{"svg_script_href", `<svg><script href="https://cdn.example/x.js"></script></svg>`, "https://cdn.example/x.js"},
	{"svg_set_href", `<svg><image width="10" height="10" href="data:image/gif;base64,R0lGODlhAQABAAAAACw="><set attributeName="href" to="https://cdn.example/a.png"/></image></svg>`, "https://cdn.example/a.png"},
	{"svg_animate_values", `<svg><image width="10" height="10"><animate attributeName="href" values="data:image/gif;base64,R0lGODlhAQABAAAAACw=;https://cdn.example/b.png" dur="0.1s" fill="freeze"/></image></svg>`, "https://cdn.example/b.png"},
	{"svg_animate_from", `<svg><image width="10" height="10"><animate attributeName="href" from="https://cdn.example/c.png" to="data:," dur="10s"/></image></svg>`, "https://cdn.example/c.png"},
	{"svg_animate_xlink", `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image width="10" height="10"><set attributeName="xlink:href" to="https://cdn.example/d.png"/></image></svg>`, "https://cdn.example/d.png"},
	// A values list is split at every ';', a data: URL's too: Chromium requests "base64,…".
	{"svg_values_split_data", `<svg><image width="10" height="10"><animate attributeName="href" values="data:image/gif;base64,R0lGODlhAQABAAAAACw=" dur="1s"/></image></svg>`, "base64,R0lGODlhAQABAAAAACw="},
	{"svg_set_use", `<svg><use><set attributeName="href" to="sprite.svg#a"/></use></svg>`, "sprite.svg#a"},
	{"svg_set_feimage", `<svg><filter id="f"><feImage><set attributeName="href" to="https://cdn.example/f.png"/></feImage></filter><rect width="9" height="9" filter="url(#f)"/></svg>`, "https://cdn.example/f.png"},
	{"iframe_javascript_src", `<iframe src="javascript:'<img src=https://cdn.example/j.png>'"></iframe>`, "javascript:'<img src=https://cdn.example/j.png>'"},
	{"frame_javascript_src", `<frameset><frame src=" JavaScript:'<img src=https://cdn.example/k.png>'"></frameset>`, " JavaScript:'<img src=https://cdn.example/k.png>'"},
	{"object_javascript_data", `<object data="javascript:'<img src=https://cdn.example/l.png>'"></object>`, "javascript:'<img src=https://cdn.example/l.png>'"},
	{"embed_javascript_src", `<embed src="javascript:'<img src=https://cdn.example/m.png>'">`, "javascript:'<img src=https://cdn.example/m.png>'"},
	{"svg_fill_url", `<svg><rect fill="url(https://cdn.example/p.svg#g)"/></svg>`, "https://cdn.example/p.svg#g"},
	{"svg_feimage", `<svg><filter><feImage href="https://cdn.example/a.png"/></filter></svg>`, "https://cdn.example/a.png"},
	{"svg_style_breakout_img", `<svg><style><img src="https://cdn.example/a.png"></style></svg>`, "https://cdn.example/a.png"},
	{"svg_style_css", `<svg><style>rect{fill:url(https://cdn.example/p.svg#g)}</style></svg>`, "https://cdn.example/p.svg#g"},
	// CSS.
	{"style_url", `<style>body{background:url(https://cdn.example/bg.png)}</style>`, "https://cdn.example/bg.png"},
	{"style_url_quoted", `<style>body{background:url("bg.png")}</style>`, "bg.png"},
	{"style_url_upper", `<style>body{background:URL(bg.png)}</style>`, "bg.png"},
	{"style_url_escaped_name", `<style>body{background:u\72l(bg.png)}</style>`, "bg.png"},
	{"style_url_escaped_name_quoted", `<style>body{background:u\72l("bg.png")}</style>`, "bg.png"},
	{"style_url_escaped_value", `<style>body{background:url(ht\74ps://cdn.example/a.png)}</style>`, "https://cdn.example/a.png"},
	{"style_comment_before_url", `<style>body{background:/* url(data:,x) */url(bg.png)}</style>`, "bg.png"},
	{"style_import_string", `<style>@import "https://cdn.example/x.css";</style>`, "https://cdn.example/x.css"},
	{"style_import_url", `<style>@import url(x.css) screen;</style>`, "x.css"},
	{"style_import_comment", `<style>@import/**/'x.css';</style>`, "x.css"},
	{"style_import_escaped", `<style>@\69mport 'x.css';</style>`, "x.css"},
	{"style_image_set", `<style>body{background:image-set("a.png" 1x, "b.png" 2x)}</style>`, "a.png"},
	{"style_webkit_image_set", `<style>body{background:-webkit-image-set("b.png" 1x)}</style>`, "b.png"},
	{"style_font_face", `<style>@font-face{font-family:x;src:local(nope-x),url(https://fonts.example/x.woff2) format("woff2")}body{font-family:x}</style>text`, "https://fonts.example/x.woff2"},
	{"style_attr_url", `<div style="background:url(https://cdn.example/a.png)">x</div>`, "https://cdn.example/a.png"},
	{"style_attr_entity", `<div style="background:url(&quot;https://cdn.example/a.png&quot;)">x</div>`, "https://cdn.example/a.png"},
	{"style_src_function", `<style>body{background:src("https://cdn.example/a.png")}</style>`, "https://cdn.example/a.png"},
	{"style_unclosed_url", `<style>body{background:url(https://cdn.example/a.png`, "https://cdn.example/a.png"},
	{"style_cursor", `<style>html{cursor:url(c.cur),auto}</style>`, "c.cur"},
	// Scripts.
	{"module_import", `<script type=module>import x from "https://esm.example/x.js"; x()</script>`, "https://esm.example/x.js"},
	{"module_import_bare", `<script type=module>import React from "react"</script>`, "react"},
	{"module_export_from", `<script type=module>export * from "./x.js"</script>`, "./x.js"},
	{"module_side_effect", `<script type="MODULE">import "./x.js"</script>`, "./x.js"},
	// Types Chromium runs as classic scripts, the Standard as data blocks: Chromium strips \v
	// and Unicode's whitespace (bidi class WS) off the type too (KindOfScript).
	{"script_type_vertical_tab", `<script type="&#11;text/javascript">import("https://esm.example/v.js")</script>`, "https://esm.example/v.js"},
	{"script_type_em_space", `<script type="text/javascript&#x2003;">import("https://esm.example/e.js")</script>`, "https://esm.example/e.js"},
	{"script_type_charset_parameter", `<script type="text/javascript; charset=utf-8">import("https://esm.example/p.js")</script>`, "https://esm.example/p.js"},
	{"module_dynamic", `<script type=module>import("https://esm.example/x.js")</script>`, "https://esm.example/x.js"},
	{"classic_dynamic", `<script>if (1) import('//esm.example/x.js')</script>`, "//esm.example/x.js"},
	{"classic_js_mime", `<script type="text/javascript">import('./x.js')</script>`, "./x.js"},
	{"module_data_import", `<script type=module>import "data:text/javascript,import 'https://esm.example/y.js'"</script>`, "https://esm.example/y.js"},
	{"module_syntax_error_refused", `<script type=module>import { from "x"</script>`, ""},
	{"importmap", `<script type=importmap>{"imports":{"react":"https://esm.example/react.js"}}</script>`, "https://esm.example/react.js"},
	{"importmap_scope", `<script type=importmap>{"scopes":{"/":{"a":"./a.js"}}}</script>`, "./a.js"},
	{"speculation_document_rules", `<script type=speculationrules>{"prefetch":[{"where":{"href_matches":"/*"},"eagerness":"immediate"}]}</script><a href="https://cdn.example/next">next</a>`, "where"},
	{"speculation_rules", `<script type=speculationrules>{"prefetch":[{"source":"list","urls":["https://evil.example/next"]}]}</script>`, "https://evil.example/next"},
	// Nested documents.
	{"srcdoc", `<iframe srcdoc="<img src=https://cdn.example/a.png>"></iframe>`, "https://cdn.example/a.png"},
	{"srcdoc_encoded_quotes", `<iframe srcdoc="<img src=&quot;https://cdn.example/a.png&quot;>"></iframe>`, "https://cdn.example/a.png"},
	{"srcdoc_nested_twice", `<iframe srcdoc="<iframe srcdoc='<img src=&amp;quot;https://cdn.example/a.png&amp;quot;>'></iframe>"></iframe>`, "https://cdn.example/a.png"},
	{"srcdoc_style", `<iframe srcdoc="<style>@import 'x.css'</style>"></iframe>`, "x.css"},
	{"data_html_iframe", `<iframe src="data:text/html,<img src=https://cdn.example/a.png>"></iframe>`, "https://cdn.example/a.png"},
	{"data_html_iframe_base64", `<iframe src="data:text/html;base64,` + base64.StdEncoding.EncodeToString([]byte(`<script src="https://cdn.example/x.js"></script>`)) + `"></iframe>`, "https://cdn.example/x.js"},
	{"data_html_iframe_percent", `<iframe src="data:text/html,` + url.PathEscape(`<img src="https://cdn.example/a.png">`) + `"></iframe>`, "https://cdn.example/a.png"},
	{"data_svg_object", `<object data="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='https://cdn.example/a.png'/></svg>"></object>`, "https://cdn.example/a.png"},
	{"data_svg_embed", `<embed src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(`<svg><use href="https://cdn.example/s.svg#a"/></svg>`)) + `">`, "https://cdn.example/s.svg#a"},
	{"data_css_link", `<link rel=stylesheet href="data:text/css,@import 'https://cdn.example/x.css';">`, "https://cdn.example/x.css"},
	{"data_css_import", `<style>@import url("data:text/css,body{background:url(https://cdn.example/a.png)}");</style>`, "https://cdn.example/a.png"},
	{"data_module_script", `<script type=module src="data:text/javascript,import 'https://esm.example/x.js'"></script>`, "https://esm.example/x.js"},
	{"data_classic_script_dynamic", `<script src="data:text/javascript,import('https://esm.example/x.js')"></script>`, "https://esm.example/x.js"},
	{"noscript", `<noscript><img src="https://cdn.example/pixel.gif"></noscript>`, "https://cdn.example/pixel.gif"},
	{"noscript_in_head", `<head><noscript><link rel=stylesheet href="x.css"></noscript></head>`, "x.css"},
	{"template", `<template><img src="https://cdn.example/a.png"></template>`, "https://cdn.example/a.png"},
	{"template_shadowroot", `<div><template shadowrootmode=open><style>@import "x.css"</style></template></div>`, "x.css"},
	// Parser behaviour.
	{"misnested_formatting", `<b><a href="https://example.com/"><p>x</b>y</a>`, "https://example.com/"},
	{"table_foster_parent", `<table><img src="https://cdn.example/a.png"><tr><td>x</td></tr></table>`, "https://cdn.example/a.png"},
	{"nul_in_attr", "<img src=\"https://cdn.example/\x00a.png\">", "https://cdn.example/\uFFFDa.png"},
	// Bytes before markup: the encoding a browser reads the page in.
	{"utf16le_bom", utf16("\uFEFF<img src=\"https://cdn.example/a.png\">", false), "https://cdn.example/a.png"},
	{"utf16be_bom", utf16("\uFEFF<img src=\"https://cdn.example/a.png\">", true), "https://cdn.example/a.png"},
	{"iso2022jp_escape_opens_comment", "<meta charset=\"iso-2022-jp\"><p>\x1b$B<!--\x1b(B<img src=\"https://cdn.example/a.png\">-->", "https://cdn.example/a.png"},
	{"iso2022jp_undeclared", "<p>\x1b$B<!--\x1b(B<img src=\"https://cdn.example/a.png\">-->", "https://cdn.example/a.png"},
	{"shift_jis_swallows_backslash", "<meta charset=\"shift_jis\"><script>var s = \"\x81\\\"; import('https://cdn.example/x.js'); //\";</script>", "https://cdn.example/x.js"},
	// data: URLs as the Fetch Standard reads them, and documents by their type.
	{"data_base64_fragment", `<iframe src="data:text/html;base64,` + base64.StdEncoding.EncodeToString([]byte(`<img src="https://cdn.example/a.png">`)) + `#frag"></iframe>`, "https://cdn.example/a.png"},
	{"data_charset_utf16", `<iframe src="data:text/html;charset=utf-16le;base64,` + base64.StdEncoding.EncodeToString([]byte(utf16(`<img src="https://cdn.example/a.png">`, false))) + `"></iframe>`, "https://cdn.example/a.png"},
	{"data_xhtml_iframe", `<iframe src="data:application/xhtml+xml,<html xmlns='http://www.w3.org/1999/xhtml'><body><img src='https://cdn.example/a.png'/></body></html>"></iframe>`, "https://cdn.example/a.png"},
	{"data_svg_xml_stylesheet", `<iframe src="data:image/svg+xml,<?xml-stylesheet href='https://cdn.example/s.css'?><svg xmlns='http://www.w3.org/2000/svg'/>"></iframe>`, "https://cdn.example/s.css"},
	{"data_svg_prefixed_xlink", `<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' xmlns:l='http://www.w3.org/1999/xlink'><image l:href='https://cdn.example/a.png' width='9' height='9'/></svg>"></iframe>`, "https://cdn.example/a.png"},
	{"data_svg_style_reference", `<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><style>svg{background:&#x75;rl(https://cdn.example/a.png)}</style></svg>"></iframe>`, "https://cdn.example/a.png"},
	{"data_unknown_type_frame", `<iframe src="data:application/x-unknown,<img src=https://cdn.example/a.png>"></iframe>`, ""},
	{"data_svg_xhtml_data_script", `<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><foreignObject width='9' height='9'><body xmlns='http://www.w3.org/1999/xhtml'><script src='data:text/javascript,import(%22https://cdn.example/x.js%22)'></script></body></foreignObject></svg>"></iframe>`, "https://cdn.example/x.js"},
	{"data_svg_data_module_script", `<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><script type='module' href='data:text/javascript,import%20%22https://cdn.example/m.js%22'></script></svg>"></iframe>`, "https://cdn.example/m.js"},
	{"data_xhtml_data_stylesheet", `<iframe src="data:application/xhtml+xml,<html xmlns='http://www.w3.org/1999/xhtml'><head><link rel='stylesheet' href='data:text/css,@import %22https://cdn.example/s.css%22;'/></head></html>"></iframe>`, "https://cdn.example/s.css"},
	{"data_svg_internal_entity", `<iframe src="data:image/svg+xml,<!DOCTYPE svg [<!ENTITY e '<image href=&#34;https://cdn.example/a.png&#34;/>'>]><svg xmlns='http://www.w3.org/2000/svg'>&e;</svg>"></iframe>`, ""},
	{"a_href_data_frame", `<iframe name=f></iframe><a href="data:text/html,<img src=https://cdn.example/a.png>" target=f>x</a>`, "https://cdn.example/a.png"},
	// CSS a strict tokenizer calls bad, and strings read as URLs through var().
	{"css_badurl_comment", `<style>body{background:url("https://cdn.example/a.png" /* c */)}</style>`, "https://cdn.example/a.png"},
	{"css_badurl_modifier", `<style>body{background:url("https://cdn.example/a.png" cross-origin(anonymous))}</style>`, "https://cdn.example/a.png"},
	{"css_var_imageset", `<style>body{--i:"https://cdn.example/a.png";background-image:image-set(var(--i) 1x)}</style>`, "https://cdn.example/a.png"},
	{"css_var_imageset_inherited", `<body style='--i:"https://cdn.example/a.png"'><style>div{height:9px;background-image:image-set(var(--i) 1x)}</style><div></div>`, "https://cdn.example/a.png"},
	{"svg_mask_imageset", `<svg width=10 height=10><rect width=10 height=10 mask='image-set("https://cdn.example/m.png" 1x)'/></svg>`, "https://cdn.example/m.png"},
	{"svg_cursor_webkit_imageset", `<svg width=10 height=10><rect width=10 height=10 cursor='-webkit-image-set("https://cdn.example/c.png" 1x), auto'/></svg>`, "https://cdn.example/c.png"},
	{"module_css_import", `<script type=module>import s from "data:text/css,body{background:url(https://cdn.example/a.png)}" with {type:"css"}; document.adoptedStyleSheets=[s]</script>`, "https://cdn.example/a.png"},
	// Deeper than x/net/html's 512 open elements.
	{"deep_remote_bottom", strings.Repeat("<div>", 600) + `<img src="https://cdn.example/a.png">`, "https://cdn.example/a.png"},
	{"deep_svg_style_breakout", strings.Repeat("<div>", 600) + `<svg><style><img src="https://cdn.example/a.png"></style></svg>`, "https://cdn.example/a.png"},
	{"meta_charset_late", "<p>x</p>" + strings.Repeat(" ", 2000) + "<meta charset=\"shift_jis\"><script>var s = \"\x81\\\"; import('https://cdn.example/x.js'); //\";</script>", "https://cdn.example/x.js"},
}

var passRows = []struct{ name, html string }{
	{"empty", ``},
	{"fragment", `<a href="#top">top</a><img src="#">`},
	{"empty_src", `<img src="">`},
	{"data_img", `<img src="data:image/png;base64,iVBORw0KGgo=">`},
	{"data_mixed_case", `<img src="DaTa:image/png;base64,iVBORw0KGgo=">`},
	{"data_with_tab", "<img src=\"da\tta:image/png;base64,iVBORw0KGgo=\">"},
	{"data_leading_space", `<img src="  data:,x  ">`},
	{"blob", `<img src="blob:https://x.example/uuid">`},
	{"javascript", `<a href="javascript:void(0)">x</a>`},
	{"mailto", `<a href="mailto:a@example.com">x</a>`},
	{"tel", `<a href="tel:+123">x</a>`},
	{"about_blank", `<iframe src="about:blank"></iframe>`},
	{"about_srcdoc", `<iframe src="about:srcdoc"></iframe>`},
	{"srcdoc_clean", `<iframe srcdoc="<p>hi <img src=data:,x></p>"></iframe>`},
	{"text_mentions", `<p>See https://example.com/a.png and url(https://x.example/y)</p>`},
	{"comment_mentions", `<!-- <img src="https://cdn.example/a.png"> -->`},
	{"title_alt_data_cite", `<img src="data:,x" alt="https://x.example" title="https://x.example" data-src="https://x.example/a.png"><blockquote cite="https://x.example/q">q</blockquote>`},
	{"textarea_mention", `<textarea><img src="https://cdn.example/a.png"></textarea>`},
	{"title_mention", `<title><img src="https://cdn.example/a.png"></title>`},
	{"script_strings", `<script>const u = "https://cdn.example/a.png"; fetchLater; console.log("import x from 'y'")</script>`},
	{"module_string_not_import", `<script type=module>const s = "import('https://x.example')"; export const y = 1</script>`},
	{"module_data_import", `<script type=module>import "data:text/javascript,export default 1"</script>`},
	{"json_data_block", `<script type="application/json">{"u":"https://x.example"}</script>`},
	{"ld_json", `<script type="application/ld+json">{"@context":"https://schema.org"}</script>`},
	{"css_data_urls", `<style>a{background:url(data:image/png;base64,iVBORw0KGgo=)} @font-face{font-family:f;src:url("data:font/woff2;base64,d09GMg==") format("woff2")}</style>`},
	{"css_string_not_url", `<style>a::after{content:"https://x.example/a.png"}</style>`},
	{"css_comment_url", `<style>/* url(https://x.example/a.png) @import "x.css"; */ a{color:red}</style>`},
	{"css_namespace", `<style>@namespace svg url(http://www.w3.org/2000/svg); svg|a{color:red}</style>`},
	{"css_fragment_ref", `<svg><rect fill="url(#grad)"/><use href="#icon"/></svg>`},
	{"svg_animations_own", `<svg><rect width="9" height="9"><animate attributeName="width" from="0" to="10" dur="1s"/></rect><use href="#a"><set attributeName="href" to="#b"/></use><image><animate attributeName="href" values="data:image/gif,GIF89a; #c" dur="1s"/></image><p to="https://x.example/a.png">x</p></svg>`},
	{"importmap_data", `<script type=importmap>{"imports":{"x":"data:text/javascript,export default 1"}}</script>`},
	{"importmap_invalid_json", `<script type=importmap>{not json</script>`},
	{"noscript_clean", `<noscript><p>Enable JavaScript.</p></noscript>`},
	{"meta_other", `<meta property="og:image" content="https://x.example/a.png"><meta name=viewport content="width=device-width">`},
	{"form_no_action", `<form><input name=q></form>`},
	{"nul_bytes", "<p>\x00<img\x00 src=data:,x>"},
	{"bom", "\uFEFF<!doctype html><p>hi"},
	{"invalid_utf8", "<p>\xff\xfe<img src=\"data:,\xff\">"},
	{"deep_clean", strings.Repeat("<div>", 600) + "<p>deep</p><img src=\"data:,x\">"},
	{"data_fragment_clean", `<img src="data:image/png;base64,iVBORw0KGgo=#x">`},
	{"css_var_not_url", `<style>body{--label:"hello";--x:"https://x.example/a.png"} p::before{content:var(--label)}</style><p>x</p>`},
	{"css_badurl_unquoted", `<style>body{background:url(https://cdn.example/a.png x)}</style>`},
	{"svg_transform_parens", `<svg><g transform="translate(1,2)"><rect width="3" height="3" fill="rgb(1,2,3)"/></g></svg>`},
	{"data_text_plain_iframe", `<iframe src="data:text/plain,https://x.example/a.png"></iframe>`},
	{"data_svg_iframe_clean", `<iframe src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><rect width='9' height='9' fill='url(%23g)'/></svg>"></iframe>`},
}

func TestCheckRefuses(t *testing.T) {
	for _, row := range refuseRows {
		t.Run(row.name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(row.html), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) == 0 {
				t.Fatalf("no finding for %s", row.html)
			}
			if row.want == "" {
				return
			}
			for _, f := range fs {
				if f.URL == row.want {
					if f.Line < 1 || f.Column < 1 || f.Note == "" || f.File != "t.html" {
						t.Errorf("finding lacks a place or a note: %+v", f)
					}
					return
				}
			}
			t.Errorf("no finding with URL %q; got %+v", row.want, fs)
		})
	}
}

func TestCheckPasses(t *testing.T) {
	for _, row := range passRows {
		t.Run(row.name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(row.html), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				t.Errorf("unexpected finding: %s", f.Message)
			}
		})
	}
}

func TestLinkDomains(t *testing.T) {
	opts := Options{LinkDomains: []string{"example.com", "*.docs.example.org"}}
	rows := []struct {
		name, html string
		clean      bool
	}{
		{"allowed_https", `<a href="https://example.com/x">x</a>`, true},
		{"allowed_http_upper", `<a href="HTTP://EXAMPLE.COM/">x</a>`, true},
		{"allowed_area", `<map><area href="https://example.com/"></map>`, true},
		{"allowed_wildcard", `<a href="https://a.docs.example.org/">x</a>`, true},
		{"wildcard_not_apex", `<a href="https://docs.example.org/">x</a>`, false},
		{"other_host", `<a href="https://example.com.evil.example/">x</a>`, false},
		{"userinfo_trick", `<a href="https://example.com@evil.example/">x</a>`, false},
		{"ftp_scheme", `<a href="ftp://example.com/">x</a>`, false},
		{"img_on_allowed_host", `<img src="https://example.com/a.png">`, false},
		{"form_on_allowed_host", `<form action="https://example.com/"></form>`, false},
		{"ping_on_allowed_host", `<a href="https://example.com/" ping="https://example.com/p">x</a>`, false},
		{"base_on_allowed_host", `<base href="https://example.com/">`, false},
		{"refresh_on_allowed_host", `<meta http-equiv=refresh content="0;url=https://example.com/">`, false},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(row.html), opts)
			if err != nil {
				t.Fatal(err)
			}
			if row.clean != (len(fs) == 0) {
				t.Errorf("clean = %v, want %v: %+v", len(fs) == 0, row.clean, fs)
			}
		})
	}
}

// TestFindingPlaces checks that each finding points at the URL as written in the outer file.
func TestFindingPlaces(t *testing.T) {
	rows := []struct {
		name, html string
		line, col  int
	}{
		{"attr_value", "<p>\n  <img alt=x src=\"https://cdn.example/a.png\">", 2, 19},
		{"style_text", "<style>\na { b: url(x.png) }</style>", 2, 8},
		{"style_attr", `<div style="color:red;background:url(x.png)">`, 1, 34},
		{"module_import", "<script type=module>\nimport 'x.js'</script>", 2, 8},
		{"noscript_inner", "<noscript>\n<img src=x.png></noscript>", 2, 10},
		{"srcdoc_inner", `<iframe srcdoc="<img src='x.png'>">`, 1, 27},
		{"second_identical", "<img src=x.png>\n<img src=x.png>", 2, 10},
		{"mixed_case_attr", `<img SRC=x.png>`, 1, 10},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(row.html), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[len(fs)-1]
			if f.Line != row.line || f.Column != row.col {
				t.Errorf("at %d:%d, want %d:%d (%s)", f.Line, f.Column, row.line, row.col, f.Message)
			}
		})
	}
}

func TestSrcsetURLs(t *testing.T) {
	rows := []struct {
		in   string
		want []string
	}{
		{"a.png", []string{"a.png"}},
		{"a.png 1x, b.png 2x", []string{"a.png", "b.png"}},
		{"a.png 1x,b.png 2x", []string{"a.png", "b.png"}},
		{" , a.png,, b.png", []string{"a.png", "b.png"}},
		{"data:image/png;base64,AAA= 1x, b.png 2x", []string{"data:image/png;base64,AAA=", "b.png"}},
		{"a.png 100w (max-width: 1px, 2px), c.png", []string{"a.png", "c.png"}},
		// Parentheses do not nest: the first ')' ends them, and the comma after ends the
		// candidate (HTML Standard, "parse a srcset attribute", "in parens").
		{"a.png 1x (x (y) , c.png 2x", []string{"a.png", "c.png"}},
	}
	for _, row := range rows {
		var got []string
		for _, s := range markup.Srcset(row.in) {
			got = append(got, s.Text)
			if row.in[s.Off:s.Off+len(s.Text)] != s.Text {
				t.Errorf("%q: offset %d does not point at %q", row.in, s.Off, s.Text)
			}
		}
		if strings.Join(got, "|") != strings.Join(row.want, "|") {
			t.Errorf("Srcset(%q) = %q, want %q", row.in, got, row.want)
		}
	}
}

func TestCheckHostileInputs(t *testing.T) {
	rows := map[string]string{
		"deep_divs":     strings.Repeat("<div>", 10000) + `<img src="https://cdn.example/a.png">`,
		"deep_b":        strings.Repeat("<b>", 10000) + `<img src="https://cdn.example/a.png">`,
		"deep_a":        strings.Repeat(`<a href="#">`, 3000) + `<img src="https://cdn.example/a.png">`,
		"deep_table":    strings.Repeat("<table><tr><td>", 2000) + `<img src="https://cdn.example/a.png">`,
		"deep_svg":      strings.Repeat("<svg><g>", 3000) + `<image href="https://cdn.example/a.png"/>`,
		"deep_srcdoc":   nestSrcdoc(20),
		"many_findings": strings.Repeat(`<img src="https://cdn.example/a.png">`, 20000),
	}
	for name, doc := range rows {
		t.Run(name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(doc), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) == 0 {
				t.Fatal("hostile input with a load passed the check")
			}
		})
	}
}

// TestCheckRefusesPastLimit: formatting elements reopened so often that the tree would grow as
// the square of the page stop being copied past markup's budget (a Limit repair), and the
// tree differs from the browser's from there: the page is refused there, though what it
// holds is clean.
func TestCheckRefusesPastLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("<p>")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "<b x=%d>", i)
	}
	b.WriteString("</p>" + strings.Repeat("<p>x</p>", 40000))
	fs, err := Check("t.html", []byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || !strings.Contains(fs[0].Text, "cannot be checked") || fs[0].Line != 1 {
		t.Errorf("findings: %v", fs)
	}
}

// utf16 encodes s in UTF-16, big- or little-endian.
func utf16(s string, bigEndian bool) string {
	var b []byte
	for _, r := range s {
		for _, u := range utf16pkg.Encode([]rune{r}) {
			if bigEndian {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
	}
	return string(b)
}

// nestSrcdoc nests n iframes through srcdoc, escaping each level's quotes as an author must.
func nestSrcdoc(n int) string {
	doc := `<img src="https://cdn.example/a.png">`
	for i := 0; i < n; i++ {
		doc = `<iframe srcdoc="` + strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(doc) + `"></iframe>`
	}
	return doc
}

// builtPolicy is the policy bundle build writes, for TestPolicy and TestPolicyInChromium.
const builtPolicy = "default-src 'none'; script-src 'sha256-x'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"

// policyRows are pages with only own URLs, judged against the built policy: blocked rows would
// be broken in the browser (a policy violation), allowed rows work.
var policyRows = []struct {
	name, html string
	blocked    bool
}{
	{"iframe_data", `<iframe src="data:text/html,<p>hi</p>"></iframe>`, true},
	{"object_data", `<object data="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>"></object>`, true},
	{"css_import_data", `<style>@import url("data:text/css,p{color:red}");</style>`, true},
	{"link_stylesheet_data", `<link rel=stylesheet href="data:text/css,p{color:red}">`, true},
	{"script_src_data", `<script src="data:text/javascript,1"></script>`, true},
	{"img_data", `<img src="data:image/png;base64,iVBORw0KGgo=">`, false},
	{"srcset_blob", `<img srcset="blob:https://x.example/uuid 1x">`, false},
	{"font_face_data", `<style>@font-face{font-family:f;src:url(data:font/woff2;base64,d09GMg==)}</style>`, false},
	{"css_background_data", `<p style="background:url(data:image/png;base64,iVBORw0KGgo=)">x</p>`, false},
	{"video_data", `<video src="data:video/mp4;base64,AAAA"></video>`, false},
	{"fragment", `<a href="#x">x</a><svg><use href="#i"/></svg>`, false},
}

func TestPolicy(t *testing.T) {
	for _, row := range policyRows {
		t.Run(row.name, func(t *testing.T) {
			fs, err := Check("t.html", []byte(row.html), Options{Policy: builtPolicy})
			if err != nil {
				t.Fatal(err)
			}
			if blocked := len(fs) > 0; blocked != row.blocked {
				t.Errorf("blocked = %v, want %v: %+v", blocked, row.blocked, fs)
			}
			for _, f := range fs {
				if !strings.Contains(f.Text, "the page's Content-Security-Policy blocks") {
					t.Errorf("finding: %s", f.Text)
				}
			}
			if fs, _ := Check("t.html", []byte(row.html), Options{}); len(fs) > 0 {
				t.Errorf("without a policy the row has findings: %+v", fs)
			}
		})
	}
}

// TestEmittedScripts: a script whose text the caller lists in Options.Emitted is judged by the
// records given for it (an import there is reported, at its place), a script that is not
// listed is parsed, and a data: module inside a listed script is parsed, not trusted.
func TestEmittedScripts(t *testing.T) {
	const js = `import"https://cdn.example/a.js";const b=()=>import("https://cdn.example/b.js");`
	page := []byte(`<!doctype html><meta charset="utf-8"><script type="module">` + js + `</script>`)
	urls := func(fs Findings) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.URL+"@"+strconv.Itoa(f.Column))
		}
		return out
	}
	parsed, err := Check("p.html", page, Options{})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := Check("p.html", page, Options{Emitted: map[string][]Import{js: {{Specifier: "https://cdn.example/a.js"}, {Specifier: "https://cdn.example/b.js", Dynamic: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed) != 2 || !slices.Equal(urls(parsed), urls(listed)) {
		t.Errorf("listed records %v, parsed %v: want the same two findings", urls(listed), urls(parsed))
	}
	// The records are what is judged: a listed script with none gives none.
	if fs, _ := Check("p.html", page, Options{Emitted: map[string][]Import{js: {}}}); len(fs) != 0 {
		t.Errorf("the records given were not used: %v", urls(fs))
	}
	// Another text is parsed.
	if fs, _ := Check("p.html", page, Options{Emitted: map[string][]Import{js + " ": {}}}); len(fs) != 2 {
		t.Errorf("a script that is not listed was not parsed: %v", urls(fs))
	}
	// A data: module is parsed in turn even when the script holding it is listed.
	inner := `import"https://cdn.example/c.js"`
	outer := `import"data:text/javascript,` + inner + `";`
	page = []byte(`<!doctype html><meta charset="utf-8"><script type="module">` + outer + `</script>`)
	fs, _ := Check("p.html", page, Options{Emitted: map[string][]Import{outer: {{Specifier: "data:text/javascript," + inner}}}})
	if len(fs) != 1 || fs[0].URL != "https://cdn.example/c.js" {
		t.Errorf("the data: module's import: %v", urls(fs))
	}
}

// TestEmittedTextIsNotReadAgain: a listed script's text is taken as it is and the tokenizer
// goes on after it; what follows is read as when the tokenizer reads the text itself, and a
// text that the script data state would not read as one token (an end tag that is not one,
// "<!--", a CR) is read by the tokenizer.
func TestEmittedTextIsNotReadAgain(t *testing.T) {
	after := `<img src="https://cdn.example/i.png"><p style="background:url(https://cdn.example/b.png)">x</p><script>import("https://cdn.example/c.js")</script>`
	texts := []struct{ text, end string }{
		{`console.log("a</scrip", 1<2)`, `</script>`},
		{`let a=1`, `</SCRIPT >`},
		{`let a=1`, `</script/>`},
		{`let a="`, `</scriptx>"</script>`},
		{`let a="<!--"`, `</script>`},
		{"let a=1\r\n", `</script>`},
		{`let a=1`, ``},
	}
	for _, r := range texts {
		page := []byte(`<!doctype html><meta charset="utf-8"><script type="module">` + r.text + r.end + after)
		listed, err := Check("p.html", page, Options{Emitted: map[string][]Import{r.text: {}}})
		if err != nil {
			t.Fatal(err)
		}
		read, err := Check("p.html", page, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(listed, read) {
			t.Errorf("%q%q: listed %v\nread %v", r.text, r.end, listed, read)
		}
		if strings.HasPrefix(r.end, "</script") && len(read) < 3 {
			t.Errorf("%q%q: %d findings, want those of the markup after the script", r.text, r.end, len(read))
		}
	}
	// The text is taken only where it is the whole of a script: as the start of a longer one,
	// the tokenizer reads it.
	page := []byte(`<!doctype html><script>let a=1;import("https://cdn.example/d.js")</script>`)
	if fs, _ := Check("p.html", page, Options{Emitted: map[string][]Import{"let a=1;": {}}}); len(fs) != 1 {
		t.Errorf("a listed text that begins a longer script: %v", fs)
	}
}
