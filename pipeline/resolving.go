package pipeline

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// A plugin that resolves an import again through the build (pb.Resolve: its own look at what
// the import names, before it answers with a module of its own or with another path) marks
// that second resolution with one mark, resolving, which every plugin reads the same way:
//
//   - A plugin that rewrites a specifier to another one (the config's resolve.alias, a
//     tsconfig project's paths, a package's browser field) answers every resolution but one it
//     asked itself, as Vite's alias plugin skips itself (skipSelf): the file an import names
//     is found through all of them, whichever asks first.
//   - A plugin that gives an import a module of bundle's in place of the file (a query's
//     module, an SVG's data: URL, a stylesheet's module of no exports, a lazy stylesheet, a
//     scoped CSS Module, a CSS Module's convention, the CommonJS interop check) answers only a
//     resolution that no such plugin asked: one of them asking is asking which file the import
//     names, Vite's resolveId, not its load; the module is the asker's to give. (?raw of an
//     SVG is its text: the SVG plugin does not answer the query plugin's look at the file.)
//
// A plugin that asks extends the mark it was given, never replaces it: no plugin answers
// twice in one chain, whichever order the plugins run in, and the PluginData the import came
// with (inner) reaches every plugin through original.
type resolving struct {
	by    asker
	inner any
}

// asker is a set of the plugins that resolve an import again.
type asker uint16

const (
	// Plugins that rewrite a specifier.
	byAlias asker = 1 << iota
	byBrowserField
	byProjectPaths
	// Plugins that give a module of bundle's.
	byQuery
	bySVG
	byStyleStub
	byLazyCSS
	byScoped
	byConvention
	byCJS
	// The plugin that gives an @imported stylesheet its importer's encoding (cssencoding.go).
	byCharset
)

// moduleAskers are the plugins that give a module of bundle's in place of the file.
const moduleAskers = byQuery | bySVG | byStyleStub | byLazyCSS | byScoped | byConvention | byCJS

var askerNames = []string{"alias", "browser-field", "project-paths", "query", "svg", "style-stub", "lazy-css", "scoped", "convention", "cjs", "charset"}

// String names the plugins of the set, for messages and tests.
func (s asker) String() string {
	var names []string
	for i, n := range askerNames {
		if s&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, "+")
}

// askedBy reads the PluginData of a resolution: the mark of the plugins that asked it, or, for
// an import as written, none, with the import's own PluginData as inner.
func askedBy(pluginData any) resolving {
	if r, ok := pluginData.(resolving); ok {
		return r
	}
	return resolving{inner: pluginData}
}

// answers reports whether the plugin p takes part in the resolution.
func (r resolving) answers(p asker) bool {
	if p&moduleAskers != 0 {
		return r.by&moduleAskers == 0
	}
	return r.by&p == 0
}

// then is the mark of p's own resolution of the same import: r, with p among its askers.
func (r resolving) then(p asker) resolving {
	r.by |= p
	return r
}

// again returns the options of the plugin p's own resolution of a's import: from the same
// importer and folder, of the same kind, marked by p over the mark a came with, and asked in
// the namespace where the app's resolvers apply (code written in the page's, else a file's:
// esbuild runs a callback registered for a namespace only for an importer of it, so a
// resolution asked in none skips them all, root-relative paths and SVGs included).
func again(a api.OnResolveArgs, p asker) api.ResolveOptions {
	ns := "file"
	if a.Namespace == inlineNamespace {
		ns = inlineNamespace
	}
	return api.ResolveOptions{Importer: a.Importer, ResolveDir: a.ResolveDir, Kind: a.Kind, Namespace: ns, PluginData: askedBy(a.PluginData).then(p)}
}

// original returns the PluginData an import came with, before any plugin asked again.
func original(pluginData any) any { return askedBy(pluginData).inner }
