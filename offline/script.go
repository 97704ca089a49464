package offline

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/markup"
	"golang.org/x/text/unicode/bidi"
)

// ScriptKind is what a <script> element's type and language attributes make of its text
// (HTML Standard, "prepare the script element", step 8).
type ScriptKind int

const (
	ScriptData             ScriptKind = iota // a data block: never run, loads nothing
	ScriptClassic                            // a classic script
	ScriptModule                             // a module script
	ScriptImportMap                          // an import map
	ScriptSpeculationRules                   // speculation rules
	ScriptWebBundle                          // a web bundle's rules
)

// KindOfScript returns what a <script> element whose type and language attributes are these
// (has* false where absent) is, by the HTML Standard's "prepare the script element", step 8:
// classic when the type is empty or absent and the language is empty or absent, or when the
// type stripped of ASCII whitespace (else "text/" + the language) is a JavaScript MIME type
// essence in ASCII case; module, importmap, speculationrules or webbundle when it is that word
// in ASCII case; else a data block.
//
// Chromium (observed, 156) reads some types otherwise: it strips the type of \v and of the
// characters of Unicode's whitespace bidi class too before it compares it with a JavaScript
// MIME type (type="\vtext/javascript" runs), and strips nothing before it compares it with
// "module", "importmap" or "speculationrules" (type=" module" is no script). And a type with
// MIME parameters (type="text/javascript; charset=utf-8") is a data block by the Standard and
// in Chromium, but a browser that read the type by its MIME essence would run it. On such a
// type, split is true and kind is the kind that runs code, so that the offline check judges
// what any of them may run; the build refuses the type (ScriptTypeFix says what to write).
func KindOfScript(typ string, hasType bool, lang string, hasLang bool) (kind ScriptKind, split bool) {
	std := standardKind(typ, hasType, lang, hasLang)
	chr := chromiumKind(typ, hasType, lang, hasLang)
	if std != chr {
		if std == ScriptData {
			return chr, true
		}
		return std, true
	}
	if std == ScriptData && hasType {
		if i := strings.IndexByte(typ, ';'); i >= 0 && isJSMIME(markup.ASCIILower(strings.Trim(typ[:i], asciiSpace))) {
			return ScriptClassic, true
		}
	}
	return std, false
}

// ScriptTypeFix returns what to write instead of a type attribute on which KindOfScript
// reports a split: the type the element was meant to have, written as every browser reads it.
func ScriptTypeFix(kind ScriptKind) string {
	switch kind {
	case ScriptClassic:
		return `drop the type attribute (or write type="text/javascript")`
	case ScriptModule:
		return `write type="module"`
	case ScriptImportMap:
		return `write type="importmap"`
	case ScriptSpeculationRules:
		return `write type="speculationrules"`
	case ScriptWebBundle:
		return `write type="webbundle"`
	}
	return "write the type without spaces or parameters"
}

// ScriptRuns reports whether a <script> element whose type and language attributes are these
// (has* false where absent) is run, or read as an import map or speculation rules, which the
// policy governs as script (KindOfScript); false for a data block (type="application/json",
// "text/plain", "text/template").
func ScriptRuns(typ string, hasType bool, lang string, hasLang bool) bool {
	k, _ := KindOfScript(typ, hasType, lang, hasLang)
	return k != ScriptData
}

const asciiSpace = " \t\n\f\r" // the Infra Standard's ASCII whitespace

// standardKind is the HTML Standard's step 8.
func standardKind(typ string, hasType bool, lang string, hasLang bool) ScriptKind {
	switch {
	case hasType && typ == "", !hasType && hasLang && lang == "", !hasType && !hasLang:
		return ScriptClassic
	}
	t := "text/" + lang
	if hasType {
		t = strings.Trim(typ, asciiSpace)
	}
	t = markup.ASCIILower(t)
	switch {
	case isJSMIME(t):
		return ScriptClassic
	case t == "module":
		return ScriptModule
	case t == "importmap":
		return ScriptImportMap
	case t == "speculationrules":
		return ScriptSpeculationRules
	case t == "webbundle":
		return ScriptWebBundle
	}
	return ScriptData
}

// chromiumKind is Blink's ScriptLoader::GetScriptTypeAtPrepare as Chromium 156 runs it
// (observed in TestKindOfScriptInChromium): the type stripped of String::StripWhiteSpace's
// characters (ASCII whitespace with \v, and beyond ASCII those of the whitespace bidi class)
// for the JavaScript MIME types; as written, in ASCII case, for the other kinds.
func chromiumKind(typ string, hasType bool, lang string, hasLang bool) ScriptKind {
	switch {
	case !hasType && (!hasLang || lang == ""), hasType && typ == "":
		return ScriptClassic
	case !hasType:
		if isJSMIME(markup.ASCIILower("text/" + lang)) {
			return ScriptClassic
		}
		return ScriptData
	}
	if isJSMIME(markup.ASCIILower(strings.TrimFunc(typ, blinkSpace))) {
		return ScriptClassic
	}
	for _, k := range []struct {
		name string
		kind ScriptKind
	}{{"module", ScriptModule}, {"importmap", ScriptImportMap}, {"speculationrules", ScriptSpeculationRules}, {"webbundle", ScriptWebBundle}} {
		if strings.EqualFold(typ, k.name) && isASCII(typ) {
			return k.kind
		}
	}
	return ScriptData
}

// blinkSpace is WTF's IsSpaceOrNewline: ASCII whitespace and \v, and the characters whose
// bidi class is WS (U+1680, U+2000 to U+200A, U+2028, U+205F, U+3000).
func blinkSpace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	p, _ := bidi.LookupRune(r)
	return p.Class() == bidi.WS
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// isJSMIME reports whether t, in lower case, is a JavaScript MIME type essence (MIME Sniffing
// Standard §4.6), compared whole: "text/javascript;charset=utf-8" is none.
func isJSMIME(t string) bool {
	switch t {
	case "application/ecmascript", "application/javascript", "application/x-ecmascript",
		"application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0",
		"text/javascript1.1", "text/javascript1.2", "text/javascript1.3", "text/javascript1.4",
		"text/javascript1.5", "text/jscript", "text/livescript", "text/x-ecmascript",
		"text/x-javascript":
		return true
	}
	return false
}

// Import is one import record of a script: a static import or export … from, or an import()
// with a literal specifier.
type Import struct {
	Specifier string
	Dynamic   bool // import()
}

// scriptImports returns the literal specifiers of every static import, export … from and
// import() in src, found by esbuild's parser rather than by pattern: a module is parsed as a
// module (strict), a classic script as a script (with statements and package as a name are
// JavaScript there). A script that does not parse loads nothing in the browser either; its
// syntax error is returned so that the caller can refuse what it cannot prove clean.
func scriptImports(src string, module bool) ([]Import, error) {
	if !mayImport(src) {
		return nil, nil
	}
	var recs []Import
	// esbuild reads a file without import or export statements as a script; the output
	// format decides what it then allows: an IIFE is sloppy, as a classic script is.
	format := api.FormatIIFE
	if module {
		format = api.FormatESModule
	}
	plugin := api.Plugin{
		Name: "record-imports",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				switch a.Kind {
				case api.ResolveJSImportStatement, api.ResolveJSDynamicImport:
					recs = append(recs, Import{Specifier: a.Path, Dynamic: a.Kind == api.ResolveJSDynamicImport})
				}
				return api.OnResolveResult{Path: a.Path, External: true}, nil
			})
		},
	}
	res := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: src, Loader: api.LoaderJS, Sourcefile: "script.js"},
		Bundle:   true,
		Write:    false,
		Format:   format,
		Platform: api.PlatformNeutral,
		LogLevel: api.LogLevelSilent,
		Plugins:  []api.Plugin{plugin},
		// Only the parse matters: keep esbuild from doing work it does not need.
		TreeShaking: api.TreeShakingFalse,
		Target:      api.ESNext,
	})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		if e.Location != nil {
			return recs, fmt.Errorf("line %d:%d: %s", e.Location.Line, e.Location.Column+1, e.Text)
		}
		return recs, fmt.Errorf("%s", e.Text)
	}
	return recs, nil
}

// mayImport reports whether src can hold an import record. Keywords (contextual ones included)
// cannot be written with escapes, so a script in which neither "import" nor both "export" and
// "from" stand as whole words has none.
func mayImport(src string) bool {
	return hasWord(src, "import") || (hasWord(src, "export") && hasWord(src, "from"))
}

// checkScript reports the imports of a classic or module script whose specifiers are not own.
// A data: module is checked in turn, since its own imports load too.
func (c *checker) checkScript(src string, module bool, place string, sc scope) []hit {
	recs, known := c.opts.Emitted[src]
	var err error
	if !known || sc.depth > 0 {
		recs, err = scriptImports(src, module)
	}
	var hits []hit
	if err != nil {
		hits = append(hits, hit{off: -1, place: place, url: "",
			text: fmt.Sprintf("cannot read the imports of this script: %v", err), note: noteScriptSyntax})
	}
	from, budget := 0, 4*len(src)+1024
	for _, r := range recs {
		at, n := -1, 0
		// A search reads up to its match, or to the end when the import is written with
		// escapes; once the searches have read four times the script's length, the remaining
		// imports are reported at the script, so that locating them stays linear.
		if budget > 0 {
			at, n = findSpecifier(src, r.Specifier, from)
			if at >= 0 {
				budget -= 3 * (at + n - from)
			} else {
				budget -= 3 * (len(src) - from)
			}
		}
		if at >= 0 {
			from = at + n
		}
		what := "import"
		if r.Dynamic {
			what = "import()"
		}
		pl := what + " in " + place
		if isOwn(r.Specifier) {
			if sc.depth == 0 {
				hits = append(hits, c.policyHit("script-src-elem", at, n, pl, r.Specifier)...)
			}
			if isData(r.Specifier) {
				hits = append(hits, c.nested(at, n, pl, r.Specifier, docModule, sc, fallback{})...)
			}
			continue
		}
		hits = append(hits, hit{off: at, length: n, place: pl, url: r.Specifier})
	}
	return hits
}

// findSpecifier finds the quoted specifier in src at or after from (esbuild reports imports
// in source order), returning its offset and length (quotes included), or -1 when it is
// written with escapes. It never searches behind from, so that locating every import of a
// script stays linear in its length.
func findSpecifier(src, spec string, from int) (int, int) {
	end, n := len(src), 0
	for _, q := range []string{`"`, `'`, "`"} {
		needle := q + spec + q
		// Only up to the nearest match so far: a later one cannot be the import.
		if i := strings.Index(src[from:end], needle); i >= 0 {
			end, n = from+i, len(needle)
		}
	}
	if n == 0 {
		return -1, 0
	}
	return end, n
}

// checkImportMap reports every address an import map maps a specifier to, and every scope
// URL, that is not own. A map that is not valid JSON is ignored by the browser and loads
// nothing.
func (c *checker) checkImportMap(src string) []hit {
	var m struct {
		Imports map[string]any            `json:"imports"`
		Scopes  map[string]map[string]any `json:"scopes"`
	}
	if json.Unmarshal([]byte(src), &m) != nil {
		return nil
	}
	var hits []hit
	addMap := func(mm map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(mm)) {
			if s, ok := mm[k].(string); ok && !isOwn(s) {
				at, n := findSpecifier(src, jsonEscape(s), 0)
				note := noteImportMapRemote
				if !isRemote(s) {
					// A file of the app: the build can resolve the name, not the browser.
					note = noteImportMapApp
					if p := "./" + strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/"); !strings.HasSuffix(k, "/") && !strings.Contains(s, "../") {
						note += fmt.Sprintf(" (alias = { %s = %s }, the path relative to the app folder)", strconvQuote(k), strconvQuote(p))
					}
					note += ", and remove the import map"
				}
				hits = append(hits, hit{off: at, length: n, place: "import map entry " + strconvQuote(k), url: s, note: note})
			}
		}
	}
	addMap(m.Imports)
	for _, scope := range slices.Sorted(maps.Keys(m.Scopes)) {
		addMap(m.Scopes[scope])
	}
	return hits
}

// checkSpeculationRules reports every URL a speculation-rules script would prefetch or
// prerender (its "urls" lists).
func (c *checker) checkSpeculationRules(src string) []hit {
	var v any
	if json.Unmarshal([]byte(src), &v) != nil {
		return nil
	}
	var hits []hit
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch t := v.(type) {
		case map[string]any:
			if _, ok := t["where"]; ok {
				// A document rule prefetches the page's own links (those to allowed link
				// hosts too) as it loads, without a click.
				at, n := findSpecifier(src, "where", 0)
				hits = append(hits, hit{off: at, length: n, place: "speculation rules", url: "where",
					text: "speculation rules with \"where\" prefetch or prerender the page's links as it loads"})
			}
			for _, k := range slices.Sorted(maps.Keys(t)) {
				walk(t[k], k)
			}
		case []any:
			for _, e := range t {
				walk(e, key)
			}
		case string:
			if key == "urls" && !isOwn(t) {
				at, n := findSpecifier(src, jsonEscape(t), 0)
				hits = append(hits, hit{off: at, length: n, place: "speculation rules url", url: t})
			}
		}
	}
	walk(v, "")
	return hits
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hasWord reports whether w occurs in src with no ASCII identifier character (or backslash, which
// starts an escape) on either side. Non-ASCII neighbours count as boundaries, so that the test
// never misses a keyword next to a Unicode space; it may only over-report.
func hasWord(src, w string) bool {
	isID := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$' || c == '\\'
	}
	for from := 0; ; {
		i := strings.Index(src[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isID(src[i-1])) && (end == len(src) || !isID(src[end])) {
			return true
		}
		from = i + 1
	}
}
