package pipeline

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
	"github.com/tdewolff/parse/v2"
	jsparse "github.com/tdewolff/parse/v2/js"
)

// The page's module scripts, as the browser runs them: a document has one module map, so a
// module that two module scripts import is evaluated once and its state is theirs to share,
// and a module script that names a module already evaluated runs nothing (HTML Standard,
// "fetch a single module script": the map is keyed by URL). Bundled one entry a script,
// each bundle holds its own copy of every module it imports; so when a page has two or more
// live module scripts, the build bundles them as one entry, an ES module that imports each
// in the page's order (graphSource): esbuild then evaluates each module once, in the order
// the browser does (module scripts without async run after parsing, in document order; a
// module the page names twice is imported twice and evaluated at its first import).
//
// The graph's code goes where its first script was; every later member keeps its element,
// emptied (with no text and no src, a script runs nothing), so that the page's elements stay
// as written. An async module script joins the graph too: async promises no order, neither
// among scripts nor against parsing, and the one graph runs it in one of the orders the
// browser may choose, with the modules it shares with the page's other scripts shared.

// moduleGraph is the page's live module scripts that the build bundles as one entry.
type moduleGraph struct {
	members []graphMember
	// at holds the offsets of the members' start tags, index the member of each; first is
	// the first module script's (-1 when the graph has none: it goes at the end of <body>).
	at    map[int]bool
	index map[int]int
	first int
	// async is set once a build of the graph showed top-level await in it: the graph is then
	// bundled in the form that lets each member start while one before it awaits (graphSource).
	async bool
}

// graphMember is one module script of the graph: a local file (rel, relative to the app
// folder) or code written in the page (inline, whose text starts at textOff).
type graphMember struct {
	rel     string
	inline  *inlineCode
	textOff int
	// classic is, for a classic script with defer (a file: defer does nothing without src),
	// its code minified (bundler.classic), which the graph runs at its turn as a classic
	// script (classicRunner); warnings are what minifying it said.
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
	g.members, g.first = members, -1
	for i, off := range at {
		g.at[off], g.index[off] = true, i
		if g.first < 0 && members[i].classic == "" {
			g.first = off // the first module script; with none, the graph goes at the end of <body>
		}
	}
	return g
}

// deferredClassic returns the graph member of the <script> t when it is a classic script
// file with defer (and not async, which wins): the browser runs it after parsing, in document
// order with the module scripts, while the document is "interactive"; inlined in place it ran
// before them, during parsing. A file that cannot be read, decoded or minified, or that is
// written as a module, is left to the walk, which says why.
func (a *assembler) deferredClassic(t *tag) (graphMember, bool) {
	src, ok := t.get("src")
	typ := scriptType(t)
	if !ok || a.b == nil || !t.has("defer") || t.has("async") || typ != "" && typ != "text/javascript" && typ != "application/javascript" {
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
	js, l := a.b.classic(string(code), rel)
	if l.HasErrors() || js == "" {
		return graphMember{}, false
	}
	tv, hasType := t.get("type")
	return graphMember{rel: rel, classic: js, warnings: l, typ: tv.val, hasType: hasType}, true
}

// classicRunner is the module that runs the classic script code of member j when the graph
// comes to it: in the browser, document.currentScript is then the script's own element, with
// its id, data-* attributes and place in the page. That element stays in the built page,
// emptied, its type the marker deferredType(j) (an empty script runs nothing while parsed and
// is not marked started, HTML Standard "prepare the script element"); the runner gives the
// element its type back (typ, or none when it had none) and its text: the browser then runs
// the text at once, in the global scope, as the element's own (its hash is in the policy:
// runnerScripts), and the element gets its text in the page back (none, most often). Unlike
// in the page, while it runs the element has no src and its text is the code. An element the page removed meanwhile is
// not found: the code then runs from an element inserted and taken out, as the browser would
// still run the script.
func classicRunner(m graphMember, j int) string {
	q, _ := json.Marshal(m.classic)
	sel, _ := json.Marshal(`script[type="` + deferredType(j) + `"]`)
	text, _ := json.Marshal(m.text)
	restore := `el.removeAttribute("type");`
	if m.hasType {
		t, _ := json.Marshal(m.typ)
		restore = `el.setAttribute("type", ` + string(t) + `);`
	}
	return "const code = " + string(q) + ";\nconst el = document.querySelector(" + string(sel) + ");\n" +
		"if (el) {\n  " + restore + "\n  el.text = code;\n  el.text = " + string(text) + ";\n} else {\n" +
		"  const s = document.createElement(\"script\");\n  s.text = code;\n  (document.head || document.documentElement).appendChild(s).remove();\n}\n"
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

// graphSource is the entry that imports each member of the graph in order: a file by its
// path relative to the page's folder dir (as the page names it, so that it resolves as the
// browser resolves the script's src), code written in the page by its name in
// inlineNamespace, key.j for the j-th member of the graph whose own name is key.
//
// A graph with top-level await (g.async) is written otherwise. In the browser each module
// script is evaluated on its own: one that awaits at its top level has run up to its await
// when the next one starts, and the next does not wait for it (HTML Standard, "run a module
// script" does not await the evaluation's promise); an entry that imports the members
// statically is one module, which waits at the first member's await before it evaluates the
// next. So each member j is imported by a wrapper of its own, key.(n+j) for a graph of n
// members, that awaits after it, "import member; await 0;": every wrapper is then an async
// module, and the entry imports the wrappers with import() in order, which esbuild bundles as
// a call of each wrapper's init, in order and at once (not deferred to a microtask, as it
// does a module without top-level await): each member runs until it ends or awaits, then the
// next starts, as in the page; a module two members import is still evaluated once, and a
// member that imports a module still awaiting waits for it, as the module map has it.
func graphSource(key, dir string, g *moduleGraph) string {
	var b strings.Builder
	for j := range g.members {
		if g.async {
			q, _ := json.Marshal(inlineNamespace + ":" + key + "." + strconv.Itoa(len(g.members)+j))
			b.WriteString("import(" + string(q) + ");\n")
			continue
		}
		b.WriteString("import " + memberSpec(key, dir, g, j) + ";\n")
	}
	return b.String()
}

// memberSpec is the specifier, quoted, by which the graph key's entry (or its wrapper) imports
// its member j.
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
	b.inline[key] = inlineCode{contents: graphSource(key, path.Dir(page), g), name: page, loader: api.LoaderJS, graph: true}
	if g.async {
		for j := range g.members {
			w := "import " + memberSpec(key, path.Dir(page), g, j) + ";\nawait 0;\n"
			b.inline[key+"."+strconv.Itoa(len(g.members)+j)] = inlineCode{contents: w, name: page, loader: api.LoaderJS, wraps: key}
		}
	}
	for j, m := range g.members {
		switch {
		case m.inline != nil:
			b.inline[key+"."+strconv.Itoa(j)] = *m.inline
		case m.classic != "":
			b.inline[key+"."+strconv.Itoa(j)] = inlineCode{contents: classicRunner(m, j), name: page, loader: api.LoaderJS}
		}
	}
}

// graphEntry bundles the graph alone, as entries bundles it with the page's other entries;
// its messages are esbuild's, each named by the code it is in (see graphMessages).
func (b *bundler) graphEntry(page string, g *moduleGraph) (code, []api.Message, []api.Message) {
	opts := b.options()
	b.inline = map[string]inlineCode{}
	b.addGraph("0", page, g)
	opts.EntryPoints = []string{inlineNamespace + ":0"}
	res, opts := b.pageBuild(opts)
	if len(res.Errors) > 0 {
		return code{}, nil, res.Errors
	}
	if !g.async && outputAwaits(res, "") {
		g.async = true // before result records what the build read: it is built again
		return b.graphEntry(page, g)
	}
	c, l := b.result(res, opts)
	if l.Err() != nil {
		return code{}, nil, nil // cannot be: result only fails on errors
	}
	return c, res.Warnings, nil
}

// graphCode is the code of the graph, from prebuild or bundled now, with its diagnostics at
// their places in the page.
func (a *assembler) graphCode() (code, diag.List) {
	if p, ok := a.prebuilt[graphKey]; ok {
		delete(a.prebuilt, graphKey)
		return p.c, p.l
	}
	c, ws, errs := a.b.graphEntry(a.file, a.graph())
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

// outputAwaits reports whether the script esbuild wrote for the entry whose output is named
// stem (any, "" in a build of one entry) awaits at its top level.
func outputAwaits(res api.BuildResult, stem string) bool {
	for _, f := range res.OutputFiles {
		if name := filepath.Base(f.Path); stem == "" && strings.HasSuffix(name, ".js") || name == stem+".js" {
			return topLevelAwait(string(f.Contents))
		}
	}
	return false
}

// topLevelAwait reports whether the bundle js awaits at its top level (an await expression or
// a for await outside every function), as tdewolff/parse's JavaScript parser reads it.
func topLevelAwait(js string) bool {
	if !strings.Contains(js, "await") {
		return false
	}
	ast, err := jsparse.Parse(parse.NewInputString(js), jsparse.Options{})
	if err != nil {
		return false
	}
	v := &awaitFinder{}
	jsparse.Walk(v, ast)
	return v.found
}

// awaitFinder walks a module's top level, not into functions, for an await.
type awaitFinder struct{ found bool }

func (v *awaitFinder) Enter(n jsparse.INode) jsparse.IVisitor {
	switch n := n.(type) {
	case *jsparse.FuncDecl, *jsparse.ArrowFunc, *jsparse.MethodDecl:
		return nil
	case *jsparse.UnaryExpr:
		v.found = v.found || n.Op == jsparse.AwaitToken
	case *jsparse.ForOfStmt:
		v.found = v.found || n.Await
	}
	if v.found {
		return nil
	}
	return v
}

func (v *awaitFinder) Exit(jsparse.INode) {}
