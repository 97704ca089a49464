package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
)

// A module cycle whose evaluation is async. ECMAScript evaluates a strongly connected
// component of the module graph (a cycle of static imports) together: its modules share one
// [[CycleRoot]], the module of the component that evaluation entered first, and when one of
// them is async (it awaits at its top level, or imports, at any depth, a module that does),
// the evaluation of every module of the component finishes when the root's does
// (Cyclic Module Records, InnerModuleEvaluation and AsyncModuleExecutionFulfilled). A page
// script that imports another module of the cycle than the root therefore runs after the
// whole cycle has. esbuild's bundle gives each module a lazy init of its own, and the init of
// a module of the cycle finishes when its own code has run: a script importing it runs
// before the root's code (cycle_tla: script 2 read b() = undefined, before "a end"; as
// written, "a"). No bundle of esbuild's evaluates such a component as the specification
// does when the page enters it at two of its modules or more (a module outside it imports
// each, or an import() loads it), so the build refuses it, at the top-level await
// (cycleAwait). A cycle entered at one module only (which is then always its root, and
// which the bundle too finishes last), a cycle with no async module, top-level await outside
// any cycle, and a module that imports itself and awaits (the root of its own cycle)
// evaluate alike in both and build.

// cycleAwait returns an error for each strongly connected component of the build's module
// graph (static imports, as the metafile gives them) of more than one module, entered at
// two or more of them, that is async: one of its modules, or one they import, awaits at its
// top level. The error is at that await and names the cycle and the fix. Whether a module awaits
// at its top level is esbuild's word: its parser refuses top-level await in a CommonJS
// output, at the await (api.Transform of the file as written, with the build's loader).
func (b *bundler) cycleAwait(res api.BuildResult, opts api.BuildOptions) diag.List {
	// A bundle with no await anywhere has no async module (esbuild keeps the keyword of a
	// top-level await, in the module's code or its async init): nothing to read. The
	// metafile's inputs are most of it (6 MB, 85 ms to decode for 6,000 modules).
	if !strings.Contains(res.Metafile, `"import-statement"`) || !slices.ContainsFunc(res.OutputFiles, func(f api.OutputFile) bool {
		return strings.HasSuffix(f.Path, ".js") && bytes.Contains(f.Contents, []byte("await"))
	}) {
		return nil
	}
	var meta importGraph
	if json.Unmarshal([]byte(res.Metafile), &meta) != nil {
		return nil
	}
	static := func(in string) []string {
		var out []string
		for _, im := range meta.Inputs[in].Imports {
			if !im.External && im.Kind == "import-statement" {
				if _, ok := meta.Inputs[im.Path]; ok && !slices.Contains(out, im.Path) {
					out = append(out, im.Path)
				}
			}
		}
		return out
	}

	// order is the inputs as a walk from the entries (in the order of their outputs) meets
	// them, each import in source order, dynamic ones too (the graph's members, graph.go): the
	// first module of a cycle met is where the page's scripts enter it.
	var outs []string
	for o := range meta.Outputs {
		outs = append(outs, o)
	}
	sort.Strings(outs)
	var order []string
	seen := map[string]bool{}
	var walk func(string)
	walk = func(in string) {
		if seen[in] {
			return
		}
		seen[in] = true
		order = append(order, in)
		for _, im := range meta.Inputs[in].Imports {
			if _, ok := meta.Inputs[im.Path]; ok && !im.External {
				walk(im.Path)
			}
		}
	}
	for _, o := range outs {
		if e := meta.Outputs[o].EntryPoint; e != "" {
			walk(e)
		}
	}
	var rest []string
	for in := range meta.Inputs {
		if !seen[in] {
			rest = append(rest, in)
		}
	}
	sort.Strings(rest)
	for _, in := range rest {
		walk(in)
	}

	// Tarjan's strongly connected components over the static imports.
	index, low, onStack := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var sccs [][]string
	var connect func(string)
	connect = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range static(v) {
			if _, ok := index[w]; !ok {
				connect(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			sccs = append(sccs, c)
		}
	}
	for _, in := range order {
		if _, ok := index[in]; !ok {
			connect(in)
		}
	}

	rank := map[string]int{}
	for i, in := range order {
		rank[in] = i
	}
	awaits := map[string]*api.Message{} // by input, read once
	awaitIn := func(in string) *api.Message {
		if m, ok := awaits[in]; ok {
			return m
		}
		awaits[in] = b.topLevelAwait(in, opts)
		return awaits[in]
	}
	var errs diag.List
	for _, c := range sccs {
		if len(c) == 1 {
			// One module, even one that imports itself, is its own cycle's root: it finishes
			// when it does, bundled or not (cycle_self_tla).
			continue
		}
		slices.SortFunc(c, func(x, y string) int { return rank[x] - rank[y] })
		in := map[string]bool{}
		for _, v := range c {
			in[v] = true
		}
		// Where the page enters the cycle: its modules that a module outside it imports, and
		// any an import() loads. Entered at one module only, that module is always the root,
		// and the bundle finishes it last, as the browser does (cycle_tla_root).
		entered := map[string]bool{}
		for v, input := range meta.Inputs {
			for _, im := range input.Imports {
				if !im.External && in[im.Path] && (im.Kind == "dynamic-import" || !in[v] && (im.Kind == "import-statement" || im.Kind == "require-call")) {
					entered[im.Path] = true
				}
			}
		}
		if len(entered) < 2 {
			continue
		}
		var ins []string
		for v := range entered {
			ins = append(ins, v)
		}
		slices.SortFunc(ins, func(x, y string) int { return rank[x] - rank[y] })
		// The await: in a module of the cycle (in the order the page enters it), else in the
		// nearest module the cycle imports.
		var at *api.Message
		var where string
		queue, met := slices.Clone(c), map[string]bool{}
		for _, v := range c {
			met[v] = true
		}
		for len(queue) > 0 && at == nil {
			v := queue[0]
			queue = queue[1:]
			if at = awaitIn(v); at != nil {
				where = v
				break
			}
			for _, w := range static(v) {
				if !met[w] {
					met[w] = true
					queue = append(queue, w)
				}
			}
		}
		if at == nil {
			continue
		}
		names := cyclePath(ins[0], in, static)
		for i, n := range names {
			names[i] = b.rel(n)
		}
		text := "this top-level await makes the module cycle " + strings.Join(names, " → ") + " async"
		if !in[where] {
			text = "this top-level await, in a module that the module cycle " + strings.Join(names, " → ") + " imports, makes the cycle async"
		}
		text += ", and the page enters the cycle at " + b.rel(ins[0]) + " and at " + b.rel(ins[1]) + ": the browser finishes the cycle's modules together, when the one entered first does, and the bundle would finish each alone (what imports " + b.rel(ins[1]) + " would run before " + b.rel(ins[0]) + " finished)"

		l := at.Location
		errs = append(errs, diag.Message{Severity: diag.Error, Text: text, File: b.messageFile(where), Line: l.Line, Column: l.Column + 1, Length: max(l.Length, 1), LineText: l.LineText,
			Note: "break the cycle (move what the modules share into a module that imports neither), import it at " + b.rel(ins[0]) + " only, or move the await out of the cycle and the modules it imports"})
	}
	return errs
}

// cyclePath is a shortest cycle of static imports from start back to it, within the
// component in: its modules in import order, start first and last.
func cyclePath(start string, in map[string]bool, static func(string) []string) []string {
	prev := map[string]string{}
	queue := []string{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range static(v) {
			if w == start {
				path := []string{start}
				for u := v; u != start; u = prev[u] {
					path = append(path, u)
				}
				slices.Reverse(path[1:])
				return append(path, start)
			}
			if _, ok := prev[w]; !ok && in[w] {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return []string{start, start}
}

// topLevelAwait returns esbuild's error at the first top-level await (or for await) of the
// input in, a file of the app, as written; nil when it has none, or is no script file.
func (b *bundler) topLevelAwait(in string, opts api.BuildOptions) *api.Message {
	if strings.Contains(in, ":") && !filepath.IsAbs(in) {
		return nil // a module of a plugin's namespace (the SDK, code written in the page)
	}
	ext := filepath.Ext(in)
	loader, ok := opts.Loader[ext]
	if !ok {
		loader, ok = map[string]api.Loader{".js": api.LoaderJS, ".mjs": api.LoaderJS, ".jsx": api.LoaderJSX, ".ts": api.LoaderTS, ".mts": api.LoaderTS, ".tsx": api.LoaderTSX}[ext]
	}
	if !ok || loader != api.LoaderJS && loader != api.LoaderJSX && loader != api.LoaderTS && loader != api.LoaderTSX {
		return nil
	}
	p := in
	if !filepath.IsAbs(p) {
		p = filepath.Join(b.root, filepath.FromSlash(in))
	}
	src, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(src), "await") {
		return nil // the keyword cannot be written with escapes: no await
	}
	r := api.Transform(string(src), api.TransformOptions{Loader: loader, Format: api.FormatCommonJS, Target: api.ESNext, Sourcefile: in, TsconfigRaw: opts.TsconfigRaw, LogLevel: api.LogLevelSilent})
	for _, m := range r.Errors {
		if strings.HasPrefix(m.Text, "Top-level await is ") && m.Location != nil {
			return &m
		}
	}
	return nil
}
