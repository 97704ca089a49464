package offline

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// scriptKindRows are <script> type and language attributes (nil where absent), each with the
// kind the offline check judges (KindOfScript), whether the HTML Standard and the browsers
// read it apart (split), and whether Chromium runs its text (TestKindOfScriptInChromium).
var scriptKindRows = []struct {
	name       string
	typ, lang  *string
	kind       ScriptKind
	split, run bool
}{
	{name: "none", kind: ScriptClassic, run: true},
	{name: "type_empty", typ: attrVal(""), kind: ScriptClassic, run: true},
	{name: "text_javascript", typ: attrVal("text/javascript"), kind: ScriptClassic, run: true},
	{name: "text_ecmascript", typ: attrVal("text/ecmascript"), kind: ScriptClassic, run: true},
	{name: "application_x_javascript", typ: attrVal("application/x-javascript"), kind: ScriptClassic, run: true},
	{name: "text_javascript1_5", typ: attrVal("text/javascript1.5"), kind: ScriptClassic, run: true},
	{name: "text_javascript1_6", typ: attrVal("text/javascript1.6"), kind: ScriptData},
	{name: "upper_trailing_space", typ: attrVal("TEXT/JAVASCRIPT "), kind: ScriptClassic, run: true},
	{name: "tab_before", typ: attrVal("\ttext/javascript"), kind: ScriptClassic, run: true},
	{name: "language_javascript", lang: attrVal("javascript"), kind: ScriptClassic, run: true},
	{name: "language_JavaScript", lang: attrVal("JavaScript"), kind: ScriptClassic, run: true},
	{name: "language_livescript", lang: attrVal("livescript"), kind: ScriptClassic, run: true},
	{name: "language_empty", lang: attrVal(""), kind: ScriptClassic, run: true},
	{name: "language_vbscript", lang: attrVal("vbscript"), kind: ScriptData},
	{name: "language_javascript1_7", lang: attrVal("javascript1.7"), kind: ScriptData},
	{name: "language_with_space", lang: attrVal(" javascript"), kind: ScriptData},
	{name: "type_empty_language_vbscript", typ: attrVal(""), lang: attrVal("vbscript"), kind: ScriptClassic, run: true},
	{name: "type_wins_over_language", typ: attrVal("text/plain"), lang: attrVal("javascript"), kind: ScriptData},
	{name: "type_is_a_language", typ: attrVal("javascript"), kind: ScriptData},
	{name: "module_upper", typ: attrVal("Module"), kind: ScriptModule, run: true},
	{name: "importmap", typ: attrVal("importmap"), kind: ScriptImportMap},
	{name: "application_json", typ: attrVal("application/json"), kind: ScriptData},
	{name: "kelvin_sign", typ: attrVal("text/\u212Aavascript"), kind: ScriptData},
	// The Standard and Chromium read these apart; the check judges what runs in either.
	{name: "module_space_before", typ: attrVal(" module"), kind: ScriptModule, split: true},
	{name: "module_space_after", typ: attrVal("module "), kind: ScriptModule, split: true},
	{name: "importmap_space_after", typ: attrVal("importmap "), kind: ScriptImportMap, split: true},
	{name: "vertical_tab", typ: attrVal("\vtext/javascript"), kind: ScriptClassic, split: true, run: true},
	{name: "em_space", typ: attrVal("text/javascript\u2003"), kind: ScriptClassic, split: true, run: true},
	{name: "no_break_space", typ: attrVal("text/javascript\u00a0"), kind: ScriptData},
	{name: "charset_parameter", typ: attrVal("text/javascript; charset=utf-8"), kind: ScriptClassic, split: true},
	{name: "charset_parameter_tight", typ: attrVal("text/javascript;charset=utf-8"), kind: ScriptClassic, split: true},
}

func attrVal(v string) *string { return &v }

func TestKindOfScript(t *testing.T) {
	for _, r := range scriptKindRows {
		typ, lang := "", ""
		if r.typ != nil {
			typ = *r.typ
		}
		if r.lang != nil {
			lang = *r.lang
		}
		kind, split := KindOfScript(typ, r.typ != nil, lang, r.lang != nil)
		if kind != r.kind || split != r.split {
			t.Errorf("%s: KindOfScript = %d, split %v; want %d, split %v", r.name, kind, split, r.kind, r.split)
		}
	}
}

// TestKindOfScriptInChromium runs the text of each row's <script> in Chromium: it runs
// exactly where the row says, as chromiumKind has it.
func TestKindOfScriptInChromium(t *testing.T) {
	var page strings.Builder
	page.WriteString("<!doctype html><meta charset=utf-8><script>window.ran = []</script>\n")
	for i, r := range scriptKindRows {
		page.WriteString("<script")
		if r.typ != nil {
			fmt.Fprintf(&page, ` type="%s"`, strings.ReplaceAll(html.EscapeString(*r.typ), "\v", "&#11;"))
		}
		if r.lang != nil {
			fmt.Fprintf(&page, ` language="%s"`, html.EscapeString(*r.lang))
		}
		fmt.Fprintf(&page, ">window.ran.push(%d)</script>\n", i)
	}
	b := browsertest.Start(t)
	b.Visit(t, b.Serve("/kinds.html", []byte(page.String()), "text/html"), 0)
	got := browsertest.Eval[[]int](t, b, `new Promise(done => document.readyState === "complete" ? done(window.ran) : addEventListener("load", () => done(window.ran)))`)
	ran := map[int]bool{}
	for _, i := range got {
		ran[i] = true
	}
	for i, r := range scriptKindRows {
		if ran[i] != r.run {
			t.Errorf("%s: Chromium runs it: %v, the row says %v", r.name, ran[i], r.run)
		}
		typ, lang := "", ""
		if r.typ != nil {
			typ = *r.typ
		}
		if r.lang != nil {
			lang = *r.lang
		}
		k := chromiumKind(typ, r.typ != nil, lang, r.lang != nil)
		if runs := k == ScriptClassic || k == ScriptModule; runs != ran[i] {
			t.Errorf("%s: chromiumKind = %d, which Chromium runs: %v", r.name, k, ran[i])
		}
	}
}
