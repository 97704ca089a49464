package pipeline

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
)

// Workers as Vite builds them: each worker's script is bundled on its own, into the bundle
// of the code that starts it, and started from a blob: URL. A worker that starts itself (new
// Worker(new URL(import.meta.url)) or its own file, or import W from "./self.ts?worker")
// starts self.location.href, its own URL, as Vite's build does: it is built once. Workers
// that start each other in a longer cycle are refused, naming the cycle, as Vite refuses
// them: each would hold the other's code, without end. A classic worker (the default, and
// Vite's worker.format "iife") is an IIFE in which import.meta.url is self.location.href; a
// module worker (type: "module", or worker.format "es") is an ES module.

// workerChain is the worker scripts whose bundles a build is inside, outermost first: nil
// for the page's own code.
type workerChain []string

// innerErrors are the errors of a build inside another (a worker's), which the outer build
// reports as they are, at their places.
type innerErrors []api.Message

func (e innerErrors) Error() string { return e[0].Text }

// workerBuilds holds the workers built in one build, by file, format and chain.
type workerBuilds struct {
	m sync.Map // key → *workerBuild
}

type workerBuild struct {
	once sync.Once
	code string
	err  error
	// warnings are esbuild's of the worker's build, told once (by the first module of the
	// worker the outer build loads, whichever it is: each is at its place in the worker's
	// files).
	warnings []api.Message
	told     atomic.Bool
}

// workerKey is what a worker is built once per: its file, format and chain.
func workerKey(file string, module bool, chain workerChain) string {
	return fmt.Sprint(module, "\x00", file, "\x00", strings.Join(chain, "\x00"))
}

// workerWarnings returns the warnings of the build of the worker a module of v (a worker
// query) for file starts, in a build whose workers chain is: esbuild's, at their places, the
// first time they are asked for (nil after, and for a worker that starts itself).
func (b *bundler) workerWarnings(file string, v viteQuery, chain workerChain) []api.Message {
	if !v.worker && !v.workerURL {
		return nil
	}
	w, ok := b.workers.m.Load(workerKey(file, v.module || b.workerFormat == "es", chain))
	if !ok {
		return nil
	}
	if wb := w.(*workerBuild); wb.told.CompareAndSwap(false, true) {
		return wb.warnings
	}
	return nil
}

// resolveQuery resolves the import (a) of file with the query q, in a build whose workers
// chain is: a module of queryNamespace, or an error at the import when the worker would
// start a worker that starts it.
func (b *bundler) resolveQuery(a api.OnResolveArgs, file, q string, chain workerChain) api.OnResolveResult {
	v := parseQuery(q)
	if v.worker || v.workerURL {
		if i := slices.Index(chain, file); i >= 0 && i < len(chain)-1 {
			var names []string
			for _, f := range append(slices.Clone(chain[i:]), file) {
				names = append(names, b.display(b.rel(f)))
			}
			return api.OnResolveResult{Errors: []api.Message{{
				Text:  "workers start each other in a cycle: " + strings.Join(names, " → ") + "; each bundle would hold the other's code, without end (Vite refuses it too)",
				Notes: []api.Note{{Text: "let one worker start the other and talk back through postMessage, or have the page start both; a worker may start itself (new Worker(new URL(import.meta.url)))"}},
			}}}
		}
	}
	res := api.OnResolveResult{Path: b.rel(file) + "?" + q, Namespace: queryNamespace}
	if v.noInline {
		res.Warnings = []api.Message{{Text: fmt.Sprintf("%q asks for the file beside the page (?no-inline), and a bundle is one file: it gets a data: URL all the same", a.Path),
			Notes: []api.Note{{Text: "drop ?no-inline (or write ?url) to say so"}}}}
	}
	return res
}

// workerModule writes the module of a worker import: the worker's bundle started from a
// blob: URL (self.location.href for the worker itself), as a constructor (?worker,
// ?sharedworker) or a URL (?worker&url, and the transform's ?miniapp-worker).
func (b *bundler) workerModule(file string, v viteQuery, chain workerChain) (string, error) {
	module := v.module || b.workerFormat == "es"
	var url string
	if len(chain) > 0 && chain[len(chain)-1] == file {
		url = "self.location.href"
	} else {
		code, err := b.worker(file, module, chain)
		if err != nil {
			return "", err
		}
		b.setFlag(&b.flags.blobs)
		url = blobURL(code)
	}
	src := "const u = " + url + ";\n"
	if v.workerURL || v.url {
		return src + "export default u;", nil
	}
	kind := "Worker"
	if v.shared {
		kind = "SharedWorker"
	}
	typ := ""
	if module {
		typ = `type: "module", `
	}
	return src + "export default function " + kind + "Wrapper(options) { return new " + kind + "(u, { " + typ + "name: options?.name }); }", nil
}

// worker bundles file as a worker started from a build whose workers chain is: an ES module
// when module, else a classic script. A worker is built once per build, chain and format.
func (b *bundler) worker(file string, module bool, chain workerChain) (string, error) {
	w, _ := b.workers.m.LoadOrStore(workerKey(file, module, chain), &workerBuild{})
	wb := w.(*workerBuild)
	wb.once.Do(func() {
		inner := append(slices.Clone(chain), file)
		opts := b.optionsFor(inner)
		opts.EntryPoints = []string{file}
		opts.Format = api.FormatIIFE
		if module {
			opts.Format = api.FormatESModule
		} else {
			// import.meta is empty in an IIFE: its URL is the worker's own, as Vite has it.
			opts.Define = maps.Clone(opts.Define)
			if opts.Define == nil {
				opts.Define = map[string]string{}
			}
			opts.Define["import.meta.url"] = "self.location.href"
		}
		res := b.build(opts)
		if len(res.Errors) > 0 {
			wb.err = innerErrors(res.Errors)
			return
		}
		// Told by the outer build, which places them as its own (its messages): the
		// worker's own list of them, which nothing read, lost them.
		wb.warnings = res.Warnings
		c, l := b.result(res, opts)
		if l.HasErrors() {
			wb.err = fmt.Errorf("bundle the worker %s: %s", b.display(b.rel(file)), l[0].String())
			return
		}
		wb.code = c.js
	})
	return wb.code, wb.err
}

// worker transforms new Worker(new URL(…, import.meta.url), options) or new SharedWorker(…)
// at the significant token i: the URL becomes the bundled worker's.
func (r *rewrite) worker(i int) {
	s := r.s
	open := i + 2
	close := s.pair[open]
	args := s.args(open)
	if close < 0 || len(args) == 0 {
		return
	}
	a := args[0]
	// /* @vite-ignore */ before the options (a variable Vite cannot read) leaves them to run
	// time, not the worker's URL: only one in the URL leaves the call as written.
	for k := open; k < a[1]; k++ {
		if viteIgnore.MatchString(s.comments(k, k+1)) {
			return
		}
	}
	if urlArgs, ok := r.newURLArgs(a[0]); ok && s.pair[a[0]+2] == a[1]-1 {
		u := urlArgs[0]
		t := s.tok(u[0])
		if u[1] != u[0]+1 || t.tt != js.StringToken && t.tt != js.TemplateToken {
			r.errAt(u[0], "new "+s.text(i+1)+"(new URL(url, import.meta.url)) needs the worker's path written as a string: bundle bundles the worker at build time",
				"write the path, such as new Worker(new URL('./worker.ts', import.meta.url)), or import the worker: import MyWorker from './worker.ts?worker'")
			r.claimed = a[1]
			return
		}
		lit, _ := s.str(u[0])
		spec, msg := r.b.urlSpec(r.file, lit)
		if msg != "" {
			r.errAt(u[0], msg, "name the worker's script relative to this one, such as './worker.ts'")
			r.claimed = a[1]
			return
		}
		if target := filepath.Join(filepath.Dir(r.file), filepath.FromSlash(spec)); strings.HasPrefix(spec, ".") {
			if k := slices.Index(r.chain, target); k >= 0 && k < len(r.chain)-1 {
				var names []string
				for _, f := range append(slices.Clone(r.chain[k:]), target) {
					names = append(names, r.b.display(r.b.rel(f)))
				}
				r.errAt(a[0], "workers start each other in a cycle: "+strings.Join(names, " → ")+"; each bundle would hold the other's code, without end (Vite refuses it too)",
					"let one worker start the other and talk back through postMessage, or have the page start both; a worker may start itself (new Worker(new URL(import.meta.url)))")
				r.claimed = a[1]
				return
			}
		}
		q := "?miniapp-worker"
		if len(args) > 1 && r.propString(args[1], "type") == "module" || len(args) > 1 && !r.literalOptions(args[1]) && r.b.workerFormat == "es" {
			q += "&module"
		}
		id := r.ident()
		r.impAt(id, spec+q, u[0])
		r.replace(a[0], a[1]-1, id)
		r.claimed = a[1]
		return
	}
	if t := s.tok(a[0]); a[1] == a[0]+1 && (t.tt == js.StringToken || t.tt == js.TemplateToken) {
		lit, _ := s.str(a[0])
		switch offline.Scheme(lit) {
		case "blob":
			r.b.setFlag(&r.b.flags.blobs)
			return
		case "data":
			// A data: URL's worker is code by URL of an opaque origin, which worker-src
			// (blob: alone, for the workers bundle starts) does not allow.
			r.errAt(a[0], fmt.Sprintf("new %s(\"data:…\") starts a worker from a data: URL, which the bundle's policy blocks (its worker-src allows blob: URLs only): the page as written runs the worker, the built page does not", s.text(i+1)),
				fmt.Sprintf("start it from a blob: URL, new %s(URL.createObjectURL(new Blob([code], { type: \"text/javascript\" }))), or bundle its file: new %s(new URL(\"./worker.js\", import.meta.url))", s.text(i+1), s.text(i+1)))
			return
		}
		r.errAt(a[0], fmt.Sprintf("new %s(%q) loads the worker's script at run time, and a bundle is one file: there is no %s beside it", s.text(i+1), lit, lit),
			fmt.Sprintf("write new %s(new URL(%q, import.meta.url)), or import it: import MyWorker from %q", s.text(i+1), dotted(strings.TrimPrefix(lit, "/")), dotted(strings.TrimPrefix(lit, "/"))+"?worker"))
		return
	}
	// A URL only the run gives: in a page of one file with no network, a blob: URL the page's
	// code made (URL.createObjectURL(new Blob([code]))), which the policy allows as it allows
	// the workers bundle starts (worker-src blob:).
	r.b.setFlag(&r.b.flags.blobs)
}

// literalOptions reports whether the options [a[0], a[1]) are an object literal, which the
// build reads; other options are known at run time only, where Vite builds the worker in
// worker.format.
func (r *rewrite) literalOptions(a [2]int) bool {
	return r.s.tok(a[0]).tt == js.OpenBraceToken && r.s.pair[a[0]] == a[1]-1
}

// propString returns the string value of the property key of the object literal [a[0],
// a[1]), or "" when it has none or another value.
func (r *rewrite) propString(a [2]int, key string) string {
	s := r.s
	if s.tok(a[0]).tt != js.OpenBraceToken || s.pair[a[0]] != a[1]-1 {
		return ""
	}
	val := ""
	for _, p := range s.split(a[0]+1, a[1]-1) {
		if s.tok(p[0]).tt == js.EllipsisToken {
			val = "" // a spread after the key may set it
			continue
		}
		k := s.text(p[0])
		if s.tok(p[0]).tt == js.StringToken {
			k, _ = s.str(p[0])
		}
		if k == key && p[1] == p[0]+3 && s.is(p[0]+1, ":") {
			val, _ = s.str(p[0] + 2)
		}
	}
	return val
}
