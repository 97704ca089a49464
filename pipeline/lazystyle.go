package pipeline

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// A stylesheet that only a dynamic import reaches is, in Vite's build, a CSS file of the
// dynamically imported chunk, which Vite's preload helper appends to <head> when the import
// runs: it comes after whatever the page added before then (a <style> a script inserted), and
// it is not in the page until then. esbuild's one bundle puts every stylesheet in the page
// from the start. So a script build whose metafile shows such a stylesheet (its module,
// styleStubNamespace, reached from no entry but through a dynamic import) is built once more,
// that module then appending a <style> of the stylesheet as built (as ?inline gives it) to
// <head> when it is evaluated, which esbuild does when the import runs, once. The texts are
// kept for the page's policy (a style-src of hashes allows them).

// lazyStylesheets returns the stylesheet modules of the build's metafile that no entry point
// reaches but through a dynamic import, by their path; nil when none.
func lazyStylesheets(metafile string) map[string]bool {
	var m struct {
		Inputs map[string]struct {
			Imports []struct{ Path, Kind string }
		}
		Outputs map[string]struct {
			EntryPoint string
		}
	}
	if !strings.Contains(metafile, styleStubNamespace+":") || json.Unmarshal([]byte(metafile), &m) != nil {
		return nil
	}
	static := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		if static[p] {
			return
		}
		static[p] = true
		for _, im := range m.Inputs[p].Imports {
			if im.Kind != "dynamic-import" {
				walk(im.Path)
			}
		}
	}
	for _, o := range m.Outputs {
		if o.EntryPoint != "" {
			walk(o.EntryPoint)
		}
	}
	var lazy map[string]bool
	for p := range m.Inputs {
		if file, ok := strings.CutPrefix(p, styleStubNamespace+":"); ok && !static[p] {
			if lazy == nil {
				lazy = map[string]bool{}
			}
			lazy[file] = true
		}
	}
	return lazy
}

// withLazyStyles returns opts with the lazy stylesheets added when evaluated, or false when
// opts is not a script build's (its first plugin is not pickPlugin).
func (b *bundler) withLazyStyles(opts api.BuildOptions, lazy map[string]bool) (api.BuildOptions, bool) {
	if len(opts.Plugins) == 0 || opts.Plugins[0].Name != pickPluginName {
		return opts, false
	}
	opts.Plugins = slices.Clone(opts.Plugins)
	opts.Plugins[0] = b.pickPluginWith(lazy)
	return opts, true
}

// lazyStyle is the module of the stylesheet file that appends it to <head> when evaluated.
func (b *bundler) lazyStyle(file string) api.OnLoadResult {
	c, l := b.entry(b.rel(file))
	if l.HasErrors() {
		return api.OnLoadResult{Errors: []api.Message{{Text: l[0].Text, Location: &api.Location{File: file}}}}
	}
	b.mu.Lock()
	b.lazyStyles = append(b.lazyStyles, c.css)
	b.mu.Unlock()
	text := "const s = document.createElement(\"style\");\ns.textContent = " + jsString(c.css) + ";\ndocument.head.appendChild(s);\n"
	return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}
}
