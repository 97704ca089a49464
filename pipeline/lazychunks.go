package pipeline

import (
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
)

// Lazy stylesheets by chunk. Vite (Rolldown) splits what import() loads into chunks, one per
// set of dynamically imported modules that reach a module by static imports (the module's
// entries: a module two lazily imported modules both import is in a chunk of its own), and its
// css plugin gives each chunk one stylesheet, the CSS of the chunk's modules in their order of
// evaluation (renderChunk: chunkCSS += styles.get(id) over chunk.modules), linked whole when an
// import() needs the chunk and once only (the preload helper skips a link it made before). A
// chunk holding CSS only (the stylesheet two lazy modules share) is dropped and its stylesheet
// linked for each chunk that imported it, as its own <link>. So the built page adds one <style>
// per chunk, holding its files' CSS in that order, when the first of them is evaluated: a
// script's import of any of them resolves to the chunk's one module (lazyChunkNamespace).
// Rolldown's other grouping (a module a dynamic import's importer has loaded already, merged
// small chunks) is not read: its stylesheets are lazy in one <style> of their own.

// lazyChunkNamespace holds the modules that add a lazy chunk's <style>, by the chunk's index.
const lazyChunkNamespace = "miniapp-lazy-chunk"

// lazyChunking is how Vite's build links the lazy stylesheets: their chunks' stylesheets, and
// which of them it links, in order, when an import() needs a module's chunk.
type lazyChunking struct {
	chunks [][]string // the stylesheets of each chunk, in their order of evaluation
	of     map[string]int
	// links holds, by a module of a lazily loaded chunk, the chunks whose stylesheets Vite
	// links for that chunk, in order: those of the chunks of code it imports (each with what
	// it links, first), its own, then each chunk of CSS only that its modules import (Vite's
	// css plugin adds a dropped CSS-only chunk's stylesheet to its importers' importedCss,
	// after their own), as the preload helper links them before the chunk runs.
	links map[string][]int
}

// lazyChunks reads the chunks of the lazy stylesheets (lazyStyles' keys) from the first
// build's metafile: a chunk is the stylesheets that one set of dynamically imported modules
// reach by static imports, in their order of evaluation; the chunks are in the order of their
// first stylesheet.
func lazyChunks(metafile string, lazy map[string]bool) lazyChunking {
	var meta importGraph
	if json.Unmarshal([]byte(metafile), &meta) != nil {
		return lazyChunking{}
	}
	// static reports whether an import is evaluated with its importer: an import statement,
	// a require, an @import, a name composed from, and the graph's own import() of its
	// members' wrappers (graph.go), which each runs when the page's scripts do.
	static := func(kind, path string) bool {
		return kind != "dynamic-import" || strings.HasPrefix(path, inlineNamespace+":")
	}
	imports := func(in string) (out []string) {
		for _, im := range meta.Inputs[in].Imports {
			if !im.External && static(im.Kind, im.Path) {
				out = append(out, im.Path)
			}
		}
		return out
	}
	// Evaluation order: a module after what it imports (post-order), the entries of the
	// build first, then each dynamically imported module in the order the walk finds it.
	var entries []string
	for _, o := range meta.Outputs {
		if o.EntryPoint != "" {
			entries = append(entries, o.EntryPoint)
		}
	}
	slices.Sort(entries)
	order, done := map[string]int{}, map[string]bool{}
	var dynamic []string
	var walk func(string)
	walk = func(in string) {
		if done[in] {
			return
		}
		done[in] = true
		for _, im := range meta.Inputs[in].Imports {
			switch {
			case im.External:
			case static(im.Kind, im.Path):
				walk(im.Path)
			case !slices.Contains(dynamic, im.Path):
				dynamic = append(dynamic, im.Path)
			}
		}
		order[in] = len(order)
	}
	for _, e := range entries {
		walk(e)
	}
	loaded := maps.Clone(done) // in the page's chunk
	for i := 0; i < len(dynamic); i++ {
		walk(dynamic[i])
	}
	// The chunk of a lazily loaded module: the dynamically imported modules that reach it by
	// static imports.
	reaches := map[string][]string{}
	for _, d := range dynamic {
		seen := map[string]bool{d: true}
		todo := []string{d}
		for len(todo) > 0 {
			in := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if !loaded[in] {
				reaches[in] = append(reaches[in], d)
			}
			for _, p := range imports(in) {
				if !seen[p] {
					seen[p] = true
					todo = append(todo, p)
				}
			}
		}
	}
	key := func(in string) string { return strings.Join(reaches[in], "\x00") }
	modules := slices.Collect(maps.Keys(reaches))
	slices.SortFunc(modules, func(a, b string) int { return order[a] - order[b] })
	c := lazyChunking{of: map[string]int{}, links: map[string][]int{}}
	byKey := map[string]int{}
	for _, f := range modules {
		if !lazy[f] {
			continue
		}
		i, ok := byKey[key(f)]
		if !ok {
			i = len(c.chunks)
			byKey[key(f)] = i
			c.chunks = append(c.chunks, nil)
		}
		c.chunks[i] = append(c.chunks[i], f)
		c.of[f] = i
	}
	// A chunk of CSS only: plain stylesheets (a CSS Module's chunk has its names' code, a
	// component's styles their component's), no other module of the same set.
	pure := make([]bool, len(c.chunks))
	for i, ch := range c.chunks {
		pure[i] = !slices.ContainsFunc(ch, func(f string) bool { return strings.Contains(f, ":") || isCSSModule(f) })
	}
	// A module of a plugin's namespace (as the stub through which a script imports a
	// stylesheet, styleStubNamespace) is no code of the app's: it is looked through.
	through := func(in string) bool { return strings.Contains(in, ":") && !lazy[in] }
	for _, m := range modules {
		if i, ok := byKey[key(m)]; ok && !lazy[m] && !through(m) {
			pure[i] = false
		}
	}
	links := map[string][]int{}
	for _, m := range modules {
		k := key(m)
		if _, ok := links[k]; !ok {
			if i, ok := byKey[k]; ok && !pure[i] {
				links[k] = []int{i}
			} else {
				links[k] = []int{}
			}
		}
		var add func(string)
		add = func(p string) {
			if through(p) {
				for _, q := range imports(p) {
					add(q)
				}
			} else if i, ok := c.of[p]; ok && pure[i] && key(p) != k && !slices.Contains(links[k], i) {
				links[k] = append(links[k], i)
			}
		}
		if !through(m) {
			for _, p := range imports(m) {
				add(p)
			}
		}
	}
	// The chunks a chunk imports that hold code (a module two lazy modules share, with its
	// stylesheets): Vite's preload helper links their stylesheets before the chunk's own
	// (addDeps walks a chunk's imports before it adds its importedCss: "the css imported by
	// current chunk is loaded after the dependencies"), each chunk's once.
	deps := map[string][]string{}
	for _, m := range modules {
		k := key(m)
		var add func(string)
		add = func(p string) {
			if through(p) {
				for _, q := range imports(p) {
					add(q)
				}
				return
			}
			if _, ok := reaches[p]; !ok || key(p) == k || slices.Contains(deps[k], key(p)) {
				return
			}
			if i, ok := c.of[p]; ok && pure[i] {
				return // a chunk of CSS only: after the own (links)
			}
			deps[k] = append(deps[k], key(p))
		}
		if !through(m) {
			for _, p := range imports(m) {
				add(p)
			}
		}
	}
	expanded := map[string][]int{}
	for k := range links {
		var out []int
		seen := map[string]bool{}
		var walk func(string)
		walk = func(k string) {
			if seen[k] {
				return
			}
			seen[k] = true
			for _, d := range deps[k] {
				walk(d)
			}
			for _, i := range links[k] {
				if !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
		walk(k)
		expanded[k] = out
	}
	for _, m := range modules {
		if !lazy[m] && !through(m) {
			c.links[m] = expanded[key(m)]
		}
	}
	return c
}

// lazyChunkModules loads the modules a lazy stylesheet's import resolves to (lazyChunkOf): one
// per chunk, that adds its <style> when first evaluated, and one per list of them, that
// imports each in order.
func (b *bundler) lazyChunkModules(pb api.PluginBuild, c lazyChunking) {
	pb.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: lazyChunkNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		return api.OnResolveResult{Path: a.Path, Namespace: lazyChunkNamespace}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: lazyChunkNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		if list, ok := strings.CutPrefix(a.Path, "links:"); ok {
			var js strings.Builder
			for _, i := range strings.Split(list, ",") {
				js.WriteString("import " + strconv.Quote(i) + ";\n")
			}
			s := js.String()
			return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS}, nil
		}
		i, err := strconv.Atoi(a.Path)
		if err != nil || i < 0 || i >= len(c.chunks) {
			return api.OnLoadResult{}, nil
		}
		var css strings.Builder
		var names []string
		for _, key := range c.chunks[i] {
			text, file, err := b.lazyStylesheet(key)
			if err != nil {
				return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: file}}}}, nil
			}
			css.WriteString(text)
			names = append(names, b.display(b.rel(file)))
		}
		js := b.lazyModule(names, css.String())
		return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS}, nil
	})
}

// lazyChunkOf returns the module that the import of the lazy stylesheet key by importer (an
// absolute path, or a module of a namespace) resolves to: the one that adds the stylesheets
// Vite links for the importer's chunk, when they hold key's, else the one of key's chunk.
func (b *bundler) lazyChunkOf(c lazyChunking, key, importer string) (api.OnResolveResult, bool) {
	i, ok := c.of[key]
	if !ok {
		return api.OnResolveResult{}, false
	}
	if rel, err := filepath.Rel(b.root, importer); err == nil && filepath.IsAbs(importer) {
		if links := c.links[filepath.ToSlash(rel)]; slices.Contains(links, i) {
			var s []string
			for _, l := range links {
				s = append(s, strconv.Itoa(l))
			}
			return api.OnResolveResult{Path: "links:" + strings.Join(s, ","), Namespace: lazyChunkNamespace}, true
		}
	}
	return api.OnResolveResult{Path: strconv.Itoa(i), Namespace: lazyChunkNamespace}, true
}

// lazyStylesheet builds the lazy stylesheet key as the page's stylesheet builds it: a file, a
// CSS Module esbuild would name (named here, lazymodule.go), or a component's styles. It
// returns the CSS and the file.
func (b *bundler) lazyStylesheet(key string) (string, string, error) {
	file := b.abs(key)
	build := b.entry
	if isCSSModule(file) && !b.scopesModules() {
		build = b.lazyModuleCSS // named here, not by esbuild (lazymodule.go)
	}
	if rest, ok := strings.CutPrefix(key, componentCSSNamespace+":"); ok {
		file = b.abs(b.rel(rest))
		build = func(string) (code, diag.List) {
			opts := b.options()
			opts.EntryPoints = []string{componentCSSNamespace + ":" + file}
			return b.run(opts)
		}
	}
	c, l := build(key)
	if l.HasErrors() {
		return "", file, errors.New(l[0].Text)
	}
	return c.css, file, nil
}
