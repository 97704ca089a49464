package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// The source transforms run on the app's own scripts (not on node_modules), before esbuild
// bundles them, for what Vite supports and esbuild does not. They read each script as
// esbuild parses it (jsread.go), so that comments, strings, line breaks and trailing commas
// never change what they do:
//
//   - new URL('<literal>', import.meta.url): the file as a data: URL (a blob: URL for a
//     script); a template literal with substitutions (`./img/${name}.png`) becomes a glob
//     of the files it may name, as Vite makes it;
//   - new Worker(new URL(…, import.meta.url), options) and new SharedWorker(…): the file
//     bundled on its own (workers.go) and started from a blob: URL;
//   - import.meta.glob(patterns, options): the object Vite builds (glob.go);
//   - import() of a template literal with substitutions (`./locale/${lang}.json?raw`): a
//     glob of the files it may name, looked up when the call runs, as Vite's
//     dynamic-import-vars does (a name that is not there rejects the promise);
//   - a literal URL given to fetch, WebSocket or EventSource on an origin the manifest's
//     allowedDomains does not list, a local URL given to fetch, postMessage to "*", and
//     process.env.NAME other than NODE_ENV: a warning at its place; eval and new Function:
//     an error, unless the manifest says eval = true.
//
// A call of these forms that bundle cannot transform (a URL held in a variable, a pattern
// that is not a literal) is an error at its place that says what to write, unless a
// /* @vite-ignore */ comment in it says to leave it, as in Vite. What the transforms add
// replaces the call in place with as many line breaks as it had, or goes after the file's
// last line (imports are hoisted), so that every line keeps its number for esbuild's
// messages.

// scriptFile matches the files loadScript loads.
var scriptFile = regexp.MustCompile(`\.([mc]?[jt]sx?)$`)

// mayTransform finds what the transforms and the checks look at; a script without any of it
// is not read. It is a filter only: the decision is the parse's.
var mayTransform = regexp.MustCompile(`__bundle_define_|__miniapp_|\\u|meta|Worker|fetch|WebSocket|EventSource|postMessage|process|eval|Function|setTimeout|setInterval|createElement|HTML|createContextualFragment|parseFromString|write|srcdoc|setAttribute|location|open|(?i:javascript)|(?i:\son[a-z]+\s*=\s*[^{\s])|(?i:<script)|[\x22\x27\x60]on[a-z]+[\x22\x27\x60]|\bimport\s*[(/]|currentScript|\b(with|assert)\s*\{`)

// viteIgnore is the comment with which Vite leaves a call as written.
var viteIgnore = regexp.MustCompile(`/\*\s*@vite-ignore\s*\*/`)

// loadScript loads a script the confine plugin has let through: a package's module as
// esbuild would (it reads it), one of the app's with the source transforms applied.
func (b *bundler) loadScript(path string, resolve func(string, api.ResolveOptions) api.ResolveResult, chain workerChain) (api.OnLoadResult, error) {
	if strings.Contains(filepath.ToSlash(path), "/node_modules/") {
		if src, err := os.ReadFile(path); err == nil {
			if msgs := b.globsOutside(path, string(src), b.loaderFor(path), false); len(msgs) > 0 {
				return api.OnLoadResult{Errors: msgs}, nil
			}
		}
		if l := b.loaderFor(path); (l == api.LoaderJSX || l == api.LoaderTSX) && b.solidJSX() {
			// A Solid library's JSX (its "solid" condition's source, or its only code), which
			// vite-plugin-solid compiles in node_modules too.
			c, msgs := b.compileSolid(path, l == api.LoaderTSX)
			if msgs != nil {
				return api.OnLoadResult{Errors: msgs}, nil
			}
			return b.compiled(path, c, resolve, chain)
		}
		return b.loadPackageModule(path, resolve), nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return api.OnLoadResult{}, nil // esbuild reports it
	}
	loader := b.loaderFor(path)
	if (loader == api.LoaderJSX || loader == api.LoaderTSX) && b.solidJSX() {
		c, msgs := b.compileSolid(path, loader == api.LoaderTSX)
		if msgs != nil {
			return api.OnLoadResult{Errors: msgs}, nil
		}
		return b.compiled(path, c, resolve, chain)
	}
	out, errs, warnings := b.appScript(path, path, string(src), loader, resolve, chain)
	if b.sourcemap && out != "" {
		b.written.Store(path, string(src))
	} else {
		b.written.Delete(path) // a bundle dev session's file that no longer needs them
	}
	if p := b.projectOf(path); p != nil && p.compile != "" {
		// A project of its own, whose compiler options esbuild's one tsconfig would not give.
		code := out
		if code == "" {
			code = string(src)
		}
		js, cerrs := b.projectCompile(p, path, code, b.loaderFor(path))
		if len(cerrs) > 0 {
			return api.OnLoadResult{Errors: append(errs, cerrs...), Warnings: warnings}, nil
		}
		return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS, Errors: errs, Warnings: warnings}, nil
	}
	// (Where esbuild reads the file as a module already, the mark changes nothing; TypeScript's
	// export = is CommonJS's, so a TypeScript or JSX file is marked only with no such word.)
	// A .cjs or .cts file is CommonJS by its name, as Node and Vite read it.
	ext := strings.ToLower(filepath.Ext(path))
	// A worker's entry is left: a classic worker's is a script.
	entry := len(chain) > 0 && chain[len(chain)-1] == path
	esm := !entry && ext != ".cjs" && ext != ".cts" && !usesCommonJS(string(src)) && (loader == api.LoaderJS || !containsWord(string(src), "import", "export"))
	if out == "" && len(errs) == 0 && !esm {
		return api.OnLoadResult{Warnings: warnings}, nil
	}
	if out == "" {
		out = string(src)
	}
	if esm {
		b.marked.Store(path, markedSource{src: string(src), loader: loader})
		out += moduleMark
	} else {
		b.marked.Delete(path)
	}
	return api.OnLoadResult{Contents: &out, Loader: loader, Errors: errs, Warnings: warnings}, nil
}

// markedSource is an app script the build ended with moduleMark: its source as written and
// its loader.
type markedSource struct {
	src    string
	loader api.Loader
}

// pastSource gives m, which esbuild placed at line (1-based) of the app script name, for the
// source as written when that line is past the source's last (ok), in the module mark the
// build appended: a last line left open (a call, an array, a string or a comment) runs on
// into the mark, where esbuild said `Unexpected ";"` on a line the file does not have, showing
// bundle's code. What esbuild says of the source as written is said instead, at its place
// (Unexpected end of file, at the end of the last line); where it says nothing, m at the end
// of the last line.
func (b *bundler) pastSource(name string, line int, m api.Message) (api.Message, bool) {
	v, ok := b.marked.Load(b.editKey(name))
	if !ok {
		return m, false
	}
	ms := v.(markedSource)
	if line <= strings.Count(ms.src, "\n")+1 {
		return m, false
	}
	if r := api.Transform(ms.src, api.TransformOptions{Loader: ms.loader, Sourcefile: name, LogLevel: api.LogLevelSilent}); len(r.Errors) > 0 && r.Errors[0].Location != nil {
		return r.Errors[0], true
	}
	last := ms.src[strings.LastIndexByte(ms.src, '\n')+1:]
	m.Location = &api.Location{File: name, Line: strings.Count(ms.src, "\n") + 1, Column: len(last), LineText: last}
	return m, true
}

// moduleMark ends a script file of the page's that reads none of CommonJS's names
// (usesCommonJS): what a module script imports, or
// names, is an ES module in the browser (and in Vite) whatever it holds, but esbuild reads such
// a file as CommonJS once import() reaches it (the graph reaches every module script so) or
// its top level reads this, and wraps it: its top-level this was the wrapper's exports
// object, not undefined, and a file that threw ran again at the next import(), where the
// browser evaluates a module once and every import() rejects with its error (lazythrow). An
// empty export makes it an ES module for esbuild too, and exports nothing. Not a worker's
// entry, which may be a classic script (the files it imports are modules).
const moduleMark = "\n;export {};\n"

// appScript applies to a script of the app's own (a file, or an inline module script of the
// page, whose file is the page) the source transforms, the checks, and the rewriting of
// barrel imports with the build's resolver. out is "" when src is left as it is.
func (b *bundler) appScript(file, name, src string, loader api.Loader, resolve func(string, api.ResolveOptions) api.ResolveResult, chain workerChain) (out string, errs, warnings []api.Message) {
	b.noteDefaultImports(file, src)
	out, errs, warnings = b.transform(file, name, src, loader, chain, resolve)
	errs = append(errs, b.globsOutside(file, src, loader, true)...)
	base := out
	if base == "" {
		base = src
	}
	if !b.m.Build.RewriteBarrels() {
		resolve = nil
	}
	ns := "file"
	if name != file {
		ns = inlineNamespace
	}
	if r := b.rewriteBarrelImports(file, ns, base, resolve); r != "" {
		out = r
	}
	return out, errs, warnings
}

// loaderFor is the loader esbuild would pick for a script.
func (b *bundler) loaderFor(p string) api.Loader {
	ext := strings.ToLower(filepath.Ext(p))
	if l, ok := b.m.Build.Loader[ext]; ok {
		return loaderNames[l]
	}
	switch ext {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	}
	return api.LoaderJS
}

// edit replaces [start, end) of the source.
type edit struct {
	start, end int
	text       string
}

// rewrite is the work of the transforms on one script: its edits, the imports added after
// its last line, and its messages.
type rewrite struct {
	b     *bundler
	file  string
	s     *script
	chain workerChain
	edits []edit
	tail  strings.Builder
	// tailPlaces are the imports written in tail for a literal of the source (new URL's),
	// by which a message esbuild gives at one is placed at the literal (placeInSource).
	tailPlaces []tailPlace
	n          int
	helper     bool // the dynamic import helper is added
	task       bool // the helper that waits a task, for import() (afterTaskHelper), is added
	errs       []api.Message
	warns      []api.Message
	claimed    int // significant tokens before this one belong to a call already transformed
	// notBindings are the offsets of names that are no binding (notBindings), read when a
	// reserved name is met.
	notBindings map[int]bool
	bound       map[string]importBinding // the names the script imports (hostframe.go)
	// metaArg holds the significant tokens that start import.meta.url as the second
	// argument of new URL(…), which bareMeta leaves.
	metaArg map[int]bool
	// classic are the edits that hold in a classic script too (what needs no import and no
	// module: Function("return this")() as globalThis), made there before it is minified.
	classic []edit
	// classicScript: whether the script is a classic script of the page (minified, not
	// bundled), written in the page or a file.
	classicScript classicKind
	// resolve is esbuild's resolver for the script's imports (nil where none is at hand),
	// modules the app's modules it read through it (importedsinks.go).
	resolve resolveFunc
	modules map[string]*script
	// seed holds what another module's call gives the parameters of the function it imports
	// from this one, found the first sink it reaches that holds what the policy blocks.
	seed  map[int]paramVal
	found *seedFinding
	// seeds counts the seeded readings this one is read within: a module's function that
	// gives its parameter to a third module's is read into that one in turn (maxSeedDepth).
	seeds       int
	seedImports bool // checkSeededImport's reading
	// escapes are the uses of its module objects that go where the build does not follow
	// them (unreadcallee.go), read once.
	escapes *[]escapeUse
}

// classicKind says whether a script transformed is a classic script of the page, and which.
type classicKind int

const (
	notClassic    classicKind = iota // a module (or a worker's code)
	classicInline                    // a classic script written in the page
	classicFileOf                    // a classic script file of the app a <script src> names
)

// ownSrc refuses, at the significant token i, a read of document.currentScript's src in a
// classic script file: the file's URL in the page as written (as libraries find the files
// beside them), "" in the built page, where the script is inline, as import.meta.url is
// refused in a module file.
func (r *rewrite) ownSrc(i int) {
	s := r.s
	at := -1
	switch {
	case s.is(i, "currentScript", ".", "src"), s.is(i, "currentScript", "?.", "src"):
		at = i + 2
	case s.is(i, "currentScript", ".", "getAttribute", "("), s.is(i, "currentScript", "?.", "getAttribute", "("):
		if args := s.args(i + 3); len(args) > 0 && args[0][1] == args[0][0]+1 {
			if v, err := s.str(args[0][0]); err == nil && strings.EqualFold(v, "src") {
				at = args[0][0]
			}
		}
	}
	if at < 0 || r.classicScript != classicFileOf || s.is(i-1, ".") && !s.is(i-2, "document") {
		return
	}
	if s.is(at+1, "=") {
		return // written, not read
	}
	r.errAt(at, "document.currentScript.src is this script file's URL, which the built page, where the script is inline, does not have (it reads \"\")",
		"write the URLs it needs, or load the files it locates by import in a module script (new URL(\"./x.png\", import.meta.url) names a file beside the module, which bundle inlines)")
}

// publicSpec reports whether spec, an absolute path, names a file of the public folder (a
// module import of which is its URL, not its code).
func (r *rewrite) publicSpec(spec string) bool {
	_, public := r.b.publicFile(spec)
	return strings.HasPrefix(spec, "/") && public
}

// transform rewrites src (the app script file, read with loader); out is "" when there is
// nothing to rewrite. Warnings are the checks' (scriptChecks). What it did is kept by name, the
// name esbuild's messages give the module (editKey): file's path, or inlineNamespace:N for
// code written in the page, of which one build may load several at once.
func (b *bundler) transform(file, name, src string, loader api.Loader, chain workerChain, resolve resolveFunc) (out string, errs, warnings []api.Message) {
	out, _, errs, warnings = b.transformed(file, name, src, loader, chain, resolve, notClassic)
	return out, errs, warnings
}

// transformed is transform, and classic: src with the edits alone that hold in a classic
// script, which is minified, not bundled (rewrite.classic), or "" when there are none.
func (b *bundler) transformed(file, name, src string, loader api.Loader, chain workerChain, resolve resolveFunc, classicScript classicKind) (out, classic string, errs, warnings []api.Message) {
	b.edited.Delete(name)
	if resolve != nil {
		b.moduleGlobals.Delete(name) // a module read again: its calls of globals as they are now
	}
	if !mayTransform.MatchString(src) && !mayRoute.MatchString(src) && !b.mayNamePublic(src) {
		if resolve != nil && mayGiveGlobal(src) {
			// Nothing to rewrite, but the globals it gives the page's other scripts' calls.
			if s, _ := readScript(file, src, loader); s != nil {
				b.noteModuleGlobals(file, name, s)
			}
		}
		return "", "", nil, nil
	}
	s, err := readScript(file, src, loader)
	if err != nil {
		return "", "", []api.Message{{Text: fmt.Sprintf("bundle could not read %s for its source transforms: %v", filepath.Base(file), err),
			Location: &api.Location{File: file}, Notes: []api.Note{{Text: "this is bundle's failure, not the app's: report it with the file"}}}}, nil
	}
	if s == nil {
		return "", "", nil, nil // a syntax error: esbuild's parse reports it
	}
	r := &rewrite{b: b, file: file, s: s, chain: chain, resolve: resolve, classicScript: classicScript}
	if resolve != nil {
		b.noteModuleGlobals(file, name, s)
	}
	for i := range s.sig {
		if i < r.claimed {
			continue
		}
		switch {
		case s.is(i, "import", ".", "meta", ".", "glob"):
			r.glob(i)
		case s.is(i, "new") && (s.is(i+1, "Worker", "(") || s.is(i+1, "SharedWorker", "(")):
			r.worker(i)
		case s.is(i, "new", "URL", "("):
			if args, ok := r.newURLArgs(i); ok {
				if r.metaArg == nil {
					r.metaArg = map[int]bool{}
				}
				r.metaArg[args[1][0]] = true
			}
			r.newURL(i)
		case s.is(i, "import", ".", "meta", ".", "url") || s.is(i, "import", ".", "meta", ".", "resolve") ||
			s.is(i, "import", ".", "meta", "?.", "url") || s.is(i, "import", ".", "meta", "?.", "resolve"):
			r.bareMeta(i)
		case s.is(i, "import", ".", "meta") && !s.is(i+3, ".") && !s.is(i+3, "?."):
			r.wholeMeta(i)
		case s.tok(i).tt == js.ImportToken && s.is(i+1, "(") && !s.is(i-1, ".") && !s.is(i-1, "?.") && !r.notBinding(i):
			// A method named import ({ import(t) { … } }, a class's) is no import().
			r.dynamicImport(i)
		case s.tok(i).tt == js.StringToken && (s.is(i-1, "from") || s.is(i-1, "import")):
			r.jsonAttributes(i)
		}
		r.ownSrc(i)
		r.reservedName(i)
		r.check(i)
		r.router(i)
		r.publicRef(i)
	}
	if len(r.classic) > 0 {
		classic = applyEdits(src, r.classic)
	}
	if len(r.edits) == 0 && r.tail.Len() == 0 {
		return "", classic, r.errs, r.warns
	}
	// In the order of the source: a call's edits inside it (the specifier of an import()
	// given after a task) come after its start's.
	slices.SortStableFunc(r.edits, func(x, y edit) int { return x.start - y.start })
	var b2 strings.Builder
	last := 0
	var applied []edit
	for _, e := range r.edits {
		if e.start < last {
			continue // inside a call already rewritten
		}
		b2.WriteString(src[last:e.start] + e.text)
		last = e.end
		applied = append(applied, e)
	}
	b2.WriteString(src[last:])
	tailStart := b2.Len()
	defer func() {
		b.edited.Store(name, sourceEdits{src: src, out: out, edits: applied, tailStart: tailStart, tailPlaces: r.tailPlaces})
	}()
	// The helpers are imported from a module of their own, whose globals (Promise,
	// MessageChannel, Error) are the platform's: written into the app's module, they read the
	// app's own bindings of those names (a chat's MessageChannel class, an Error component).
	if r.helper {
		r.imp("{ "+dynamicImportHelper+" }", helperNamespace+":dynamic-import")
	}
	if r.task {
		r.imp("{ "+afterTaskHelper+" }", helperNamespace+":task")
	}
	b2.WriteString(r.tail.String())
	out = b2.String()
	return out, classic, r.errs, r.warns
}

// sourceEdits is what the transforms did to an app script: its source, their output, and
// their edits, by which a message esbuild gives at a place of the output is placed in the
// source as written (placeInSource).
type sourceEdits struct {
	src, out string
	edits    []edit
	// tailStart is where the imports the transforms add begin in out; tailPlaces place
	// those written for a literal of the source.
	tailStart  int
	tailPlaces []tailPlace
}

// tailPlace is an import the transforms wrote after the source, at [start, end) of their
// tail, of spec, for the literal at the source's offset at, n bytes long.
type tailPlace struct {
	start, end, at, n int
	spec              string
}

// placeInSource places the message esbuild gave at line and column (0-based, in bytes) of
// the transforms' output of the module esbuild calls name in the source as written: the
// line, the line's text and the column there (a place inside an edit's text is the edit's
// start; in an import the transforms added for a literal, the literal's, n its length and
// spec the specifier the import was written with, else 0 and ""). ok is false where the
// output line is not lineText (the script was rewritten again after the transforms).
func (b *bundler) placeInSource(name string, line, col int, lineText string) (outLine, outCol, n int, text, spec string, ok bool) {
	v, ok := b.edited.Load(b.editKey(name))
	if !ok {
		return 0, 0, 0, "", "", false
	}
	se := v.(sourceEdits)
	start := lineStart(se.out, line)
	if start < 0 || !strings.HasPrefix(se.out[start:], lineText) || start+len(lineText) < len(se.out) && se.out[start+len(lineText)] != '\n' && se.out[start+len(lineText)] != '\r' {
		return 0, 0, 0, "", "", false
	}
	at, delta := start+col, 0
	if at >= se.tailStart {
		for _, p := range se.tailPlaces {
			if t := at - se.tailStart; t >= p.start && t < p.end && p.at <= len(se.src) {
				ls := strings.LastIndexByte(se.src[:p.at], '\n') + 1
				le := strings.IndexAny(se.src[ls:], "\r\n")
				if le < 0 {
					le = len(se.src) - ls
				}
				return strings.Count(se.src[:ls], "\n") + 1, p.at - ls, p.n, se.src[ls : ls+le], p.spec, true
			}
		}
	}
	orig := -1
	for _, e := range se.edits {
		ts := e.start + delta
		if at < ts {
			break
		}
		if at < ts+len(e.text) {
			orig = e.start
			break
		}
		delta += len(e.text) - (e.end - e.start)
	}
	if orig < 0 {
		orig = at - delta
	}
	if orig > len(se.src) {
		return 0, 0, 0, "", "", false
	}
	ls := strings.LastIndexByte(se.src[:orig], '\n') + 1
	if strings.Count(se.src[:ls], "\n")+1 != line {
		return 0, 0, 0, "", "", false // an edit moved the line (a call over several lines)
	}
	le := strings.IndexAny(se.src[ls:], "\r\n")
	if le < 0 {
		le = len(se.src) - ls
	}
	return line, orig - ls, 0, se.src[ls : ls+le], "", true
}

// asWritten is the message text of an import the transforms wrote with spec for a literal
// (its source, quotes included), quoting what the author wrote between the quotes where the
// text quotes spec, with or without its query: new URL('./%2e%2e/x.png?v=1', import.meta.url)
// is refused as "./%2e%2e/x.png?v=1", not as the "./../x.png" the build resolved for it.
func asWritten(text, spec, literal string) string {
	if len(literal) < 2 {
		return text
	}
	noQuery, _, _ := strings.Cut(spec, "?")
	for _, q := range []string{spec, noQuery} {
		if quoted := strconv.Quote(q); strings.Contains(text, quoted) {
			return strings.Replace(text, quoted, `"`+literal[1:len(literal)-1]+`"`, 1)
		}
	}
	return text
}

// editKey is the key transform keeps its edits by for the module esbuild's messages name:
// the inline name itself for code written in the page, the file's path otherwise.
func (b *bundler) editKey(name string) string {
	if _, ok := b.inlineName(name); ok {
		return name
	}
	return b.abs(name)
}

// lineStart returns the offset of the 1-based line in text, or -1.
func lineStart(text string, line int) int {
	off := 0
	for n := 1; n < line; n++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// helperNamespace is the esbuild namespace of the modules of the transforms' helpers
// (helperModules), which a transformed script imports as helperNamespace:name.
const helperNamespace = "miniapp-helper"

// helperModules are the helpers' modules, by name: in a module of their own, the names they
// read are the platform's, whatever the app's module that imports them binds.
var helperModules = map[string]string{
	"task": "export function " + afterTaskHelper + "() { return new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = () => { c.port1.close(); resolve(); }; c.port2.postMessage(null); }); }\n",
	"dynamic-import": "import { " + afterTaskHelper + " } from \"" + helperNamespace + ":task\";\n" +
		"export function " + dynamicImportHelper + "(glob, path, segs) { const v = glob[path]; if (v) return typeof v === \"function\" ? " + afterTaskHelper + "().then(v) : Promise.resolve(v); " +
		"return new Promise((_, reject) => queueMicrotask(() => reject(new Error(\"Unknown variable dynamic import: \" + path + (path.split(\"/\").length !== segs ? \". Note that variables only represent file names one level deep.\" : \"\"))))); }\n",
}

// afterTaskHelper is the function whose promise resolves in a task of its own (a message on
// a MessageChannel, which no timer clamping or throttling delays), after which an import() of
// the app's runs. The browser evaluates the module an import() names, and resolves the
// promise, no earlier than a later task: a module not yet fetched after its fetch's tasks,
// and in Chromium one already evaluated too (the module map's entry notifies its client in a
// posted task), as Vite's build, whose import() fetches the module's chunk file, does. In the
// bundle the module is there already and esbuild's import() is a promise of the bundle's,
// resolved in microtasks: a script's import() then ran before what the page does between
// tasks (the load event, a timer, an event), which saw it done (dynstatic).
const afterTaskHelper = "__miniapp_afterTask"

// dynamicImportHelper is the function that looks a variable dynamic import up in its glob.
const dynamicImportHelper = "__miniapp_dynamicImport"

func (r *rewrite) ident() string { r.n++; return fmt.Sprintf("__miniapp_%d", r.n) }

// imp adds `import clause from spec` after the last line.
func (r *rewrite) imp(clause, spec string) {
	fmt.Fprintf(&r.tail, "\nimport %s from %s;", clause, jsString(spec))
}

// impAt is imp for the literal at the significant token lit: a message esbuild gives at the
// import is placed there.
func (r *rewrite) impAt(clause, spec string, lit int) {
	start := r.tail.Len()
	r.imp(clause, spec)
	if at, end, ok := r.span(lit, lit); ok {
		r.tailPlaces = append(r.tailPlaces, tailPlace{start, r.tail.Len(), at, end - at, spec})
	}
}

// span returns the source's [start, end) of the significant tokens [i, close]: a call from
// its first token to its closing parenthesis, or one argument.
func (r *rewrite) span(i, close int) (int, int, bool) {
	start, ok := r.s.exact(i)
	if !ok {
		if start, ok = r.s.srcAt(i); !ok {
			return 0, 0, false
		}
	}
	if r.s.tok(close).tt == js.CloseParenToken {
		if end, ok := r.s.exact(close); ok && end >= start {
			return start, end + 1, true
		}
		end, ok := srcCallEnd(r.s.src, start)
		return start, end, ok
	}
	end, ok := srcExprEnd(r.s.src, start, r.s.toks[r.s.sig[i]].tt)
	return start, end, ok
}

// replace replaces the source of the significant tokens [i, close] with text, keeping their
// line breaks.
func (r *rewrite) replace(i, close int, text string) bool {
	start, end, ok := r.span(i, close)
	if !ok {
		r.errAt(i, "bundle could not find where this call ends in the source", "this is bundle's failure, not the app's: report it with the file")
		return false
	}
	r.replaceSpan(start, end, close, text)
	return true
}

// replaceSpan replaces the source [start, end), which ends with the significant token close,
// with text, keeping its line breaks.
func (r *rewrite) replaceSpan(start, end, close int, text string) {
	text += strings.Repeat("\n", strings.Count(r.s.src[start:end], "\n"))
	r.edits = append(r.edits, edit{start, end, text})
	r.claimed = max(r.claimed, close+1)
}

// errAt reports an error at the significant token i.
func (r *rewrite) errAt(i int, text, note string) {
	off, _ := r.s.srcAt(i)
	r.errs = append(r.errs, *at(r.file, r.s.src, off, text, note))
}

// warnAt reports a warning at the source offset off, length n.
func (r *rewrite) warnAt(off, n int, text, note string) {
	w := at(r.file, r.s.src, off, text, note)
	w.Location.Length = n
	r.warns = append(r.warns, *w)
}

// ignored reports whether the call whose '(' is the significant token open holds a
// /* @vite-ignore */ comment.
func (r *rewrite) ignored(open int) bool {
	close := r.s.pair[open]
	if close < 0 {
		return false
	}
	for k := open; k < close; k++ {
		if viteIgnore.MatchString(r.s.comments(k, k+1)) {
			return true
		}
	}
	return false
}

// isImportMetaURL reports whether the significant tokens [i, j) are import.meta.url.
func (r *rewrite) isImportMetaURL(i, j int) bool {
	return j == i+5 && r.s.is(i, "import", ".", "meta", ".", "url")
}

// newURLArgs reads new URL(url, import.meta.url) at the significant token i ("new"): the
// arguments, and whether the call is of that form.
func (r *rewrite) newURLArgs(i int) ([][2]int, bool) {
	if !r.s.is(i, "new", "URL", "(") {
		return nil, false
	}
	args := r.s.args(i + 2)
	if len(args) != 2 || !r.isImportMetaURL(args[1][0], args[1][1]) {
		return nil, false
	}
	return args, true
}

// newURL transforms new URL(url, import.meta.url) at the significant token i.
func (r *rewrite) newURL(i int) {
	args, ok := r.newURLArgs(i)
	if !ok || r.ignored(i+2) {
		return
	}
	close := r.s.pair[i+2]
	a := args[0]
	if t := r.s.tok(a[0]); a[1] == a[0]+1 && (t.tt == js.StringToken || t.tt == js.TemplateToken) {
		lit, _ := r.s.str(a[0])
		if strings.HasPrefix(lit, "data:") {
			return // already a URL of its own, as Vite leaves it
		}
		spec, msg := r.b.urlSpec(r.file, lit)
		if msg != "" {
			r.errAt(a[0], msg, "name a file relative to this script, such as './logo.svg'")
			return
		}
		id := r.ident()
		r.impAt(id, spec+"?url", a[0])
		r.replace(i, close, "new URL("+id+")")
		return
	}
	if r.s.tok(a[0]).tt == js.TemplateStartToken && r.s.pair[a[0]] == a[1]-1 {
		r.urlGlob(i, close, a)
		return
	}
	r.errAt(a[0], "new URL(url, import.meta.url) names a file bundle cannot know at build time: a bundle is one file, and the URL would load at run time",
		"write the path as a string ('./img/logo.png'), or as a template literal whose static parts name the folder (`./img/${name}.png`), which bundle turns into every file it may name")
}

// urlGlob transforms new URL(`./img/${name}.png`, import.meta.url) into a lookup of the
// file's URL among every file the template may name, as Vite does.
func (r *rewrite) urlGlob(i, close int, a [2]int) {
	start, end, ok := r.span(a[0], a[1]-1)
	if !ok {
		r.errAt(a[0], "bundle could not find where this template literal ends in the source", "this is bundle's failure, not the app's: report it with the file")
		return
	}
	tmpl := r.s.src[start:end]
	pattern, query := templateGlob(r.s, a[0], a[1])
	if strings.HasPrefix(pattern, "*") {
		r.errAt(a[0], "this template literal starts with a substitution, so it may name any file: bundle cannot tell which to put in the bundle",
			"start it with the folder of the files, such as `./img/${name}.png`")
		return
	}
	if query != "" {
		// The template's query goes to the glob; the lookup is by the path alone.
		tmpl = tmpl[:strings.LastIndex(tmpl, "?")] + "`"
	}
	obj, ok := r.globObject(a[0], []string{pattern}, globOptions{eager: true, imp: "default", query: joinQuery(query, "url")}, false, false)
	if !ok {
		return
	}
	r.replace(i, close, "new URL(("+obj+")["+tmpl+"], import.meta.url)")
}

// templateGlob turns the template literal of the significant tokens [i, j) into a glob: each
// substitution is *, consecutive ones one *; query is what follows a '?' of its last part.
func templateGlob(s *script, i, j int) (pattern, query string) {
	var b strings.Builder
	star := false
	for k := i; k < j; k++ {
		t := s.tok(k)
		var text string
		switch t.tt {
		case js.TemplateStartToken:
			text = string(s.js[t.start+1 : t.end-2])
		case js.TemplateMiddleToken:
			text = string(s.js[t.start+1 : t.end-2])
		case js.TemplateEndToken:
			text = string(s.js[t.start+1 : t.end-1])
		default:
			if p := s.pair[k]; p > k {
				k = p - 1 // a bracket inside a substitution
			}
			continue
		}
		if text != "" {
			b.WriteString(text)
			star = false
		}
		if t.tt != js.TemplateEndToken && !star {
			b.WriteString("*")
			star = true
		}
	}
	pattern = b.String()
	if q := strings.LastIndex(pattern, "?"); q >= 0 && !strings.Contains(pattern[q:], "*") {
		pattern, query = pattern[:q], pattern[q:]
	}
	return pattern, query
}

// joinQuery adds the flag to the query q ("?raw" or "").
func joinQuery(q, flag string) string {
	if q == "" || q == "?" {
		return "?" + flag
	}
	return q + "&" + flag
}

// dynamicImport transforms import(`./dir/${name}.js`) at the significant token i; a string
// is esbuild's (with its query, the query plugin's), and a string concatenation esbuild's
// own glob. Anything else cannot be bundled.
func (r *rewrite) dynamicImport(i int) {
	open := i + 1
	close := r.s.pair[open]
	args := r.s.args(open)
	if close < 0 || len(args) == 0 || r.ignored(open) {
		return
	}
	a := args[0]
	t := r.s.tok(a[0])
	// An import() esbuild bundles runs after a task, as in the browser (afterTaskHelper).
	wrap := func() {
		if start, end, ok := r.span(i, close); ok {
			r.task = true
			r.edits = append(r.edits, edit{start, start, afterTaskHelper + "().then(() => "}, edit{end, end, ")"})
		}
	}
	switch {
	case a[1] == a[0]+1 && (t.tt == js.StringToken || t.tt == js.TemplateToken):
		if spec, err := r.s.str(a[0]); err == nil && offline.Scheme(spec) == "data" {
			// Said here, at the author's place: the check of the built page finds it only in
			// the page bundle wrote.
			r.errAt(a[0], "import() of a data: URL loads a module the bundle's policy blocks (its script-src allows no data: URL), where the page as written runs it",
				"write the module in a file of the app and import it (import('./part.js')), which bundle bundles")
			return
		}
		if spec, err := r.s.str(a[0]); err == nil && r.classicScript != notClassic && !isURL(spec) && !strings.HasPrefix(spec, "//") && !r.publicSpec(spec) {
			// A classic script is minified, not bundled: its import() would load the file at
			// run time, from the page's URL, and the built page has nothing beside it (the
			// check of the built page found it only there, in code the author never wrote).
			r.errAt(a[0], fmt.Sprintf("import(%q) in a classic script loads the module at run time, and a classic script is not bundled: the built page has no file beside it", spec),
				"import it from a module script (<script type=\"module\">, bundled with what it imports): move this code there, or import the module there and give it to the classic script as a global")
			return
		}
		wrap()
		// The names read from its namespace, when only they are (dynshake.go).
		if spec, err := r.s.str(a[0]); err == nil && len(args) == 1 && !strings.ContainsAny(spec, "?#") && !isURL(spec) {
			if names, ok := r.s.pickNames(i, close); ok {
				r.replace(a[0], a[0], jsString(pickPrefix+strings.Join(names, ",")+":"+spec))
			}
		}
		return
	case t.tt == js.StringToken && r.s.tok(a[0]+1).tt == js.AddToken:
		wrap()
		return // esbuild's glob import: './locale/' + lang + '.json'
	case t.tt == js.TemplateStartToken && r.s.pair[a[0]] == a[1]-1:
	default:
		r.errAt(a[0], "import() of a module bundle cannot know at build time: a bundle is one file, and the module would load at run time",
			"import a path as a string ('./pages/home.js'), or a template literal whose static parts name the folder (`./pages/${name}.js`), which bundle turns into every module it may name; /* @vite-ignore */ in the call leaves it as written")
		return
	}
	start, end, ok := r.span(a[0], a[1]-1)
	if !ok {
		r.errAt(a[0], "bundle could not find where this template literal ends in the source", "this is bundle's failure, not the app's: report it with the file")
		return
	}
	tmpl := r.s.src[start+1 : end-1]
	pattern, query := templateGlob(r.s, a[0], a[1])
	if head := pattern[:strings.IndexByte(pattern+"*", '*')]; head != "" && !strings.HasPrefix(head, "./") && !strings.HasPrefix(head, "../") && !strings.HasPrefix(head, "/") {
		// An alias or a #subpath import starts it: from here, as Vite resolves it.
		abs, ok := r.b.globAlias(head, r.file)
		if !ok || !strings.HasPrefix(tmpl, head) {
			r.errAt(a[0], fmt.Sprintf("a variable import must start with ./, ../, / or an alias, as in Vite, and %q is none of the app's", head),
				"start it with the folder of the modules, such as `./pages/${name}.js`")
			return
		}
		rel := relSlash(filepath.ToSlash(filepath.Dir(r.file)), unescapeGlob(abs))
		if strings.HasSuffix(head, "/") {
			rel += "/"
		}
		pattern, tmpl = escapeGlob(rel)+pattern[len(head):], rel+tmpl[len(head):]
	}
	switch {
	case strings.HasPrefix(pattern, "*"):
		r.errAt(a[0], "this import starts with a substitution, so it may name any module: bundle cannot tell which to put in the bundle",
			"start it with ./ and the folder of the modules, such as `./pages/${name}.js`")
		return
	case path.Ext(pattern) == "" || strings.HasSuffix(path.Ext(pattern), "*"):
		r.errAt(a[0], "a variable import must name the files' extension in its static part, as in Vite", "end it with the extension, such as `./pages/${name}.js`")
		return
	case regexp.MustCompile(`^\./\*\.\w+$`).MatchString(pattern):
		r.errAt(a[0], "a variable import cannot import its own folder, as in Vite: it would bundle every script beside this one", "put the modules in a folder of their own (`./pages/${name}.js`), or name them more precisely")
		return
	}
	pattern = strings.ReplaceAll(pattern, "**", "*")
	opts := globOptions{query: query, variable: true}
	if q := parseQuery(query); q.worker || q.url || q.raw {
		opts.imp = "*"
	}
	obj, ok := r.globObject(a[0], []string{pattern}, opts, false, false)
	if !ok {
		return
	}
	if query != "" {
		tmpl = tmpl[:strings.LastIndex(tmpl, "?")]
	}
	// The path looked up is the template's, its folder made relative to this file as the
	// glob's keys are (Vite's dynamic-import-vars: the pattern made absolute, then relative to
	// the importer), so that ../<its own folder>/${x}.js finds ./x.js. Only the static folder
	// before the first substitution is resolved: a substitution's text is left as written.
	dir := filepath.ToSlash(filepath.Dir(r.file))
	head := tmpl[:strings.LastIndexByte(tmpl[:strings.Index(tmpl+"${", "${")], '/')+1]
	from := dir
	if strings.HasPrefix(head, "/") {
		from = filepath.ToSlash(r.b.root)
	}
	folder := "."
	if rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(path.Join(from, head))); err == nil {
		if folder = filepath.ToSlash(rel); folder != "." && folder != ".." && !strings.HasPrefix(folder, "../") {
			folder = "./" + folder
		}
	}
	raw := strings.TrimSuffix(folder, "/") + "/" + tmpl[len(head):]
	r.helper = true
	r.replace(i, close, fmt.Sprintf("%s((%s), `%s`, %d)", dynamicImportHelper, obj, raw, len(strings.Split(raw, "/"))))
}

func jsString(s string) string { j, _ := json.Marshal(s); return string(j) }

// at places a message at byte offset off of src in file.
func at(file, src string, off int, text, note string) *api.Message {
	off = min(max(off, 0), len(src))
	line := strings.Count(src[:off], "\n") + 1
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	m := &api.Message{Text: text, Location: &api.Location{File: file, Line: line, Column: off - start, LineText: src[start : off+end]}}
	if note != "" {
		m.Notes = []api.Note{{Text: note}}
	}
	return m
}

// urlSpec turns the literal of new URL(literal, import.meta.url) into an import specifier:
// relative as written, root-relative ("/x") from the app folder or else the public folder
// (Vite's rule), and a name that is no sibling file as a package path. msg says why a
// literal names no file.
func (b *bundler) urlSpec(file, lit string) (spec, msg string) {
	lit, _, _ = strings.Cut(lit, "#")
	lit, _, _ = strings.Cut(lit, "?")
	if !strings.Contains(lit, ":") {
		// A path relative to the script's URL: its dot segments are the URL parser's.
		lit = urlDotSegments(lit)
	}
	switch {
	case lit == "" || strings.Contains(lit, "://"):
		return "", fmt.Sprintf("new URL(%q, import.meta.url) does not name a file of the app", lit)
	case strings.HasPrefix(lit, "/"):
		if p, ok := b.rootRelative(lit); ok {
			rel, _ := filepath.Rel(filepath.Dir(file), p)
			return dotted(filepath.ToSlash(rel)), ""
		}
		return "", fmt.Sprintf("%s is in neither the app folder nor the public folder %s/", lit, b.m.Build.PublicDir)
	case strings.HasPrefix(lit, "./") || strings.HasPrefix(lit, "../"):
		return lit, ""
	}
	if f := filepath.Join(filepath.Dir(file), filepath.FromSlash(lit)); b.leavesRoot(f) {
		return "./" + lit, "" // a path, refused by where it leads, whatever is there
	} else if _, err := os.Stat(f); err == nil {
		return "./" + lit, ""
	}
	return lit, "" // a package path, resolved from node_modules
}

// urlDotSegments returns the path p of a relative URL (no query or fragment) with its
// segments as the URL parser takes them, for a path (which esbuild cleans) to name the file
// the browser fetches: WHATWG URL's path state splits at "/", and at "\" too in a special
// scheme's URL (a page's is http or https); a single-dot segment is "." or "%2e", a
// double-dot segment "..", ".%2e", "%2e." or "%2e%2e", ASCII case-insensitive. Any other
// segment is left as written. ("./%2e%2e/../secret/x.png" is "./../../secret/x.png", where
// as a path it was "./secret/x.png".)
func urlDotSegments(p string) string {
	segs := strings.Split(strings.ReplaceAll(p, `\`, "/"), "/")
	for i, s := range segs {
		switch strings.ToLower(s) {
		case "%2e":
			segs[i] = "."
		case ".%2e", "%2e.", "%2e%2e":
			segs[i] = ".."
		}
	}
	return strings.Join(segs, "/")
}

// rootRelative finds the file a root-relative path (/x) names, as Vite does: in the app
// folder, then in the public folder.
func (b *bundler) rootRelative(p string) (string, bool) {
	p, ok := decodedPath(p)
	if !ok {
		return "", false
	}
	for _, dir := range []string{".", b.m.Build.PublicDir} {
		f := filepath.Join(b.root, filepath.FromSlash(dir), filepath.FromSlash(path.Clean(p)))
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			return f, true
		}
	}
	return "", false
}

// srcCallEnd finds, in the source, the end of the call that starts at off: past the ')' that
// closes its first '('. The arguments are lexed; a '/' is a regular expression where the
// lexical rule says.
func srcCallEnd(src string, off int) (int, bool) {
	depth := 0
	end := -1
	lexSource(src, off, func(tt js.TokenType, start, stop int) bool {
		switch tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
			depth++
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			depth--
			if depth == 0 && tt == js.CloseParenToken {
				end = stop
				return false
			}
		}
		return true
	})
	return end, end >= 0
}

// srcExprEnd finds, in the source, the end of the literal starting at off whose first token
// (in esbuild's JavaScript) is of type first: a template literal, or a single token.
func srcExprEnd(src string, off int, first js.TokenType) (int, bool) {
	end := -1
	depth := 0
	lexSource(src, off, func(tt js.TokenType, start, stop int) bool {
		if first != js.TemplateStartToken {
			end = stop
			return false
		}
		switch tt {
		case js.TemplateStartToken:
			depth++
		case js.TemplateEndToken:
			depth--
			if depth == 0 {
				end = stop
				return false
			}
		}
		return true
	})
	return end, end >= 0
}

// usesCommonJS reports whether the script src reads require, module or exports where its code
// declares none (what esbuild reads as CommonJS), or cannot be read as JavaScript (TypeScript,
// JSX: left to esbuild's reading).
func usesCommonJS(src string) bool {
	if !containsWord(src, "require", "module", "exports") {
		return false
	}
	ast, err := js.Parse(parse.NewInputString(src), js.Options{})
	if err != nil {
		return true
	}
	for _, v := range ast.BlockStmt.Scope.Undeclared {
		switch string(v.Data) {
		case "require", "module", "exports":
			return true
		}
	}
	return false
}
