package pipeline

import (
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
)

// A CSS Module that only a dynamic import reaches, in an app whose config does not name CSS
// Modules' classes (no generateScopedName): Vite gives its CSS to the chunk import() loads,
// linked when the import runs, as any stylesheet's (lazycss.go). esbuild's local-css loader
// names its classes for the whole bundle (File_name, numbered past a collision, minified
// when identifiers are) and puts its rules in the bundle's one stylesheet, from page load,
// with no way to take one file's rules out. So such a module is read as a config's
// generateScopedName module is (cssscoped.go: postcss-modules' reading, Vite's), named by
// lazyNamePattern: its rules, global CSS once named, are the <style> the module adds when the
// import runs, and the script's import of it gets the names (by the config's localsConvention
// when it sets one). esbuild takes those names for global ones, which the names it gives the
// page's other CSS Modules never take (it numbers its own past them).

// lazyModNamespace holds the modules a script's import of a lazy CSS Module resolves to.
const lazyModNamespace = "miniapp-lazy-module"

// lazyModRulesPrefix starts the specifier by which such a module imports its rules, and the
// entry point that builds them (bundler.lazyModuleCSS).
const lazyModRulesPrefix = "miniapp-lazy-module-css:"

// lazyModSuffix is the suffix of the CSS Module file the rules' entry loads: read with its
// names by lazyNamePattern.
const lazyModSuffix = "?miniapp-lazy-module"

// lazyNamePattern names a lazy CSS Module's local names, as a generateScopedName pattern:
// esbuild's File_name, with a hash of the file's path in the app folder and the name, so that
// two files of one name give two names.
const lazyNamePattern = "[name]_[local]_[hash:base64:5]"

// isLazyModule reports whether the metafile's input in is a CSS Module file of the app.
func isLazyModule(in string) bool {
	return !strings.Contains(in, ":") && isCSSModule(in)
}

// lazyNamer names the local names of the lazy CSS Module file.
func (b *bundler) lazyNamer(file string) func(string) string {
	return scopedNamer(lazyNamePattern, "", b.root, file)
}

// lazyModules adds to a page's second build (lazyPlugin) the modules of the lazy CSS Modules
// (by path relative to the app folder): the names, and the import of the rules, which a
// query's module adds when the names module is evaluated.
func (b *bundler) lazyModules(pb api.PluginBuild, lazy map[string]bool, chunks lazyChunking) {
	pb.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: lazyModNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		if rel, ok := strings.CutPrefix(a.Path, lazyModRulesPrefix); ok {
			if c, ok := b.lazyChunkOf(chunks, rel, ""); ok {
				return c, nil
			}
		}
		// A file composes names: through the app's resolvers, as the module's own import.
		o := again(a, byLazyCSS)
		o.Kind = api.ResolveJSImportStatement
		r := pb.Resolve(a.Path, o)
		// A file composed from that is lazy too (lazyStyles) is read as this one is: its
		// names by lazyNamePattern, its rules added when this module's import runs.
		if rel, err := filepath.Rel(b.root, r.Path); len(r.Errors) == 0 && r.Namespace == "file" && err == nil && lazy[filepath.ToSlash(rel)] && isCSSModule(r.Path) {
			return api.OnResolveResult{Path: filepath.ToSlash(rel), Namespace: lazyModNamespace}, nil
		}
		return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, Suffix: r.Suffix, PluginData: r.PluginData, Errors: r.Errors, Warnings: r.Warnings}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: lazyModNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		file := b.abs(a.Path)
		src, errs := b.stylesheet(file)
		if errs != nil {
			return api.OnLoadResult{Errors: errs}, nil
		}
		sc, err := scopeCSSModule(src, b.lazyNamer(file))
		if err != nil {
			return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: file}}}}, nil
		}
		text := scopedNamesJS(sc, lazyModRulesPrefix+a.Path, b.vite.localsConvention())
		return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS, ResolveDir: filepath.Dir(file)}, nil
	})
}

// lazyModuleCSS builds the rules of the lazy CSS Module rel (relative to the app folder) as
// the page's stylesheet builds a stylesheet, with its names by lazyNamePattern: the entry
// resolves to the file with lazyModSuffix (lazyModuleEntry), which the load callback reads so.
func (b *bundler) lazyModuleCSS(rel string) (code, diag.List) {
	opts := b.options()
	opts.EntryPoints = []string{lazyModRulesPrefix + rel}
	return b.run(opts)
}

// lazyModuleEntry resolves the entry point of lazyModuleCSS to its file.
func (b *bundler) lazyModuleEntry(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: `^` + lazyModRulesPrefix}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		if a.Kind != api.ResolveEntryPoint {
			return api.OnResolveResult{}, nil
		}
		return api.OnResolveResult{Path: b.abs(strings.TrimPrefix(a.Path, lazyModRulesPrefix)), Namespace: "file", Suffix: lazyModSuffix}, nil
	})
}

// lazyModuleRules returns the rules of the CSS Module file (its stylesheet css, as built) read
// with its names by lazyNamePattern, without the @imports of the files it composes names
// from, whose rules the names module imports (in the page from load, before these).
func (b *bundler) lazyModuleRules(file, css string) (string, error) {
	sc, err := scopeCSSModule(css, b.lazyNamer(file))
	if err != nil {
		return "", err
	}
	return sc.rules, nil
}
