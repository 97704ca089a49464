package pipeline

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/tdewolff/parse/v2/js"
)

// A module imported with import() keeps every export in esbuild's bundle: the namespace
// object the promise gives may be read by any name. Vite's build tree-shakes the exports of a
// dynamic import whose namespace object is only destructured or read by one name, in the
// three forms its import analysis names (Vite's "dynamic import treeshaking"):
//
//	const { foo, default: bar } = await import('./mod.js')
//	(await import('./mod.js')).foo            (or ?.foo)
//	import('./mod.js').then(({ foo }) => …)   (or function ({ foo }) {…})
//
// In these forms the namespace object itself is never seen, only the names read from it, so
// the import is given a module of those names alone (pickNamespace): a module that imports the
// original's namespace and exports what it reads of it, which esbuild then tree-shakes as a
// static import. The original is still evaluated when import() runs, not before: the picking
// module is dynamically imported in its place. Anything else (a default in the pattern, a
// rest element, a computed key, the namespace kept in a variable) keeps the whole module.

// pickPrefix marks a dynamic import's specifier the transforms rewrote to a picking module:
// miniapp-pick:<name,name>:<the original specifier>.
const pickPrefix = "miniapp-pick:"

// pickNamespace is the esbuild namespace of the picking modules; pickedSpec is the one import
// each makes, resolved to what the original specifier resolved to from its importer.
const (
	pickNamespace = "miniapp-pick"
	pickedSpec    = "miniapp-picked"
)

// exportName is an IdentifierName: what a picked name may be.
var exportName = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// pickNames returns the names read from the namespace the dynamic import at the significant
// token i ("import", its call's '(' at i+1 and ')' at close) gives, when it is in one of the
// forms above; ok is false otherwise.
func (s *script) pickNames(i, close int) (names []string, ok bool) {
	switch {
	// (await import('x')).name
	case s.is(i-2, "(", "await") && s.text(close+1) == ")" && s.pair[i-2] == close+1 &&
		(s.text(close+2) == "." || s.text(close+2) == "?.") && exportName.MatchString(s.text(close+3)):
		return []string{s.text(close + 3)}, true
	// const { a, b: c } = await import('x');
	case s.is(i-2, "=", "await") && s.text(i-3) == "}" && (s.text(close+1) == ";" || s.text(close+1) == ","):
		open := s.opener(i - 3)
		if open < 0 || !s.is(open-1, "const") && !s.is(open-1, "let") && !s.is(open-1, "var") && !s.is(open-1, ",") {
			return nil, false
		}
		return s.patternNames(open, i-3)
	// import('x').then(({ a }) => …) or .then(function ({ a }) {…})
	case s.is(close+1, ".", "then", "("):
		k := close + 4
		if s.is(k, "function") {
			k++
			if s.tok(k).tt == js.IdentifierToken {
				k++ // a named function expression
			}
		}
		if !s.is(k, "(", "{") || s.pair[k] < 0 || s.pair[k+1] != s.pair[k]-1 {
			return nil, false
		}
		if !s.is(k-1, "function") && !s.is(k-2, "function") && !s.is(s.pair[k]+1, "=>") {
			return nil, false
		}
		return s.patternNames(k+1, s.pair[k+1])
	}
	return nil, false
}

// opener returns the significant token that opens the bracket closed at c, or -1.
func (s *script) opener(c int) int {
	for k := c - 1; k >= 0 && c-k < 1<<14; k-- {
		if s.pair[k] == c {
			return k
		}
	}
	return -1
}

// patternNames reads the object pattern between the braces at the significant tokens open
// and close: the property each element reads, when each is `name` or `name: binding`.
func (s *script) patternNames(open, close int) ([]string, bool) {
	var names []string
	for _, p := range s.split(open+1, close) {
		var n string
		switch {
		case p[1] == p[0]+1 && s.tok(p[0]).tt == js.IdentifierToken:
			n = s.text(p[0])
		case p[1] == p[0]+3 && exportName.MatchString(s.text(p[0])) && s.text(p[0]+1) == ":" && s.tok(p[0]+2).tt == js.IdentifierToken:
			n = s.text(p[0])
		default:
			return nil, false // a default, a rest element, a computed key, a nested pattern
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names, len(names) > 0
}

// pickPlugin resolves the picking modules: a miniapp-pick: specifier is resolved as its
// original specifier would be from its importer (every plugin and the confinement take part);
// a file is given the module of its names, anything else (a virtual module, a CommonJS
// wrapper) is the original's resolution, whole.
func (b *bundler) pickPlugin() api.Plugin {
	return api.Plugin{Name: "dynamic-import-pick", Setup: func(pb api.PluginBuild) {
		b.styleStub(pb)
		b.scopedModules(pb)
		onAppResolve(pb, `^`+pickPrefix, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			rest := strings.TrimPrefix(a.Path, pickPrefix)
			names, spec, ok := strings.Cut(rest, ":")
			if !ok {
				return api.OnResolveResult{}, nil
			}
			r := pb.Resolve(spec, api.ResolveOptions{Importer: a.Importer, ResolveDir: a.ResolveDir, Kind: a.Kind, Namespace: a.Namespace, PluginData: a.PluginData})
			orig := api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, External: r.External, SideEffects: sideEffects(r.SideEffects), Suffix: r.Suffix,
				PluginData: r.PluginData, Errors: r.Errors, Warnings: r.Warnings}
			if len(r.Errors) > 0 || r.External || r.Namespace != "file" || r.Suffix != "" {
				return orig, nil
			}
			// By its path in the app folder, as the bundle names the module (see styleStub).
			return api.OnResolveResult{Path: names + ":" + b.rel(r.Path), Namespace: pickNamespace, PluginData: orig, Warnings: r.Warnings}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: pickNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			names, _, _ := strings.Cut(a.Path, ":")
			var src strings.Builder
			fmt.Fprintf(&src, "import * as m from %s;\n", jsString(pickedSpec))
			for k, n := range strings.Split(names, ",") {
				fmt.Fprintf(&src, "var p%d = m.%s;\nexport { p%d as %s };\n", k, n, k, n)
			}
			text := src.String()
			return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS, PluginData: a.PluginData}, nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: `^` + pickedSpec + `$`, Namespace: pickNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			orig, _ := a.PluginData.(api.OnResolveResult)
			return orig, nil
		})
	}}
}

// urlScheme starts a specifier that is a URL (data:, https:, a Windows drive is none here).
var urlScheme = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*:|//)`)

// isURL reports whether the specifier spec is a URL, which the picking leaves as written.
func isURL(spec string) bool { return urlScheme.MatchString(spec) }

// A stylesheet imported by a script is, in esbuild's bundle, a CommonJS module whose exports
// are {} (so a namespace import of it has default: {}); in Vite it is an ES module with no
// export at all, whose stylesheet the page gets: import.meta.glob('./dir/*') gives {} for its
// .css files, and a default import of one is an error. styleStubNamespace is that module: it
// imports the stylesheet, resolved as the script's import was, for its rules alone.
const (
	styleStubNamespace = "miniapp-style"
	styleStubSpec      = "miniapp-stylesheet"
)

// styleStub gives a script's import of a plain stylesheet (not a CSS Module, no query) the
// module of no exports.
func (b *bundler) styleStub(pb api.PluginBuild) {
	onAppResolve(pb, `(?i)\.(css|scss|sass|less|styl|stylus)$`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		ask := askedBy(a.PluginData)
		if !ask.answers(byStyleStub) || a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport || cssModuleName.MatchString(a.Path) {
			return api.OnResolveResult{}, nil
		}
		r := pb.Resolve(a.Path, again(a, byStyleStub))
		lower := strings.ToLower(r.Path)
		if len(r.Errors) > 0 || r.External || r.Namespace != "file" || r.Suffix != "" || !isStylesheet(lower) || strings.Contains(filepath.Base(lower), ".module.") {
			return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, External: r.External, Suffix: r.Suffix, PluginData: r.PluginData,
				SideEffects: sideEffects(r.SideEffects), Errors: r.Errors, Warnings: r.Warnings}, nil
		}
		// Named by its path in the app folder: esbuild names a module it wraps by its
		// namespace and path in the bundle, which must not hold the builder's folder.
		return api.OnResolveResult{Path: b.rel(r.Path), Namespace: styleStubNamespace, Warnings: r.Warnings}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: styleStubNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
		text := "import " + jsString(styleStubSpec) + ";\n"
		return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS, PluginData: b.abs(a.Path)}, nil
	})
	pb.OnResolve(api.OnResolveOptions{Filter: `^` + styleStubSpec + `$`, Namespace: styleStubNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		p, _ := a.PluginData.(string)
		return api.OnResolveResult{Path: p, Namespace: "file"}, nil
	})
}

// cssModuleName matches a specifier that names a CSS Module, which has exports of its own.
var cssModuleName = regexp.MustCompile(cssModuleFilter)

// sideEffects is esbuild's resolution's side-effects flag as a plugin returns it.
func sideEffects(has bool) api.SideEffects {
	if has {
		return api.SideEffectsTrue
	}
	return api.SideEffectsFalse
}

// styleExportMessage explains esbuild's "No matching export in "miniapp-style:<file>" for
// import "x"": a stylesheet has no export, as in Vite.
func (b *bundler) styleExportMessage(text string) (string, string, bool) {
	rest, ok := strings.CutPrefix(text, `No matching export in "`+styleStubNamespace+":")
	if !ok {
		return "", "", false
	}
	file, rest, _ := strings.Cut(rest, `"`)
	name, ok := strings.CutPrefix(rest, ` for import "`)
	if !ok {
		return "", "", false
	}
	name = strings.TrimSuffix(name, `"`)
	shown := b.messageFile(file)
	return fmt.Sprintf("the stylesheet %s has no export %q: a stylesheet a script imports gives the page its rules, and the script nothing, as in Vite", shown, name),
		fmt.Sprintf("import it for its rules (import %q), with ?inline for its text (import css from %q), or name it .module.css for its class names", "./"+filepath.Base(file), "./"+filepath.Base(file)+"?inline"), true
}

// jsonAttributes takes the import attributes { type: 'json' } off the import of a .json file
// whose specifier is the significant token i: Vite's JSON plugin makes every JSON file the
// same module, its default export and a named export for each top-level key, whatever the
// import's attributes; esbuild's standard JSON module has the default export alone.
func (r *rewrite) jsonAttributes(i int) {
	spec, err := r.s.str(i)
	if err != nil || strings.ContainsAny(spec, "?#") || !strings.EqualFold(path.Ext(spec), ".json") {
		return
	}
	off, ok := r.s.srcAt(i)
	if !ok {
		return
	}
	// The attributes are not in the JavaScript the transforms read (esbuild's, which has
	// them lowered): lex the source from the specifier on.
	var toks []struct {
		tt         js.TokenType
		start, end int
	}
	depth := 0
	lexSource(r.s.src, off, func(tt js.TokenType, start, end int) bool {
		toks = append(toks, struct {
			tt         js.TokenType
			start, end int
		}{tt, start, end})
		switch {
		case len(toks) == 1:
			return tt == js.StringToken
		case len(toks) == 2:
			w := r.s.src[start:end]
			return w == "with" || w == "assert"
		case tt == js.OpenBraceToken:
			depth++
		case tt == js.CloseBraceToken:
			depth--
			return depth > 0
		}
		return len(toks) < 64
	})
	n := len(toks)
	if n < 4 || toks[2].tt != js.OpenBraceToken || toks[n-1].tt != js.CloseBraceToken || depth != 0 {
		return
	}
	// Only { type: 'json' } (a trailing comma allowed): another attribute is left to esbuild.
	var words []string
	for _, t := range toks[3 : n-1] {
		w := r.s.src[t.start:t.end]
		if t.tt == js.StringToken {
			w, _ = jsstring.Decode(w)
		}
		words = append(words, w)
	}
	if w := strings.Join(words, " "); w != "type : json" && w != "type : json ," {
		return
	}
	start, end := toks[1].start, toks[n-1].end
	r.edits = append(r.edits, edit{start, end, strings.Repeat("\n", strings.Count(r.s.src[start:end], "\n"))})
}
