package pipeline

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/internal/nodetool"
	"github.com/miniapp/bundle/sourcemap"
)

// Components of the frameworks whose files need their own compiler: Vue single-file
// components (.vue) with the app's vue/compiler-sfc, Svelte 5 components (.svelte) with the
// app's svelte/compiler, and Solid's JSX with the app's babel-preset-solid on @babel/core,
// each run by the one Node process of the app's CSS tools (package nodetool), as Vite's
// plugins run them for a production build. A component's styles become a stylesheet of the
// page, imported by the component's code from componentCSSNamespace.

// componentCSSNamespace holds the styles of the components compiled in a build, by the
// component's path.
const componentCSSNamespace = "miniapp-component-css"

// framework is a compiler bundle runs: the runner's tool, and what its messages name.
type framework struct {
	tool string
	what string // "Vue single-file components"
	// pkg is the npm package that brings the compiler, want its range; runtime says it is
	// a dependency of the app's code (installed without -D).
	pkg, want string
	runtime   bool
}

var (
	vueFramework    = framework{tool: "vue", what: "Vue single-file components", pkg: "vue", want: "^3.3.0", runtime: true}
	svelteFramework = framework{tool: "svelte", what: "Svelte components", pkg: "svelte", want: "^5.0.0"}
	solidFramework  = framework{tool: "solid", what: "Solid's JSX files", pkg: "babel-preset-solid", want: "^1.0.0"}
)

// componentFramework returns the framework whose compiler a file of this name needs.
func componentFramework(lower string) (framework, bool) {
	switch filepath.Ext(lower) {
	case ".vue":
		return vueFramework, true
	case ".svelte":
		return svelteFramework, true
	}
	return framework{}, false
}

// isSvelteModule reports whether a file of this name is a module that uses Svelte's runes,
// which Svelte's compiler compiles (name.svelte.js, name.svelte.ts), as
// @sveltejs/vite-plugin-svelte names them.
func isSvelteModule(lower string) bool {
	return strings.HasSuffix(lower, ".svelte.js") || strings.HasSuffix(lower, ".svelte.ts")
}

// loadSvelteModule compiles the module at p with Svelte's compiler, its TypeScript types
// removed first by esbuild (as Vite removes them before the plugin compiles it), the two
// source maps joined.
func (b *bundler) loadSvelteModule(p string, resolve func(string, api.ResolveOptions) api.ResolveResult, chain workerChain) (api.OnLoadResult, error) {
	src, err := os.ReadFile(p)
	if err != nil {
		return api.OnLoadResult{}, nil // esbuild reports it
	}
	code := string(src)
	var typesMap []byte // the map of the module without its types to the author's file
	if strings.HasSuffix(strings.ToLower(p), ".ts") {
		opts := api.TransformOptions{Loader: api.LoaderTS, Sourcefile: p, TsconfigRaw: b.tsconfigRaw, Target: api.ESNext, Format: api.FormatESModule}
		if b.sourcemap {
			opts.Sourcemap, opts.SourcesContent = api.SourceMapExternal, api.SourcesContentInclude
		}
		res := api.Transform(code, opts)
		if len(res.Errors) > 0 {
			for i := range res.Errors {
				if res.Errors[i].Location != nil {
					res.Errors[i].Location.File = p
				}
			}
			return api.OnLoadResult{Errors: res.Errors}, nil
		}
		code, typesMap = string(res.Code), res.Map
	}
	out, err := b.compile(nodetool.Request{Tool: "svelte-module", File: p, Code: code, Map: b.sourcemap})
	if err != nil {
		return api.OnLoadResult{Errors: b.compileFailure(p, svelteFramework, err)}, nil
	}
	if out.Map != "" && typesMap != nil {
		// Svelte's map is of esbuild's text: joined to esbuild's, it is of the author's, as
		// Vite chains the two transforms' maps.
		m, err := sourcemap.Compose([]byte(out.Map), typesMap)
		if err != nil {
			return api.OnLoadResult{}, fmt.Errorf("the source map of %s: %w", p, err)
		}
		out.Map = string(m)
	}
	return b.compiled(p, out, resolve, chain)
}

// vueDefines are the flags of Vue's esm-bundler build, defined as @vitejs/plugin-vue defines
// them for a production build: the Options API kept, devtools and hydration mismatch details
// left out.
var vueDefines = map[string]string{
	"__VUE_OPTIONS_API__":                     "true",
	"__VUE_PROD_DEVTOOLS__":                   "false",
	"__VUE_PROD_HYDRATION_MISMATCH_DETAILS__": "false",
}

// frameworkDefines adds Vue's flags to define when the app declares or has installed vue,
// each unless the manifest or the vite.config defines it.
func (b *bundler) frameworkDefines() {
	p := packagesFrom(&b.folders, b.root, b.readRoot)
	if p.declared["vue"] == "" && !p.installed["vue"] {
		return
	}
	for k, v := range vueDefines {
		if _, ok := b.define[k]; !ok { // the manifest's or the vite.config's define wins
			b.define[k] = v
		}
	}
}

// solidJSX reports whether the app's JSX is Solid's: tsconfig's jsxImportSource is solid-js,
// or, where it names none, the nearest package.json that declares solid-js, React or Preact
// (whose JSX esbuild compiles itself) declares solid-js and neither of the others: an app's
// own, not its workspace root's.
func (b *bundler) solidJSX() bool {
	b.solidOnce.Do(func() {
		var cfg struct {
			CompilerOptions struct {
				JSXImportSource *string `json:"jsxImportSource"`
			} `json:"compilerOptions"`
		}
		if json.Unmarshal([]byte(b.tsconfigRaw), &cfg) == nil && cfg.CompilerOptions.JSXImportSource != nil {
			src := *cfg.CompilerOptions.JSXImportSource
			b.solid = src == "solid-js" || strings.HasPrefix(src, "solid-js/")
			return
		}
		p := packagesFrom(&b.folders, b.root, b.readRoot)
		for _, f := range p.manifests {
			by := func(name string) bool { return p.declared[name] == f }
			if by("solid-js") || by("react") || by("preact") {
				b.solid = by("solid-js") && !by("react") && !by("preact")
				return
			}
		}
		b.solid = false
	})
	return b.solid
}

// conditions are the export conditions packages resolve by: the vite.config's (Vite's), and
// for an app whose JSX is Solid's "solid" first, as vite-plugin-solid adds it (a Solid
// library's JSX source, which the build then compiles with the app's preset).
func (b *bundler) conditions() []string {
	c := b.vite.conditions()
	if b.solidJSX() && !slices.Contains(c, "solid") {
		c = append([]string{"solid"}, c...)
	}
	return c
}

// componentState is what the components of a build keep: their styles, by path.
type componentState struct {
	styles sync.Map
}

// componentPlugin registers the resolution of a component's styles; it goes first, before the
// refusal of an import that looks like a URL.
func (b *bundler) componentPlugin(pb api.PluginBuild) {
	onAppResolve(pb, `^`+componentCSSNamespace+`:`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, componentCSSNamespace+":"), Namespace: componentCSSNamespace}, nil
	})
	// The styles as an entry of their own: those of a component only import() reaches
	// (lazycss.go), built when its module is loaded.
	pb.OnResolve(api.OnResolveOptions{Filter: `^` + componentCSSNamespace + `:`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		if a.Kind != api.ResolveEntryPoint {
			return api.OnResolveResult{}, nil
		}
		return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, componentCSSNamespace+":"), Namespace: componentCSSNamespace}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: componentCSSNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		v, ok := b.components.styles.Load(a.Path)
		if !ok {
			return api.OnLoadResult{}, fmt.Errorf("no styles of a component at %s", a.Path)
		}
		css := v.(string)
		res := api.OnLoadResult{Loader: api.LoaderCSS, ResolveDir: filepath.Dir(a.Path)}
		if b.css.postcssConfig() != "" || b.css.configOutside != "" || importsTailwind(css) {
			var errs []api.Message
			if css, errs = b.css.process(b.ctx, a.Path, []byte(css)); errs != nil {
				return api.OnLoadResult{Errors: errs}, nil
			}
		}
		if errs := remoteInCSS(a.Path, []byte(css), css); len(errs) > 0 {
			return api.OnLoadResult{Errors: errs}, nil
		}
		css = imageSetURLs(pruneFontFaces(css))
		res.Contents = &css
		return res, nil
	})
}

// loadComponent compiles the component at p with its framework's compiler; the code of an
// app's own component (not a package's) then goes through the source transforms as its
// scripts do.
func (b *bundler) loadComponent(p string, fw framework, resolve func(string, api.ResolveOptions) api.ResolveResult, chain workerChain) (api.OnLoadResult, error) {
	req := nodetool.Request{Tool: fw.tool, File: p, Map: b.sourcemap}
	if fw.tool == "vue" {
		req.Options = b.css.componentStyles()
	}
	out, err := b.compile(req)
	if err != nil {
		return api.OnLoadResult{Errors: b.compileFailure(p, fw, err)}, nil
	}
	return b.compiled(p, out, resolve, chain)
}

// compiled turns a compiler's output for the file at p into esbuild's load result.
func (b *bundler) compiled(p string, out nodetool.Output, resolve func(string, api.ResolveOptions) api.ResolveResult, chain workerChain) (api.OnLoadResult, error) {
	js := out.JS
	if out.CSS != "" {
		b.components.styles.Store(p, out.CSS)
		js += "\nimport " + strconv.Quote(componentCSSNamespace+":"+p) + ";\n"
	} else {
		b.components.styles.Delete(p)
	}
	loader := api.LoaderJS
	if out.Loader == "ts" {
		loader = api.LoaderTS
	}
	var warnings []api.Message
	own := !strings.Contains(filepath.ToSlash(p), "/node_modules/")
	for _, w := range out.Warnings {
		if own { // a package's component is not the author's to fix
			warnings = append(warnings, b.toolMessage(p, &w))
		}
	}
	if own {
		t, errs, warns := b.appScript(p, p, js, loader, resolve, chain)
		if len(errs) > 0 {
			return api.OnLoadResult{Errors: errs, Warnings: append(warnings, warns...)}, nil
		}
		if t != "" {
			js = t
		}
		warnings = append(warnings, warns...)
	}
	if out.Map != "" {
		// esbuild reads the compiler's map from the code it loads, and maps through it to
		// the author's component.
		js += "\n//# sourceMappingURL=data:application/json;base64," + base64.StdEncoding.EncodeToString([]byte(out.Map)) + "\n"
	}
	return api.OnLoadResult{Contents: &js, Loader: loader, ResolveDir: filepath.Dir(p), Warnings: warnings}, nil
}

// compileSolid compiles the JSX of the app's script at p with Solid's preset; ts says the
// script is TypeScript, whose syntax is kept for esbuild.
func (b *bundler) compileSolid(p string, ts bool) (nodetool.Output, []api.Message) {
	out, err := b.compile(nodetool.Request{Tool: "solid", File: p, TS: ts, Map: b.sourcemap})
	if err != nil {
		return nodetool.Output{}, b.compileFailure(p, solidFramework, err)
	}
	return out, nil
}

// componentStyles is what a Vue component's styles in Sass, Less and Stylus are compiled with,
// as the app's .scss, .less and .styl files are: the vite.config's css.preprocessorOptions by
// language (one bundle cannot pass as {refused, note}: the message, said at a style of that
// language only) and the aliases of Sass's and Less's imports, as JSON.
func (c *cssTools) componentStyles() json.RawMessage {
	options := map[string]any{}
	for _, lang := range []string{"scss", "sass", "less", "styl", "stylus"} {
		raw, msg := c.options("style." + lang)
		switch {
		case msg != nil:
			refused := map[string]string{"refused": msg.Text}
			if len(msg.Notes) > 0 {
				refused["note"] = msg.Notes[0].Text
			}
			options[lang] = refused
		case raw != nil:
			options[lang] = raw
		}
	}
	out, _ := json.Marshal(map[string]any{"options": options, "aliases": map[string][]nodetool.Alias{"sass": c.importAliases("sass"), "less": c.importAliases("less")}})
	return out
}

// compile runs req on the app's compiler, bounded by toolTimeout (the Runner's Timeout): Node,
// stuck in the compiler, is killed (the next compile starts it again).
func (b *bundler) compile(req nodetool.Request) (nodetool.Output, error) {
	return b.css.runner.Compile(b.ctx, req)
}

// toolMessage is a compiler's message at its place in the component at p.
func (b *bundler) toolMessage(p string, te *nodetool.ToolError) api.Message {
	m := api.Message{Text: te.Message, Location: &api.Location{File: p}}
	if te.File != "" && within(te.File, b.readRoot) {
		m.Location.File = te.File
	}
	if te.Line > 0 {
		m.Location.Line = te.Line
		m.Location.Column = max(te.Column-1, 0)
		m.Location.LineText = lineIn(m.Location.File, te.Line, b.readRoot)
	}
	if te.Note != "" {
		m.Notes = []api.Note{{Text: te.Note}}
	}
	return m
}

// compileFailure turns a compiler's failure into a message at the component, with the fix: the
// package to install (by the app's package manager, with the range the framework needs), the
// version to install in place of one the runner does not run, or the compiler's own message
// at its place.
func (b *bundler) compileFailure(p string, fw framework, err error) []api.Message {
	var me *nodetool.MissingError
	var ve *nodetool.VersionError
	var te *nodetool.ToolError
	var se *nodetool.StoppedError
	var to *nodetool.TimeoutError
	install := func(want string) string {
		cmd := packageManager(b.root, b.readRoot)
		if fw.runtime && strings.HasPrefix(want, fw.pkg+"@") {
			cmd = strings.TrimSuffix(strings.TrimSuffix(cmd, " -D"), " -d")
		}
		return cmd + " " + want
	}
	// A release that works: the range bundle runs, for Solid the preset of the app's solid-js.
	release := fw.pkg + "@" + fw.want
	if fw.tool == "solid" {
		release = b.solidPreset()
	}
	m := api.Message{Location: &api.Location{File: p}}
	switch {
	case errors.Is(err, nodetool.ErrNoNode):
		m.Text = fmt.Sprintf("%s are compiled on Node.js, which is not on PATH", fw.what)
		m.Notes = []api.Note{{Text: "install Node.js 18 or later; bundle runs the app's own installed compiler with it"}}
	case errors.As(err, &me):
		if me.Package == "" { // no node_modules at all: the compiler's own package is missing
			me = &nodetool.MissingError{Package: fw.pkg}
		}
		want := me.Want
		if want == "" {
			want = me.Package
			if me.Package == fw.pkg {
				want = fw.pkg + "@" + fw.want
			}
			if fw.tool == "solid" && me.Package == "babel-preset-solid" {
				want = b.solidPreset()
			}
		}
		m.Text = fmt.Sprintf("%s need the npm package %s, which is not installed in the app", fw.what, me.Package)
		m.Notes = []api.Note{{Text: install(want)}}
		if p := packagesFrom(&b.folders, b.root, b.readRoot); p.declared[me.Package] != "" && !p.installed[me.Package] {
			// The app declares it, not installed yet: its install, not another range of it
			// (npm install vue@^3.3.0 would write that range over the app's).
			m.Text = fmt.Sprintf("%s need the npm package %s, which %s declares but is not installed", fw.what, me.Package, b.display(b.rel(p.declared[me.Package])))
			m.Notes = []api.Note{{Text: fmt.Sprintf("run npm install (or pnpm install, yarn) in %s", b.display(b.rel(filepath.Dir(p.declared[me.Package]))))}}
		}
		if pnp := yarnPnP(b.root, b.readRoot); pnp != "" {
			m.Text += fmt.Sprintf(", or is installed with Yarn Plug'n'Play (%s), whose archives Node cannot load without Yarn's loader", filepath.Base(pnp))
			m.Notes = []api.Note{{Text: "install the packages into node_modules: set nodeLinker: node-modules in .yarnrc.yml and run yarn install"}}
		}
	case errors.As(err, &ve):
		m.Text = ve.Message
		m.Notes = []api.Note{{Text: install(ve.Want)}}
	case errors.As(err, &to):
		m.Text = fmt.Sprintf("the compiler of %s did not finish %s in %v", fw.what, filepath.Base(p), to.After)
		m.Notes = []api.Note{{Text: "the compiler loops or waits on what never comes, not the component: install a release of it that works (" + install(release) + "), or report it to the package"}}
	case errors.As(err, &se) && se.Killed:
		m.Text = fmt.Sprintf("the compiler of %s was stopped before it finished %s: another file's compile or CSS tool did not finish in %v", fw.what, filepath.Base(p), b.css.runner.Timeout)
		m.Notes = []api.Note{{Text: "that file's error says what to do"}}
	case errors.As(err, &te) && te.Crashed != "":
		m.Text = fmt.Sprintf("the compiler of %s (%s) crashed: %s", fw.what, te.Crashed, te.Message)
		m.Notes = []api.Note{{Text: "the error is the compiler's, not the component's: install a release of it that works (" + install(release) + "), or report it to the package"}}
	case errors.As(err, &te):
		if te.Outside != "" {
			m.Text = te.Message
			m.Notes = []api.Note{{Text: "keep every file the component uses inside the app folder (or its workspace root): bundle lets the compiler read nothing else"}}
			break
		}
		m = b.toolMessage(p, te)
	default:
		m.Text = fmt.Sprintf("the compiler of %s failed: %v", fw.what, err)
	}
	return []api.Message{m}
}

// solidPreset is the babel-preset-solid to install: the version line of the app's solid-js
// (the preset's versions follow Solid's), with @babel/core, which the preset runs on.
func (b *bundler) solidPreset() string {
	want := "babel-preset-solid@" + solidFramework.want
	if v := installedVersion(b.root, b.readRoot, "solid-js"); v != "" {
		if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
			want = "babel-preset-solid@^" + parts[0] + "." + parts[1] + ".0"
		}
	}
	if !installed(b.root, b.readRoot, "@babel/core") {
		want += " @babel/core@^7.20.0"
	}
	return want
}
