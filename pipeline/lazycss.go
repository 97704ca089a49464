package pipeline

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Stylesheets that only a dynamic import reaches. Vite gives the CSS of a chunk that import()
// loads to that chunk: in a build, the page links it when the import runs (its preload helper
// appends a <link rel="stylesheet"> to <head> before the chunk's code runs); in dev, the CSS
// module appends a <style> to <head> when it is evaluated. Either way the style applies from
// the import on, after what the page's scripts added to <head> meanwhile, not from page load.
// esbuild without splitting puts every stylesheet a bundle imports in its one CSS output,
// which the page holds from the start; so when a build's metafile shows a stylesheet that a
// script imports and no chain of static imports from an entry reaches, the build is run again
// with those stylesheets imported as modules that, evaluated where esbuild evaluates the
// dynamically imported module (its lazy init), append a <style> holding the stylesheets of
// their chunk as built to <head> (one per chunk, as Vite links one stylesheet per chunk:
// lazychunks.go). The page's own policy, where it allows no inline
// style, gets the <style>'s hash (bundler.lazy, mergeOwn), as Vite's <link> was allowed by
// 'self'.
//
// A CSS Module whose names esbuild would give (no generateScopedName in the config) is lazy the
// same way (lazymodule.go), and so are a Vue or Svelte component's styles (frameworks.go).

// importGraph is what the lazy stylesheets (lazycss.go, lazychunks.go) and the cycles of
// top-level await (cycleawait.go) are read from in esbuild's metafile: each input's imports,
// and each output's entry point.
type importGraph struct {
	Inputs map[string]struct {
		Imports []struct {
			Path     string `json:"path"`
			Kind     string `json:"kind"`
			External bool   `json:"external"`
		} `json:"imports"`
	} `json:"inputs"`
	Outputs map[string]struct {
		EntryPoint string `json:"entryPoint"`
	} `json:"outputs"`
}

// lazyStyles returns the stylesheets of the app (paths relative to the app folder, as the
// metafile names them) that a script imports and that no entry of the build reaches by static
// imports alone; mixed is set when one of them is reached statically from another entry of
// the build (entries then bundles each entry alone). With modules, the CSS Modules a script
// imports are among them (lazymodule.go: those esbuild would name).
func lazyStyles(metafile string, modules bool) (lazy map[string]bool, mixed bool) {
	if !strings.Contains(metafile, `"dynamic-import"`) {
		return nil, false
	}
	var meta importGraph
	if json.Unmarshal([]byte(metafile), &meta) != nil {
		return nil, false
	}
	// reach returns what the entry reaches, by static imports only or by any, and the
	// stylesheets a script imports among the latter.
	reach := func(entry string, static bool) (map[string]bool, map[string]bool) {
		seen, styles := map[string]bool{entry: true}, map[string]bool{}
		todo := []string{entry}
		for len(todo) > 0 {
			in := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, im := range meta.Inputs[in].Imports {
				// The graph's own import() of its members' wrappers (graph.go: top-level
				// await) is no lazy import: each runs when the page's scripts do.
				if im.External || static && im.Kind == "dynamic-import" && !strings.HasPrefix(im.Path, inlineNamespace+":") {
					continue
				}
				switch im.Kind {
				case "import-statement", "require-call", "dynamic-import":
					if isLazyCandidate(im.Path) || isScopedRules(in, im.Path) || modules && isLazyModule(im.Path) {
						styles[im.Path] = true
					}
				case "composes-from":
					// A CSS Module composing a name from another file: Vite's chunk holds
					// both files' CSS, so the other file is lazy where this one is.
					if modules && isLazyModule(in) && isLazyModule(im.Path) {
						styles[im.Path] = true
					}
				}
				if !seen[im.Path] {
					seen[im.Path] = true
					todo = append(todo, im.Path)
				}
			}
		}
		return seen, styles
	}
	var statics []map[string]bool
	lazy = map[string]bool{}
	for _, o := range meta.Outputs {
		if o.EntryPoint == "" {
			continue
		}
		static, _ := reach(o.EntryPoint, true)
		_, styles := reach(o.EntryPoint, false)
		statics = append(statics, static)
		for s := range styles {
			if !static[s] {
				lazy[s] = true
			}
		}
	}
	for s := range lazy {
		mixed = mixed || slices.ContainsFunc(statics, func(m map[string]bool) bool { return m[s] })
	}
	if len(lazy) == 0 {
		return nil, false
	}
	return lazy, mixed
}

// isLazyCandidate reports whether the metafile's input in is a stylesheet of the app that a
// lazy import can insert: a stylesheet file, not a CSS Module, or a component's styles (a
// Vue or Svelte component's, which Vite gives to the component's chunk as it gives a
// stylesheet the component imports).
func isLazyCandidate(in string) bool {
	return !strings.Contains(in, ":") && isStylesheet(in) && !isCSSModule(in) || strings.HasPrefix(in, componentCSSNamespace+":")
}

// isScopedRules reports whether the metafile's import of in by from is a scoped CSS Module's
// import of its rules (cssscoped.go: global CSS once its names are the config's, a plain
// stylesheet to the page), which is lazy as any stylesheet a script imports is.
func isScopedRules(from, in string) bool {
	return strings.HasPrefix(from, styleStubNamespace+":") && !strings.Contains(in, ":") && isCSSModule(in)
}

// pageBuild runs esbuild on opts for the page's scripts (not a worker's, which has no
// document to add a <style> to): again, with the lazy stylesheets imported as modules that
// add them, when the first build shows some. It returns the result and the options that gave
// it, which a later pass of the same bundle (namesKept) must use.
func (b *bundler) pageBuild(opts api.BuildOptions) (api.BuildResult, api.BuildOptions) {
	res := b.build(opts)
	if len(res.Errors) > 0 {
		return res, opts
	}
	lazy, mixed := lazyStyles(res.Metafile, !b.scopesModules())
	if len(lazy) == 0 || mixed {
		return res, opts
	}
	opts.Plugins = append([]api.Plugin{b.lazyPlugin(lazy, lazyChunks(res.Metafile, lazy))}, opts.Plugins...)
	return b.build(opts), opts
}

// lazyPlugin resolves a script's import of one of the lazy stylesheets (by path relative to
// the app folder) to the module that adds its chunk's <style> to the page (lazychunks.go).
func (b *bundler) lazyPlugin(lazy map[string]bool, chunks lazyChunking) api.Plugin {
	names := make([]string, 0, len(lazy))
	for p := range lazy {
		names = append(names, p)
	}
	slices.Sort(names)
	return api.Plugin{Name: "lazy-css " + strings.Join(names, " "), Setup: func(pb api.PluginBuild) {
		onAppResolve(pb, `\.(css|scss|sass|less|styl|stylus)$`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			ask := askedBy(a.PluginData)
			// A script's import of a CSS Module the config names is its plugin's, with its
			// exports; its rules are lazy by their own import (isScopedRules). One esbuild
			// would name is read here (lazymodule.go).
			if !ask.answers(byLazyCSS) || isCSSModule(a.Path) && b.scopesModules() || a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport && a.Kind != api.ResolveJSRequireCall {
				return api.OnResolveResult{}, nil
			}
			r := pb.Resolve(a.Path, again(a, byLazyCSS))
			if len(r.Errors) > 0 || r.Namespace != "file" {
				return api.OnResolveResult{}, nil // esbuild reports it, or another plugin has it
			}
			rel, err := filepath.Rel(b.root, r.Path)
			if err != nil || !lazy[filepath.ToSlash(rel)] {
				return api.OnResolveResult{}, nil
			}
			if isCSSModule(r.Path) {
				return api.OnResolveResult{Path: filepath.ToSlash(rel), Namespace: lazyModNamespace}, nil
			}
			c, _ := b.lazyChunkOf(chunks, filepath.ToSlash(rel), a.Importer)
			return c, nil
		})
		b.lazyModules(pb, lazy, chunks)
		b.lazyChunkModules(pb, chunks)
		// A component's styles (frameworks.go), built as the page's stylesheet builds them.
		onAppResolve(pb, `^`+componentCSSNamespace+`:`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			c, _ := b.lazyChunkOf(chunks, a.Path, a.Importer)
			return c, nil
		})
		// A scoped CSS Module's import of its rules (isScopedRules): the module that adds
		// them, built as the page's stylesheet builds the file (its names the config's).
		pb.OnResolve(api.OnResolveOptions{Filter: `^` + scopedRulesPrefix, Namespace: scopedNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			p := b.abs(strings.TrimPrefix(a.Path, scopedRulesPrefix))
			rel, err := filepath.Rel(b.root, p)
			if err != nil {
				return api.OnResolveResult{}, nil
			}
			c, _ := b.lazyChunkOf(chunks, filepath.ToSlash(rel), a.Importer)
			return c, nil
		})
	}}
}

// lazyModule is the module of a lazy chunk whose files' built CSS is css: evaluated, it appends
// a <style> holding css to <head>, where Vite's build links the chunk's CSS; the page's policy
// allows it by its hash (see bundler.lazy).
func (b *bundler) lazyModule(files []string, css string) string {
	b.mu.Lock()
	if !slices.ContainsFunc(b.lazy, func(l lazyStyle) bool { return slices.Equal(l.files, files) }) {
		b.lazy = append(b.lazy, lazyStyle{files, css})
	}
	b.mu.Unlock()
	j, _ := json.Marshal(css)
	return `const s = document.createElement("style");
s.textContent = ` + string(j) + `;
document.head.appendChild(s);`
}

// lazyStyle is a chunk of stylesheets only a dynamic import reaches: its files, for messages,
// and the text of the <style> its module adds.
type lazyStyle struct {
	files []string
	css   string
}

// lazyFiles and lazyCSS return the files and the texts of the lazy stylesheets, sorted.
func lazyFiles(ls []lazyStyle) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.files...)
	}
	slices.Sort(out)
	return out
}

func lazyCSS(ls []lazyStyle) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.css)
	}
	return out
}
