package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
)

// resolveExts are the extensions esbuild tries for an import without one, in its order.
var resolveExts = []string{".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mjs", ".cjs", ".mts", ".cts"}

// unresolved explains an import that esbuild could not resolve, from what is on disk: a
// relative path that names no file (the names that come close, a case that differs), a public
// file imported by its absolute path, a package that is not installed, or no node_modules at
// all (noModules, which the caller reports once for the whole build).
func (b *bundler) unresolved(spec, importer string) (text, note string, noModules bool) {
	from := filepath.Dir(importer)
	if name, ok := nodeBuiltin(spec); ok {
		text, note = nodeBuiltinMessage(spec, name, importer)
		return text, note, false
	}
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		text, note = b.missingFile(spec, filepath.Join(from, filepath.FromSlash(spec)))
		return text, note, false
	case strings.HasPrefix(spec, "/"):
		// Whether a file is at that path outside the root is not looked at: the message is
		// the same either way.
		text, note = b.absoluteMissing(spec)
		return text, note, false
	}
	if text, note, ok := b.aliasOutside(spec); ok {
		return text, note, false
	}
	if prefix, rest, ok := strings.Cut(spec, "/"); ok && (prefix == "@" || prefix == "~") {
		// No npm package is named "@" or "~": a path alias of vite.config's resolve.alias,
		// which bundle does not read.
		dir := "./src"
		for _, d := range []string{"./src", "."} {
			if matches, _ := filepath.Glob(filepath.Join(b.root, filepath.FromSlash(d), filepath.FromSlash(rest)) + "*"); len(matches) > 0 {
				dir = d
				break
			}
		}
		set := b.m.Setting("build.alias", map[string]string{prefix: dir})
		return fmt.Sprintf("Could not resolve %q: %q is a path alias (no npm package has that name), which the app does not define", spec, prefix),
			fmt.Sprintf("define it in %s: %s, or in tsconfig.json's compilerOptions: \"paths\": { \"%s/*\": [\"%s/*\"] } (bundle does not read vite.config)", filepath.Base(b.m.File), set, prefix, dir), false
	}
	if text, note, ok := b.tsconfigOutside(spec); ok {
		return text, note, false
	}
	if b.nodeModulesLeaves(spec, from) {
		return fmt.Sprintf("Could not resolve %q: it names a file outside %s, through node_modules", spec, b.rootName()), b.outsideNote(), false
	}
	if b.packageSubpathLeaves(spec, from) {
		return b.subpathOutside(spec), b.outsideNote(), false
	}
	pkg := packageName(spec)
	if strings.HasSuffix(spec, "/jsx-runtime") || strings.HasSuffix(spec, "/jsx-dev-runtime") {
		install := fmt.Sprintf("the automatic JSX runtime imports %s: install %s in the app folder (npm install %s)", spec, pkg, map[bool]string{true: "react react-dom", false: pkg}[pkg == "react"])
		if !b.hasNodeModules(from) {
			return fmt.Sprintf("Could not resolve %q: the app has no node_modules folder", spec), install, true
		}
		return fmt.Sprintf("Could not resolve %q: the package %s is not installed", spec, pkg), install, false
	}
	return b.missingPackage(spec, from)
}

// missingFile explains a relative import of target, which does not exist as written.
func (b *bundler) missingFile(spec, target string) (string, string) {
	dir, base := filepath.Split(target)
	if b.targetLeavesRoot(filepath.Clean(target)) {
		// Whether it exists there is not looked at: the message is the same either way.
		return fmt.Sprintf("Could not resolve %q: it names a file outside %s", spec, b.rootName()), b.outsideNote()
	}
	names, err := b.folders.names(filepath.Clean(dir))
	relDir := b.display(b.rel(dir))
	if err != nil {
		return fmt.Sprintf("Could not resolve %q: there is no folder %s", spec, relDir), "fix the path: it is relative to the importing file"
	}
	// A name that matches but for case: fine on macOS and Windows, refused on Linux and by
	// every CI.
	specDir, _ := path.Split(spec)
	for _, n := range names {
		stem := strings.TrimSuffix(n, filepath.Ext(n))
		if strings.EqualFold(n, base) || (filepath.Ext(base) == "" && strings.EqualFold(stem, base) && slices.Contains(resolveExts, filepath.Ext(n))) {
			if n != base && stem != base {
				fixed := specDir + n
				if filepath.Ext(base) == "" {
					fixed = specDir + stem
				}
				return fmt.Sprintf("Could not resolve %q: the file on disk is %s, with another case", spec, n),
					fmt.Sprintf("write %q: names are case-sensitive on Linux and in CI", dotted(fixed))
			}
		}
	}
	// The closest names: as written, and without their extensions.
	var cands []string
	for _, n := range names {
		cands = append(cands, n)
		if ext := filepath.Ext(n); slices.Contains(resolveExts, ext) {
			cands = append(cands, strings.TrimSuffix(n, ext))
		}
	}
	text := fmt.Sprintf("Could not resolve %q: no such file in %s", spec, relDir)
	if best, ok := diag.Suggest(base, cands); ok {
		return text, fmt.Sprintf("did you mean %q?", dotted(specDir+best))
	}
	return text, "fix the path: it is relative to the importing file"
}

// absoluteMissing explains an import by absolute path that names no file of the app folder
// or its public folder: the same words whether or not a file is at that path outside, which
// the build never reads.
func (b *bundler) absoluteMissing(spec string) (text, note string) {
	return fmt.Sprintf("Could not resolve %q: an import by absolute path names a file of the app folder, or else of the public folder %s/, as in Vite (never one outside %s), and there is none", spec, b.m.Build.PublicDir, b.rootName()),
		fmt.Sprintf("put the file in %s/ or at that path in the app folder, or import it by a relative path (%q)", b.display(b.m.Build.PublicDir), "."+spec)
}

// targetLeavesRoot reports whether the file an import of a path names, target (clean,
// absolute), is outside the folder the build may read: its folder, or the file itself as
// written or with an extension esbuild tries, a symbolic link in the app that leads out,
// whether or not anything is where it leads (nothing outside is looked at).
//
// Every import of a path asks it (the pre-check in viteResolve), so it costs no system call
// past the first of each folder: the folder's real path and its listing are kept for the
// build (realDirs, folders).
func (b *bundler) targetLeavesRoot(target string) bool {
	dir := filepath.Dir(target)
	if _, ok := b.realDirs.Load(dir); !ok {
		real, err := rootpath.Resolve(dir, b.readRoot)
		if errors.Is(err, rootpath.ErrOutside) {
			return true
		}
		if err != nil {
			return false // a folder inside that is not there: nothing is in it
		}
		b.realDirs.LoadOrStore(dir, real)
	}
	for _, ext := range append([]string{""}, resolveExts...) {
		if t, ok := b.folders.entry(target + ext); ok && t&fs.ModeSymlink != 0 && b.leavesRoot(target+ext) {
			return true
		}
	}
	return false
}

// dotted makes a relative specifier start with ./ or ../.
func dotted(s string) string {
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return s
	}
	return "./" + s
}

// nodeBuiltins are the modules Node.js has built in (node:fs, path, …), which a browser does not.
var nodeBuiltins = []string{"assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants",
	"crypto", "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2", "https", "inspector",
	"module", "net", "os", "path", "perf_hooks", "process", "punycode", "querystring", "readline", "repl", "stream",
	"string_decoder", "sys", "timers", "tls", "trace_events", "tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib"}

// browserPorts are the built-in modules that npm has browser versions of, by the same name.
var browserPorts = []string{"assert", "buffer", "events", "path", "process", "punycode", "querystring", "string_decoder", "url", "util"}

// nodeBuiltin returns the Node.js built-in module spec names (node:fs, fs/promises), if it
// names one.
func nodeBuiltin(spec string) (string, bool) {
	name, prefixed := strings.CutPrefix(spec, "node:")
	name, _, _ = strings.Cut(name, "/")
	return name, slices.Contains(nodeBuiltins, name) || prefixed && name != ""
}

// nodeBuiltinMessage explains an import of the Node.js built-in module name (as spec), which
// the app's code or one of its packages (importer) makes: a mini app runs in a browser.
func nodeBuiltinMessage(spec, name, importer string) (text, note string) {
	text = fmt.Sprintf("%q is built into Node.js, and a mini app runs in a browser, which has no %s module", spec, name)
	note = fmt.Sprintf("remove the import: what needs %s runs on the app's MCP server, not in the page", name)
	if slices.Contains(browserPorts, name) {
		note = fmt.Sprintf("install its browser version in the app folder (npm install %s), or remove the import", name)
		if strings.HasPrefix(spec, "node:") {
			note = fmt.Sprintf("import %q and install its browser version in the app folder (npm install %s), or remove the import", strings.TrimPrefix(spec, "node:"), name)
		}
	}
	if i := strings.LastIndex(filepath.ToSlash(importer), "/node_modules/"); i >= 0 {
		pkg := packageName(filepath.ToSlash(importer)[i+len("/node_modules/"):])
		note = fmt.Sprintf("the package %s imports it: it is built for Node.js; import its browser build if it has one, or map %q to a browser module with [build] alias", pkg, spec)
	}
	return text, note
}

// packageName is the npm package a bare specifier names: @scope/name or name.
func packageName(spec string) string {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// hasNodeModules reports whether a node_modules folder exists in dir or above it, up to the
// folder the build may read.
func (b *bundler) hasNodeModules(dir string) bool {
	for {
		if b.folders.isDir(filepath.Join(dir, "node_modules")) {
			return true
		}
		if dir == b.readRoot || dir == b.root && b.readRoot == b.root {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir || !strings.HasPrefix(dir, b.readRoot) {
			return false
		}
		dir = parent
	}
}

// resolveMessage rewrites an esbuild resolution failure into d; ok is false for other
// messages. noModules says the cause is the app's missing node_modules.
func (b *bundler) resolveMessage(m api.Message, d *diag.Message) (ok, noModules bool) {
	l := m.Location
	if l == nil {
		return false, false
	}
	if strings.HasPrefix(m.Text, "Cannot read file: ") {
		// esbuild found a file whose name differs only by case, on a case-insensitive
		// lookup, and could not read it by the name written.
		spec := strings.Trim(strings.TrimSpace(l.LineText[min(l.Column, len(l.LineText)):min(len(l.LineText), l.Column+max(l.Length, 1))]), "\"'`")
		if !strings.HasPrefix(spec, ".") {
			return false, false
		}
		d.Text, d.Note = b.missingFile(spec, filepath.Join(filepath.Dir(b.abs(l.File)), filepath.FromSlash(spec)))
		return true, false
	}
	spec, isResolve := strings.CutPrefix(m.Text, "Could not resolve \"")
	if !isResolve {
		return false, false
	}
	spec, _, _ = strings.Cut(spec, "\"")
	if sdkModule, inSDK := strings.CutPrefix(l.File, sdkNamespace+":"); inSDK {
		// The SDK's React module imports react from the app's packages: without
		// node_modules this is the build's one message about it.
		pkg := packageName(spec)
		d.Text = fmt.Sprintf("%s imports %s, which the app does not have", sdkModule, pkg)
		d.Note = fmt.Sprintf("install it in the app folder (npm install %s react-dom), or import @miniapp/sdk, which needs nothing", pkg)
		return true, !b.hasNodeModules(b.root)
	}
	importer := b.abs(l.File)
	if inCSS(importer, l) && !strings.HasPrefix(spec, "/") {
		// A stylesheet's url(img/x.svg) or @import "x.css" is relative first, as a URL is:
		// a file, unless it names a package whose folder is not beside the stylesheet.
		first, _, nested := strings.Cut(spec, "/")
		if _, err := os.Stat(filepath.Join(filepath.Dir(importer), first)); !nested || err == nil {
			d.Text, d.Note = b.missingFile(spec, filepath.Join(filepath.Dir(importer), filepath.FromSlash(spec)))
			return true, false
		}
	}
	d.Text, d.Note, noModules = b.unresolved(spec, importer)
	return true, noModules
}

// inCSS reports whether the import at l, in the file importer, is a stylesheet's: the file is
// one, or (code written in a page) the place is a url() or the line an @import.
func inCSS(importer string, l *api.Location) bool {
	switch strings.ToLower(filepath.Ext(importer)) {
	case ".css", ".scss", ".sass", ".less", ".styl", ".stylus":
		return true
	case ".html", ".htm":
		at := l.LineText[min(l.Column, len(l.LineText)):]
		return strings.HasPrefix(strings.ToLower(at), "url(") || strings.Contains(l.LineText, "@import")
	}
	return false
}

// abs makes a path esbuild reports (relative to the app folder) absolute.
func (b *bundler) abs(p string) string {
	if name, ok := b.inlineName(p); ok {
		p = name // code written in the page: the page
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(b.root, filepath.FromSlash(p))
}

// tsconfigLeaves returns where the app's tsconfig (b.tsconfigRaw) sends the bare import spec
// out of the root, as esbuild tries it before node_modules: each target of the first key of
// its paths that matches, in order, then its baseUrl joined to spec. how is "paths" or
// "baseUrl".
func (b *bundler) tsconfigLeaves(spec string) (how, target string, ok bool) {
	for _, t := range b.tsPaths() {
		m, matched := t.match(spec)
		if !matched {
			continue
		}
		for _, to := range t.targets {
			if p := filepath.Clean(filepath.FromSlash(strings.Replace(to, "*", m, 1))); b.leavesRoot(p) {
				return "paths", p, true
			}
		}
		break
	}
	var raw struct {
		CompilerOptions struct {
			BaseURL string `json:"baseUrl"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal([]byte(b.tsconfigRaw), &raw) == nil && raw.CompilerOptions.BaseURL != "" {
		if p := filepath.Join(raw.CompilerOptions.BaseURL, filepath.FromSlash(spec)); b.leavesRoot(p) {
			return "baseUrl", p, true
		}
	}
	return "", "", false
}

// nodeModulesLeaves reports whether esbuild, looking for the bare import spec in the
// node_modules folders from the folder from up (the first where it is there ends the search),
// would look out of the root first: a spec whose ".." climbs out of the node_modules folder
// ("p/../../../x.js"), as Node resolves a subpath of a package without "exports".
func (b *bundler) nodeModulesLeaves(spec, from string) bool {
	if c := path.Clean(spec); c != ".." && !strings.HasPrefix(c, "../") {
		return false
	}
	for d := from; within(d, b.readRoot); d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if b.folders.isDir(nm) {
			p := filepath.Join(nm, filepath.FromSlash(spec))
			if b.leavesRoot(p) {
				return true
			}
			if _, err := os.Stat(p); err == nil {
				return false
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return false
}

// aliasOutside explains a bare import that the manifest's build.alias rewrites (as esbuild
// does, manifestAliased) to a path of the app folder that leads out of the folder the build
// may read, through a link, whether or not anything is there; ok is false otherwise.
func (b *bundler) aliasOutside(spec string) (text, note string, ok bool) {
	to, aliased := b.manifestAliased(spec)
	if !aliased || !filepath.IsAbs(to) || !b.targetLeavesRoot(filepath.Clean(to)) {
		return "", "", false
	}
	return fmt.Sprintf("Could not resolve %q: the manifest's build.alias takes it to %s, which leads outside %s", spec, b.display(b.rel(to)), b.rootName()), b.outsideNote(), true
}

// subpathOutside is the message of packageSubpathLeaves.
func (b *bundler) subpathOutside(spec string) string {
	return fmt.Sprintf("Could not resolve %q: it names a file outside %s, through a link in its package", spec, b.rootName())
}

// packageSubpathLeaves reports whether a bare import of a package's file by its path (spec
// "p/l/s.js", of a package with no "exports", whose subpaths are its files) names a file that
// leads out of the folder the build may read through a link in the package (node_modules/p/l
// to a folder elsewhere), whether or not anything is there: esbuild looked for it there, and
// the build said "… is outside" where a file was, "the package p is installed, but has no"
// where not. The package is the one in the nearest node_modules above from that holds it, as
// Node and esbuild find it (entryOutside); a package with "exports" maps its subpaths there.
func (b *bundler) packageSubpathLeaves(spec, from string) bool {
	pkg := packageName(spec)
	if pkg == "" || len(spec) <= len(pkg)+1 || spec[len(pkg)] != '/' {
		return false
	}
	for d := from; ; d = filepath.Dir(d) {
		if f := filepath.Join(d, "node_modules", filepath.FromSlash(pkg), "package.json"); b.inRoot(f) {
			if pj := b.packageJSON(f); pj != nil && !pj.noExports {
				return false
			}
			return b.targetLeavesRoot(filepath.Join(filepath.Dir(f), filepath.FromSlash(spec[len(pkg)+1:])))
		}
		if d == b.readRoot || filepath.Dir(d) == d || !strings.HasPrefix(d, b.readRoot) {
			return false
		}
	}
}

// tsconfigOutside explains a bare import the app's tsconfig sends out of the root
// (tsconfigLeaves).
func (b *bundler) tsconfigOutside(spec string) (text, note string, ok bool) {
	how, target, ok := b.tsconfigLeaves(spec)
	if !ok {
		return "", "", false
	}
	verb := map[string]string{"paths": "paths map", "baseUrl": "baseUrl takes"}[how]
	return fmt.Sprintf("Could not resolve %q: tsconfig.json's %s it to %s, outside %s", spec, verb, target, b.rootName()),
		"bundle reads only files inside " + b.rootName() + ": map the name to a folder inside it", true
}
