package offline

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// inertInBrowser lists the refuse rows that make no request in this headless Chromium by
// themselves, with the reason; the checker still refuses them, since each loads under some
// condition (a click, a 2x screen, scripting off, a plugin) or names an outside URL that a
// bundle has no use for. Every other refuse row must make a request.
var inertInBrowser = map[string]string{
	"about_other":                   "about:config is an error page, not a request",
	"script_src_datablock_type":     "a data block's src is never fetched",
	"script_type_charset_parameter": "Chromium runs no script of a type with MIME parameters; a browser that reads them off does",
	"link_preconnect":               "opens a socket only; the browser sends no request",
	"link_dns_prefetch":             "resolves a name only",
	"link_icon":                     "headless Chromium fetches no page icon",
	"html_manifest":                 "AppCache is gone from Chromium",
	"embed_src":                     "no plugin handles .swf, so nothing is fetched",
	"form_action":                   "a form submits only when the user submits it",
	"button_formaction":             "as above",
	"a_href_not_allowed":            "a link navigates only when clicked",
	"a_href_relative":               "as above",
	"area_href":                     "as above",
	"misnested_formatting":          "a link (in misnested markup) navigates only when clicked",
	"a_ping":                        "ping is sent only on a click",
	"a_ping_second":                 "as above",
	"attributionsrc":                "Attribution Reporting is off in a fresh headless profile",
	"base_href":                     "<base> alone requests nothing; it redirects relative URLs",
	"meta_refresh_no_url":           "reloads its own URL, which the test server serves",
	"srcset_second":                 "at 1x the browser picks the data: candidate; a 2x screen loads the other",
	"srcset_comma_url":              "as above",
	"svg_fill_url":                  "Chromium fetches no external paint server",
	"svg_style_css":                 "as above",
	"data_svg_embed":                "a data: SVG document's <use> of another document is not fetched",
	"module_syntax_error_refused":   "a module that does not parse runs nothing",
	"importmap":                     "an import map alone requests nothing; an import through it would",
	"importmap_scope":               "as above",
	"speculation_document_rules":    "as below",
	"speculation_rules":             "prefetch is off in a headless profile without background networking",
	"noscript":                      "scripting is on, so <noscript> content is not rendered; a sandbox without scripts renders it",
	"noscript_in_head":              "as above",
	"template":                      "template content loads only once cloned",
	"module_import_bare":            "a bare specifier fails to resolve before any request",
	"style_src_function":            "src() is not yet supported by Chromium",
	"track_src":                     "a text track loads only when shown",
	"data_unknown_type_frame":       "Chromium downloads or shows an unknown type; the check refuses what it does not read",
	"data_svg_internal_entity":      "Chromium's XML parser does not load it; the check refuses XML it cannot read",
	"a_href_data_frame":             "a link navigates a frame only when clicked",
	"object_javascript_data":        "Chromium runs no javascript: URL in <object> or <embed>; refused as a frame's is, as what a browser makes of it is no markup the check reads",
	"embed_javascript_src":          "as above",
	"iso2022jp_undeclared":          "this Chromium runs no encoding detection on so short a page; one that does may read it as ISO-2022-JP",
	"xhtml_javascript_frame":        "Chromium runs no javascript: URL in a frame of an XHTML data: document (an HTML one's runs: iframe_javascript_src); refused as any frame's",
}

// TestRulesInChromium loads the refuse and pass rows in Debian's Chromium and checks, for the
// rows that load by themselves, that the browser really requests something, and that every
// pass row requests nothing. This ties the rules to a real browser rather than to memory.
func TestRulesInChromium(t *testing.T) {
	b := browsertest.StartWith(t, browsertest.Config{Desktop: true})
	for i, row := range refuseRows {
		if _, inert := inertInBrowser[row.name]; inert {
			continue
		}
		t.Run("refuse/"+row.name, func(t *testing.T) {
			doc := strings.ReplaceAll(row.html, "cdn.example", "cdn.test")
			// Served with no charset, so that the page's own bytes choose its encoding.
			u := b.Serve(fmt.Sprintf("/r%d/page.html", i), []byte(doc), "text/html")
			b.Visit(t, u, 0)
			if len(b.AwaitRequests()) == 0 {
				t.Errorf("Chromium requested nothing for %s, which the checker refuses", doc)
			}
		})
	}
	for i := range treeRows {
		host := fmt.Sprintf("t%d.test", i)
		row := makeTreeRows(host)[i]
		if _, inert := inertInBrowser[row.name]; inert && !row.clean {
			continue
		}
		t.Run("tree/"+row.name, func(t *testing.T) {
			u := b.Serve(fmt.Sprintf("/t%d/page.html", i), []byte(row.html), "text/html")
			mine := func(reqs []string) []string {
				var out []string
				for _, r := range reqs {
					if strings.Contains(r, host) {
						out = append(out, r)
					}
				}
				return out
			}
			if row.clean {
				v := b.Visit(t, u, 400*time.Millisecond)
				for _, r := range mine(v.Requests) {
					t.Errorf("Chromium requested %s for %s, which the checker passes", r, row.html)
				}
				return
			}
			b.Visit(t, u, 0)
			// Awaited to the suite's deadline: a loaded machine makes Chromium's request late.
			if !testwait.For(func() bool { return len(mine(b.Requests())) > 0 }) {
				t.Errorf("Chromium requested nothing for %s, which the checker refuses", row.html)
			}
		})
	}
	for i, row := range passRows {
		t.Run("pass/"+row.name, func(t *testing.T) {
			u := b.Serve(fmt.Sprintf("/p%d/page.html", i), []byte(row.html), "text/html")
			v := b.Visit(t, u, 400*time.Millisecond)
			for _, r := range v.Requests {
				if strings.HasSuffix(r, "/favicon.ico") {
					continue // the browser's own request for a top-level page, not the document's
				}
				t.Errorf("Chromium requested %s for %s, which the checker passes", r, row.html)
			}
		})
	}
}

// TestPolicyInChromium loads the policy rows under the built policy in Chromium: a row the
// checker calls blocked must draw a policy violation, and no other row may.
//
// It runs Chromium's headless shell: what it is about, a policy's violations, is Blink's,
// which the shell runs as the desktop browser does, and what the desktop browser requests of
// its own accord (TestRulesInChromium's concern) draws none.
func TestPolicyInChromium(t *testing.T) {
	b := browsertest.Start(t)
	meta := `<meta http-equiv="Content-Security-Policy" content="` + strings.ReplaceAll(builtPolicy, "'sha256-x'", "'none'") + `">`
	for i, row := range policyRows {
		t.Run(row.name, func(t *testing.T) {
			u := b.Serve(fmt.Sprintf("/policy%d/page.html", i), []byte(`<!doctype html><meta charset="utf-8">`+meta+row.html))
			violated := func() bool {
				for _, c := range b.Console() {
					if strings.Contains(c, "Content Security Policy") {
						return true
					}
				}
				return false
			}
			if row.blocked {
				b.Visit(t, u, 0)
				testwait.For(violated)
			} else {
				b.Visit(t, u, 300*time.Millisecond) // a violation would be reported by then
			}
			if violated := violated(); violated != row.blocked {
				t.Errorf("policy violation = %v, want %v: %v", violated, row.blocked, b.Console())
			}
		})
	}
}
