package pipeline

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// queryNamespace holds the modules that imports with a Vite query suffix resolve to; each is
// generated from the file it names, so that one file still holds everything.
const queryNamespace = "miniapp-query"

// The import suffixes understood, as Vite documents them and reads them (each by its own
// test of the query, so that ?url&inline and ?inline=true, which import.meta.glob's query
// object writes, are read as Vite reads them), plus the one the source transform writes for
// new Worker(new URL(…, import.meta.url)):
//
//	?raw                 the file's text
//	?url                 the file's URL: a data: URL, a script's too (&inline
//	                     too; &no-inline asks for a file beside the page, which a bundle
//	                     does not have: a warning, and a data: URL all the same)
//	?inline              a stylesheet's processed CSS as a string (not added to the page);
//	                     another file's data: URL
//	?worker              a constructor of a worker running the bundled file (&inline the
//	                     same, every worker is inline in one file; &url the blob: URL)
//	?sharedworker        a SharedWorker constructor, likewise
//	?init                a WebAssembly module: init(imports) resolves with its instance
//	?miniapp-worker      the bundled worker's blob: URL (classic); &module for a module worker
type viteQuery struct {
	raw, url, inline, noInline, worker, shared, init, workerURL, module bool
	svg                                                                 bool // a script's import of an SVG
	// unknown are the flags (names without a value) that none of these is.
	unknown []string
}

// queryFlags are the names parseQuery knows.
var queryFlags = []string{"raw", "url", "inline", "no-inline", "worker", "sharedworker", "init", "miniapp-worker", "module", "miniapp-svg"}

// parseQuery reads a query ("raw", "url&inline", "inline=true"; with or without its '?').
func parseQuery(q string) viteQuery {
	var v viteQuery
	for _, part := range strings.Split(strings.TrimPrefix(q, "?"), "&") {
		name, _, hasValue := strings.Cut(part, "=")
		switch {
		case part == "":
		case name == "raw" && !hasValue:
			v.raw = true
		case name == "url" && !hasValue:
			v.url = true
		case name == "inline":
			v.inline = true
		case name == "no-inline":
			v.noInline = true
		case name == "worker" && !hasValue:
			v.worker = true
		case name == "sharedworker" && !hasValue:
			v.worker, v.shared = true, true
		case name == "init" && !hasValue:
			v.init = true
		case name == "miniapp-worker":
			v.workerURL = true
		case name == "module":
			v.module = true
		case name == "miniapp-svg":
			v.svg = true
		case !hasValue && !strings.HasPrefix(name, "lang."):
			v.unknown = append(v.unknown, name)
		}
	}
	return v
}

// known reports whether the query asks for something bundle does.
func (v viteQuery) known() bool {
	// With ?url, ?raw or ?inline the module is the file's URL or text whatever else the
	// query holds (new URL(`./${x}.png?abc`) globs ?abc&url, and keeps ?abc for a server).
	return (len(v.unknown) == 0 || v.url || v.raw || v.inline) && (v.raw || v.url || v.inline || v.noInline || v.worker || v.init || v.workerURL || v.svg)
}

// queryPlugin resolves imports with a query suffix to generated modules.
func (b *bundler) queryPlugin(chain workerChain) api.Plugin {
	return api.Plugin{Name: "queries" + strings.Join(append([]string{""}, chain...), " > "), Setup: func(pb api.PluginBuild) {
		// As in Vite, a script imports a file of the public folder by its absolute path
		// (import logo from "/vite.svg"), and gets its URL.
		onAppResolve(pb, `^/[^/]`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind == api.ResolveCSSURLToken || a.Kind == api.ResolveCSSImportRule {
				return b.cssAbsolute(a.Path), nil
			}
			if a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport {
				return api.OnResolveResult{}, nil
			}
			// The app folder's file first (import "/src/data.json"), else the public
			// folder's, whose import is its URL.
			base, q, _ := strings.Cut(a.Path, "?")
			if p, ok := decodedPath(base); ok {
				f := filepath.Join(b.root, filepath.FromSlash(path.Clean(p)))
				if st, err := os.Stat(f); err == nil && !st.IsDir() && b.outside(f) == nil {
					if q != "" {
						return b.resolveQuery(a, f, q, chain), nil
					}
					return api.OnResolveResult{Path: f, Namespace: "file"}, nil
				}
			}
			p := filepath.Join(b.root, filepath.FromSlash(b.m.Build.PublicDir), filepath.FromSlash(path.Clean(base)))
			if st, err := os.Stat(p); err != nil || st.IsDir() {
				return api.OnResolveResult{}, nil
			}
			if q == "" {
				q = "url"
			}
			if !parseQuery(q).known() {
				return api.OnResolveResult{}, nil
			}
			return b.resolveQuery(a, p, q, chain), nil
		})
		// A stylesheet's URL is percent-encoded as any URL is (url(a%20b.svg) names the file
		// "a b.svg", as a server reads it); esbuild reads it as a path.
		onAppResolve(pb, `%[0-9A-Fa-f]{2}`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind != api.ResolveCSSURLToken && a.Kind != api.ResolveCSSImportRule {
				return api.OnResolveResult{}, nil
			}
			p, ok := decodedPath(a.Path)
			if !ok || strings.HasPrefix(p, "/") {
				return api.OnResolveResult{}, nil // an absolute one is cssAbsolute's
			}
			f := filepath.Join(a.ResolveDir, filepath.FromSlash(p))
			if b.leavesRoot(f) {
				// Refused where it is loaded, by where it leads: nothing there is looked at.
				return api.OnResolveResult{Path: f, Namespace: "file"}, nil
			}
			if st, err := os.Stat(f); err != nil || st.IsDir() {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: f, Namespace: "file"}, nil
		})
		// A stylesheet's @import of a package: by its style condition or field, as in Vite.
		onAppResolve(pb, `^(@[^./][^/]*/)?[^./@#][^:]*$`, b.cssImportPackage)
		// A script's import of an SVG is its data: URL as Vite writes it (svgDataURL), which an
		// unquoted url(${svg}) takes; a stylesheet's url() is esbuild's, which quotes it.
		onAppResolve(pb, `\.svg$`, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			ask := askedBy(a.PluginData)
			if !ask.answers(bySVG) || a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport && a.Kind != api.ResolveJSRequireCall {
				return api.OnResolveResult{}, nil
			}
			r := pb.Resolve(a.Path, again(a, bySVG))
			if len(r.Errors) > 0 || r.Namespace != "file" || !strings.HasSuffix(strings.ToLower(r.Path), ".svg") {
				return api.OnResolveResult{}, nil // esbuild reports it, or another plugin has it
			}
			return api.OnResolveResult{Path: b.rel(r.Path) + "?miniapp-svg", Namespace: queryNamespace}, nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: `\?[A-Za-z0-9&=._%-]*$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			ask := askedBy(a.PluginData)
			if !ask.answers(byQuery) {
				return api.OnResolveResult{}, nil
			}
			base, q, _ := strings.Cut(a.Path, "?")
			v := parseQuery(q)
			if !v.known() {
				if len(v.unknown) > 0 || a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport {
					// A module of script or JSON with a query no plugin reads (?query) is the
					// file's code, as in Vite; a file of another kind would change meaning
					// (?react is a plugin's component, not the file's URL). Its URL is its
					// own, and so is the module (the browser's module map and Rollup's ids
					// are keyed by the URL, query included): the query kept as the path's
					// suffix, which esbuild keys its modules by, so that "./store.js?again"
					// and "./store.js" are evaluated once each, as "?v=2" already was.
					if a.Kind == api.ResolveJSImportStatement || a.Kind == api.ResolveJSDynamicImport || a.Kind == api.ResolveJSRequireCall {
						r := pb.Resolve(base, again(a, byQuery))
						if len(r.Errors) == 0 && r.Namespace == "file" && scriptModule(r.Path) {
							return api.OnResolveResult{Path: r.Path, Suffix: "?" + q}, nil
						}
					}
					return b.unknownQuery(a, base, q), nil
				}
				// Only values bundle does not read (?v=2): the file, as Vite loads it.
				return api.OnResolveResult{}, nil
			}
			r := pb.Resolve(base, again(a, byQuery))
			if len(r.Errors) > 0 {
				return api.OnResolveResult{Errors: r.Errors}, nil
			}
			return b.resolveQuery(a, r.Path, q, chain), nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: queryNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			// The path is relative to the app folder, as esbuild then names the module in
			// source maps and the metafile: no absolute path reaches an output.
			file, q, _ := strings.Cut(a.Path, "?")
			if !filepath.IsAbs(file) {
				file = filepath.Join(b.root, filepath.FromSlash(file))
			}
			if msg := b.outside(file); msg != nil {
				return api.OnLoadResult{Errors: []api.Message{*msg}}, nil
			}
			src, err := b.querySource(file, q, chain)
			var inner innerErrors
			if errors.As(err, &inner) {
				return api.OnLoadResult{Errors: inner}, nil // a worker's, at their places
			}
			if err != nil {
				return api.OnLoadResult{Errors: []api.Message{{Text: err.Error(), Location: &api.Location{File: file}}}}, nil
			}
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS, ResolveDir: filepath.Dir(file), Warnings: b.workerWarnings(file, parseQuery(q), chain)}, nil
		})
	}}
}

// scriptModule reports whether p is a module of script or JSON, which no query changes
// unless a plugin reads it.
func scriptModule(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".json":
		return true
	}
	return false
}

// unknownQuery refuses a script's import of a file with a query bundle does not know, which
// esbuild would drop, importing the file as its loader has it (import Logo from
// "./logo.svg?react" was a data: URL, and the page failed where it rendered <Logo />): such a
// query is a Vite plugin's. A stylesheet's url() keeps its query, as a browser would.
func (b *bundler) unknownQuery(a api.OnResolveArgs, base, q string) api.OnResolveResult {
	if a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSDynamicImport && a.Kind != api.ResolveJSRequireCall {
		return api.OnResolveResult{}
	}
	var vite []string
	for _, known := range queryFlags {
		if !strings.HasPrefix(known, "miniapp-") && known != "module" { // the source transform's own
			vite = append(vite, known)
		}
	}
	note := "bundle knows Vite's own: ?" + strings.Join(vite, ", ?") + "; another is a Vite plugin's, which bundle does not run"
	if q == "react" || q == "component" {
		note = fmt.Sprintf("?%s is an SVG-to-component plugin's (vite-plugin-svgr, vite-svg-loader), which bundle does not run: import the file's URL (import logo from %q) and show it with <img src={logo}>, or write the SVG as a component", q, base)
	}
	return api.OnResolveResult{Errors: []api.Message{{Text: fmt.Sprintf("%q: bundle does not know the query ?%s", a.Path, q), Notes: []api.Note{{Text: note}}}}}
}

// cssAbsolute resolves a stylesheet's url(/x) or @import "/x" as Vite does: the file of the
// public folder if there is one, else the file of that path in the app folder; esbuild then
// inlines it as any other. Neither: left to esbuild, which reports it (see unresolved).
func (b *bundler) cssAbsolute(spec string) api.OnResolveResult {
	p, ok := decodedPath(spec)
	if !ok {
		return api.OnResolveResult{}
	}
	p = filepath.FromSlash(path.Clean(p))
	for _, dir := range []string{filepath.Join(b.root, filepath.FromSlash(b.m.Build.PublicDir)), b.root} {
		if st, err := os.Stat(filepath.Join(dir, p)); err == nil && !st.IsDir() {
			return api.OnResolveResult{Path: filepath.Join(dir, p), Namespace: "file"}
		}
	}
	return api.OnResolveResult{}
}

// decodedPath returns the path of a local URL (of the page or of a stylesheet), without its
// query and fragment, percent-decoded; ok is false for one that does not decode, or whose
// encoded slash or backslash would make a path separator.
func decodedPath(u string) (string, bool) {
	u, _, _ = strings.Cut(u, "?")
	u, _, _ = strings.Cut(u, "#")
	if lower := strings.ToLower(u); strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") {
		return "", false
	}
	d, err := url.PathUnescape(u)
	return d, err == nil
}

// querySource writes the module for file imported with the query q, in a build whose
// workers chain is.
func (b *bundler) querySource(file, q string, chain workerChain) (string, error) {
	ext := strings.ToLower(filepath.Ext(file))
	str := func(s string) string { j, _ := json.Marshal(s); return string(j) }
	v := parseQuery(q)
	switch {
	case v.worker || v.workerURL:
		return b.workerModule(file, v, chain)
	case v.raw:
		data, err := os.ReadFile(file)
		return "export default " + str(string(data)), err
	case v.init && ext == ".wasm":
		if !b.m.Wasm {
			return "", errNeedsWasm
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		return `const b = Uint8Array.from(atob(` + str(base64.StdEncoding.EncodeToString(data)) + `), (c) => c.charCodeAt(0));
export default (imports) => WebAssembly.instantiate(b, imports).then((r) => r.instance);`, nil
	case v.inline && !v.url && isStylesheet(file):
		c, l := b.entry(b.rel(file))
		if l.HasErrors() {
			return "", fmt.Errorf("%s", l[0].Text)
		}
		return "export default " + str(c.css), nil
	case v.url && isStylesheet(file):
		// The stylesheet as built (its url()s inlined, Sass compiled), as Vite's CSS
		// pipeline emits the file a ?url names; a page links it (style-src data:) or
		// fetches it (connect-src data:).
		c, l := b.entry(b.rel(file))
		if l.HasErrors() {
			return "", fmt.Errorf("%s", l[0].Text)
		}
		b.setFlag(&b.flags.assetURLs)
		b.setFlag(&b.flags.styleData)
		return "export default " + str("data:text/css;base64,"+base64.StdEncoding.EncodeToString([]byte(c.css))), nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if v.svg {
		if err := sniff(filepath.Base(file), data); err != nil {
			return "", err
		}
		return "export default " + str(svgDataURL(data)), nil
	}
	b.setFlag(&b.flags.assetURLs)
	if ext == ".svg" {
		return "export default " + str(svgDataURL(data)), nil
	}
	if ext == ".wasm" && !b.m.Wasm {
		return "", errNeedsWasm
	}
	// A script too is its data: URL, as Vite inlines it (data:text/javascript;base64,…): the
	// page may fetch it (connect-src data:); a worker is ?worker's, which bundles it.
	return "export default " + str(encodeDataURL(file, data)), nil
}

// setFlag sets one of b.flags, from any of esbuild's goroutines.
func (b *bundler) setFlag(f *bool) {
	b.mu.Lock()
	*f = true
	b.mu.Unlock()
}

var errNeedsWasm = fmt.Errorf("WebAssembly cannot run under the bundle's policy unless the manifest says wasm = true")

// blobURL is JavaScript that makes a blob: URL of the script code.
func blobURL(code string) string {
	j, _ := json.Marshal(code)
	return `URL.createObjectURL(new Blob([` + string(j) + `], { type: "text/javascript" }))`
}

// svgDataURL is the data: URL of an SVG as Vite writes it (its svgToDataURL: the markup, its
// quotes single, percent-encoded where a URL needs it; base64 when it holds text, a
// foreignObject or nested quotes), with its quotes, parentheses and spaces encoded too, so
// that it stands unquoted in CSS (url(${svg})), which Vite's does not.
func svgDataURL(data []byte) string {
	data = minifiedSVG(data)
	s := string(data)
	if strings.Contains(s, "<text") || strings.Contains(s, "<foreignObject") || nestedQuotes.MatchString(s) {
		return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(data)
	}
	s = strings.TrimSpace(s)
	s = betweenTags.ReplaceAllString(s, "><")
	s = strings.NewReplacer("%", "%25", "#", "%23", "<", "%3c", ">", "%3e", `"`, "%27", "'", "%27", "(", "%28", ")", "%29", `\`, "%5c").Replace(s)
	s = spaces.ReplaceAllString(s, "%20")
	return "data:image/svg+xml," + s
}

var (
	nestedQuotes = regexp.MustCompile(`"[^"']*'[^"]*"|'[^'"]*"[^']*'`)
	betweenTags  = regexp.MustCompile(`>\s+<`)
	spaces       = regexp.MustCompile(`\s+`)
)
