package pipeline

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/offline"
)

// Vite's resolution where esbuild's differs, as a plugin that runs before confine: an import
// of a data: URL is what the browser would run (the Fetch Standard's data: URL processor,
// whose base64 allows white space, which esbuild's does not), and a package's "browser" field
// maps the imports written inside the package before any file is looked for, as Vite's
// resolver does (esbuild looks for the file first, and fails on a path the field maps to
// another: "./ext-index/index.js": "./out/browser.js").

// dataNamespace holds the modules imported by data: URL.
const dataNamespace = "miniapp-data"

// browserFalseNamespace holds the empty module a browser field's false gives.
const browserFalseNamespace = "miniapp-browser-false"

func (b *bundler) viteResolve() api.Plugin {
	return api.Plugin{Name: "vite-resolve", Setup: func(pb api.PluginBuild) {
		b.cssModuleConvention(pb)
		onAppResolve(pb, `^[dD][aA][tT][aA]:`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport && a.Kind != api.ResolveJSRequireCall {
				return api.OnResolveResult{}, nil // a stylesheet's url(data:…) stays in it
			}
			return api.OnResolveResult{Path: a.Path, Namespace: dataNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: dataNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			mime, _, payload, ok := offline.DataURL(a.Path)
			if !ok {
				return api.OnLoadResult{Errors: []api.Message{{Text: "this data: URL does not decode: a browser would load nothing from it"}}}, nil
			}
			loader, ok := map[string]api.Loader{"text/javascript": api.LoaderJS, "application/javascript": api.LoaderJS,
				"application/json": api.LoaderJSON, "text/css": api.LoaderCSS, "text/plain": api.LoaderText}[mime]
			if !ok {
				return api.OnLoadResult{Errors: []api.Message{{Text: fmt.Sprintf("a data: URL of type %s cannot be imported", mime),
					Notes: []api.Note{{Text: "import a data: URL of text/javascript (as Vite takes), application/json, text/css or text/plain"}}}}}, nil
			}
			s := string(payload)
			return api.OnLoadResult{Contents: &s, Loader: loader}, nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if r, ok := b.aliased(pb, a); ok {
				return r, nil
			}
			if r, ok := b.projectPathsResolve(pb, a); ok {
				return r, nil
			}
			if r, err := b.browserMapped(pb, a); err != nil || r.Path != "" || len(r.Errors) > 0 {
				return r, err
			}
			if msg := b.pathLeavesRoot(a); msg != nil {
				return api.OnResolveResult{Errors: []api.Message{*msg}}, nil
			}
			return b.exportsFallback(a), nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: browserFalseNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			empty := "module.exports = {}"
			return api.OnLoadResult{Contents: &empty, Loader: api.LoaderJS}, nil
		})
	}}
}

// pathLeavesRoot refuses an import of a path (relative, or absolute once the app folder and
// the public folder have no file of that name: the query plugin resolves those) whose folder
// is outside the folder the build may read, before esbuild's resolver looks for the file
// there: the message is then the same whether or not a file is there (with the path checks
// alone, esbuild found it and its load was refused, "… is outside the app folder", where a
// missing one "could not resolve"; under the kernel's fence, whose Landlock does not restrict
// stat, the advice differed too). So is an import of an installed package whose entry (its
// "exports" target, or its "browser", "module" or "main" field) leads out (entryOutside),
// which esbuild's resolver would look for there, and one the app's tsconfig paths or baseUrl
// send out (tsconfigLeaves), or one whose ".." climbs out of node_modules and the root
// (nodeModulesLeaves).
func (b *bundler) pathLeavesRoot(a api.OnResolveArgs) *api.Message {
	if a.Kind == api.ResolveEntryPoint || a.Namespace != "file" && a.Namespace != inlineNamespace {
		return nil
	}
	spec, _, _ := strings.Cut(a.Path, "?")
	var target string
	switch {
	case strings.HasPrefix(spec, "/"):
		target = filepath.FromSlash(spec)
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		if a.ResolveDir == "" {
			return nil
		}
		target = filepath.Join(a.ResolveDir, filepath.FromSlash(spec))
	default:
		if strings.HasPrefix(spec, "#") && a.Importer != "" {
			if f, t, ok := b.importsLeave(spec, a.Importer); ok {
				return &api.Message{Text: fmt.Sprintf("%q: %s's \"imports\" map it to %q, which leads outside %s", a.Path, b.display(b.rel(f)), t, b.rootName()),
					Notes: []api.Note{{Text: b.outsideNote()}}}
			}
			return nil
		}
		if a.ResolveDir == "" || strings.HasPrefix(spec, "#") || strings.Contains(spec, ":") {
			return nil // a URL (refused as one), or no package's name
		}
		// The manifest's build.alias, which esbuild applies after the plugins saw the import
		// as written: a path of the app folder it leads to is checked as any import of a path
		// (a folder alias through a link out: esbuild looked there, "secrets/s.js is outside"
		// where the file was, "there is none" where not), a package as the import of it.
		if to, ok := b.manifestAliased(spec); ok {
			if filepath.IsAbs(to) {
				if text, note, out := b.aliasOutside(spec); out {
					return &api.Message{Text: text, Notes: []api.Note{{Text: note}}}
				}
				return nil
			}
			spec = to
		}
		key := a.ResolveDir + "\x00" + spec
		if m, ok := b.pkgEntries.Load(key); ok {
			return m.(*api.Message)
		}
		var m *api.Message
		if b.nodeModulesLeaves(spec, a.ResolveDir) {
			m = &api.Message{Text: fmt.Sprintf("Could not resolve %q: it names a file outside %s", a.Path, b.rootName()), Notes: []api.Note{{Text: b.outsideNote()}}}
		} else if text, note, ok := b.tsconfigOutside(spec); ok && !strings.Contains(a.Importer, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
			m = &api.Message{Text: text, Notes: []api.Note{{Text: note}}}
		} else if text, note, ok := b.entryOutside(spec, packageName(spec), a.ResolveDir); ok {
			m = &api.Message{Text: text, Notes: []api.Note{{Text: note}}}
		} else if b.packageSubpathLeaves(spec, a.ResolveDir) {
			m = &api.Message{Text: b.subpathOutside(a.Path), Notes: []api.Note{{Text: b.outsideNote()}}}
		}
		b.pkgEntries.Store(key, m)
		return m
	}
	if !b.targetLeavesRoot(filepath.Clean(target)) {
		return nil
	}
	if strings.HasPrefix(spec, "/") {
		text, note := b.absoluteMissing(a.Path)
		return &api.Message{Text: text, Notes: []api.Note{{Text: note}}}
	}
	return &api.Message{Text: fmt.Sprintf("Could not resolve %q: it names a file outside %s", a.Path, b.rootName()), Notes: []api.Note{{Text: b.outsideNote()}}}
}

// assetIncluded reports whether the file at lower (its path, lower-cased) has an extension the
// config's assetsInclude names and esbuild has no loader of its own for: the confine plugin's
// one load callback loads it, once it is confined, with loadAssetIncluded.
func (b *bundler) assetIncluded(lower string) bool {
	for _, e := range b.vite.assetExtensions() {
		e = strings.ToLower(e)
		if _, builtin := assetLoaders[e]; !builtin && strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}

// loadAssetIncluded loads a file assetsInclude names as its URL, of the type its extension
// names (application/octet-stream for one no registry knows), as Vite inlines it.
func (b *bundler) loadAssetIncluded(p string) (api.OnLoadResult, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return api.OnLoadResult{}, nil // esbuild reports it
	}
	u, _ := json.Marshal(encodeDataURL(p, data))
	s := "export default " + string(u)
	b.setFlag(&b.flags.assetURLs)
	return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS}, nil
}

// aliased resolves an import the config's resolve.alias rewrites, in order, the first that
// matches: its replacement resolved from the importer as any import (an absolute path, a
// package, a path relative to the importer).
func (b *bundler) aliased(pb api.PluginBuild, a api.OnResolveArgs) (api.OnResolveResult, bool) {
	if b.vite == nil || len(b.vite.Alias) == 0 || a.Kind == api.ResolveEntryPoint {
		return api.OnResolveResult{}, false
	}
	ask := askedBy(a.PluginData)
	if !ask.answers(byAlias) {
		return api.OnResolveResult{}, false
	}
	for _, al := range b.vite.Alias {
		to, ok := al.apply(a.Path)
		if !ok {
			continue
		}
		dir := a.ResolveDir
		if dir == "" {
			dir = b.root
		}
		o := again(a, byAlias)
		o.ResolveDir = dir
		r := pb.Resolve(to, o)
		if len(r.Errors) > 0 {
			return api.OnResolveResult{Errors: r.Errors}, true
		}
		return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, External: r.External, PluginData: r.PluginData, Suffix: r.Suffix}, true
	}
	return api.OnResolveResult{}, false
}

// browserMapped resolves an import written inside a package whose package.json has a
// "browser" object by that object, as Vite's tryResolveBrowserMapping does, the app's own
// package.json too: a relative import is looked up by its path in the package
// ("./dir/file.js"), a bare one by its name; a string is what to resolve instead (through
// the path checks, as written: one that leads out is refused before anything there is
// looked at), false an empty module. Other imports are left to esbuild.
func (b *bundler) browserMapped(pb api.PluginBuild, a api.OnResolveArgs) (api.OnResolveResult, error) {
	if a.Namespace != "file" || a.Importer == "" || a.Kind == api.ResolveEntryPoint || !askedBy(a.PluginData).answers(byBrowserField) {
		return api.OnResolveResult{}, nil
	}
	if msg := b.browserLeaves(filepath.Dir(a.Importer)); msg != nil {
		return api.OnResolveResult{Errors: []api.Message{*msg}}, nil
	}
	pkgDir, browser := b.nearestBrowserMap(filepath.Dir(a.Importer))
	if browser == nil {
		return api.OnResolveResult{}, nil
	}
	spec, query, _ := strings.Cut(a.Path, "?")
	id := spec
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		rel, err := filepath.Rel(pkgDir, filepath.Join(a.ResolveDir, filepath.FromSlash(spec)))
		if err != nil || strings.HasPrefix(rel, "..") {
			return api.OnResolveResult{}, nil
		}
		id = "./" + filepath.ToSlash(rel)
	} else if strings.HasPrefix(spec, "/") || strings.Contains(spec, ":") {
		return api.OnResolveResult{}, nil
	}
	target, found := mapWithBrowserField(id, browser)
	if !found {
		return api.OnResolveResult{}, nil
	}
	if target == nil {
		return api.OnResolveResult{Path: a.Path, Namespace: browserFalseNamespace}, nil
	}
	to := *target
	resolveDir := a.ResolveDir
	if strings.HasPrefix(to, "./") || strings.HasPrefix(to, "../") {
		resolveDir = pkgDir
	}
	if query != "" {
		to += "?" + query
	}
	o := again(a, byBrowserField)
	o.ResolveDir = resolveDir
	r := pb.Resolve(to, o)
	if len(r.Errors) > 0 {
		return api.OnResolveResult{Errors: r.Errors}, nil
	}
	return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, External: r.External, PluginData: r.PluginData}, nil
}

// browserLeaves refuses the imports written under the package.json whose "browser" object
// esbuild applies to them (the nearest above dir that has one, inside the root: its
// enclosing browser scope) when a target of that object, a path, leads out of the root: esbuild
// maps an import by more keys than Vite (a key with any of its extensions, "./a.ts" for
// "./a"), after it has found the file, and looks for the target where it leads; a build said
// "… leads outside the app folder" where a file was there and built the file as written
// where not. The object is refused as a whole, by where its targets lead, whatever is there.
func (b *bundler) browserLeaves(dir string) *api.Message {
	for d := dir; strings.HasPrefix(d, b.readRoot); d = filepath.Dir(d) {
		f := b.packageJSON(filepath.Join(d, "package.json"))
		if f == nil || f.browser == nil {
			if filepath.Dir(d) == d {
				break
			}
			continue
		}
		v, ok := b.browserOut.Load(d)
		if !ok {
			key := ""
			for _, k := range slices.Sorted(maps.Keys(f.browser)) {
				var to string
				if json.Unmarshal(f.browser[k], &to) == nil && (strings.HasPrefix(to, "./") || strings.HasPrefix(to, "../") || strings.HasPrefix(to, "/")) &&
					b.leavesRoot(browserTarget(d, to)) {
					key = k
					break
				}
			}
			v, _ = b.browserOut.LoadOrStore(d, key)
		}
		key := v.(string)
		if key == "" {
			return nil
		}
		var to string
		json.Unmarshal(f.browser[key], &to)
		manifest := b.display(b.rel(filepath.Join(d, "package.json")))
		return &api.Message{Text: fmt.Sprintf("%s's \"browser\" maps %q to %q, which leads outside %s", manifest, key, to, b.rootName()),
			Notes: []api.Note{{Text: b.outsideNote()}}}
	}
	return nil
}

// browserTarget is the path a "browser" object's target names, relative to the package's
// folder dir unless absolute.
func browserTarget(dir, to string) string {
	if strings.HasPrefix(to, "/") {
		return filepath.FromSlash(to)
	}
	return filepath.Join(dir, filepath.FromSlash(to))
}

// exportsFallback resolves a bare import of a package subpath that the package's exports map
// to a file that is not there as written, as Vite's resolver does after Node's rule: the
// target with an extension added (".": "./dir/*" and an import of "pkg/dir/file" naming
// dir/file.js), or under a folder mapping ("./dir/": "./dir/"). Where the target is there,
// or the package has no exports, esbuild resolves it.
func (b *bundler) exportsFallback(a api.OnResolveArgs) api.OnResolveResult {
	spec, query, _ := strings.Cut(a.Path, "?")
	name := packageName(spec)
	if name == "" || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "#") || a.ResolveDir == "" {
		return api.OnResolveResult{}
	}
	sub := strings.TrimPrefix(spec, name)
	for d := a.ResolveDir; strings.HasPrefix(d, b.readRoot); d = filepath.Dir(d) {
		pkgDir := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		pkg := b.packageJSON(filepath.Join(pkgDir, "package.json"))
		if pkg == nil {
			if filepath.Dir(d) == d {
				break
			}
			continue
		}
		if pkg.bad || pkg.noExports {
			return api.OnResolveResult{}
		}
		target, ok := pkg.exportTarget("." + sub)
		if !ok || !strings.HasPrefix(target, "./") {
			return api.OnResolveResult{}
		}
		f := filepath.Join(pkgDir, filepath.FromSlash(path.Clean(target)))
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			return api.OnResolveResult{} // esbuild finds it
		}
		for _, ext := range b.extensions() {
			if st, err := os.Stat(f + ext); err == nil && !st.IsDir() {
				return api.OnResolveResult{Path: f + ext, Suffix: querySuffix(query)}
			}
		}
		return api.OnResolveResult{}
	}
	return api.OnResolveResult{}
}

// extensions are the extensions an import without one may name, in order.
func (b *bundler) extensions() []string { return b.vite.extensions() }

func querySuffix(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}

// firstKey is the first key of a JSON object, "" for another value.
func firstKey(raw json.RawMessage) string {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	t, _ := dec.Token()
	k, _ := t.(string)
	return k
}

// packageFields are the fields of a package.json the resolver reads: its "browser" field
// when that is an object (nil otherwise), and its "exports" as subpaths ("." for the sugar
// of a single target or a map of conditions), with noExports set when it is no object.
// bad is set for a file that is not JSON.
type packageFields struct {
	browser   map[string]json.RawMessage
	exports   map[string]json.RawMessage
	noExports bool
	bad       bool
	// targets holds each subpath's match in exports under resolveConditions (exportTarget).
	targets sync.Map
}

// exportTarget is matchExports of sub in the package's exports under resolveConditions, each
// subpath matched once per build.
func (f *packageFields) exportTarget(sub string) (string, bool) {
	type match struct {
		target string
		ok     bool
	}
	if v, ok := f.targets.Load(sub); ok {
		m := v.(match)
		return m.target, m.ok
	}
	t, ok := matchExports(f.exports, sub, resolveConditions)
	f.targets.Store(sub, match{t, ok})
	return t, ok
}

// packageJSON reads the package.json at p, once per build: every import written in a package
// asks for its package's, and a rebuild of an app of a few hundred modules read and decoded
// them thousands of times. nil when there is none.
func (b *bundler) packageJSON(p string) *packageFields {
	if v, ok := b.packages.Load(p); ok {
		return v.(*packageFields)
	}
	var f *packageFields
	if data, err := readIn(p, b.readRoot); err == nil {
		var pkg struct {
			Browser json.RawMessage `json:"browser"`
			Exports json.RawMessage `json:"exports"`
		}
		f = &packageFields{}
		if json.Unmarshal(data, &pkg) != nil {
			f.bad = true
		} else {
			if json.Unmarshal(pkg.Exports, &f.exports) != nil {
				f.exports, f.noExports = nil, true
			} else if !strings.HasPrefix(firstKey(pkg.Exports), ".") {
				f.exports = map[string]json.RawMessage{".": pkg.Exports}
			}
			if json.Unmarshal(pkg.Browser, &f.browser) != nil {
				f.browser = nil
			}
		}
	}
	v, _ := b.packages.LoadOrStore(p, f)
	return v.(*packageFields)
}

// nearestBrowserMap returns the folder of the package.json nearest to dir (not above the
// folder the build reads), and its "browser" field when that is an object.
func (b *bundler) nearestBrowserMap(dir string) (string, map[string]json.RawMessage) {
	for d := dir; strings.HasPrefix(d, b.readRoot); d = filepath.Dir(d) {
		if f := b.packageJSON(filepath.Join(d, "package.json")); f != nil {
			return d, f.browser
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", nil
}

// mapWithBrowserField looks id (./path in the package, or a bare name) up in a browser
// object as Vite's mapWithBrowserField does: each key normalized, equal to id, or to id with
// .js or /index.js added. It returns the target (nil for false) and whether a key matched.
func mapWithBrowserField(id string, browser map[string]json.RawMessage) (*string, bool) {
	norm := path.Clean(id)
	keys := make([]string, 0, len(browser))
	for k := range browser {
		keys = append(keys, k)
	}
	// A package.json's keys in their order would decide between two that match; a JSON
	// object read into a map has none, so the longest, most specific key wins.
	sortByLengthDesc(keys)
	for _, k := range keys {
		nk := path.Clean(k)
		if nk == norm || nk == norm+".js" || nk == norm+"/index.js" {
			var s string
			if json.Unmarshal(browser[k], &s) == nil {
				return &s, true
			}
			var f bool
			if json.Unmarshal(browser[k], &f) == nil && !f {
				return nil, true
			}
			return nil, false
		}
	}
	return nil, false
}

func sortByLengthDesc(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (len(s[j]) > len(s[j-1]) || len(s[j]) == len(s[j-1]) && s[j] < s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
