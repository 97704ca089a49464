package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/pipeline/diag"
	"github.com/miniapp/bundle/sdk"
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
	m      *manifest.Manifest
	root   string // the app folder, absolute, symlinks resolved
	dir    string // the app folder as the caller named it, for messages
	define map[string]string
	// inputs accumulates bytes each input contributed, over every esbuild run, for the size
	// budget's report.
	inputs    map[string]int
	legal     []string // legal comments, kept out of the bundle
	maps      []api.OutputFile
	sourcemap bool
	// carry is set when a bundle holds an MCP Apps client of the app's own (sdk.CarriedClients).
	carry bool
}

// code is one esbuild result: the JavaScript and the CSS it imported.
type code struct {
	js, css string
}

func (b *bundler) options() api.BuildOptions {
	loaders := map[string]api.Loader{}
	for k, v := range assetLoaders {
		loaders[k] = v
	}
	for ext, name := range b.m.Build.Loader {
		loaders[ext] = loaderNames[name]
	}
	target := api.ES2020
	var engines []api.Engine
	if t := b.m.Build.Target; t != "" {
		target, engines = parseTarget(t)
	}
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
		MinifySyntax:      true,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsExternal,
		JSX:               api.JSXAutomatic,
		Define:            b.define,
		Loader:            loaders,
		Alias:             b.aliases(),
		Splitting:         false,
		Sourcemap:         sm,
		SourcesContent:    api.SourcesContentInclude,
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{b.confine()},
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

func parseTarget(t string) (api.Target, []api.Engine) {
	target := api.ES2020
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
				"es2023": api.ES2023, "es2024": api.ES2024}[part]
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

// confine is an esbuild plugin that refuses, before esbuild reads it, any file outside the app
// folder (through ../, an absolute path or a symbolic link), and resolves @miniapp/sdk to the
// SDK already in the page.
func (b *bundler) confine() api.Plugin {
	return api.Plugin{Name: "confine", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^@miniapp/sdk(/react)?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: sdkNamespace}, nil
		})
		// The SDK's modules import each other by relative path.
		pb.OnResolve(api.OnResolveOptions{Filter: `^\./[a-z-]+$`, Namespace: sdkNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: sdkNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: sdkNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := sdk.Module(a.Path)
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderTS, ResolveDir: b.root}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			real, err := filepath.EvalSymlinks(a.Path)
			if err != nil {
				return api.OnLoadResult{}, nil // esbuild reports the missing file itself
			}
			if real != b.root && !strings.HasPrefix(real, b.root+string(filepath.Separator)) {
				return api.OnLoadResult{}, fmt.Errorf("%s is outside the app folder; bundle reads only files inside %s (move the file in, or install the package there)", a.Path, filepath.Base(b.root))
			}
			if strings.HasSuffix(strings.ToLower(a.Path), ".css") {
				src, err := os.ReadFile(real)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				css := pruneFontFaces(string(src))
				return api.OnLoadResult{Contents: &css, Loader: api.LoaderCSS}, nil
			}
			return api.OnLoadResult{}, nil
		})
	}}
}

// run runs esbuild and turns its result into code, or into diagnostics that keep esbuild's
// file:line:col and source line.
func (b *bundler) run(opts api.BuildOptions) (code, diag.List) {
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		return code{}, b.messages(res.Errors, diag.Error)
	}
	var c code
	for _, f := range res.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".LEGAL.txt"):
			b.legal = append(b.legal, string(f.Contents))
		case strings.HasSuffix(f.Path, ".map"):
			b.maps = append(b.maps, f)
		case strings.HasSuffix(f.Path, ".js"):
			c.js += string(f.Contents)
		case strings.HasSuffix(f.Path, ".css"):
			c.css += dedupeAssets(string(f.Contents))
		}
	}
	b.recordInputs(res.Metafile)
	return c, b.messages(res.Warnings, diag.Warning)
}

func (b *bundler) recordInputs(metafile string) {
	var meta struct {
		Outputs map[string]struct {
			Inputs map[string]struct {
				BytesInOutput int `json:"bytesInOutput"`
			} `json:"inputs"`
		} `json:"outputs"`
	}
	if json.Unmarshal([]byte(metafile), &meta) != nil {
		return
	}
	for _, o := range meta.Outputs {
		for in, st := range o.Inputs {
			b.inputs[in] += st.BytesInOutput
			for _, c := range sdk.CarriedClients {
				b.carry = b.carry || strings.Contains(in, "node_modules/"+c+"/")
			}
		}
	}
}

// messages converts esbuild messages, with paths relative to the app folder.
func (b *bundler) messages(ms []api.Message, sev diag.Severity) diag.List {
	var out diag.List
	for _, m := range ms {
		d := diag.Message{Severity: sev, Text: m.Text}
		if m.PluginName != "" && strings.Contains(m.Text, "outside the app folder") {
			d.Note = "keep every file the app uses inside its folder"
		}
		if l := m.Location; l != nil {
			d.File = b.display(b.rel(l.File))
			if spec, ok := strings.CutPrefix(l.File, sdkNamespace+":"); ok {
				// The SDK's modules have no file: name them by their specifier.
				d.File = spec
			}
			d.Line, d.Column, d.Length, d.LineText = l.Line, l.Column+1, max(l.Length, 1), l.LineText
			if l.Suggestion != "" {
				d.Note = fmt.Sprintf("did you mean %q?", l.Suggestion)
			}
		}
		if strings.HasPrefix(m.Text, "Could not resolve") {
			// esbuild's note suggests marking the path external, which would leave a load in
			// the bundle: the fix here is to make the import resolvable.
			d.Note = "install the package in the app folder (npm install), fix the path, or map it with [build] alias"
			if strings.Contains(m.Text, "/jsx-runtime") {
				d.Note = "the automatic JSX runtime imports react/jsx-runtime: install react in the app folder (npm install react react-dom)"
			}
		} else {
			for _, n := range m.Notes {
				if n.Text == "" {
					continue
				}
				if d.Note != "" {
					d.Note += "; "
				}
				text := strings.TrimSuffix(n.Text, ":")
				if l := n.Location; l != nil {
					text += fmt.Sprintf(" (%s:%d:%d)", b.display(b.rel(l.File)), l.Line, l.Column+1)
				}
				d.Note += text
			}
		}
		out = append(out, d)
	}
	return out
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

// stdin bundles code written inside index.html, resolving its imports from dir (relative to
// the app folder). name names it in messages.
func (b *bundler) stdin(contents, name, dir string, loader api.Loader) (code, diag.List) {
	opts := b.options()
	if loader == api.LoaderCSS {
		contents = pruneFontFaces(contents)
	}
	opts.Stdin = &api.StdinOptions{Contents: contents, ResolveDir: filepath.Join(b.root, filepath.FromSlash(dir)), Sourcefile: name, Loader: loader}
	return b.run(opts)
}

// classic minifies an inline classic script without bundling it (a classic script has no
// imports to follow).
func (b *bundler) classic(contents, name string) (string, diag.List) {
	res := api.Transform(contents, api.TransformOptions{
		Loader: api.LoaderJS, Sourcefile: name,
		MinifyWhitespace: true, MinifyIdentifiers: false, MinifySyntax: true,
		Target: api.ES2020, Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsNone,
		Define: b.define, LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return "", b.messages(res.Errors, diag.Error)
	}
	return string(res.Code), nil
}
