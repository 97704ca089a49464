package pipeline

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// assembler turns the app's index.html into one HTML file: every local script, stylesheet,
// image, icon and font bundled or inlined in place, and every other byte copied through as it
// is. It reads the page only through markup's tree (page.go), whose ranges place every
// reference for messages, and writes it in its normal form (normal.go).
type assembler struct {
	b    *bundler
	m    *manifest.Manifest
	file string // the page, relative to the app folder
	dir  string // its folder, relative to the app folder
	src  []byte
	// lines indexes the page as written, where every message places itself; src differs
	// from it by the %NAME%s htmlEnv replaced (edits), whose offsets written maps back.
	lines *diag.Lines
	edits []envEdit
	list  diag.List
	css   []string // CSS imported by the page's scripts, inlined into <head>
	// inlined caches data: URLs by file, so that an asset named twice is read once.
	inlined map[string]string
	// handled holds the [start, end) byte ranges of the page whose local references the
	// assembler took charge of: inlined, bundled, or refused with its own message.
	handled [][2]int
	// deferred holds classic scripts that had defer or async, for the end of <body>.
	deferred []string
	// classics are the page's classic scripts, in order, whose calls of the functions another
	// declares are read once all are known (classicglobals.go).
	classics []classicScript
	// icon is the first small SVG or PNG icon the page linked, as a data: URL, for the registry
	// entry when the manifest names none.
	icon string
	// emitted holds the import records of the scripts esbuild printed, by their text in the
	// page, for the final offline check (offline.Options.Emitted).
	emitted map[string][]offline.Import
	// texts holds the texts of those scripts and of the stylesheets esbuild printed: assemble
	// writes a placeholder in their place (see hold), and fill puts them in.
	texts []string
	// jsMap is the source map of the page's first module script, which --sourcemap writes.
	jsMap []byte
	// prebuilt holds the code of the stylesheets and module scripts prebuild bundled together,
	// by path, until the walk comes to them.
	prebuilt map[string]prebuilt
	// sprites holds the SVG files whose elements a <use> names (sprite.go), in the order
	// found (spriteOrder, of which spritesWritten are in the page), with the place of the
	// first <use> of each; pageIDs, the ids of the page's own elements.
	// mgraph is the page's module graph (graph.go), read once; own, the page's own policy
	// <meta>s (ownpolicy.go).
	mgraph         *moduleGraph
	own            []ownPolicy
	sprites        map[string]*sprite
	spriteOrder    []string
	spritesWritten int
	spriteAt       map[string][2]int
	pageIDs        map[string]bool
	// pageNames are the names the page's elements give its Window (windowNames), each the
	// first element's that gives it, a frame's where one does (the name reads its window).
	pageNames map[string]windowName
	// doc is the page's tree, elems its elements in source order (page.go).
	doc   *markup.Document
	elems []element
	// inert and noscript say where the element the walk is at is (see element).
	inert, noscript bool
	// checked says refuse ran; malformed, that it refused the page.
	checked, malformed bool
	// sdk says the page gets the SDK's script (Build sets it; Options.NoSDK leaves it out):
	// assemble writes it with sdkText, the index of its text, which Build fills in; policyText
	// is that of the policy <meta>'s content.
	sdk                 bool
	sdkText, policyText int
	// devScript is Options.DevScript, written before the SDK's script.
	devScript string
}

// prebuildMin is how many entries prebuild bundles together, at least (tests raise it to
// build each entry alone).
var prebuildMin = 2

// prebuilt is one entry's code from prebuild, and the diagnostics that go with it.
type prebuilt struct {
	c code
	l diag.List
}

// pageEntry is one entry of the page that the walk bundles: a local stylesheet or module
// script file (rel, relative to the app folder), or code written inside the page, an inline
// module script or <style> (inline, whose text starts at the page's offset off).
type pageEntry struct {
	rel    string
	inline *inlineCode
	off    int
	graph  *moduleGraph // or the page's module graph (graph.go)
}

// key is what prebuild keeps the entry's code by until the walk comes to it: a file's path,
// or, for code in the page, its offset after a NUL, which no path holds.
func (e pageEntry) key() string {
	if e.graph != nil {
		return graphKey
	}
	if e.inline != nil {
		return inlineKey(e.off)
	}
	return e.rel
}

func inlineKey(off int) string { return "\x00" + strconv.Itoa(off) }

// prebuild bundles the entries of the page that the walk will bundle, its local stylesheets
// and module scripts and the code written inside it, in one esbuild build when there are two
// or more (hello: 6.2 -> 3.9 ms for its stylesheet and script; BenchmarkPrebuild's page of
// five entries, three of them written in it: 11.5 -> 5.9 ms). It reads the page's elements as
// the walk does (elements) and decides with the walk's own tests (bundledStylesheet,
// bundledModule, locate, inlineModule), so that the walk takes every entry it built; a file
// the page names twice is taken once, and built again by the walk the second time, as before.
// A build that fails is left to the walk, one entry at a time (see entries).
func (a *assembler) prebuild() {
	list := a.entryList()
	if len(list) < prebuildMin {
		return
	}
	codes, warnings, ok := a.b.entries(list, a.file)
	if !ok {
		return
	}
	a.prebuilt = map[string]prebuilt{}
	for i, e := range list {
		l := a.b.messages(warnings[i], diag.Warning)
		if e.graph != nil {
			l = a.graphMessages(warnings[i], diag.Warning)
		}
		a.prebuilt[e.key()] = prebuilt{c: codes[i], l: l}
	}
}

// entryList returns the entries the walk bundles, in the page's order, each file once.
func (a *assembler) entryList() []pageEntry {
	if !a.wellFormed() {
		return nil
	}
	var list []pageEntry
	g := a.graph()
	for _, e := range a.elements() {
		if foreignText(e) {
			continue // as the walk leaves it
		}
		t := e.tag()
		if t.name == "script" && g.at[t.off] {
			if t.off == g.first {
				list = append(list, pageEntry{graph: g})
			}
			continue
		}
		u, ok := "", false
		switch t.name {
		case "link":
			u, _, ok = bundledStylesheet(t)
		case "script":
			if u, _, ok = bundledModule(t); ok {
				break
			}
			if text, textOff, _, _ := e.text(); a.inlineModule(t, text) {
				list = append(list, pageEntry{inline: a.pageCode(text, api.LoaderJS), off: textOff})
			}
		case "style":
			if text, textOff, _, _ := e.text(); strings.TrimSpace(text) != "" && styleSheetElement(t) {
				list = append(list, pageEntry{inline: a.pageCode(text, api.LoaderCSS), off: textOff})
			}
		}
		if !ok {
			continue
		}
		if rel, _, err := a.locate(u); err == nil && !slices.ContainsFunc(list, func(e pageEntry) bool { return e.inline == nil && e.rel == rel+linkCharset(t) }) {
			rel += linkCharset(t)
			list = append(list, pageEntry{rel: rel})
		}
	}
	return list
}

// foreignText reports whether e is an SVG or MathML <script> or <style>, whose content is
// markup, not raw text, and goes through as written: the policy hashes an SVG script's text
// as the browser decodes it, and the offline check judges both.
func foreignText(e element) bool {
	return e.n.Namespace != markup.HTML && (e.n.Name == "script" || e.n.Name == "style")
}

// inlineModule reports whether the walk bundles the text of the script t as an inline module
// script: a module script without src whose text is not blank.
func (a *assembler) inlineModule(t *tag, text string) bool {
	_, hasSrc := t.get("src")
	return !hasSrc && scriptKind(t) == offline.ScriptModule && strings.TrimSpace(text) != ""
}

// pageCode is the code text, written in the page, as entries and inlineEntry bundle it.
func (a *assembler) pageCode(text string, loader api.Loader) *inlineCode {
	return &inlineCode{contents: text, name: a.file, loader: loader}
}

// Entries returns the files a build of the app in dir bundles as entries, with esbuild, as
// paths in the app folder: the page's local stylesheets and module scripts, or the script
// entry. bench/compare gives them to esbuild's CLI, the floor a build is measured against.
func Entries(dir string) ([]string, error) {
	m, err := manifest.Load(dir)
	if err != nil {
		return nil, err
	}
	file, src, err := entryPage(m)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range newAssembler(nil, m, file, src).entryList() {
		if e.graph != nil {
			for _, g := range e.graph.members {
				if g.inline == nil && !slices.Contains(out, filepath.Join(m.Root, filepath.FromSlash(g.rel))) {
					out = append(out, filepath.Join(m.Root, filepath.FromSlash(g.rel)))
				}
			}
			continue
		}
		if e.inline == nil {
			out = append(out, filepath.Join(m.Root, filepath.FromSlash(e.rel)))
		}
	}
	return out, nil
}

// entry is the code of the file rel, from prebuild or bundled now.
func (a *assembler) entry(rel string) (code, diag.List) {
	if p, ok := a.prebuilt[rel]; ok {
		delete(a.prebuilt, rel)
		return p.c, p.l
	}
	return a.b.entry(rel)
}

// inline is the code of text, written in the page at textOff, from prebuild or bundled now,
// with its diagnostics at their places in the page.
func (a *assembler) inline(text string, textOff int, loader api.Loader) (code, diag.List) {
	if p, ok := a.prebuilt[inlineKey(textOff)]; ok {
		delete(a.prebuilt, inlineKey(textOff))
		return p.c, a.shift(p.l, textOff)
	}
	c, l := a.b.inlineEntry(*a.pageCode(text, loader))
	return c, a.shift(l, textOff)
}

// replaceEnv replaces %NAME% in the page as Vite does for its HTML entry (see htmlEnv), and
// warns, at its place, of a name with a public prefix that has no value. Messages keep the page
// as written: lines indexes it, and written maps the new page's offsets back.
func (a *assembler) replaceEnv(define map[string]string) {
	src := a.src
	page, edits, unknown := htmlEnv(src, define)
	a.src, a.edits = page, edits
	for _, u := range unknown {
		ref := string(src[u[0] : u[0]+u[1]])
		d := diag.Message{File: a.b.display(a.file), Severity: diag.Warning,
			Text: fmt.Sprintf("%s is not defined: no .env file and no variable of the environment sets %s, so it stays as written", ref, strings.Trim(ref, "%")),
			Note: "set it in .env (or .env.production), or fix the name"}
		d.PlaceIn(a.lines, u[0], u[1])
		a.list = append(a.list, d)
	}
}

func newAssembler(b *bundler, m *manifest.Manifest, file string, src []byte) *assembler {
	return &assembler{b: b, m: m, file: file, dir: path.Dir(file), src: src, lines: diag.NewLines(src), inlined: map[string]string{}, emitted: map[string][]offline.Import{},
		sprites: map[string]*sprite{}, spriteAt: map[string][2]int{}, pageIDs: map[string]bool{}, pageNames: map[string]windowName{}}
}

// emit returns what stands for the text of the bundle c in a script element of the page (see
// hold), the element whose place is [off, off+n). Its import records are noted for the final
// check when esbuild's metafile gave them. With --sourcemap, the first module script's map is
// the one written; a later one's is not, and that is said at its place.
func (a *assembler) emit(c code, off, n int) string {
	js := escapeScript(c.js)
	if c.known {
		a.emitted[js] = c.imports
	}
	switch {
	case a.jsMap == nil:
		a.jsMap = c.jsMap
	case c.jsMap != nil && a.b.writeMap:
		a.warnAt(off, n, fmt.Sprintf("--sourcemap writes one map, %s.js.map, of the page's first module script: this module script has none", a.m.ID),
			"to map it too, import it from the first module script instead of naming it in the page")
	}
	return a.hold(js)
}

// hold returns what stands for text, a script's or a stylesheet's, in the page assemble
// writes: a placeholder, which fill replaces with the text, so that the policy's hashes are
// computed from a page without the texts, by what the page's parse shows of where scripts
// are (bundles and inlined fonts are most of a page, and the parser reads raw text a byte at
// a time).
func (a *assembler) hold(text string) string {
	a.texts = append(a.texts, text)
	return placeholder(len(a.texts) - 1)
}

// placeholder is the stand-in for the i-th text: its 0xFF bytes, never in UTF-8, cannot be
// in a page, whose every other part is UTF-8, and it holds no markup.
func placeholder(i int) string { return "\xffminiapp:" + strconv.Itoa(i) + "\xff" }

// placeholderIndex returns i when s is placeholder(i).
func placeholderIndex(s string) (int, bool) {
	rest, ok := strings.CutPrefix(s, "\xffminiapp:")
	if !ok || !strings.HasSuffix(rest, "\xff") {
		return 0, false
	}
	i, err := strconv.Atoi(strings.TrimSuffix(rest, "\xff"))
	return i, err == nil && i >= 0
}

// fill returns skeleton, a page assemble wrote, with every placeholder replaced by its text.
func (a *assembler) fill(skeleton []byte) []byte {
	n := len(skeleton)
	for _, t := range a.texts {
		n += len(t)
	}
	out := make([]byte, 0, n)
	for {
		i := bytes.Index(skeleton, []byte("\xffminiapp:"))
		if i < 0 {
			return append(out, skeleton...)
		}
		end := bytes.IndexByte(skeleton[i+1:], 0xff) + i + 2 // past the closing 0xFF
		k, ok := placeholderIndex(string(skeleton[i:max(i, end)]))
		if !ok || k >= len(a.texts) {
			// Not one of assemble's: copied as it is (the page holds no 0xFF otherwise).
			out = append(out, skeleton[:i+1]...)
			skeleton = skeleton[i+1:]
			continue
		}
		out = append(append(out, skeleton[:i]...), a.texts[k]...)
		skeleton = skeleton[end:]
	}
}

func (a *assembler) errAt(off, n int, text, note string) {
	d := diag.Message{File: a.b.display(a.file), Text: text, Note: note}
	d.PlaceIn(a.lines, written(a.edits, off), n)
	a.list = append(a.list, d)
}

func (a *assembler) warnAt(off, n int, text, note string) {
	a.errAt(off, n, text, note)
	a.list[len(a.list)-1].Severity = diag.Warning
}

// attr is one attribute of a start tag, with the offset of its value in the page.
type attr struct {
	key, val string
	off, n   int
}

// tag is a start tag read from the page.
type tag struct {
	name        string
	attrs       []attr
	off         int
	raw         []byte
	selfClosing bool
}

func (t *tag) get(key string) (attr, bool) {
	for _, a := range t.attrs {
		if a.key == key {
			return a, true
		}
	}
	return attr{}, false
}

func (t *tag) has(key string) bool { _, ok := t.get(key); return ok }

// render writes the tag with its attributes, leaving out those in drop and replacing values
// from set.
func (t *tag) render(drop []string, set map[string]string) string {
	var b strings.Builder
	b.WriteString("<" + t.name)
	for _, a := range t.attrs {
		if slices.Contains(drop, a.key) {
			continue
		}
		v, ok := set[a.key]
		if !ok {
			v = a.val
		}
		b.WriteString(" " + a.key)
		if v != "" || ok {
			b.WriteString(`="` + html.EscapeString(v) + `"`)
		}
	}
	b.WriteString(">")
	return b.String()
}

// assembled is the page assemble writes: the app's page with every local reference bundled or
// inlined and the build's own markup where the normal form puts it, with placeholders for
// the texts it holds (see hold). Its offsets say where that markup is, for checkBuilt; -1
// for what is not there.
type assembled struct {
	page []byte
	// policy is the offset of the policy <meta>, head's first child; charset that of the
	// <meta charset> the build wrote after it (-1 when the page's own is head's first
	// element); css that of the <style> holding the CSS the page's scripts import; sdk that
	// of the SDK's <script>; body the range of what went at the end of <body> (classic
	// scripts with defer or async, SVG sprites).
	policy, charset, css, sdk int
	// dev is the offset of Options.DevScript's <script>, just before the SDK's (-1 in a
	// build for hosts).
	dev  int
	body markup.Range
	// bodyAt is where body went in the page as the app wrote it, for messages.
	bodyAt int
}

// assemble returns the page with every local reference bundled or inlined, and the build's
// own markup where the tree puts it: the policy <meta> first in <head> (its content a
// placeholder, which Build fills once it has hashed the page's scripts), then <meta charset>
// unless the page's head begins with its own, the CSS that scripts imported at the end of
// <head> (as Vite links it), the SDK at the end of <body> where no code of the page runs
// before parsing ends (sdkAtBodyEnd), else before the first script the browser runs (else at
// the end of <head>, after every stylesheet), and the classic scripts with defer or async and
// the SVG sprites at the end of <body>. What the tree builder would move or hide is refused
// (refuse), and what it would not is copied through byte for byte.
func (a *assembler) assemble() *assembled {
	d := a.page()
	if !a.wellFormed() {
		// The tree is not the page its author wrote: nothing is built from it, and the
		// errors say what to fix first.
		return &assembled{page: a.src, policy: -1, charset: -1, css: -1, sdk: -1, dev: -1, body: markup.Range{Start: -1, End: -1}}
	}
	type edit struct {
		r    markup.Range
		text string
	}
	var edits []edit
	sdkAt := -1
	for _, e := range a.elements() {
		t := e.tag()
		a.inert, a.noscript = e.inert, e.noscript
		a.handlers(t)
		if id, ok := t.get("id"); ok {
			a.pageIDs[id.val] = true
		}
		for _, n := range e.windowNames(t) {
			if had, ok := a.pageNames[n.name]; !ok || n.frame && !had.frame {
				a.pageNames[n.name] = n
			}
		}
		if sdkAt < 0 && e.isLiveScript() {
			sdkAt = t.off
		}
		r, text := markup.Range{Start: t.off, End: t.off + len(t.raw)}, ""
		switch {
		case t.name == "meta" && !e.inert && a.isOwnPolicy(t.off):
			// The page's own policy, merged into the build's (ownpolicy.go): one policy.
		case foreignText(e), t.name == "head":
			continue
		case t.name == "meta":
			// An Open Graph or Twitter image, video or audio of the app's files is inlined,
			// as Vite rewrites the URL it names; any other <meta> goes through as written.
			c, ok := t.get("content")
			if !ok || !metaAsset(t) {
				continue
			}
			d, ok := a.inlineAttr(c)
			if !ok {
				continue
			}
			text = t.render(nil, map[string]string{"content": d})
		case t.name == "script" || t.name == "style":
			// An HTML one: its raw text and end tag are the element's, replaced whole.
			body, textOff, end, whole := e.text()
			r = whole
			if t.name == "script" {
				text = a.script(t, body, textOff, end)
			} else {
				text = a.style(t, body, textOff, end)
			}
		case t.name == "link":
			text = a.link(t)
		default:
			text = a.media(t)
		}
		if e.noscript {
			text = a.inNoscript(text, t.name == "script")
		}
		if text != string(a.src[r.Start:r.End]) {
			edits = append(edits, edit{r, text})
		}
	}
	a.inert, a.noscript = false, false
	a.checkGlobalCalls()

	// The build's own markup, each at its place in the tree.
	headAt, cssAt := headStart(d), headEnd(d)
	bodyAt, open := bodyEnd(d)
	switch {
	case open == "" && sdkAtBodyEnd(d, bodyAt):
		sdkAt = bodyAt
	case sdkAt < 0 || sdkAt > cssAt:
		sdkAt = cssAt
	}
	res := &assembled{policy: -1, charset: -1, css: -1, sdk: -1, dev: -1, body: markup.Range{Start: -1, End: -1}, bodyAt: bodyAt}
	a.policyText = len(a.texts)
	type insert struct {
		at   int
		text string
		mark *int // set to the offset of text in the page written
	}
	inserts := []insert{{headAt, `<meta http-equiv="Content-Security-Policy" content="` + a.hold("") + `">`, &res.policy}}
	if !ownCharset(d) {
		inserts = append(inserts, insert{headAt, `<meta charset="utf-8">`, &res.charset})
	}
	if len(a.css) > 0 {
		inserts = append(inserts, insert{cssAt, "<style>" + a.hold(escapeStyle(strings.Join(a.css, ""))) + "</style>", &res.css})
	}
	if a.devScript != "" {
		inserts = append(inserts, insert{sdkAt, "<script>" + a.hold(escapeScript(a.devScript)) + "</script>", &res.dev})
	}
	if a.sdk {
		a.sdkText = len(a.texts)
		inserts = append(inserts, insert{sdkAt, "<script>" + a.hold("") + "</script>", &res.sdk})
	}
	if js := a.trustedRunner(); js != "" {
		// After the SDK's and before every script of the page: the build's Trusted Types policy is made first.
		inserts = append(inserts, insert{sdkAt, "<script>" + a.hold(escapeScript(js)) + "</script>", new(int)})
	}
	if tail := a.spriteMarkup() + strings.Join(a.deferred, ""); tail != "" {
		inserts = append(inserts, insert{bodyAt, open + tail, &res.body.Start})
	}
	a.deferred = nil
	// In page order; at one offset, in the order above, and before the edit of an element
	// there (the element that implied the head follows what goes in it).
	sort.SliceStable(inserts, func(i, j int) bool { return inserts[i].at < inserts[j].at })
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].r.Start < edits[j].r.Start })
	var out bytes.Buffer
	last := 0
	for i, j := 0, 0; i < len(inserts) || j < len(edits); {
		if i < len(inserts) && (j == len(edits) || inserts[i].at <= edits[j].r.Start) {
			at := max(last, inserts[i].at)
			out.Write(a.src[last:at])
			last = at
			*inserts[i].mark = out.Len()
			out.WriteString(inserts[i].text)
			if inserts[i].mark == &res.body.Start {
				res.body.End = out.Len()
			}
			i++
			continue
		}
		if e := edits[j]; e.r.Start >= last {
			out.Write(a.src[last:e.r.Start])
			out.WriteString(e.text)
			last = e.r.End
		}
		j++
	}
	out.Write(a.src[last:])
	res.page = out.Bytes()
	return res
}

// ownCharset reports whether the page's head begins with its own <meta charset> naming UTF-8
// (by any of the Encoding Standard's labels), which then comes second in the built page's
// head, right after the policy: Chromium's prescan for the encoding (HTMLMetaCharsetParser)
// reads on past the first 1024 bytes while it has met only tags that belong in a head, so it
// finds it whatever the policy's length (TestCharsetAfterLongPolicy).
func ownCharset(d *markup.Document) bool {
	head := d.Head()
	if head == nil {
		return false
	}
	for c := head.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == markup.ElementNode {
			v, ok := c.AttrValue("charset")
			return c.Is(markup.HTML, "meta") && ok && isUTF8(v)
		}
	}
	return false
}

// isUTF8 reports whether label is one of the Encoding Standard's labels of UTF-8.
func isUTF8(label string) bool {
	_, name := charset.Lookup(label)
	return name == "utf-8"
}

// inNoscript keeps what the walk writes inside a <noscript>'s text, and the texts it holds,
// from ending that text early: where scripts run (in every host's frame), the browser reads
// it as raw text up to the first "</noscript", and a bundle or a stylesheet holding one
// would make what follows it markup of the page. In a script it becomes "\x3C/noscript" (in
// the strings, templates and regular expressions a bundle holds it in), in CSS "<\/noscript".
func (a *assembler) inNoscript(text string, script bool) string {
	esc := `<\/`
	if script {
		esc = `\x3C/`
	}
	fix := func(s string) string {
		var b strings.Builder
		for {
			i := markup.IndexFold(s, "</noscript")
			if i < 0 {
				break
			}
			b.WriteString(s[:i] + esc)
			s = s[i+2:]
		}
		if b.Len() == 0 {
			return s
		}
		return b.String() + s
	}
	for rest := text; ; {
		i := strings.Index(rest, "\xffminiapp:")
		if i < 0 {
			break
		}
		rest = rest[i:]
		end := strings.IndexByte(rest[1:], 0xff)
		if end < 0 {
			break
		}
		if k, ok := placeholderIndex(rest[:end+2]); ok && k < len(a.texts) {
			a.texts[k] = fix(a.texts[k])
		}
		rest = rest[end+2:]
	}
	return fix(text)
}

// handles reports whether the assembler took charge of the reference at byte offset off.
func (a *assembler) handles(off int) bool {
	for _, h := range a.handled {
		if h[0] <= off && off < h[1] {
			return true
		}
	}
	return false
}

// handlers refuses inline event handler attributes: the bundle's Content-Security-Policy
// allows only the hashed inline scripts, and 'unsafe-hashes' would let any matching handler
// text run anywhere in the page.
func (a *assembler) handlers(t *tag) {
	for _, at := range t.attrs {
		if (at.key == "href" || at.key == "src" || at.key == "action" || at.key == "formaction" || at.key == "xlink:href") &&
			offline.Scheme(at.val) == "javascript" {
			// Said here, with what to do: the offline check of the source page, which finds
			// it too, is told it is handled.
			a.handled = append(a.handled, [2]int{at.off, at.off + at.n})
			a.errAt(at.off, at.n, fmt.Sprintf("a javascript: URL (%s=%q) cannot run under the bundle's Content-Security-Policy", at.key, at.val),
				"attach the behaviour in a script instead: element.addEventListener(\"click\", …); for a link that goes nowhere, use a <button>")
		}
		if len(at.key) > 2 && strings.HasPrefix(at.key, "on") {
			a.errAt(at.off, at.n, fmt.Sprintf("inline event handler %s=%q cannot run under the bundle's Content-Security-Policy", at.key, at.val),
				fmt.Sprintf("attach it in a script instead: element.addEventListener(%q, …)", strings.TrimPrefix(at.key, "on")))
		}
	}
}

// local reports whether a URL names a file of the app (a relative or root-relative path), and
// returns that path without its query, and its fragment.
func local(u string) (p, frag string, ok bool) {
	u = strings.TrimSpace(u)
	if u == "" || strings.HasPrefix(u, "#") || strings.HasPrefix(u, "//") || strings.Contains(u, `\`) {
		return "", "", false
	}
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		return "", "", false // has a scheme
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u, frag = u[:i], u[i:]
	}
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u = u[:i]
	}
	if u == "" {
		return "", "", false
	}
	return u, frag, true
}

// resolve maps a local URL to a path relative to the app folder: root-relative URLs come from
// the public folder first, then the app folder (as in Vite); others are relative to the page.
func (a *assembler) resolve(u string, at attr) (string, bool) {
	a.handled = append(a.handled, [2]int{at.off, at.off + at.n})
	rel, cands, err := a.locate(u)
	switch {
	case err == nil:
		return rel, true
	case errors.Is(err, manifest.ErrOutside):
		a.errAt(at.off, at.n, fmt.Sprintf("%q leaves the app folder", u), "keep every file the app uses inside its folder; bundle never reads outside it")
	case errors.Is(err, errNoFile):
		where := cands[0]
		if len(cands) > 1 {
			where = cands[0] + " or " + cands[1]
		}
		a.errAt(at.off, at.n, fmt.Sprintf("%q does not exist", u), fmt.Sprintf("create %s, or fix the path (it is resolved inside the app folder)", where))
	default:
		a.errAt(at.off, at.n, fmt.Sprintf("cannot read %q: %v", u, err), "check the file's permissions")
	}
	return "", false
}

// errNoFile is locate's error when no candidate is a file.
var errNoFile = errors.New("no such file")

// locate finds the file the local URL u names, relative to the app folder, and says which
// paths it tried (for a root-relative URL, the public folder's first).
func (a *assembler) locate(u string) (string, []string, error) {
	// A URL's path is percent-encoded ("my%20file.js" names my file.js, as a server reads it);
	// an encoded slash or backslash is not decoded, so that it never makes a path separator.
	if d, ok := decodedPath(u); ok {
		u = d
	}
	var cands []string
	var cfg *viteConfig // Entries' assembler has no build
	if a.b != nil {
		cfg = a.b.vite
	}
	if to, ok := cfg.alias(u); ok && filepath.IsAbs(to) {
		// The config's alias, as Vite resolves the page's URLs (<script src="/@/main.js">).
		rel, err := filepath.Rel(a.m.Root, to)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", []string{to}, manifest.ErrOutside
		}
		cands = []string{filepath.ToSlash(rel)}
	} else if strings.HasPrefix(u, "/") {
		cands = []string{path.Join(a.m.Build.PublicDir, u), path.Clean(strings.TrimPrefix(u, "/"))}
	} else {
		cands = []string{path.Join(a.dir, u)}
	}
	for _, c := range cands {
		p, err := a.m.Resolve(c)
		switch {
		case err == nil:
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return c, cands, nil
			}
		case errors.Is(err, manifest.ErrOutside):
			return "", cands, err
		case errors.Is(err, fs.ErrNotExist):
			continue
		default:
			return "", cands, err
		}
	}
	return "", cands, errNoFile
}

// dataURL returns the file rel as a data: URL.
func (a *assembler) dataURL(rel string) (string, error) {
	if u, ok := a.inlined[rel]; ok {
		return u, nil
	}
	p, err := a.m.Resolve(rel)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	if err := sniff(rel, b); err != nil {
		return "", err
	}
	u := encodeDataURL(rel, b)
	if strings.EqualFold(path.Ext(rel), ".svg") {
		u = svgDataURL(b) // as Vite inlines an SVG the page names (<img src="icon.svg">)
	}
	a.inlined[rel] = u
	a.b.inputs[rel] += len(u)
	return u, nil
}

func mimeOf(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if m := offline.MediaType(ext); m != "" {
		return m
	}
	if m := mime.TypeByExtension(ext); m != "" {
		return m
	}
	return "application/octet-stream"
}

// metaAsset reports whether a <meta> names a file in its content, as Vite's HTML plugin reads
// one: og:image (and its :url, :secure_url), og:audio, og:video, twitter:image and the like.
func metaAsset(t *tag) bool {
	for _, k := range []string{"property", "name"} {
		if v, ok := t.get(k); ok {
			switch strings.ToLower(v.val) {
			case "og:image", "og:image:url", "og:image:secure_url", "og:audio", "og:audio:secure_url", "og:video", "og:video:secure_url",
				"twitter:image", "msapplication-tileimage", "msapplication-square70x70logo", "msapplication-square150x150logo",
				"msapplication-wide310x150logo", "msapplication-square310x310logo", "msapplication-config":
				return true
			}
		}
	}
	return false
}

// encodeDataURL encodes b as a data: URL, base64 (deterministic, and safe in any attribute).
func encodeDataURL(name string, b []byte) string {
	return "data:" + mimeOf(name) + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// inlineAttr replaces a local URL attribute's value by a data: URL; it returns false when the
// value is not local (the offline check judges it) or an error was reported.
func (a *assembler) inlineAttr(at attr) (string, bool) {
	u, frag, ok := local(at.val)
	if !ok {
		return "", false
	}
	rel, ok := a.resolve(u, at)
	if !ok {
		return "", false
	}
	d, err := a.dataURL(rel)
	if err != nil {
		a.errAt(at.off, at.n, fmt.Sprintf("cannot inline %q: %v", u, err), "replace it with the real file, or fix the path")
		return "", false
	}
	return d + frag, true
}

// media inlines the local URLs of any other element: src, poster, srcset, imagesrcset, and
// SVG image hrefs; a <use> of a local SVG file's element names it in the page (sprite.go).
func (a *assembler) media(t *tag) string {
	set := map[string]string{}
	for _, at := range t.attrs {
		switch at.key {
		case "src", "poster", "background", "lowsrc", "dynsrc", "data":
			switch {
			case t.name == "iframe" || t.name == "frame":
				continue // a page cannot be inlined; the offline check reports it
			case t.name == "embed" && at.key == "src" || t.name == "object" && at.key == "data":
				a.plugin(t, at)
				continue
			case at.key == "data":
				continue // a data- attribute's kin: not a URL elsewhere
			}
			if d, ok := a.inlineAttr(at); ok {
				set[at.key] = d
			}
		case "srcset", "imagesrcset":
			if v, changed := a.srcset(at); changed {
				set[at.key] = v
			}
		case "style":
			if v, changed := a.styleURLs(at); changed {
				set[at.key] = v
			}
		case "fill", "stroke", "filter", "mask", "clip-path", "marker-start", "marker-mid", "marker-end":
			if v, ok := a.spriteRef(at); ok {
				set[at.key] = v
			}
		case "href", "xlink:href":
			switch t.name {
			case "image", "feimage":
				if d, ok := a.inlineAttr(at); ok {
					set[at.key] = d
				}
			case "use":
				if d, ok := a.spriteUse(at); ok {
					set[at.key] = d
				}
			}
		}
	}
	if len(set) == 0 {
		return string(t.raw)
	}
	out := t.render(nil, set)
	if t.selfClosing {
		out = strings.TrimSuffix(out, ">") + "/>"
	}
	return out
}

// plugin refuses a local file shown by <embed src> or <object data>: a bundle's policy has
// object-src 'none' (it was inlined, then refused by the final check at a place in the built
// page). A URL is the offline check's.
func (a *assembler) plugin(t *tag, at attr) {
	u, _, ok := local(at.val)
	if !ok {
		return
	}
	a.handled = append(a.handled, [2]int{at.off, at.off + at.n})
	a.errAt(at.off, at.n, fmt.Sprintf("<%s %s> cannot show %s: a bundle's policy allows no plugin content (object-src 'none')", t.name, at.key, u),
		fmt.Sprintf("show an image with <img src=%q>, a page with <iframe srcdoc>, or put the SVG in the page", at.val))
}

// styleURLs inlines the local files a style attribute's url()s name, in place, as Vite does
// (style="background: url(./hero.png)"). A local URL with a fragment is refused, saying what
// to write; one with an escape is left to the offline check; each one inlined is the assembler's to report (a missing file), placed at
// the URL when the attribute is written without character references.
func (a *assembler) styleURLs(at attr) (string, bool) {
	if markup.IndexFold(at.val, "url(") < 0 && markup.IndexFold(at.val, "image-set(") < 0 {
		return at.val, false
	}
	exact := at.off+at.n <= len(a.src) && string(a.src[at.off:at.off+at.n]) == at.val
	var b strings.Builder
	changed := false
	l := css.NewLexer(parse.NewInputString(at.val))
	depth := 0 // inside an image-set(), whose strings are URLs (CSS Images 4), as imageSetURLs reads them
	for pos := 0; ; {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		text := string(data)
		switch tt {
		case css.FunctionToken:
			if depth > 0 {
				depth++
			} else if name := strings.ToLower(text); name == "image-set(" || name == "-webkit-image-set(" {
				depth = 1
			}
		case css.LeftParenthesisToken:
			if depth > 0 {
				depth++
			}
		case css.RightParenthesisToken:
			if depth > 0 {
				depth--
			}
		case css.StringToken:
			if depth == 1 {
				tt, text = css.URLToken, "url("+text+")"
			}
		}
		u, ok := urlArg(text)
		place := attr{key: at.key, val: u, off: at.off, n: at.n}
		if exact {
			place.off, place.n = at.off+pos, len(text)
		}
		_, frag, isLocal := local(u)
		switch {
		case tt != css.URLToken || !ok:
		case isLocal && frag != "":
			// A part of a file: an SVG paint server, filter or mask is taken into the page
			// from an attribute (spriteRef), not from CSS, where the property decides.
			a.handled = append(a.handled, [2]int{place.off, place.off + place.n})
			a.errAt(place.off, place.n, fmt.Sprintf("url(%s) in a style attribute names a part of a file, which bundle build does not inline there", u),
				"for an SVG paint server, filter or mask, write it as the element's attribute (fill=\"url(…)\"), which the build takes into the page; for an image, leave out the fragment")
		default:
			if d, ok := a.inlineAttr(place); ok {
				text, changed = "url("+d+")", true
			}
		}
		if tt == css.URLToken && text == "url("+string(data)+")" {
			text = string(data) // an image-set() string not inlined stays as written
		}
		pos += len(data)
		b.WriteString(text)
	}
	return b.String(), changed
}

// urlArg returns the URL of a url( … ) token, unquoted; ok is false for one with an escape,
// which is left to the offline check.
func urlArg(tok string) (string, bool) {
	open, end := strings.IndexByte(tok, '('), strings.LastIndexByte(tok, ')')
	if open < 0 || end < open || strings.IndexByte(tok, '\\') >= 0 {
		return "", false
	}
	u := strings.Trim(tok[open+1:end], " \t\n\r\f")
	if len(u) >= 2 && (u[0] == '"' || u[0] == '\'') && u[len(u)-1] == u[0] {
		u = u[1 : len(u)-1]
	}
	return u, true
}

// srcset inlines each local candidate of a srcset list in place, as the HTML Standard splits
// the list (a data: candidate keeps its commas); descriptors and separators stay as written.
func (a *assembler) srcset(at attr) (string, bool) {
	var b strings.Builder
	last := 0
	for _, c := range markup.Srcset(at.val) {
		if d, ok := a.inlineAttr(attr{key: at.key, val: c.Text, off: at.off, n: at.n}); ok {
			b.WriteString(at.val[last:c.Off] + d)
			last = c.Off + len(c.Text)
		}
	}
	if last == 0 {
		return at.val, false
	}
	b.WriteString(at.val[last:])
	return b.String(), true
}

// iconRels are the link relations a framed page has no use for: browsers show no favicon for
// a frame, and a web app manifest needs a URL to install from.
var iconRels = []string{"icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "manifest"}

// maxIconBytes bounds the favicon that becomes the registry entry's icon.
const maxIconBytes = 32 << 10

// linkRels returns a <link>'s relations, lower-cased, and whether one is an icon's.
func linkRels(t *tag) ([]string, bool) {
	relAttr, _ := t.get("rel")
	rels := strings.Fields(strings.ToLower(relAttr.val))
	return rels, slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(iconRels, r) })
}

// bundledStylesheet returns the local URL of the stylesheet a <link> names that link bundles
// (rel stylesheet and no icon's relation, a local href), with its attribute.
func bundledStylesheet(t *tag) (string, attr, bool) {
	href, ok := t.get("href")
	if !ok {
		return "", attr{}, false
	}
	rels, icon := linkRels(t)
	u, _, isLocal := local(href.val)
	typ, hasType := t.get("type")
	return u, href, !icon && isLocal && slices.Contains(rels, "stylesheet") && (!hasType || linkTypeIsCSS(typ.val))
}

// linkCharset is the suffix that gives the stylesheet a <link> t names its fallback encoding
// (cssencoding.go), "" for UTF-8, the page's. Chromium falls back to the encoding the link's
// charset attribute names (LinkStyle's charset, before the document's): its label as
// written, not trimmed (" latin1 " names none), in any case. The attribute is obsolete in
// HTML and CSS Syntax 3 knows only the referrer's encoding, which Chromium reads it as.
func linkCharset(t *tag) string {
	cs, ok := t.get("charset")
	if !ok || strings.TrimSpace(cs.val) != cs.val {
		return ""
	}
	_, name := charset.Lookup(cs.val)
	if name == "" || isUTF8(name) || strings.HasPrefix(name, "utf-16") {
		return "" // UTF-16: refused where the link is inlined (utf16LinkCharset)
	}
	return charsetSuffix + name
}

// utf16LinkCharset reports whether the <link> t's charset attribute names UTF-16, which
// Chromium decodes the stylesheet from (an ASCII file loses every rule) and CSS Syntax 3
// reads as UTF-8.
func utf16LinkCharset(t *tag) (attr, bool) {
	cs, ok := t.get("charset")
	if !ok || strings.TrimSpace(cs.val) != cs.val {
		return attr{}, false
	}
	_, name := charset.Lookup(cs.val)
	return cs, strings.HasPrefix(name, "utf-16")
}

// linkTypeIsCSS reports whether a <link rel=stylesheet>'s type attribute names CSS, as
// Chromium reads it (LinkStyle: the type's essence, before any ';' and trimmed, empty or
// text/css in any case): one that does not (type="text/plain") is never fetched, so its
// stylesheet does not apply, where a <style> in its place would. (A <style>'s own type is
// compared whole: styleTypeIsCSS.)
func linkTypeIsCSS(typ string) bool {
	essence, _, _ := strings.Cut(typ, ";")
	essence = strings.Trim(essence, "\t\n\f\r ")
	return essence == "" || markup.ASCIILower(essence) == "text/css"
}

// styleTypeIsCSS reports whether a <style>'s type attribute, present, makes it a stylesheet
// (HTML's update a style block: the empty string or text/css in ASCII case, nothing else, so
// not "text/css; charset=utf-8"). One that is not is a block of text the page may read, kept
// as written, not compiled as CSS.
func styleTypeIsCSS(typ string) bool {
	return typ == "" || markup.ASCIILower(typ) == "text/css"
}

// styleSheetElement reports whether the <style> t makes a stylesheet by its type.
func styleSheetElement(t *tag) bool {
	typ, ok := t.get("type")
	return !ok || styleTypeIsCSS(typ.val)
}

// bundledModule returns the local URL of the module script a <script src> names that script
// bundles, with its attribute.
func bundledModule(t *tag) (string, attr, bool) {
	src, ok := t.get("src")
	if !ok || scriptKind(t) != offline.ScriptModule {
		return "", attr{}, false
	}
	u, _, isLocal := local(src.val)
	return u, src, isLocal
}

// scriptKind is what the <script> t is by its type and language attributes, by the rule the
// offline check judges it (offline.KindOfScript); a type the HTML Standard and Chromium read
// apart, which the walk refuses (script), is the kind that runs code.
func scriptKind(t *tag) offline.ScriptKind {
	k, _ := scriptKindSplit(t)
	return k
}

func scriptKindSplit(t *tag) (offline.ScriptKind, bool) {
	typ, hasType := t.get("type")
	lang, hasLang := t.get("language")
	return offline.KindOfScript(typ.val, hasType, lang.val, hasLang)
}

// scriptTypeSplit says how the HTML Standard and the browsers read apart the type typ of a
// script of kind k (offline.KindOfScript's split).
func scriptTypeSplit(typ string, k offline.ScriptKind) string {
	what := map[offline.ScriptKind]string{offline.ScriptModule: "a module script", offline.ScriptImportMap: "an import map",
		offline.ScriptSpeculationRules: "speculation rules", offline.ScriptWebBundle: "a web bundle"}[k]
	switch {
	case k == offline.ScriptClassic && strings.Contains(typ, ";"):
		return fmt.Sprintf("type=%q is a data block by the HTML Standard and in Chromium (a type with MIME parameters), which a browser that read the type by its MIME essence would run as a classic script", typ)
	case k == offline.ScriptClassic:
		return fmt.Sprintf("type=%q is a classic script in Chromium (it strips \\v and Unicode spaces off the type) and a data block by the HTML Standard (which strips ASCII whitespace alone)", typ)
	}
	return fmt.Sprintf("type=%q is %s by the HTML Standard (the type stripped of whitespace), and a type Chromium runs no script of (it compares the type as written)", typ, what)
}

// link bundles a local stylesheet into a <style>, drops preloads of local files (their code is
// inline now), leaves icons and web app manifests out of the page with a note (the first
// small SVG or PNG icon is kept for the registry entry), and inlines any other local href as a
// data: URL.
func (a *assembler) link(t *tag) string {
	href, ok := t.get("href")
	if !ok {
		return string(t.raw)
	}
	relAttr, _ := t.get("rel")
	rels, icon := linkRels(t)
	u, _, isLocal := local(href.val)
	if icon {
		a.handled = append(a.handled, [2]int{href.off, href.off + href.n})
		a.warnAt(href.off, href.n, fmt.Sprintf("<link rel=%q> left out of the page: a framed app shows no favicon and cannot be installed", relAttr.val),
			"the host shows the registry entry's icon (the manifest's icon field; without one, the page's first small SVG or PNG icon)")
		if isLocal && a.icon == "" && a.m.Icon == "" && !slices.Contains(rels, "manifest") {
			if ext := strings.ToLower(path.Ext(u)); ext == ".svg" || ext == ".png" {
				if rel, ok := a.resolve(u, href); ok {
					if d, err := a.dataURL(rel); err == nil && len(d) <= maxIconBytes*4/3+64 {
						a.icon = d
						delete(a.b.inputs, rel) // it is not in the page
					}
				}
			}
		}
		return ""
	}
	if !isLocal {
		return string(t.raw)
	}
	_, _, sheet := bundledStylesheet(t) // entryList (prebuild) decides by the same test
	switch {
	case !sheet && slices.Contains(rels, "stylesheet"):
		// A type that is not CSS: Chromium never fetches it, and would if a script changed
		// the type. The file as a data: URL keeps both (the policy then allows data: styles).
		d, ok := a.inlineAttr(href)
		if !ok {
			return string(t.raw)
		}
		a.b.flags.styleData = true
		return t.render(nil, map[string]string{"href": d})
	case sheet:
		rel, ok := a.resolve(u, href)
		if !ok {
			return ""
		}
		a.checkIntegrity(t, href)
		if cs, ok := utf16LinkCharset(t); ok {
			a.errAt(cs.off, cs.n, fmt.Sprintf("charset=%q: Chromium decodes the stylesheet as UTF-16 (a file of ASCII or UTF-8 then holds no rule), and CSS Syntax 3 as UTF-8: the page would look one way here and another there", cs.val),
				"remove the charset attribute (the file is then read as UTF-8), or save the file as UTF-8")
			return ""
		}
		rel += linkCharset(t)
		c, l := a.entry(rel)
		a.list = append(a.list, l...)
		if slices.Contains(rels, "alternate") || t.has("disabled") {
			// A <style> cannot be an alternate or disabled stylesheet: keep the link, with
			// its CSS in a data: URL (the policy then allows data: styles).
			a.b.flags.styleData = true
			return t.render(nil, map[string]string{"href": "data:text/css;base64," + base64.StdEncoding.EncodeToString([]byte(c.css))})
		}
		// (vite-ignore: Vite leaves the element to the browser and drops the attribute; bundle
		// inlines it as any, and drops it too.)
		keep := []string{"href", "rel", "type", "as", "integrity", "crossorigin", "referrerpolicy", "fetchpriority", "blocking", "vite-ignore"}
		var attrs strings.Builder
		for _, at := range t.attrs {
			// media, title (alternate stylesheets), disabled and the rest keep their meaning on <style>.
			if !slices.Contains(keep, at.key) {
				attrs.WriteString(" " + at.key)
				if at.val != "" {
					attrs.WriteString(`="` + html.EscapeString(at.val) + `"`)
				}
			}
		}
		return "<style" + attrs.String() + ">" + a.hold(escapeStyle(c.css)) + "</style>"
	case slices.Contains(rels, "modulepreload") || slices.Contains(rels, "preload") || slices.Contains(rels, "prefetch"):
		if _, ok := a.resolve(u, href); !ok {
			return ""
		}
		return ""
	}
	if d, ok := a.inlineAttr(href); ok {
		return t.render(nil, map[string]string{"href": d})
	}
	return string(t.raw)
}

// script bundles a local module script (or one written inline) into an inline module script,
// which stays deferred as a module script is. A classic script stays classic: a local one is
// minified without bundling (a UMD library keeps defining its global) and inlined in place;
// with defer or async it moves to the end of <body>, where an inline script runs when a
// deferred one would, in order. Data blocks (JSON, import maps) and remote scripts stay as
// they are, for the offline check.
func (a *assembler) script(t *tag, text string, textOff int, end string) string {
	kind, split := scriptKindSplit(t)
	if split {
		// The HTML Standard and Chromium (or another browser) read the type apart: the page
		// would do one thing here and another there.
		typAttr, _ := t.get("type")
		a.errAt(typAttr.off, typAttr.n, scriptTypeSplit(typAttr.val, kind), offline.ScriptTypeFix(kind))
		return string(t.raw) + text + end
	}
	classic := kind == offline.ScriptClassic
	if src, ok := t.get("src"); ok && (classic && !t.has("nomodule") || kind == offline.ScriptModule) {
		a.checkIntegrity(t, src)
	}
	drop := []string{"src", "integrity", "crossorigin", "async", "defer", "charset", "vite-ignore"}
	// When every module script of the page is async, the one that runs the graph is too, as
	// Vite's entry script is async when every entry is ("scriptAsync"): it runs as soon as it
	// is ready rather than after parsing. With one that is not, the graph waits for parsing,
	// an order async allows.
	noAsync := slices.DeleteFunc(slices.Clone(drop), func(s string) bool { return s == "async" })
	if g := a.graph(); g.at[t.off] {
		if src, ok := t.get("src"); ok {
			a.handled = append(a.handled, [2]int{src.off, src.off + src.n})
		} else {
			a.handled = append(a.handled, [2]int{textOff, textOff + len(text)})
		}
		if g.allAsync() {
			drop = noAsync
		}
		j := g.index[t.off]
		// The member's code: the graph's, at the first member; a runner at the others.
		run := func() string {
			if j > 0 {
				return g.runner()
			}
			c, l := a.graphCode()
			a.list = append(a.list, l...)
			if c.css != "" {
				a.css = append(a.css, c.css)
			}
			return a.emit(c, t.off, len(t.raw))
		}
		if m := g.members[j]; m.classic != "" {
			a.list = append(a.list, m.warnings...)
			a.b.inputs[m.rel] += len(m.classic)
			// Its element waits for the graph, which runs the code in it (classicJS),
			// from a module script just before it. It keeps its attributes but src (defer,
			// data-*, id: what document.currentScript shows), and its text goes back once it
			// has run.
			r := t.render([]string{"src", "type"}, nil)
			return `<script type="module">` + run() + "</script>" + r[:len(r)-1] + ` type="` + deferredType(j) + `"></script>`
		}
		return t.render(drop, nil) + run() + "</script>"
	}
	if u, src, ok := bundledModule(t); ok { // entryList (prebuild) decides by the same test
		rel, ok := a.resolve(u, src)
		if !ok {
			return ""
		}
		c, l := a.entry(rel)
		a.list = append(a.list, l...)
		if c.css != "" {
			a.css = append(a.css, c.css)
		}
		// esbuild emits an ES module with no imports left; it runs as a module script,
		// deferred or async as it was.
		if t.has("async") {
			drop = noAsync
		}
		return t.render(drop, nil) + a.emit(c, src.off, src.n) + "</script>"
	}
	if src, ok := t.get("src"); ok {
		u, _, isLocal := local(src.val)
		if !isLocal || !classic {
			return string(t.raw) + text + end
		}
		rel, ok := a.resolve(u, src)
		if !ok {
			return ""
		}
		p, err := a.m.Resolve(rel)
		var code []byte
		if err == nil {
			code, err = os.ReadFile(p)
		}
		if err != nil {
			a.errAt(src.off, src.n, fmt.Sprintf("cannot read %q: %v", u, err), "check the file")
			return ""
		}
		if code, err = a.scriptEncoding(t, code); err != nil {
			if split, ok := err.(charsetSplit); ok {
				cs, _ := t.get("charset")
				a.errAt(cs.off, cs.n, split.Error(), fmt.Sprintf("write the label without the whitespace (charset=%q), or save the file as UTF-8 and remove the charset attribute", strings.TrimSpace(split.label)))
				return ""
			}
			a.errAt(src.off, src.n, fmt.Sprintf("cannot decode %q: %v", u, err), "save it as UTF-8 and remove the charset attribute")
			return ""
		}
		if moduleSyntax(string(code)) {
			a.classicModule(src.off, src.n, u)
			return ""
		}
		js, l := a.b.classicFile(string(code), rel)
		a.list = append(a.list, l...)
		a.classics = append(a.classics, classicScript{rel: rel, text: string(code)})
		a.b.inputs[rel] += len(js)
		out := t.render(drop, nil) + escapeScript(js) + "</script>"
		if (t.has("defer") || t.has("async")) && !a.inert {
			// (In a template's contents it stays there, inert as the template keeps it.)
			a.deferred = append(a.deferred, out)
			return ""
		}
		return out
	}
	if strings.TrimSpace(text) == "" {
		return string(t.raw) + text + end
	}
	module := a.inlineModule(t, text) // entryList (prebuild) decides by the same test
	if module || classic {
		a.handled = append(a.handled, [2]int{textOff, textOff + len(text)})
	}
	switch {
	case module:
		c, l := a.inline(text, textOff, api.LoaderJS)
		a.list = append(a.list, l...)
		if c.css != "" {
			a.css = append(a.css, c.css)
		}
		return t.render(drop, nil) + a.emit(c, t.off, len(t.raw)) + "</script>"
	case classic:
		if moduleSyntax(text) {
			a.classicModule(t.off, len(t.raw), "this script")
			return ""
		}
		// Written in the page, it is the author's code: judged as the app's scripts are.
		code, ws := a.b.classicChecks(filepath.Join(a.b.root, filepath.FromSlash(a.file)), []byte(text), classicInline)
		a.classics = append(a.classics, classicScript{rel: a.file, text: text, inline: true, textOff: textOff})
		js, l := a.b.classic(code, a.file)
		a.list = append(a.list, a.shift(append(ws, l...), textOff)...)
		return t.render(drop, nil) + escapeScript(js) + "</script>"
	}
	return string(t.raw) + text + end
}

// scriptEncoding decodes code, a classic script file the <script> t names, to UTF-8 as the
// browser decodes it (HTML Standard, "fetch a classic script": a byte-order mark first, then
// the encoding the charset attribute names, else the page's, UTF-8): a script written in
// ISO-8859-1 with charset="iso-8859-1" keeps its "café" once it is inline in a UTF-8 page.
func (a *assembler) scriptEncoding(t *tag, code []byte) ([]byte, error) {
	cs, ok := t.get("charset")
	if !ok || bytes.HasPrefix(code, []byte("\xef\xbb\xbf")) || bytes.HasPrefix(code, []byte("\xfe\xff")) || bytes.HasPrefix(code, []byte("\xff\xfe")) {
		if bytes.HasPrefix(code, []byte("\xfe\xff")) || bytes.HasPrefix(code, []byte("\xff\xfe")) {
			enc, _ := charset.Lookup("utf-16le")
			if code[0] == 0xfe {
				enc, _ = charset.Lookup("utf-16be")
			}
			return enc.NewDecoder().Bytes(code[2:])
		}
		return bytes.TrimPrefix(code, []byte("\xef\xbb\xbf")), nil
	}
	if strings.TrimSpace(cs.val) != cs.val {
		// The Encoding Standard's "get an encoding" strips the label's ASCII whitespace;
		// Chromium strips none, and reads a label with any as no encoding: the page's, UTF-8.
		if _, name := charset.Lookup(strings.Trim(cs.val, "\t\n\f\r ")); name != "" && !isUTF8(name) {
			return nil, charsetSplit{label: cs.val, name: name}
		}
		return code, nil
	}
	enc, name := charset.Lookup(cs.val)
	if enc == nil || isUTF8(name) {
		return code, nil // no encoding of that label: the page's, UTF-8
	}
	return enc.NewDecoder().Bytes(code)
}

// charsetSplit is a classic script's charset label that the HTML Standard and Chromium read
// apart: with whitespace around it, an encoding's label to one (the Encoding Standard trims
// it) and none to the other (Chromium does not, and decodes the file as UTF-8).
type charsetSplit struct{ label, name string }

func (e charsetSplit) Error() string {
	return fmt.Sprintf("charset=%q names %s by the Encoding Standard (which strips the whitespace around a label) and no encoding in Chromium (which strips none, and decodes the file as the page's UTF-8): the script would read one way here and another there", e.label, e.name)
}

// classicModule refuses, at [off, off+n), a script without type="module" whose code (what) is
// written as an ES module: run as a classic script, it throws.
func (a *assembler) classicModule(off, n int, what string) {
	a.errAt(off, n, fmt.Sprintf("%s is written as an ES module (import, export or import.meta), and a <script> without type=\"module\" runs it as a classic script, which throws", what),
		"add type=\"module\" to the <script>: bundle build then bundles it with what it imports")
}

// style bundles an inline <style>: its local url()s and @imports are inlined by esbuild.
func (a *assembler) style(t *tag, text string, textOff int, end string) string {
	if strings.TrimSpace(text) == "" || !styleSheetElement(t) {
		return string(t.raw) + text + end
	}
	a.handled = append(a.handled, [2]int{textOff, textOff + len(text)})
	c, l := a.inline(text, textOff, api.LoaderCSS)
	a.list = append(a.list, l...)
	// Without the line break esbuild ends its output with, as Vite writes an inline <style>.
	return t.render(nil, nil) + a.hold(escapeStyle(strings.TrimSuffix(c.css, "\n"))) + "</style>"
}

// shift moves esbuild's positions inside inline code (named after the page) to positions in
// the page.
func (a *assembler) shift(l diag.List, textOff int) diag.List {
	// at is the offset, in the page as written, of line:col of the code at textOff.
	at := func(line, col int) int {
		off := textOff
		for k := 1; k < line; k++ {
			j := bytes.IndexByte(a.src[off:], '\n')
			if j < 0 {
				break
			}
			off += j + 1
		}
		return written(a.edits, off+col-1)
	}
	move := func(line, col int) (int, int) {
		var d diag.Message
		d.PlaceIn(a.lines, at(line, col), 1)
		return d.Line, d.Column
	}
	page := a.b.display(a.file)
	for i := range l {
		l[i].Note = shiftNote(l[i].Note, page, move)
		if l[i].File != page || l[i].Line == 0 {
			continue
		}
		if l[i].Line == 1 || a.edits != nil {
			// The code's first line is the rest of the page's line after the start tag, and a
			// value htmlEnv wrote in the code moved what follows it: the message shows the
			// page's line, its caret under the place.
			l[i].PlaceIn(a.lines, at(l[i].Line, l[i].Column), l[i].Length)
			continue
		}
		l[i].Line, l[i].Column = move(l[i].Line, l[i].Column)
	}
	return l
}

// shiftNote moves the places in the inline code of the page that a note names, as
// "(page:line:col)" (see bundler.messages), by move.
func shiftNote(note, page string, move func(line, col int) (int, int)) string {
	prefix := "(" + page + ":"
	var b strings.Builder
	for {
		i := strings.Index(note, prefix)
		if i < 0 {
			break
		}
		rest := note[i+len(prefix):]
		lineText, after, ok1 := strings.Cut(rest, ":")
		colText, tail, ok2 := strings.Cut(after, ")")
		line, err1 := strconv.Atoi(lineText)
		col, err2 := strconv.Atoi(colText)
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			b.WriteString(note[:i+len(prefix)])
			note = rest
			continue
		}
		line, col = move(line, col)
		fmt.Fprintf(&b, "%s%s%d:%d)", note[:i], prefix, line, col)
		note = tail
	}
	return b.String() + note
}

// escapeStyle keeps inline CSS from ending its element: "</style" becomes "<\/style", an
// escape CSS reads as "/".
func escapeStyle(css string) string {
	i := markup.IndexFold(css, "</style")
	if i < 0 {
		return css
	}
	var b strings.Builder
	last := 0
	for i >= 0 {
		b.WriteString(css[last:i] + `<\/`)
		last = i + 2
		j := markup.IndexFold(css[last:], "</style")
		if j < 0 {
			break
		}
		i = last + j
	}
	b.WriteString(css[last:])
	return b.String()
}
