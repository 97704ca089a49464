package pipeline

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/sdk"
	"github.com/miniapp/bundle/sourcemap"
)

// assetLoaders are the file types inlined as data: URLs when JS or CSS imports them.
var assetLoaders = map[string]api.Loader{
	".png": api.LoaderDataURL, ".jpg": api.LoaderDataURL, ".jpeg": api.LoaderDataURL,
	".gif": api.LoaderDataURL, ".webp": api.LoaderDataURL, ".avif": api.LoaderDataURL,
	".svg": api.LoaderDataURL, ".ico": api.LoaderDataURL, ".bmp": api.LoaderDataURL,
	".woff": api.LoaderDataURL, ".woff2": api.LoaderDataURL, ".ttf": api.LoaderDataURL,
	".otf": api.LoaderDataURL, ".eot": api.LoaderDataURL,
	".mp3": api.LoaderDataURL, ".wav": api.LoaderDataURL, ".ogg": api.LoaderDataURL,
	".mp4": api.LoaderDataURL, ".webm": api.LoaderDataURL,
	".txt": api.LoaderText, ".json": api.LoaderJSON,
}

var loaderNames = map[string]api.Loader{
	"js": api.LoaderJS, "jsx": api.LoaderJSX, "ts": api.LoaderTS, "tsx": api.LoaderTSX,
	"css": api.LoaderCSS, "json": api.LoaderJSON, "text": api.LoaderText,
	"base64": api.LoaderBase64, "dataurl": api.LoaderDataURL, "binary": api.LoaderBinary,
	"empty": api.LoaderEmpty,
}

// bundler runs esbuild for one app, with the options every bundle of the app shares.
type bundler struct {
	m    *manifest.Manifest
	root string // the app folder, absolute, symlinks resolved
	// readRoot is the folder imports may read: the workspace root above the app, or root;
	// readWhy says which applied ("" for the app folder).
	readRoot, readWhy string
	// pkgEntries holds, by the importing folder and a bare import, whether the package's entry
	// leaves readRoot (pathLeavesRoot): the message, or nil.
	pkgEntries sync.Map
	// browserOut holds, by a package's folder, the key of its "browser" object whose target
	// leads out of readRoot (browserLeaves), or "".
	browserOut sync.Map
	outDir     string // where the build writes, absolute; never read
	css        *cssTools
	// mu guards what esbuild's callbacks write, from its goroutines: flags, inputs, legal
	// and carry.
	mu sync.Mutex
	// flags say what the bundles need of the page's policy.
	flags struct {
		assetURLs bool // files turned into URLs the app may fetch (connect-src data:)
		blobs     bool // scripts started from blob: URLs (worker-src blob:)
		styleData bool // stylesheets linked as data: URLs (style-src data:)
	}
	dir    string // the app folder as the caller named it, for messages
	define map[string]string
	// inputs accumulates bytes each input contributed, over every esbuild run, for the size
	// budget's report.
	inputs map[string]int
	// codeIn and styleIn are the inputs that gave a script code, and those that gave a
	// stylesheet CSS (Result.CodeInputs, Result.StyleInputs).
	codeIn, styleIn map[string]bool
	legal           []string // legal comments, kept out of the bundle
	// lazy are the stylesheets only a dynamic import reaches, with the texts of the <style>s
	// their modules add to the page (lazycss.go), hashed into style-src where the page's own
	// policy wants hashes.
	lazy      []lazyStyle
	sourcemap bool // esbuild makes source maps
	// localNames renames the local bindings of each minified script anew (localnames.go).
	localNames bool
	// noUnwritten leaves module-level bindings nothing writes as variables (unwritten.go).
	noUnwritten bool
	// noParamReads reads a parameter given to a sink as data (markupparam.go).
	noParamReads bool
	writeMap     bool // --sourcemap: the map of the first module script is written
	// carry is set when a bundle holds an MCP Apps client of the app's own (sdk.CarriedClients).
	carry bool
	// session, when set, keeps esbuild's contexts from one build to the next.
	session *Session
	// realDirs holds the real path of each folder realPath has resolved, for one build.
	realDirs sync.Map
	// rewritten holds the specifiers of the imports rewriteBarrelImports wrote, by the
	// importer's folder, and the file each names.
	rewritten sync.Map
	// written holds, with source maps, the text of each app script the source transforms
	// changed, as its author wrote it, by path or inline name (mapSources).
	written sync.Map
	// edited holds, by an app script's path or inline name (editKey), what the transforms did
	// to it (sourceEdits), by which esbuild's messages are placed in the source as written.
	edited sync.Map
	// marked holds, by path, the source as written (markedSource) of each app script the
	// build ended with moduleMark, by which a message esbuild gives in the mark is given
	// for the source as written (pastSource).
	marked sync.Map
	// sassMaps holds, by path, a stylesheet's compiled CSS and its source map (compiledCSS).
	sassMaps sync.Map
	// backslashed holds each file loaded whose name holds a backslash (a letter of a name,
	// not on Windows), by its path with slashes for them, as esbuild names it in a source
	// map (mapSources names it as it is).
	backslashed sync.Map
	// inline holds the code written in the page that entries bundles, by its path in
	// inlineNamespace.
	inline map[string]inlineCode
	// workers holds the workers built in this build; workerFormat is Vite's worker.format
	// ("iife", the default, or "es") for the workers whose constructor does not say.
	workers      *workerBuilds
	workerFormat string
	// vite is the app's vite.config, nil for none.
	vite *viteConfig
	// ctx is the build's: when it is done, esbuild's builds and the CSS tools stop.
	ctx context.Context
	// tsconfigRaw is the tsconfig esbuild applies (tsconfig.go), read for each build.
	tsconfigRaw string
	// tsconfigFile is the tsconfig it was read from ("" for none); projects holds, for each
	// file, folder and project read, the project of a file of the app where another than
	// the app's (tsfolders.go).
	tsconfigFile string
	projects     sync.Map
	// cjs is what the build found of default imports of CommonJS modules (cjs.go).
	cjs cjsState
	// folders holds the folders the build listed and the resolutions the barrel rewriting
	// asked of esbuild (folders.go); browserMaps, whether a folder's package maps files for
	// browsers.
	folders     folders
	browserMaps sync.Map
	// packages holds the package.json files the resolver read, by path, for one build.
	packages sync.Map
	// evalScans keeps what evalInPackages found in each module of a package, by path, from
	// one build of a session to the next.
	evalScans map[string]evalScan
	// routes is what the build found of routing on the URL's path, public the public
	// folder's listing (hostframe.go).
	routes routes
	// moduleGlobals holds, by file, the calls of a global each app module makes that it
	// does not give itself, read against the page's classic scripts once those are known
	// (globalfns.go).
	moduleGlobals sync.Map
	public        publicListing
	// components keeps the styles of the components compiled (frameworks.go); solid says,
	// once known, whether the app's JSX is Solid's.
	components componentState
	solidOnce  sync.Once
	solid      bool
}

// inlineNamespace is the esbuild namespace of the code written in the page (an inline module
// script or <style>) that entries bundles with the page's files, as inlineNamespace:N; every
// name esbuild gives it is the page's (see inlineName, abs and mapSources).
const inlineNamespace = "miniapp-inline"

// onAppResolve registers fn for the imports whose path filter matches in the app's own code:
// its files, and the code written in its page (inlineNamespace), which must resolve as they
// do.
func onAppResolve(pb api.PluginBuild, filter string, fn func(api.OnResolveArgs) (api.OnResolveResult, error)) {
	for _, ns := range []string{"file", inlineNamespace} {
		pb.OnResolve(api.OnResolveOptions{Filter: filter, Namespace: ns}, fn)
	}
}

// inlineCode is code written in the page, as esbuild bundles it: its imports resolve from the
// page's folder.
type inlineCode struct {
	contents string
	name     string // the page, relative to the app folder: its name in messages and maps
	loader   api.Loader
	// graph: the entry of the page's module graph (graph.go), which alone may import the
	// code of its members, inlineNamespace:key.j.
	graph bool
	// wraps, for the wrapper of a member of a graph (graph.go), is the graph's key: the
	// wrapper alone may import that member.
	wraps string
}

// inlineName returns the name of the page for esbuild's name of code written in it (p), and
// whether p is one.
func (b *bundler) inlineName(p string) (string, bool) {
	if k, ok := strings.CutPrefix(p, inlineNamespace+":"); ok {
		if c, ok := b.inline[k]; ok {
			return c.name, true
		}
	}
	return "", false
}

// newBundler prepares the builds of the app m, loaded from dir, with the public .env values
// env; its caller closes b.css.
func newBundler(m *manifest.Manifest, dir, appRoot string, env map[string]string, cfg *viteConfig, opts Options) (*bundler, error) {
	outDir, err := outputDir(dir, appRoot, opts)
	if err != nil {
		return nil, err
	}
	// A vite.config's root may be a folder of the app: what the build may read is the app
	// folder's (its workspace's), the files outside root included.
	readRoot, readWhy := workspaceRoot(appRoot)
	b := &bundler{m: m, root: m.Root, readRoot: readRoot, readWhy: readWhy, outDir: outDir, dir: dir,
		define: cfg.defines(env, m.Build.Define), inputs: map[string]int{}, codeIn: map[string]bool{}, styleIn: map[string]bool{}, sourcemap: opts.Sourcemap || opts.KeepSourceMap, writeMap: opts.Sourcemap, localNames: !opts.noLocalNames, noUnwritten: opts.noUnwritten, noParamReads: opts.noParamReads,
		css: newCSSTools(m.Root, readRoot, outDir, opts.TempDir, opts.NoFence, opts.NoNode), workers: &workerBuilds{}, ctx: context.Background(), vite: cfg}
	if cfg != nil && cfg.WorkerFormat != "" {
		b.workerFormat = cfg.WorkerFormat
	}
	if cfg != nil {
		b.css.preprocessorOptions, b.css.viteFile, b.css.aliases = cfg.Preprocessor, cfg.File, cfg.nodeAliases()
	}
	b.frameworkDefines()
	return b, nil
}

// code is one esbuild result: the JavaScript and the CSS it imported.
type code struct {
	js, css string
	// imports are the import records left in js, from esbuild's metafile; known is false
	// when js is not what esbuild printed, and the offline check must parse it.
	imports []offline.Import
	known   bool
	// jsMap is the source map of js, when the bundler writes source maps.
	jsMap []byte
}

// options are the esbuild options of the page's bundles.
func (b *bundler) options() api.BuildOptions { return b.optionsFor(nil) }

// optionsFor are the esbuild options of a bundle inside the bundles of the workers chain.
func (b *bundler) optionsFor(chain workerChain) api.BuildOptions {
	loaders := map[string]api.Loader{}
	for k, v := range assetLoaders {
		loaders[k] = v
	}
	// An extension of the config's resolve.extensions that no loader knows is a module of
	// script, as Vite reads one (custom-ext.es).
	for _, ext := range b.vite.extensions() {
		if _, ok := loaders[ext]; !ok && !slices.Contains([]string{".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mjs", ".mts", ".cjs", ".cts"}, ext) {
			loaders[ext] = api.LoaderJS
		}
	}
	for _, ext := range b.vite.assetExtensions() {
		if _, ok := loaders[ext]; !ok {
			loaders[ext] = api.LoaderDataURL
		}
	}
	for ext, name := range b.m.Build.Loader {
		loaders[ext] = loaderNames[name]
	}
	target, engines := b.target()
	sm := api.SourceMapNone
	if b.sourcemap {
		sm = api.SourceMapExternal
	}
	return api.BuildOptions{
		AbsWorkingDir:     b.root,
		Bundle:            true,
		Write:             false,
		Metafile:          true,
		Outdir:            "out",
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		Target:            target,
		Engines:           engines,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      b.vite.minifySyntax(),
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsExternal,
		JSX:               api.JSXAutomatic,
		Define:            esbuildDefines(b.define),
		Loader:            loaders,
		Alias:             b.aliases(),
		// Vite's: module and production besides esbuild's own (browser, import or require,
		// default).
		Conditions:        b.conditions(),
		ResolveExtensions: b.vite.extensions(),
		MainFields:        b.vite.mainFields(),
		// Given, so that esbuild reads no tsconfig.json itself: none above the root applies,
		// and an extends that leaves it is never read (tsconfig.go).
		TsconfigRaw:    b.tsconfigRaw,
		Splitting:      false,
		Sourcemap:      sm,
		SourcesContent: sourcesContent(b.writeMap),
		LogLevel:       api.LogLevelSilent,
		// An @import after other rules, or in a block, is one the browser ignores, and
		// esbuild leaves it in the stylesheet as written (a warning): the built page would
		// then hold a URL the offline check refuses at the built page's line. An error at the
		// author's place instead, with the fix (importMessage).
		LogOverride: map[string]api.LogLevel{"invalid-@import": api.LogLevelError},
		Plugins:     guardInputMaps([]api.Plugin{b.pickPlugin(), b.queryPlugin(chain), b.viteResolve(), b.confine(chain)}, sm != api.SourceMapNone, loaders, b.outside),
	}
}

// aliases turns the manifest's aliases into esbuild's: a path alias must be ./ relative to
// the app folder, which esbuild wants as an absolute path.
func (b *bundler) aliases() map[string]string {
	if len(b.m.Build.Alias) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range b.m.Build.Alias {
		if strings.HasPrefix(v, "./") {
			v = filepath.Join(b.root, filepath.FromSlash(v))
		}
		out[k] = v
	}
	return out
}

// manifestAliased returns the import spec as esbuild's alias option (the manifest's
// build.alias, aliases) rewrites a package path, by esbuild's resolver's rule: the longest
// key that is the whole spec or its start up to a "/", replaced by its value (a path of the
// app folder, absolute, or a package), the rest kept but for a lone "/"; false where no key
// matches.
func (b *bundler) manifestAliased(spec string) (string, bool) {
	if len(b.m.Build.Alias) == 0 {
		return "", false
	}
	longest, value := "", ""
	for k, v := range b.aliases() {
		if len(k) > len(longest) && strings.HasPrefix(spec, k) && (len(spec) == len(k) || spec[len(k)] == '/') {
			longest, value = k, v
		}
	}
	if longest == "" {
		return "", false
	}
	if tail := spec[len(longest):]; tail != "/" {
		value += tail
	}
	return value, true
}

// defaultTarget is Vite 8's default build target, 'baseline-widely-available'.
const defaultTarget = "chrome111,edge111,firefox114,safari16.4"

// target is the manifest's build.target, or Vite's default, as esbuild takes it.
func (b *bundler) target() (api.Target, []api.Engine) {
	t := b.m.Build.Target
	if t == "" {
		t = defaultTarget
	}
	return parseTarget(t)
}

// parseTarget reads an esbuild target list: an ECMAScript version (esnext when none is
// named) and browser or runtime versions.
func parseTarget(t string) (api.Target, []api.Engine) {
	target := api.ESNext
	var engines []api.Engine
	names := map[string]api.EngineName{"chrome": api.EngineChrome, "edge": api.EngineEdge,
		"firefox": api.EngineFirefox, "safari": api.EngineSafari, "ios": api.EngineIOS,
		"opera": api.EngineOpera, "node": api.EngineNode, "deno": api.EngineDeno,
		"hermes": api.EngineHermes, "ie": api.EngineIE, "rhino": api.EngineRhino}
	for _, part := range strings.Split(t, ",") {
		part = strings.TrimSpace(part)
		switch part {
		case "es5":
			target = api.ES5
		case "es6", "es2015":
			target = api.ES2015
		case "esnext":
			target = api.ESNext
		}
		if strings.HasPrefix(part, "es20") {
			target = map[string]api.Target{"es2016": api.ES2016, "es2017": api.ES2017, "es2018": api.ES2018,
				"es2019": api.ES2019, "es2020": api.ES2020, "es2021": api.ES2021, "es2022": api.ES2022,
				"es2023": api.ES2023, "es2024": api.ES2024, "es2025": api.ES2025, "es2015": api.ES2015}[part]
			if target == 0 {
				target = api.ESNext
			}
		}
		for name, e := range names {
			if v, ok := strings.CutPrefix(part, name); ok && v != "" && v[0] >= '0' && v[0] <= '9' {
				engines = append(engines, api.Engine{Name: e, Version: v})
			}
		}
	}
	sort.Slice(engines, func(i, j int) bool { return engines[i].Name < engines[j].Name })
	return target, engines
}

// sdkNamespace is the esbuild namespace of @miniapp/sdk and @miniapp/sdk/react, which resolve
// to modules of the SDK rather than to files.
const sdkNamespace = "miniapp-sdk"

// How the size budget's note names what the SDK adds: the functions the app imports from
// @miniapp/sdk (bundled with its code), and the script the build puts in every page.
const (
	sdkImported = "@miniapp/sdk (the functions the app imports)"
	sdkInjected = "@miniapp/sdk (the SDK's script in every page)"
)

// legalNamespace holds the legal comments of barrels whose modules are imported directly
// (barrel.go).
const legalNamespace = "miniapp-legal"

// confine is an esbuild plugin that refuses, before esbuild reads it, any file outside the app
// folder (through ../, an absolute path or a symbolic link), and resolves @miniapp/sdk to the
// SDK already in the page. Its one load callback is where every file passes: confined, then
// loaded as its kind wants (the app's scripts through the source transforms, stylesheets
// through the app's CSS tools, images and fonts checked against their extension).
func (b *bundler) confine(chain workerChain) api.Plugin {
	return api.Plugin{Name: "confine", Setup: func(pb api.PluginBuild) {
		b.componentPlugin(pb)
		b.lazyModuleEntry(pb)
		b.importedCharset(pb)
		// Code written in the page, as an entry of entries (only: an import of the name is
		// refused as any URL's below).
		pb.OnResolve(api.OnResolveOptions{Filter: `^` + inlineNamespace + `:(` + graphInlineKey + `|[0-9]+)(\.[0-9]+)?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			in := b.inline[a.Importer]
			member := a.Namespace == inlineNamespace && (in.graph && strings.HasPrefix(a.Path, inlineNamespace+":"+a.Importer+".") ||
				in.wraps != "" && strings.HasPrefix(a.Path, inlineNamespace+":"+in.wraps+"."))
			if a.Kind != api.ResolveEntryPoint && !member {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, inlineNamespace+":"), Namespace: inlineNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: inlineNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			c, ok := b.inline[a.Path]
			if !ok {
				return api.OnLoadResult{}, fmt.Errorf("no code written in the page is numbered %s", a.Path)
			}
			page := b.abs(c.name)
			res := api.OnLoadResult{Contents: &c.contents, Loader: c.loader, ResolveDir: filepath.Dir(page)}
			switch c.loader {
			case api.LoaderCSS:
				// A <style> goes through the app's CSS tools as its stylesheet files do (Vite
				// runs PostCSS on it too), named after the page.
				css := c.contents
				if b.css.needed(page, []byte(css)) {
					var errs []api.Message
					if css, errs = b.css.process(b.ctx, page, []byte(css)); errs != nil {
						return api.OnLoadResult{Errors: errs}, nil
					}
				}
				css = imageSetURLs(pruneFontFaces(css))
				res.Contents = &css
			case api.LoaderJS:
				var out string
				if !c.graph { // the graph's entry is the build's code (graph.go), not the app's
					out, res.Errors, res.Warnings = b.appScript(page, inlineNamespace+":"+a.Path, c.contents, api.LoaderJS, pb.Resolve, chain)
				}
				if out == "" {
					out = c.contents
				}
				if key := inlineNamespace + ":" + a.Path; b.sourcemap && out != c.contents {
					b.written.Store(key, c.contents) // the map's text, as written (mapSources)
				} else {
					b.written.Delete(key)
				}
				res.Contents = &out
				// Named as esbuild names the code, so that each goes with its entry.
				for _, ms := range [][]api.Message{res.Errors, res.Warnings} {
					for i := range ms {
						if ms[i].Location != nil {
							ms[i].Location.File = inlineNamespace + ":" + a.Path
						}
					}
				}
			}
			return res, nil
		})
		// The barrel's licence, named (under /node_modules/) as esbuild names a package's
		// file in the licence file.
		onAppResolve(pb, `^`+legalPrefix, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			abs, ok := b.rewrittenPath(a.ResolveDir, a.Path)
			if !ok {
				return api.OnResolveResult{}, nil
			}
			name := filepath.ToSlash(abs)
			if i := strings.LastIndex(name, "/node_modules/"); i >= 0 {
				name = name[i+len("/node_modules/"):]
			}
			return api.OnResolveResult{Path: "/node_modules/" + name, Namespace: legalNamespace, PluginData: abs}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: legalNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			abs, _ := a.PluginData.(string)
			text := ""
			if f := barrelOf(abs); f != nil {
				text = f.legal
			}
			return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
		})
		// A default import of a CommonJS module that sets __esModule, in an ES module by
		// Node's rules (cjs.go).
		pb.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: "file"}, b.cjsResolve(pb))
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: cjsNamespace}, b.cjsLoad)
		pb.OnResolve(api.OnResolveOptions{Filter: `^@miniapp/sdk(/react)?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: sdkNamespace}, nil
		})
		// The transforms' helpers (helperModules), before the refusal of a URL.
		pb.OnResolve(api.OnResolveOptions{Filter: `^` + helperNamespace + `:`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			name := strings.TrimPrefix(a.Path, helperNamespace+":")
			if _, ok := helperModules[name]; !ok {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: name, Namespace: helperNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: helperNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := helperModules[a.Path]
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
		// An import of a URL would load at run time: refuse it where it is written.
		onAppResolve(pb, `^([a-zA-Z][a-zA-Z0-9+.-]*:|//)`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if strings.HasPrefix(strings.ToLower(a.Path), "data:") {
				return api.OnResolveResult{}, nil
			}
			if name, ok := nodeBuiltin(a.Path); ok && strings.HasPrefix(a.Path, "node:") {
				text, note := nodeBuiltinMessage(a.Path, name, a.Importer)
				return api.OnResolveResult{Errors: []api.Message{{Text: text, Notes: []api.Note{{Text: note}}}}}, nil
			}
			note := "install the package and import it by name (npm install …), or download the file into the app folder and import it by a relative path: a bundle has no network"
			if n, ok := offline.URLNote(a.Path, "import"); ok {
				note = n
			}
			return api.OnResolveResult{Errors: []api.Message{{Text: fmt.Sprintf("the import of %q loads from outside the bundle at run time", a.Path),
				Notes: []api.Note{{Text: note}}}}}, nil
		})
		// The SDK's modules import each other by relative path.
		pb.OnResolve(api.OnResolveOptions{Filter: `^\./[a-z-]+$`, Namespace: sdkNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: sdkNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: sdkNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := sdk.Module(a.Path)
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderTS, ResolveDir: b.root}, nil
		})
		// The gate first, in a callback of its own whose frame is small: a load waiting
		// there holds a stack of esbuild's frames and little more (16 KB, not 32).
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "file"}, gateLoad)
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			if b.ctx.Err() != nil {
				// Interrupted: what esbuild has yet to load is empty, unread. Not an error:
				// esbuild places each at the import that names it, which costs a scan of
				// the importer per file (minutes for an import.meta.glob of 30,000).
				return api.OnLoadResult{Contents: new(string), Loader: api.LoaderEmpty}, nil
			}
			if msg := b.outside(a.Path); msg != nil {
				return api.OnLoadResult{Errors: []api.Message{*msg}}, nil
			}
			if filepath.Separator == '/' && strings.ContainsRune(a.Path, '\\') {
				b.backslashed.Store(strings.ReplaceAll(a.Path, `\`, "/"), a.Path)
			}
			lower := strings.ToLower(a.Path)
			if b.assetIncluded(lower) {
				return b.loadAssetIncluded(a.Path)
			}
			if isSvelteModule(lower) {
				return b.loadSvelteModule(a.Path, pb.Resolve, chain)
			}
			if fw, ok := componentFramework(lower); ok {
				return b.loadComponent(a.Path, fw, pb.Resolve, chain)
			}
			if scriptFile.MatchString(lower) {
				return b.loadScript(a.Path, pb.Resolve, chain)
			}
			if _, own := b.m.Build.Loader[".wasm"]; filepath.Ext(lower) == ".wasm" && !own {
				data, err := os.ReadFile(a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				return b.loadWasm(a.Path, data), nil
			}
			if _, sniffed := signatures[filepath.Ext(lower)]; sniffed {
				data, err := os.ReadFile(a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				if err := sniff(filepath.Base(a.Path), data); err != nil {
					return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: a.Path},
						Notes: []api.Note{{Text: "replace it with the real file"}}}}}, nil
				}
				if _, own := b.m.Build.Loader[".svg"]; svgMinifier != nil && filepath.Ext(lower) == ".svg" && !own {
					// As a data: URL, as esbuild would load it (assetLoaders).
					m := string(minifiedSVG(data))
					return api.OnLoadResult{Contents: &m, Loader: api.LoaderDataURL}, nil
				}
				return api.OnLoadResult{}, nil
			}
			if !isStylesheet(lower) {
				return api.OnLoadResult{}, nil
			}
			css, enc, errs := b.stylesheetIn(a.Path, strings.TrimPrefix(a.Suffix, charsetSuffix))
			if errs != nil {
				return api.OnLoadResult{Errors: errs}, nil
			}
			var data any
			if enc != "utf-8" {
				data = cssEncoding(enc) // what the stylesheets it @imports fall back to
			}
			loader := api.LoaderCSS
			if strings.Contains(filepath.Base(lower), ".module.") {
				loader = api.LoaderLocalCSS // CSS Modules: class names scoped to the file, exported to the importer
				if a.Suffix == lazyModSuffix {
					// The rules of one only import() reaches (lazymodule.go), named by bundle.
					rules, err := b.lazyModuleRules(a.Path, css)
					if err != nil {
						return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: a.Path}}}}, nil
					}
					css, loader = rules, api.LoaderGlobalCSS
				} else if b.scopesModules() {
					// Named by the config's pattern or function instead (cssscoped.go):
					// global CSS with the scoped names in it.
					sc, err := b.scopeModule(a.Path, css)
					if err != nil {
						return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: a.Path}}}}, nil
					}
					css, loader = sc.css, api.LoaderGlobalCSS
				}
			}
			return api.OnLoadResult{Contents: &css, Loader: loader, PluginData: data}, nil
		})
	}}
}

// stylesheet reads the stylesheet file p as the build takes it: through the app's CSS tools
// when it needs them, refused for a remote load, its font faces pruned and image-set()s read.
func (b *bundler) stylesheet(p string) (string, []api.Message) {
	css, _, errs := b.stylesheetIn(p, "")
	return css, errs
}

// stylesheetIn is stylesheet for a file whose fallback encoding is fallback (the encoding of
// the stylesheet that @imports it, "" for the page's): it returns the encoding the file was
// decoded from too.
func (b *bundler) stylesheetIn(p, fallback string) (string, string, []api.Message) {
	src, err := os.ReadFile(p)
	if err != nil {
		return "", "", []api.Message{{Text: err.Error(), Location: &api.Location{File: p}}}
	}
	src, enc := decodeStylesheet(src, fallback)
	css := string(src)
	var sourceMap string
	if b.css.needed(p, src) {
		var errs []api.Message
		if css, sourceMap, errs = b.css.processMap(b.ctx, p, src); errs != nil {
			return "", "", errs
		}
	}
	if errs := remoteInCSS(p, src, css); len(errs) > 0 {
		return "", "", errs
	}
	out := imageSetURLs(pruneFontFaces(css))
	if sourceMap != "" && out == css {
		// esbuild places what it says of the CSS (a url() it cannot resolve) in the compiled
		// text, named as the stylesheet: compiledPlace moves it to the file Sass compiled it from.
		if m, err := sourcemap.Parse([]byte(sourceMap)); err == nil {
			b.sassMaps.Store(p, compiledCSS{css: css, m: m, head: sassHead(sourceMap)})
		}
	}
	return out, enc, nil
}

// gateLoad passes the load gate (loadGate) and leaves the file to the next callback.
func gateLoad(api.OnLoadArgs) (api.OnLoadResult, error) {
	loadGate.enter()
	growStack(false)
	return api.OnLoadResult{}, nil
}

// realPath is p's real path when it is inside the folder the build may read (rootpath.Resolve:
// a path that leaves it is rootpath.ErrOutside, whether or not it exists, and nothing outside
// is looked at), with each folder's real path kept from one file to the next: a build of thousands of modules asks for the same few hundred folders, and
// resolving each file's every folder again would cost a system call per component.
func (b *bundler) realPath(p string) (string, error) {
	if p = filepath.Clean(p); p == b.readRoot {
		return p, nil // real already; its folder is outside
	}
	dir, name := filepath.Split(p)
	dir = filepath.Clean(dir)
	realDir, ok := b.realDirs.Load(dir)
	if !ok {
		r, err := rootpath.Resolve(dir, b.readRoot)
		if err != nil {
			return "", err
		}
		realDir, _ = b.realDirs.LoadOrStore(dir, r)
	}
	full := filepath.Join(realDir.(string), name)
	st, err := os.Lstat(full)
	if err != nil {
		return "", err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return rootpath.Resolve(full, b.readRoot)
	}
	return full, nil
}

// outside returns an error message when the file at p (through any symbolic link) is outside
// the folder the build may read, saying which folder applied and why, whether or not it
// exists there; nil when it is inside.
func (b *bundler) outside(p string) *api.Message {
	if _, err := b.realPath(p); !errors.Is(err, rootpath.ErrOutside) {
		return nil // inside; a missing file is esbuild's to report
	}
	m := &api.Message{Text: fmt.Sprintf("%s is outside the app folder %s", b.display(b.rel(p)), filepath.ToSlash(b.dir))}
	if b.readRoot != b.root {
		m.Text = fmt.Sprintf("%s is outside the workspace root %s", b.display(b.rel(p)), b.rootPath())
	}
	m.Notes = []api.Note{{Text: b.outsideNote()}}
	return m
}

// outsideNote is the fix for a file outside the folder the build may read: which folder that
// is, and why.
func (b *bundler) outsideNote() string {
	if b.readRoot != b.root {
		return fmt.Sprintf("%s is the workspace root because of %s; bundle reads only files inside it: move the file in", b.rootPath(), b.readWhy)
	}
	return "bundle reads only files inside the app folder, and there is no workspace root above it (a package.json with \"workspaces\", a pnpm-workspace.yaml or a lerna.json): move the file in, or install the package in the app folder"
}

// build runs esbuild, in the session's incremental context when there is one; when the
// build's context is done, esbuild stops (its result then has an error).
func (b *bundler) build(opts api.BuildOptions) api.BuildResult {
	if err := b.ctx.Err(); err != nil {
		return api.BuildResult{Errors: []api.Message{{Text: "the build was interrupted"}}}
	}
	if b.session != nil {
		return b.session.build(b.ctx, opts)
	}
	return b.buildOnce(opts)
}

// buildOnce runs esbuild once on opts.
func (b *bundler) buildOnce(opts api.BuildOptions) api.BuildResult {
	c, cerr := api.Context(opts)
	if cerr != nil {
		return api.Build(opts) // reports the same errors
	}
	return rebuild(b.ctx, c, true)
}

// rebuild runs the build of c (disposing of c after it when dispose is set) and returns its
// result; when ctx is done first, it returns at once with an error, and the build, cancelled,
// ends on its own: esbuild still parses what it has started (10 to 20 s for an app of 30,000
// modules), which the caller does not wait for. The loads waiting at the gate are let in
// meanwhile, to end unread.
func rebuild(ctx context.Context, c api.BuildContext, dispose bool) api.BuildResult {
	done := make(chan api.BuildResult, 1)
	go func() {
		res := c.Rebuild()
		if dispose {
			c.Dispose()
		}
		done <- res
	}()
	select {
	case res := <-done:
		return res
	case <-ctx.Done():
		reopen := loadGate.interrupt()
		go func() {
			c.Cancel()
			<-done
			reopen()
		}()
		return api.BuildResult{Errors: []api.Message{{Text: "the build was interrupted"}}}
	}
}

// run runs esbuild on one entry and turns its result into code, or into diagnostics that keep
// esbuild's file:line:col and source line.
func (b *bundler) run(opts api.BuildOptions) (code, diag.List) {
	res, opts := b.pageBuild(opts)
	return b.result(res, opts)
}

// result turns the result of esbuild on opts into code, as run does.
func (b *bundler) result(res api.BuildResult, opts api.BuildOptions) (code, diag.List) {
	each, warnings, errs := b.each(res, opts)
	if errs != nil {
		return code{}, errs
	}
	var c code
	c.known = len(each) > 0
	for _, x := range each {
		c.js += x.js
		c.css += x.css
		c.imports = append(c.imports, x.imports...)
		c.known = c.known && x.known
		if c.jsMap == nil {
			c.jsMap = x.jsMap
		}
	}
	return c, b.messages(warnings, diag.Warning)
}

// output is the code of one entry of a build: its outputs, whose paths are stem and an
// extension, and the inputs in them.
type output struct {
	stem   string
	inputs []string
	code
}

// each turns the result of esbuild on opts into each entry's code, in the order esbuild gives
// the outputs, with esbuild's warnings; or into errors that keep esbuild's file:line:col and
// source line.
func (b *bundler) each(res api.BuildResult, opts api.BuildOptions) ([]output, []api.Message, diag.List) {
	if len(res.Errors) > 0 {
		return nil, nil, b.messages(res.Errors, diag.Error)
	}
	if errs := b.cycleAwait(res, opts); errs != nil {
		return nil, nil, errs // a module cycle that evaluates otherwise bundled (cycleawait.go)
	}
	files := res.OutputFiles
	metas := readMetafile(res.Metafile)
	var second map[string]bool      // the entries (by stem) taken from the names-kept pass
	composed := map[string][]byte{} // the maps of scripts minified again, by path
	if opts.MinifyIdentifiers {
		var errs diag.List
		if files, metas, second, errs = b.namesKept(res, metas, opts, composed); errs != nil {
			return nil, nil, errs
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []output
	index := map[string]int{}
	entry := func(path string) *output {
		stem := outputStem(path)
		i, ok := index[stem]
		if !ok {
			i, index[stem] = len(out), len(out)
			out = append(out, output{stem: stem, code: code{known: !second[stem] && metas != nil}})
		}
		return &out[i]
	}
	for _, f := range files {
		rel, _ := filepath.Rel(b.root, f.Path)
		m, ok := metas[filepath.ToSlash(rel)]
		b.record(m)
		switch {
		case strings.HasSuffix(f.Path, ".LEGAL.txt"):
			b.legal = append(b.legal, string(f.Contents))
		case strings.HasSuffix(f.Path, ".js.map"):
			if o := entry(f.Path); !second[o.stem] { // else the minifying pass made it
				o.jsMap = b.mapSources(f.Contents, opts.Outdir)
			}
		case strings.HasSuffix(f.Path, ".js"):
			o := entry(f.Path)
			o.js += string(f.Contents)
			o.imports = append(o.imports, m.imports...)
			o.inputs = append(o.inputs, m.inputs...)
			for _, in := range m.inputs {
				if m.bytes[in] > 0 {
					b.codeIn[in] = true
				}
			}
			o.known = o.known && ok
			if m, ok := composed[f.Path]; ok {
				o.jsMap = m
			}
		case strings.HasSuffix(f.Path, ".css"):
			o := entry(f.Path)
			o.css += dedupeAssets(string(f.Contents))
			o.inputs = append(o.inputs, m.inputs...)
			for _, in := range m.inputs {
				b.styleIn[in] = true
			}
		}
	}
	for i := range out {
		out[i].code = rewriteScript(out[i].code, opts, opts.MinifySyntax && opts.Format == api.FormatESModule, !b.noUnwritten,
			opts.MinifyIdentifiers && b.localNames, b.m.Eval)
		decl, err := declareObjectDefines(out[i].js, b.define, opts.Target, opts.Engines)
		if err != nil {
			return nil, nil, b.messages([]api.Message{{Text: err.Error()}}, diag.Error)
		}
		if decl != "" {
			out[i].js = decl + out[i].js
			if out[i].jsMap != nil {
				out[i].jsMap = shiftMap(out[i].jsMap, strings.Count(decl, "\n"))
			}
		}
	}
	return out, res.Warnings, nil
}

// outputStem is an output's path without its extensions: what an entry's outputs share.
func outputStem(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(path, ".map"), ".js"), ".css")
}

// namesKept gives the entries of a build whose outputs hold a CSS Module their outputs from a
// second build with names kept, their scripts minified then on their own. esbuild gives CSS
// Modules' class names as short as identifiers when it minifies them ("o"), which a class in
// the markup, or a module of another script of the page, can share: the second build keeps
// them (Button_primary). The other entries keep the first build's outputs, as each would
// built alone. It returns the outputs and the metafile's word on them, the entries it
// changed by stem, and the maps of the scripts it minified in composed.
func (b *bundler) namesKept(first api.BuildResult, metas map[string]outputMeta, opts api.BuildOptions, composed map[string][]byte) ([]api.OutputFile, map[string]outputMeta, map[string]bool, diag.List) {
	files := first.OutputFiles
	modular := map[string]bool{}
	for out, m := range metas {
		if slices.ContainsFunc(m.inputs, isCSSModule) {
			modular[outputStem(filepath.Join(b.root, filepath.FromSlash(out)))] = true
		}
	}
	if metas == nil && hasCSSModule(first.Metafile) { // a metafile that does not decode: every entry
		for _, f := range files {
			modular[outputStem(f.Path)] = true
		}
	}
	if len(modular) == 0 {
		return files, metas, nil, nil
	}
	opts.MinifyIdentifiers = false
	res := b.build(opts)
	if len(res.Errors) > 0 {
		return nil, nil, nil, b.messages(res.Errors, diag.Error)
	}
	kept, keptMetas := map[string]api.OutputFile{}, readMetafile(res.Metafile)
	for _, f := range res.OutputFiles {
		kept[f.Path] = f
	}
	out := make([]api.OutputFile, 0, len(files))
	for _, f := range files {
		stem := outputStem(f.Path)
		if !modular[stem] || strings.HasSuffix(f.Path, ".LEGAL.txt") {
			out = append(out, f)
			continue
		}
		if strings.HasSuffix(f.Path, ".map") {
			continue // the map of the minifying pass replaces it
		}
		k, ok := kept[f.Path]
		if !ok {
			continue
		}
		rel, _ := filepath.Rel(b.root, f.Path)
		km, known := keptMetas[filepath.ToSlash(rel)]
		if known && metas != nil {
			metas[filepath.ToSlash(rel)] = km
		}
		if strings.HasSuffix(f.Path, ".js") {
			c, sm := code{js: string(k.Contents)}, api.SourceMapNone
			m, mapped := kept[f.Path+".map"]
			if mapped {
				c.jsMap = b.mapSources(m.Contents, opts.Outdir)
			}
			if known {
				c = applyToScript(c, unnamedWrappers(c.js, km.inputs))
			}
			js := c.js
			if mapped {
				// The build's map, inline, is what the minifying pass maps back through:
				// its map then leads from the page's code to the sources.
				js += "\n//# sourceMappingURL=data:application/json;base64," + base64.StdEncoding.EncodeToString(c.jsMap) + "\n"
				sm = api.SourceMapExternal
			}
			t := api.Transform(js, api.TransformOptions{Loader: api.LoaderJS, Format: opts.Format,
				Target: opts.Target, Engines: opts.Engines, Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsNone,
				MinifyIdentifiers: true, MinifySyntax: true, MinifyWhitespace: true, LogLevel: api.LogLevelSilent,
				Sourcemap: sm, Sourcefile: filepath.Base(f.Path)})
			if len(t.Errors) > 0 {
				return nil, nil, nil, b.messages(t.Errors, diag.Error)
			}
			k.Contents = t.Code
			if sm != api.SourceMapNone {
				composed[f.Path] = t.Map
			}
		}
		out = append(out, k)
	}
	return out, metas, modular, nil
}

// isCSSModule reports whether the input path is a CSS Module.
func isCSSModule(path string) bool {
	for _, ext := range cssModuleExts {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// cssModuleExts end the names of CSS Modules.
var cssModuleExts = []string{".module.css", ".module.scss", ".module.sass", ".module.less", ".module.styl", ".module.stylus"}

// hasCSSModule reports whether a metafile's text names a CSS Module, for a metafile that does
// not decode.
func hasCSSModule(metafile string) bool {
	for _, ext := range cssModuleExts {
		if strings.Contains(metafile, ext+`"`) {
			return true
		}
	}
	return false
}

// outputMeta is what a build's metafile says of one output: the import records esbuild
// printed into it, and its inputs, sorted, with the bytes each gave it.
type outputMeta struct {
	imports []offline.Import
	inputs  []string
	bytes   map[string]int
}

// record adds what each input gave the output m to b.inputs, and notes an MCP Apps client of
// the app's own.
func (b *bundler) record(m outputMeta) {
	for _, in := range m.inputs {
		name := in
		if strings.HasPrefix(in, legalNamespace+":") || strings.HasPrefix(in, cjsNamespace+":") || strings.HasPrefix(in, helperNamespace+":") {
			continue // a barrel's licence, a module that reads another, the transforms' helpers: not files of the app's
		}
		if n, ok := b.inlineName(in); ok {
			name = n
		}
		if p, ok := strings.CutPrefix(in, componentCSSNamespace+":"); ok {
			// A component's styles count as the component's, named as esbuild names it.
			if rel, err := filepath.Rel(b.root, p); err == nil {
				name = filepath.ToSlash(rel)
			}
		}
		if strings.HasPrefix(in, sdkNamespace+":") {
			name = sdkImported // the author knows these modules by the one import specifier
		}
		b.inputs[name] += m.bytes[in]
		for _, c := range sdk.CarriedClients {
			b.carry = b.carry || strings.Contains(in, "node_modules/"+c+"/")
		}
	}
}

// readMetafile returns what a build's metafile says of each output, by the output's path
// relative to the app folder (nil when the metafile does not read).
func readMetafile(metafile string) map[string]outputMeta {
	var meta struct {
		Outputs map[string]struct {
			Imports []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"imports"`
			Inputs map[string]struct {
				BytesInOutput int `json:"bytesInOutput"`
			} `json:"inputs"`
		} `json:"outputs"`
	}
	// The outputs are all that is read: the inputs before them, with every import of every
	// module, are most of the metafile (6.7 of 7.1 MB on bench/heavy), and are not decoded.
	// The outputs key is found by its text: a cut anywhere but at the top level leaves
	// braces that do not balance, which the decoder refuses, and then all is decoded.
	cut := strings.Index(metafile, `,"outputs":{`)
	if cut < 0 || json.Unmarshal([]byte("{"+metafile[cut+1:]), &meta) != nil {
		meta.Outputs = nil
		if json.Unmarshal([]byte(metafile), &meta) != nil {
			return nil
		}
	}
	outs := map[string]outputMeta{}
	for out, o := range meta.Outputs {
		om := outputMeta{imports: []offline.Import{}, bytes: map[string]int{}}
		for in, st := range o.Inputs {
			// A stylesheet read in its importer's encoding is its file (cssencoding.go).
			in, _, _ = strings.Cut(in, charsetSuffix)
			if _, ok := om.bytes[in]; !ok {
				om.inputs = append(om.inputs, in)
			}
			om.bytes[in] += st.BytesInOutput
		}
		slices.Sort(om.inputs)
		for _, im := range o.Imports {
			switch im.Kind {
			case "import-statement", "dynamic-import":
				om.imports = append(om.imports, offline.Import{Specifier: im.Path, Dynamic: im.Kind == "dynamic-import"})
			}
		}
		outs[filepath.ToSlash(out)] = om
	}
	return outs
}

// messages converts esbuild messages, with paths relative to the app folder.
func (b *bundler) messages(ms []api.Message, sev diag.Severity) diag.List {
	var out diag.List
	reported := false // the app's missing node_modules
	located := false  // a message with a place, which says more than esbuild's "permission denied"
	for _, m := range ms {
		if _, ok := denied(m.Text); !ok && m.Location != nil {
			located = true
		}
	}
	said := map[string]bool{} // a message of a whole file (no line) with its fix, by its text
	for _, m := range ms {
		if l := m.Location; l != nil && l.Line == 0 {
			// The same message and fix for another file (each component that needs a
			// compiler the app lacks, esbuild's messages in its order): said once, at the first.
			key := m.Text
			for _, n := range m.Notes {
				key += "\x00" + n.Text
			}
			if said[key] {
				continue
			}
			said[key] = true
		}
		m = b.confined(b.unslashed(m))
		placed := false           // in the source as written already
		var wrote, literal string // an import the transforms wrote for a literal, and the literal
		if l := m.Location; l != nil {
			m, placed = b.pastSource(l.File, l.Line, m)
		}
		if l := m.Location; l != nil && !placed {
			if at, ok := b.compiledPlace(l); ok {
				m.Location, placed = at, true
			}
		}
		d := diag.Message{Severity: sev, Text: m.Text}
		if l := m.Location; l != nil {
			d.File = b.messageFile(l.File)
			d.Line, d.Column, d.Length, d.LineText = l.Line, l.Column+1, max(l.Length, 1), l.LineText
			if line, col, n, text, spec, ok := b.placeInSource(l.File, l.Line, l.Column, l.LineText); ok && !placed {
				d.Line, d.Column, d.LineText = line, col+1, text
				if n > 0 {
					d.Length = n
				}
				if spec != "" && col+n <= len(text) {
					wrote, literal = spec, text[col:col+n]
				}
				d.Length = max(1, min(d.Length, len(text)-col))
			}
			if l.Suggestion != "" {
				d.Note = fmt.Sprintf("did you mean %q?", l.Suggestion)
			}
		}
		if p, ok := denied(m.Text); ok {
			// esbuild's resolver, kept out by the kernel's fence: said once, where the
			// import that led there is, when another message names it.
			if located {
				continue
			}
			d.Text = fmt.Sprintf("%s leads outside %s, and the fence around the build keeps it out", b.messageFile(p), b.rootName())
			d.Note = "keep every file the app uses inside " + b.rootName()
		} else if fix, ok := noLoader(m.Text, b.m); ok {
			d.Note = fix
		} else if text, note, ok := b.importMessage(m); ok {
			d.Text, d.Note = text, note
		} else if strings.Contains(m.Text, "is not available in the configured target environment") {
			target := b.m.Build.Target
			if target == "" {
				target = defaultTarget
			}
			d.Note = fmt.Sprintf("the target is %q (build.target in %s): raise it, or leave it out for Vite 8's default %q", target, b.m.File, defaultTarget)
		} else if strings.Contains(m.Text, "solid-js/jsx-runtime") || strings.Contains(m.Text, "solid-js/h/jsx-runtime") {
			d.Note = "Solid's JSX needs its own compiler: bundle runs the app's babel-preset-solid on the app's .jsx and .tsx files when tsconfig's jsxImportSource is solid-js, or when it names none and the app depends on solid-js and not on React or Preact; set \"jsxImportSource\": \"solid-js\" in tsconfig.json"
		} else if text, note, ok := sdkExportMessage(m.Text); ok {
			d.Text, d.Note = text, note
		} else if text, note, ok := b.styleExportMessage(m.Text); ok {
			d.Text, d.Note = text, note
		} else if ok, noModules := b.resolveMessage(m, &d); ok {
			// esbuild's note suggests marking the path external, which would leave a load in
			// the bundle: the fix here is to make the import resolvable. Without node_modules
			// every bare import fails: say it once, at the first.
			if noModules {
				if reported {
					continue
				}
				reported = true
			}
		} else {
			for _, n := range m.Notes {
				if n.Text == "" || strings.HasPrefix(n.Text, "The plugin \"") {
					continue // esbuild's word on which of our plugins ran, not the author's
				}
				if l := m.Location; l != nil && l.Suggestion != "" && strings.HasPrefix(n.Text, "Did you mean ") {
					continue // the suggestion, said already
				}
				if d.Note != "" {
					d.Note += "; "
				}
				text := strings.TrimSuffix(n.Text, ":")
				if loader, ok := goLoaderAdvice(text); ok {
					// esbuild's advice names its Go API: say it in the manifest's words.
					set := b.m.Setting("build.loader", map[string]string{filepath.Ext(m.Location.File): loader})
					text = fmt.Sprintf("name the file .%s, or set %s in %s", loader, set, filepath.Base(b.m.File))
				}
				if l := n.Location; l != nil {
					text += fmt.Sprintf(" (%s:%d:%d)", b.messageFile(l.File), l.Line, l.Column+1)
				}
				d.Note += text
			}
		}
		if wrote != "" {
			d.Text = asWritten(d.Text, wrote, literal)
		}
		out = append(out, d)
	}
	return out
}

// importMessage says what esbuild's invalid-@import message means in the browser, and the
// fix: an @import after another rule (but @charset and @layer statements) or inside a block
// is ignored by the browser (CSS Cascade 4), so the stylesheet it names never applies.
func (b *bundler) importMessage(m api.Message) (text, note string, ok bool) {
	if m.ID != "invalid-@import" {
		return "", "", false
	}
	if strings.Contains(m.Text, "top level") {
		return "this @import is inside a block, where the browser ignores it: the stylesheet it names does not apply",
			"move it to the top of the stylesheet, the block's condition as the @import's (@import url(x.css) screen; @import url(x.css) supports(display: grid)), or remove it", true
	}
	note = "move it to the top of the stylesheet (only @charset and @layer statements may come before an @import), or remove it"
	for _, n := range m.Notes {
		if l := n.Location; l != nil {
			note += fmt.Sprintf("; the rule before it is at (%s:%d:%d)", b.messageFile(l.File), l.Line, l.Column+1)
			break
		}
	}
	return "this @import comes after other rules, where the browser ignores it: the stylesheet it names does not apply", note, true
}

// denied returns the path of esbuild's `Cannot read directory "x": permission denied` or
// `Cannot read file "x": permission denied`, which the kernel's fence makes.
func denied(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, `Cannot read directory "`)
	if !ok {
		rest, ok = strings.CutPrefix(text, `Cannot read file "`)
	}
	if !ok || !strings.HasSuffix(rest, `": permission denied`) {
		return "", false
	}
	return strings.TrimSuffix(rest, `": permission denied`), true
}

// unslashed returns esbuild's message m with each place in a file whose name holds a
// backslash named as the file is: esbuild names it relative to the app folder with slashes
// for them (a\b.ts as a/b.ts), which is another file, or outside the app where they stand
// around dots (a\..\..\m.js as a/../../m.js).
func (b *bundler) unslashed(m api.Message) api.Message {
	fix := func(l *api.Location) *api.Location {
		if l == nil || l.File == "" || filepath.IsAbs(l.File) {
			return l
		}
		real, ok := b.backslashed.Load(b.root + "/" + l.File)
		if !ok {
			return l
		}
		rel, err := filepath.Rel(b.root, real.(string))
		if err != nil {
			return l
		}
		c := *l
		c.File = rel
		return &c
	}
	m.Location = fix(m.Location)
	if len(m.Notes) > 0 {
		m.Notes = slices.Clone(m.Notes)
		for i := range m.Notes {
			m.Notes[i].Location = fix(m.Notes[i].Location)
		}
	}
	return m
}

// sourcesContent is what esbuild puts of the sources in a map: their texts in a map that is
// written, none in one kept in memory only (Result.SourceMap reads a source's line from its
// file when asked, and a map of node_modules' texts is megabytes to make and decode at each
// rebuild of bundle dev).
func sourcesContent(written bool) api.SourcesContent {
	if written {
		return api.SourcesContentInclude
	}
	return api.SourcesContentExclude
}

// mapSources gives the source map m (of an output in outdir) the names and texts an author
// knows: code written in the page is named by the page's path, as esbuild names a file
// there (relative to outdir), and each app script the source transforms or the barrel
// rewriting changed has its text as written (they keep every line where it was, so the
// map's lines hold; a debugger shows the imports as written).
func (b *bundler) mapSources(m []byte, outdir string) []byte {
	written := false
	b.written.Range(func(_, _ any) bool { written = true; return false })
	b.backslashed.Range(func(_, _ any) bool { written = true; return false })
	if len(b.inline) == 0 && !written {
		return m
	}
	sm, ok := decodeMap(m)
	if !ok {
		return m
	}
	changed := false
	for i, s := range sm.Sources {
		key := s
		if p, ok := sourcemap.Path(s); ok {
			key = filepath.Join(b.root, outdir, filepath.FromSlash(p))
			// esbuild names a file "a\b.ts" as "a/b.ts", a file that is not there.
			if real, ok := b.backslashed.Load(key); ok {
				if rel, err := filepath.Rel(filepath.Join(b.root, outdir), real.(string)); err == nil {
					key, sm.Sources[i], changed = real.(string), sourcemap.URL(rel), true
				}
			}
		}
		if k, inline := strings.CutPrefix(s, inlineNamespace+":"); inline {
			if c, ok := b.inline[k]; ok {
				if rel, err := filepath.Rel(filepath.Join(b.root, outdir), filepath.Join(b.root, filepath.FromSlash(c.name))); err == nil {
					sm.Sources[i], changed = sourcemap.URL(filepath.ToSlash(rel)), true
				}
			}
		}
		if src, ok := b.written.Load(key); ok && sm.SourcesContent != nil {
			text := src.(string)
			sm.SourcesContent[i], changed = &text, true
		}
	}
	if !changed {
		return m
	}
	if out, ok := sm.encode(); ok {
		return out
	}
	return m
}

// rebaseMap returns the source map m, whose sources are named relative to the folder from,
// with them named relative to the folder to, where it is written; a source with a namespace
// ("miniapp-sdk:…") is left as it is. m is returned as it is where the two folders name every
// source alike (siblings, as the app's dist/ and esbuild's out/ are).
func rebaseMap(m []byte, from, to string) []byte {
	if filepath.Dir(from) == filepath.Dir(to) {
		return m
	}
	sm, ok := decodeMap(m)
	if !ok {
		return m
	}
	for i, s := range sm.Sources {
		// A source is a URL (esbuild's escapes "%C3%BC"): the path it names is rebased, and
		// written as a URL again, the names of the folders between the two escaped too (a
		// folder "proj #1" would end the path at its "#").
		p, ok := sourcemap.Path(s)
		if !ok || path.IsAbs(p) {
			continue
		}
		if rel, err := filepath.Rel(to, filepath.Join(from, filepath.FromSlash(p))); err == nil {
			sm.Sources[i] = sourcemap.URL(filepath.ToSlash(rel))
		}
	}
	if out, ok := sm.encode(); ok {
		return out
	}
	return m
}

// sourceMap is a version 3 source map as esbuild writes it.
type sourceMap struct {
	Version        int       `json:"version"`
	Sources        []string  `json:"sources"`
	SourcesContent []*string `json:"sourcesContent"`
	Mappings       string    `json:"mappings"`
	Names          []string  `json:"names"`
}

func decodeMap(m []byte) (sourceMap, bool) {
	var sm sourceMap
	if json.Unmarshal(m, &sm) != nil || (sm.SourcesContent != nil && len(sm.SourcesContent) != len(sm.Sources)) {
		return sourceMap{}, false
	}
	return sm, true
}

// encode writes sm in esbuild's layout: one field a line.
func (sm sourceMap) encode() ([]byte, bool) {
	var out bytes.Buffer
	out.WriteString("{\n  \"version\": " + strconv.Itoa(sm.Version))
	for _, f := range []struct {
		name  string
		value any
	}{{"sources", sm.Sources}, {"sourcesContent", sm.SourcesContent}, {"mappings", sm.Mappings}, {"names", sm.Names}} {
		if f.name == "sourcesContent" && sm.SourcesContent == nil {
			continue
		}
		var v bytes.Buffer
		enc := json.NewEncoder(&v)
		enc.SetEscapeHTML(false)
		if enc.Encode(f.value) != nil {
			return nil, false
		}
		out.WriteString(",\n  \"" + f.name + "\": ")
		out.Write(bytes.TrimSuffix(v.Bytes(), []byte("\n")))
	}
	out.WriteString("\n}\n")
	return out.Bytes(), true
}

// messageFile names in a message the file esbuild names p.
func (b *bundler) messageFile(p string) string {
	if spec, ok := strings.CutPrefix(p, sdkNamespace+":"); ok {
		return spec // the SDK's modules have no file: they are named by their specifier
	}
	if name, ok := b.inlineName(p); ok {
		return b.display(name)
	}
	if p == "<tsconfig.json>" {
		return "tsconfig.json" // the config given as TsconfigRaw, which esbuild names so
	}
	return b.display(b.rel(p))
}

// sdkExportMessage explains esbuild's "No matching export in "miniapp-sdk:@miniapp/sdk" for
// import "x"": the SDK's module is named by its specifier, with what it does export.
func sdkExportMessage(text string) (string, string, bool) {
	rest, ok := strings.CutPrefix(text, `No matching export in "`+sdkNamespace+":")
	if !ok {
		return "", "", false
	}
	spec, rest, _ := strings.Cut(rest, `"`)
	name, ok := strings.CutPrefix(rest, ` for import "`)
	name = strings.TrimSuffix(name, `"`)
	names := sdk.Exports(spec)
	if !ok || len(names) == 0 {
		return "", "", false
	}
	text = fmt.Sprintf("%s has no export %q", spec, name)
	switch best, near := diag.Suggest(name, names); {
	case name == "default":
		return spec + " has no default export", fmt.Sprintf("import its functions by name (import { %s } from %q) or all of them (import * as sdk from %q)", names[0], spec, spec), true
	case strings.EqualFold(name, "modelContext"):
		return text, fmt.Sprintf("document.modelContext is the WebMCP API, which the SDK installs in every bundle: use it without an import, or import { registerTool } from %q", spec), true
	case near:
		return text, fmt.Sprintf("did you mean %q? (bundle sdk types prints what it exports)", best), true
	default:
		return text, fmt.Sprintf("it exports %s (bundle sdk types prints their types)", strings.Join(names, ", ")), true
	}
}

// goLoaderAdvice returns the loader esbuild's note advises setting ("The esbuild loader for
// this file is currently set to "js" but it must be set to "jsx" … You can use 'Loader: …'").
func goLoaderAdvice(note string) (string, bool) {
	_, rest, ok := strings.Cut(note, `but it must be set to "`)
	if !ok || !strings.Contains(note, "api.Loader") {
		return "", false
	}
	loader, _, ok := strings.Cut(rest, `"`)
	return loader, ok && loader != ""
}

// noLoader says what to do about a file esbuild has no loader for: the components of
// frameworks that need their own compiler, and WebAssembly. (Less and Stylus stylesheets are
// compiled by the app's own less and stylus, cssTools.)
func noLoader(text string, m *manifest.Manifest) (string, bool) {
	ext, ok := strings.CutPrefix(text, "No loader is configured for \"")
	if !ok {
		return "", false
	}
	ext, _, _ = strings.Cut(ext, "\"")
	switch ext {
	case ".astro", ".marko":
		name := map[string]string{".astro": "Astro components", ".marko": "Marko templates"}[ext]
		return name + " need their framework's own compiler, which bundle does not run: build the app with its tool (Vite and the framework's plugin), then check the page with bundle check", true
	case ".wasm":
		return fmt.Sprintf(`import it as Vite does, "./x.wasm?init" (init(imports) resolves with the instance), or with new URL("./x.wasm", import.meta.url); WebAssembly also needs wasm = true in %s`, filepath.Base(m.File)), true
	}
	if ext == "" || strings.ContainsAny(ext, `"/\ `) {
		return "", false
	}
	set := m.Setting("build.loader", map[string]string{ext: "text"})
	name := "x" + ext
	if _, file, ok := strings.Cut(text, " files: "); ok {
		name = path.Base(file)
	}
	return fmt.Sprintf(`import its text as Vite does, with ?raw after the path ("./%s?raw"), or its data: URL with ?url; or read every %s file as text with %s in %s`, name, ext, set, filepath.Base(m.File)), true
}

// rel makes an esbuild path (relative to the working directory, or absolute) relative to the
// app folder, slash-separated, so that no absolute path reaches any output.
func (b *bundler) rel(p string) string {
	if filepath.IsAbs(p) {
		if r, err := filepath.Rel(b.root, p); err == nil {
			p = r
		}
	}
	return path.Clean(filepath.ToSlash(p))
}

// display names a file of the app in messages: relative to the folder the caller named, so
// that it is clickable in a terminal and never absolute unless the caller's folder was.
func (b *bundler) display(rel string) string {
	return filepath.ToSlash(filepath.Join(b.dir, filepath.FromSlash(rel)))
}

// entry bundles a script file of the app.
func (b *bundler) entry(rel string) (code, diag.List) {
	opts := b.options()
	opts.EntryPoints = []string{filepath.Join(b.root, filepath.FromSlash(rel))}
	return b.run(opts)
}

// entries bundles several entries of the page in one esbuild build, as esbuild's CLI does
// with several entry points: the builds share one start, one scan and both cores, and each
// entry's code is what entry (a file), inlineEntry (code written in the page) or graphEntry (the
// page's module graph, named after the page) gives for it alone
// (without splitting, a module two entries import is in both), with its warnings. ok is
// false, and nothing is recorded, when the build fails: each entry is then built alone, so
// that the entries that build still give their warnings.
func (b *bundler) entries(list []pageEntry, page string) (codes []code, warnings [][]api.Message, ok bool) {
	opts := b.options()
	b.inline = map[string]inlineCode{}
	for i, e := range list {
		in := b.abs(e.rel)
		switch {
		case e.graph != nil:
			b.addGraph(graphInlineKey, page, e.graph)
			in = inlineNamespace + ":" + graphInlineKey
		case e.inline != nil:
			b.inline[strconv.Itoa(i)] = *e.inline
			in = inlineNamespace + ":" + strconv.Itoa(i)
		}
		opts.EntryPointsAdvanced = append(opts.EntryPointsAdvanced, api.EntryPoint{InputPath: in, OutputPath: "entry" + strconv.Itoa(i)})
	}
	res, opts := b.pageBuild(opts)
	if _, mixed := lazyStyles(res.Metafile, !b.scopesModules()); len(res.Errors) > 0 || sharedCSSModule(res.Metafile) || mixed {
		return nil, nil, false
	}
	each, ws, errs := b.each(res, opts)
	if errs != nil {
		return nil, nil, false // a names-kept pass failed: as it does built alone
	}
	codes = make([]code, len(list))
	inputs := make([][]string, len(list))
	for _, o := range each {
		if i, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(o.stem), "entry")); err == nil && i >= 0 && i < len(codes) {
			codes[i], inputs[i] = o.code, o.inputs
		}
	}

	// Each warning goes with the first entry whose bundle holds its file, so that the page's
	// warnings come in the order of the walk, as when each entry is built alone (a module two
	// entries share is warned of once, not twice).
	warnings = make([][]api.Message, len(list))
	for _, w := range ws {
		i := 0
		if w.Location != nil {
			if j := slices.IndexFunc(inputs, func(in []string) bool { return slices.Contains(in, w.Location.File) }); j >= 0 {
				i = j
			}
		}
		warnings[i] = append(warnings[i], w)
	}
	return codes, warnings, true
}

// sharedCSSModule reports whether two entries of a build hold the same CSS Module, whose class
// names the build then makes unique across them (.box_box in one, .box_box2 in the other),
// not as each entry alone names them.
func sharedCSSModule(metafile string) bool {
	if !hasCSSModule(metafile) {
		return false
	}
	holder := map[string]string{} // by CSS Module, the stem of the outputs that hold it
	for out, m := range readMetafile(metafile) {
		for _, in := range m.inputs {
			if isCSSModule(in) {
				if h, ok := holder[in]; ok && h != outputStem(out) {
					return true
				}
				holder[in] = outputStem(out)
			}
		}
	}
	return false
}

// inlineEntry bundles code written in the page on its own, as entries bundles it with the
// page's other entries.
func (b *bundler) inlineEntry(c inlineCode) (code, diag.List) {
	opts := b.options()
	b.inline = map[string]inlineCode{"0": c}
	opts.EntryPoints = []string{inlineNamespace + ":0"}
	return b.run(opts)
}

// containsWord reports whether src holds one of words as a word of its own: not next to a
// code point an identifier may hold ("exports", "importNode" and "éexport" do not hold
// "export" or "import"; "\u3000export", after an ideographic space, does). It finds what a
// parse may then read, at the speed of a byte search.
func containsWord(src string, words ...string) bool {
	for _, w := range words {
		for off := 0; ; {
			i := strings.Index(src[off:], w)
			if i < 0 {
				break
			}
			at, end := off+i, off+i+len(w)
			before, _ := utf8.DecodeLastRuneInString(src[:at])
			after, _ := utf8.DecodeRuneInString(src[end:])
			if (at == 0 || !jsstring.IsIdentifierPart(before)) && (end == len(src) || !jsstring.IsIdentifierPart(after)) {
				return true
			}
			off = at + 1
		}
	}
	return false
}

// moduleSyntax reports whether the script src is written as an ES module (an import or export
// statement, import.meta), as esbuild's parse decides: run as a classic script, it throws.
func moduleSyntax(src string) bool {
	if !containsWord(src, "import", "export") { // the words ES module syntax needs
		return false
	}
	res := api.Build(api.BuildOptions{Stdin: &api.StdinOptions{Contents: src, Loader: api.LoaderJS, Sourcefile: "script.js"},
		Metafile: true, Write: false, Outfile: "script.out.js", LogLevel: api.LogLevelSilent})
	return len(res.Errors) == 0 && strings.Contains(res.Metafile, `"format": "esm"`)
}

// classic minifies an inline classic script without bundling it (a classic script has no
// imports to follow).
func (b *bundler) classic(contents, name string) (string, diag.List) {
	target, engines := b.target()
	res := api.Transform(contents, api.TransformOptions{
		Loader: api.LoaderJS, Sourcefile: name,
		MinifyWhitespace: true, MinifyIdentifiers: false, MinifySyntax: true,
		Target: target, Engines: engines, Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsNone,
		Define: b.define, LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return "", b.messages(res.Errors, diag.Error)
	}
	return string(res.Code), nil
}

// remoteInCSS reports each URL of the stylesheet css (the file at path, whose source is src,
// after its CSS tools) that would load from outside the bundle, at its place in the source the
// author wrote: relative URLs are esbuild's to inline. A URL the tools wrote that the source
// does not hold is reported at the file.
func remoteInCSS(path string, src []byte, css string) []api.Message {
	fs, err := offline.CheckCSS(path, []byte(css), offline.Options{})
	if err != nil || len(fs) == 0 {
		return nil
	}
	srcLines := diag.NewLines(src)
	var out []api.Message
	for _, f := range fs {
		if _, _, isLocal := local(f.URL); isLocal || f.URL == "" {
			continue
		}
		m := api.Message{Text: f.Text, Location: &api.Location{File: path}, Notes: []api.Note{{Text: f.Note}}}
		d := diag.Message{}
		if string(src) == css {
			d.PlaceIn(srcLines, f.Offset, f.Length)
		} else if i := strings.Index(string(src), f.URL); i >= 0 {
			d.PlaceIn(srcLines, i, len(f.URL))
		}
		if d.Line > 0 {
			m.Location.Line, m.Location.Column, m.Location.Length, m.Location.LineText = d.Line, d.Column-1, d.Length, d.LineText
		}
		out = append(out, m)
	}
	return out
}
