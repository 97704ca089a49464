package pipeline

import (
	"encoding/json"
	"github.com/miniapp/bundle/offline"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
)

// The page's module scripts, as the browser runs them: a document has one module map, so a
// module that two module scripts import is evaluated once and its state is theirs to share,
// and a module script that names a module already evaluated runs nothing (HTML Standard,
// "fetch a single module script": the map is keyed by URL). Bundled one entry a script,
// each bundle holds its own copy of every module it imports; so when a page has two or more
// live module scripts, the build bundles them as one entry (graphSource): esbuild then
// evaluates each module once, in the order the browser does (module scripts without async
// run after parsing, in document order; a module the page names twice is evaluated at its
// first script).
//
// Each member still runs as a script of its own. After each script the browser performs a
// microtask checkpoint (HTML Standard, "clean up after running script"): the promise
// callbacks a script queued, and all they queue in turn, run before the next script starts;
// and a script that throws, or awaits at its top level, does not stop the next one ("run a
// module script" reports the error and does not await the evaluation's promise). One module
// that imports each member would run them back to back, their microtasks after the last, and
// stop at the first that throws. So the graph's entry only defines, under a global symbol
// (graphSymbol), the function that starts the next member (its module's import(), which
// esbuild bundles as a call of the member's lazy init), and runs member 0; every later
// member's element becomes a module script of one line, runner, that starts its member (the
// next) and awaits it: the browser itself runs the members in its order, with its checkpoint after each and
// each one's error reported as the script's own. A member that awaits at its top level keeps
// its runner's evaluation pending, as the page's script was, while the next starts.
//
// The graph's code goes where its first member was; every later member keeps its element,
// its text its runner's (a classic member's runner is a module script put just before its
// element, and the entry runs its code, see classicJS). An async module script joins the graph too: async promises no
// order, neither among scripts nor against parsing. With one that is not async, the graph's
// scripts all wait for parsing, in document order, an order async allows; when every member
// is async, so are the graph's scripts, and a runner that comes before the graph's code waits
// for it (runner).

// moduleGraph is the page's live module scripts that the build bundles as one entry.
type moduleGraph struct {
	members []graphMember
	// at holds the offsets of the members' start tags, index the member of each; first is
	// the first member's, where the graph's code goes.
	at    map[int]bool
	index map[int]int
	first int
	// trusted: the page's own policy requires Trusted Types for scripts (classicJS).
	trusted bool
}

// graphMember is one module script of the graph: a local file (rel, relative to the app
// folder) or code written in the page (inline, whose text starts at textOff).
type graphMember struct {
	rel     string
	inline  *inlineCode
	textOff int
	// classic is, for a classic script with defer (a file: defer does nothing without src),
	// its code minified (bundler.classic), which the graph runs at its turn as a classic
	// script (classicJS); warnings are what minifying it said.
	classic  string
	warnings diag.List
	// typ is the type attribute of a classic member's element, hasType whether it had one;
	// text is the element's text (which a script with src does not run; a page may read it).
	typ, text string
	hasType   bool
	async     bool // a module script with async
}

// allAsync reports whether every member of g is a module script with async.
func (g *moduleGraph) allAsync() bool {
	for _, m := range g.members {
		if m.classic != "" || !m.async {
			return false
		}
	}
	return len(g.members) > 0
}

// oneGraph says the build bundles a page's module scripts as one graph; BenchmarkOneGraph
// clears it for its baseline, each script bundled alone, as builds did before.
var oneGraph = true

// graphKey is what prebuild keeps the graph's code by: no path and no inlineKey is it.
const graphKey = "\x00graph"

// graph returns the page's module graph, read once: its live module scripts that bundle
// (their file found, or code written in the page) when there are two or more; else an empty
// graph, and each module script is bundled alone, as before.
func (a *assembler) graph() *moduleGraph {
	if a.mgraph != nil {
		return a.mgraph
	}
	g := &moduleGraph{at: map[int]bool{}, index: map[int]int{}}
	a.mgraph = g
	if !a.wellFormed() {
		return g
	}
	var members []graphMember
	var at []int
	classics := 0
	for _, e := range a.elements() {
		if e.inert || foreignText(e) || e.n.Name != "script" {
			continue
		}
		t := e.tag()
		if m, ok := a.deferredClassic(t); ok {
			text, _, _, _ := e.text()
			m.text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text) // as the DOM holds it
			members, at = append(members, m), append(at, t.off)
			classics++
			continue
		}
		if u, _, ok := bundledModule(t); ok {
			if rel, _, err := a.locate(u); err == nil {
				members, at = append(members, graphMember{rel: rel, async: t.has("async")}), append(at, t.off)
			}
			continue
		}
		if text, textOff, _, _ := e.text(); a.inlineModule(t, text) {
			members, at = append(members, graphMember{inline: a.pageCode(text, api.LoaderJS), textOff: textOff, async: t.has("async")}), append(at, t.off)
		}
	}
	if len(members) < 2 && classics == 0 || !oneGraph {
		return g
	}
	g.members, g.first = members, at[0]
	for _, p := range a.ownPolicies() {
		g.trusted = g.trusted || slices.Contains(p.d["require-trusted-types-for"], "'script'")
	}
	for i, off := range at {
		g.at[off], g.index[off] = true, i
	}
	return g
}

// deferredClassic returns the graph member of the <script> t when it is a classic script
// file with defer or async: the browser runs a deferred one after parsing, in document order
// with the module scripts, while the document is "interactive"; inlined in place it ran
// before them, during parsing. An async one runs when its file is fetched, which may be then,
// and, like a deferred one, is no parser-blocking script: its document.write is ignored (the
// ignore-destructive-writes counter of an external script), where inlined at the end of
// <body>, a parser-inserted script, it wrote into the page. A file that cannot be read,
// decoded or minified, or that is written as a module, is left to the walk, which says why.
func (a *assembler) deferredClassic(t *tag) (graphMember, bool) {
	src, ok := t.get("src")
	if !ok || a.b == nil || !t.has("defer") && !t.has("async") || scriptKind(t) != offline.ScriptClassic {
		return graphMember{}, false
	}
	u, _, isLocal := local(src.val)
	if !isLocal {
		return graphMember{}, false
	}
	rel, _, err := a.locate(u)
	if err != nil {
		return graphMember{}, false
	}
	p, err := a.m.Resolve(rel)
	var code []byte
	if err == nil {
		code, err = os.ReadFile(p)
	}
	if err == nil {
		code, err = a.scriptEncoding(t, code)
	}
	if err != nil || moduleSyntax(string(code)) {
		return graphMember{}, false
	}
	js, l := a.b.classicFile(string(code), rel)
	if l.HasErrors() || js == "" {
		return graphMember{}, false
	}
	a.classics = append(a.classics, classicScript{rel: rel, text: string(code)})
	tv, hasType := t.get("type")
	return graphMember{rel: rel, classic: js, warnings: l, typ: tv.val, hasType: hasType}, true
}

// classicJS is the function of the graph's entry that runs the classic script code of a
// member when the graph comes to it, classic(code, selector, type, text): in the browser,
// document.currentScript is then the script's own element, with its id, data-* attributes and
// place in the page. That element stays in the built page, emptied, its type the marker
// deferredType(j) (an empty script runs nothing while parsed and is not marked started, HTML
// Standard "prepare the script element"); classic gives the element its type back (type, or
// none when null) and its text: the browser then runs the text at once, in the global scope,
// as the element's own (its hash is in the policy: runnerScripts), and the element gets its
// text in the page back (none, most often). Unlike in the page, while it runs the element has
// no src and its text is the code. An element the page removed meanwhile is not found: the
// code then runs from an element inserted and taken out, as the browser would still run the
// script.
//
// A script's text is a Trusted Types sink: where the page's own policy requires Trusted Types
// for scripts (trusted), a string given to it is refused, so the text goes through a policy
// of the build's, classicPolicy, which the merged policy's trusted-types directive allows
// (mergeOwn). That policy is made by a script of the build's before any script of the page
// runs (trustedRunner), so that its name is the build's alone, as the page's list (or 'none')
// meant every name it does not list: a page script that runs while the page is parsed, before
// the graph, made it first and the graph then failed. The codes are that script's too, and
// the graph starts each by its number (classicCall): the policy passes no other text.
func classicJS(trusted bool) string {
	if trusted {
		return ""
	}
	return "const trust = (s) => s;\n" + classicFunc
}

// classicFunc is the function classic(code, sel, type, text), given trust (see classicJS).
const classicFunc = `const classic = (code, sel, type, text) => {
  const el = document.querySelector(sel);
  if (el) {
    if (type === null) el.removeAttribute("type");
    else el.setAttribute("type", type);
    el.text = trust(code);
    el.text = trust(text);
  } else {
    const s = document.createElement("script");
    s.text = trust(code);
    (document.head || document.documentElement).appendChild(s).remove();
  }
};
`

// trustedSymbol is the key, Symbol.for(trustedSymbol), of the global function by which the
// graph starts a classic member under the page's Trusted Types (trustedRunner).
const trustedSymbol = "miniapp.deferred"

// trustedRunner returns the script the build puts before the page's first script when the
// graph runs classic scripts under the page's Trusted Types (graphTrusts): it makes the
// build's policy, classicPolicy, and defines under trustedSymbol the function that runs the
// graph's classic member j, once, its code given to the policy there; "" when none is needed.
func (a *assembler) trustedRunner() string {
	if !a.graphTrusts() {
		return ""
	}
	var b strings.Builder
	p, _ := json.Marshal(classicPolicy)
	b.WriteString("(() => {\nconst policy = globalThis.trustedTypes?.createPolicy(" + string(p) + ", { createScript: (s) => s });\nconst trust = (s) => policy ? policy.createScript(s) : s;\n")
	b.WriteString(classicFunc)
	b.WriteString("const run = {\n")
	for j, m := range a.graph().members {
		if m.classic != "" {
			b.WriteString("  " + strconv.Itoa(j) + ": () => " + classicCallOf(m, j) + ",\n")
		}
	}
	sym, _ := json.Marshal(trustedSymbol)
	b.WriteString("};\nObject.defineProperty(globalThis, Symbol.for(" + string(sym) + "), { value: (j) => { const f = run[j]; delete run[j]; f?.(); } });\n})();\n")
	return b.String()
}

// graphTrusts reports whether the page's graph makes the Trusted Types policy classicPolicy:
// it runs deferred classic scripts under the page's own Trusted Types.
func (a *assembler) graphTrusts() bool {
	g := a.graph()
	return g.trusted && slices.ContainsFunc(g.members, func(m graphMember) bool { return m.classic != "" })
}

// deferredFiles returns the files of the graph's classic members, as the page names them.
func (a *assembler) deferredFiles() []string {
	var out []string
	for _, m := range a.graph().members {
		if m.classic != "" {
			out = append(out, m.rel)
		}
	}
	return out
}

// classicPolicy is the name of the Trusted Types policy by which the graph runs the page's
// deferred classic scripts under the page's own Trusted Types.
const classicPolicy = "miniapp-deferred"

// classicCall is the graph's call that runs its member j, a classic script: classic's
// (classicJS), or under the page's Trusted Types the runner's (trustedRunner).
func classicCall(m graphMember, j int, trusted bool) string {
	if trusted {
		sym, _ := json.Marshal(trustedSymbol)
		return "globalThis[Symbol.for(" + string(sym) + ")](" + strconv.Itoa(j) + ")"
	}
	return classicCallOf(m, j)
}

// classicCallOf is the call of classic that runs the graph's member j, a classic script.
func classicCallOf(m graphMember, j int) string {
	q, _ := json.Marshal(m.classic)
	sel, _ := json.Marshal(`script[type="` + deferredType(j) + `"]`)
	text, _ := json.Marshal(m.text)
	typ := "null"
	if m.hasType {
		t, _ := json.Marshal(m.typ)
		typ = string(t)
	}
	return "classic(" + string(q) + ", " + string(sel) + ", " + typ + ", " + string(text) + ")"
}

// deferredType is the type the element of the graph's member j, a classic script with defer,
// has in the built page until the graph runs it: a type no browser runs, which no page uses.
func deferredType(j int) string {
	return "miniapp-deferred-" + strconv.Itoa(j)
}

// runnerScripts returns the code of the graph's deferred classic scripts, which the policy
// allows by their hashes.
func (a *assembler) runnerScripts() []pageScript {
	var out []pageScript
	for _, m := range a.graph().members {
		if m.classic != "" {
			out = append(out, pageScript{text: m.classic})
		}
	}
	return out
}

// graphInlineKey is the name in inlineNamespace of the graph's entry, the same whether it is
// built alone or with the page's other entries (entries): esbuild names each module it
// evaluates lazily, as it does the members, by its namespace and path in the bundle, whose
// bytes must not depend on how it was built.
const graphInlineKey = "g"

// graphSymbol is the key, Symbol.for(graphSymbol), of the global function that starts a
// member of the page's module graph; the graph's entry defines it, the runners call it.
const graphSymbol = "miniapp.graph"

// graphSource is the graph's entry: it defines the function that starts the next member, by
// the import() of its wrapper, key.(n+j) for a graph of n members (a module of one static import
// of the member: a file by its path relative to the page's folder dir, as the page names it,
// code written in the page by its name in inlineNamespace, key.j), under graphSymbol, gives
// it to the runners that came first (all async, see runner), and runs member 0, as a runner
// would. The wrappers are in inlineNamespace, whose import() is no lazy import
// (lazyStyles): a member's stylesheets apply from page load, as the page links them.
func graphSource(key string, g *moduleGraph) string {
	var b strings.Builder
	if slices.ContainsFunc(g.members, func(m graphMember) bool { return m.classic != "" }) {
		b.WriteString(classicJS(g.trusted))
	}
	b.WriteString("const run = [\n")
	for j, m := range g.members {
		if m.classic != "" {
			b.WriteString("  () => " + classicCall(m, j, g.trusted) + ",\n")
			continue
		}
		q, _ := json.Marshal(inlineNamespace + ":" + key + "." + strconv.Itoa(len(g.members)+j))
		b.WriteString("  () => import(" + string(q) + "),\n")
	}
	sym, _ := json.Marshal(graphSymbol)
	b.WriteString("];\nconst key = Symbol.for(" + string(sym) + ");\nconst waiting = globalThis[key];\nlet next = 0;\nconst start = () => run[next++]?.();\n" +
		"Object.defineProperty(globalThis, key, { value: start });\n" +
		"if (Array.isArray(waiting)) for (const w of waiting) w(start);\nawait start();\n")
	return b.String()
}

// runner is the text of the module script that runs the graph g's next member (the n-th
// runner in the page runs member n: module scripts without async run in document order): it
// starts the member and awaits it, so that the member's error, thrown or awaited, is the
// script's, reported as the page's script reported it. Every runner of a page has the same
// text, so that the policy holds one hash for them all (a page of 50 module scripts: 49
// hashes fewer). When every member is async the graph's own script may come after a runner,
// which then waits for the graph's code; async promises no order, and the members still run
// in the page's.
func (g *moduleGraph) runner() string {
	sym, _ := json.Marshal(graphSymbol)
	if g.allAsync() {
		return "const key = Symbol.for(" + string(sym) + "), start = globalThis[key];\n" +
			"await (typeof start === \"function\" ? start() : new Promise((w) => (globalThis[key] ??= []).push(w)).then((s) => s()));\n"
	}
	return "await globalThis[Symbol.for(" + string(sym) + ")]();\n"
}

// memberSpec is the specifier, quoted, by which the wrapper of the graph key's member j
// imports it.
func memberSpec(key, dir string, g *moduleGraph, j int) string {
	m := g.members[j]
	spec := inlineNamespace + ":" + key + "." + strconv.Itoa(j)
	if m.inline == nil && m.classic == "" {
		spec = relPath(dir, m.rel)
	}
	q, _ := json.Marshal(spec)
	return string(q)
}

// relPath is the path of rel (relative to the app folder) from the folder dir, as an import
// specifier: "./x.js", "../x.js".
func relPath(dir, rel string) string {
	if dir == "." || dir == "" {
		return "./" + rel
	}
	up := ""
	for d := dir; d != "." && d != "/"; d = path.Dir(d) {
		if p, ok := strings.CutPrefix(rel, d+"/"); ok {
			return "./" + up + p
		}
		up += "../"
	}
	return up + rel
}

// addGraph puts the graph's entry and its members' code in b.inline under key, as entries and
// graphEntry give it to esbuild.
func (b *bundler) addGraph(key, page string, g *moduleGraph) {
	b.inline[key] = inlineCode{contents: graphSource(key, g), name: page, loader: api.LoaderJS, graph: true}
	for j, m := range g.members {
		if m.classic != "" {
			continue // run by the entry itself (classicJS)
		}
		w := "import " + memberSpec(key, path.Dir(page), g, j) + ";\n"
		b.inline[key+"."+strconv.Itoa(len(g.members)+j)] = inlineCode{contents: w, name: page, loader: api.LoaderJS, wraps: key}
		if m.inline != nil {
			b.inline[key+"."+strconv.Itoa(j)] = *m.inline
		}
	}
}

// graphEntry bundles the graph alone, as entries bundles it with the page's other entries;
// its messages are esbuild's, each named by the code it is in (see graphMessages), and
// refused the build's own errors of its code (a module cycle that awaits, cycleawait.go).
func (b *bundler) graphEntry(page string, g *moduleGraph) (c code, warnings, errs []api.Message, refused diag.List) {
	opts := b.options()
	b.inline = map[string]inlineCode{}
	b.addGraph(graphInlineKey, page, g)
	opts.EntryPoints = []string{inlineNamespace + ":" + graphInlineKey}
	res, opts := b.pageBuild(opts)
	if len(res.Errors) > 0 {
		return code{}, nil, res.Errors, nil
	}
	c, l := b.result(res, opts)
	if l.Err() != nil {
		return code{}, nil, nil, l // a names-kept pass's errors, or the build's own
	}
	return c, res.Warnings, nil, nil
}

// graphCode is the code of the graph, from prebuild or bundled now, with its diagnostics at
// their places in the page.
func (a *assembler) graphCode() (code, diag.List) {
	if p, ok := a.prebuilt[graphKey]; ok {
		delete(a.prebuilt, graphKey)
		return p.c, p.l
	}
	c, ws, errs, refused := a.b.graphEntry(a.file, a.graph())
	if refused != nil {
		return c, refused
	}
	if errs != nil {
		return c, a.graphMessages(errs, diag.Error)
	}
	return c, a.graphMessages(ws, diag.Warning)
}

// graphMessages turns esbuild's messages of a graph's build into diagnostics: those in code
// written in the page are placed in the page, at the member they are in.
func (a *assembler) graphMessages(ms []api.Message, sev diag.Severity) diag.List {
	g := a.graph()
	groups := make([][]api.Message, len(g.members)+1) // the last: files of the app
	for _, m := range ms {
		i := len(g.members)
		if m.Location != nil {
			if k, ok := strings.CutPrefix(m.Location.File, inlineNamespace+":"); ok {
				if _, j, ok := strings.Cut(k, "."); ok {
					if n, err := strconv.Atoi(j); err == nil && n >= 0 && n < len(g.members) {
						i = n
					}
				}
			}
		}
		groups[i] = append(groups[i], m)
	}
	out := a.b.messages(groups[len(g.members)], sev)
	for j, grp := range groups[:len(g.members)] {
		if len(grp) > 0 {
			out = append(out, a.shift(a.b.messages(grp, sev), g.members[j].textOff)...)
		}
	}
	return out
}
