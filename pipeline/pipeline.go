// Package pipeline builds a mini app into one offline HTML file pinned by SHA-256.
//
//	res, err := pipeline.Build(ctx, "samples/hello", pipeline.Options{})
//	var el *diag.ListError
//	switch {
//	case errors.As(err, &el): // refused: el.List says where and what to do
//	case err != nil:          // the tool failed
//	default:                  // res.HTMLPath, res.Entry.SHA256, …
//	}
//
// Build runs one stage per file: bundle (esbuild: JS, TS, JSX, CSS, assets as data: URLs),
// css (the app's own PostCSS, Tailwind CSS and Sass), transform (new URL(…, import.meta.url),
// import.meta.glob), assets (Vite's query suffixes), assemble (the page, every local
// reference inlined in place, the markup otherwise as written), csp (a policy hashing every
// inline script), check (the offline check and the size budget, on the final bytes) and pin
// (SHA-256 and the registry entry).
//
// # Guarantees
//
//   - Offline: the written file passes offline.Check; Build refuses to write one that does not.
//   - Pinned: Entry.SHA256 and Entry.Integrity are the hash of the exact bytes written.
//   - Deterministic: the same app gives the same bytes, from any folder and on any machine; no
//     output holds a timestamp or an absolute path.
//   - Confined: no file outside the app folder (or its workspace root) is read, through ../,
//     absolute paths or links, by the build or the app's CSS tools; messages never show a
//     line of a file outside; outputs are never written through a link. The CSS tools' Node
//     runs inside the kernel's fence (package confine) where there is one. The rest of the
//     build holds the fence of the process that runs it: Fence says what to give it
//     (bundle build does); without, esbuild's resolver still lists the folders above the
//     root and reads their package.json files, whose fields that would apply are refused.
//   - Atomic: every file is written to a temporary name before any is renamed into place, so
//     a failed build leaves the previous output untouched.
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/registry"
	"github.com/miniapp/bundle/sdk"
	"github.com/miniapp/bundle/sourcemap"
	"golang.org/x/net/html"
)

// Options configures Build. The zero value writes to <app>/dist with no source map.
type Options struct {
	// OutDir is where the page and its registry entry are written; "" means <app>/dist.
	OutDir string
	// Sourcemap writes <id>.js.map beside the page. The page never references it.
	Sourcemap bool
	// KeepSourceMap keeps the source map of the page's first module script in
	// Result.SourceMap, written or not, so that a run-time error's place in the page can be
	// given in the author's file (bundle dev, bundle render of an app folder). Sourcemap
	// keeps it too. The page is the same bytes either way.
	KeepSourceMap bool
	// NoWrite computes everything but writes nothing (for benchmarks and dry runs).
	NoWrite bool
	// NoSDK leaves the SDK out of the page. It exists to measure what the SDK adds; a page
	// without it cannot talk to its host.
	NoSDK bool
	// Session, when set, keeps esbuild's incremental contexts from one build of the app to
	// the next (bundle dev).
	Session *Session
	// NoGzip leaves Result.GzipSize zero, for callers that do not show it (bundle dev, bundle
	// build --quiet or --format json): it is the costliest step after esbuild on a small app.
	NoGzip bool
	// DevHosts are origins the SDK also connects to, besides the manifest's hosts: bundle
	// dev's harness. A build for hosts leaves it empty.
	DevHosts []string
	// DevScript is a classic script the page runs first, before the SDK: bundle dev's client,
	// which takes style updates from its harness (and keeps them from the SDK). A build for hosts leaves it empty, and its
	// page has no such script.
	DevScript string
	// TempDir is where the build makes the private temporary folder of the Node process that
	// runs the app's CSS tools; "" is os.TempDir(). A caller that has fenced its process
	// (Fence) names one its fence lets it write.
	TempDir string
	// NoFence runs the Node process of the CSS tools outside the kernel's fence, which it
	// otherwise has whatever the calling process holds: to measure what the fence costs, or
	// to test the path checks alone. The build's own path checks hold either way.
	NoFence bool
	// NoNode builds without starting Node, for a caller whose fence leaves Node out
	// (NeedsNode said no): a stylesheet or component that needs a tool is refused as in an
	// app without node_modules (the tool's package to install), a vite.config with a
	// message to build again.
	NoNode bool
	// noLocalNames leaves the local names as esbuild gives them (localnames.go): to measure
	// what renaming them saves and costs.
	noLocalNames bool
	// noParamReads reads a sink's value built from a parameter of the app's own function as
	// data, not through the function's calls (markupparam.go): to measure what that costs.
	noParamReads bool
	// noUnwritten leaves the module-level bindings nothing writes as esbuild gives them
	// (unwritten.go): to measure what writing them as their values saves and costs.
	noUnwritten bool
}

// NoHostsWarning is the text of the warning a build gives when the manifest lists no hosts; a
// caller that builds many apps may say it once, naming them.
const NoHostsWarning = "no hosts: any page that frames this bundle can call its tools and read its context"

// Result describes a built app. The caller owns its slices.
type Result struct {
	Manifest *manifest.Manifest
	HTML     []byte // the final page
	Entry    Entry  // its registry entry
	// HTMLPath and EntryPath are where the page and entry were written ("" with NoWrite).
	HTMLPath, EntryPath string
	// Extra lists other files written: the source map, the licence text.
	Extra    []string
	GzipSize int
	Warnings diag.List
	// Inputs lists what each input contributed to the page, largest first.
	Inputs []Input
	// SourceMap maps places in HTML to the app's files, through the source map of its first
	// module script, with Sourcemap or KeepSourceMap; nil otherwise or when the page has no
	// module script. Its paths name the app's files as the caller named the app folder
	// (samples/hello/main.js).
	SourceMap *sourcemap.Page
	// CodeInputs and StyleInputs are the files whose code is in the page's scripts, and
	// those whose CSS is in its stylesheets, as esbuild's metafile says: paths relative to the
	// app folder, with slashes, sorted. A stylesheet a script imports is a StyleInput only
	// (bundle dev takes an edit of it as a stylesheet update), though esbuild's choice of
	// short names in the script reads its text.
	CodeInputs, StyleInputs []string
}

// Input is one source file and the bytes it contributed to the page.
type Input struct {
	Path  string `json:"path"`
	Bytes int    `json:"bytes"`
}

// Build builds the app in dir. It returns a *diag.ListError (errors.As) when the app is
// refused: its manifest, an esbuild error, a reference that cannot be inlined, the offline
// check or the size budget. Other errors mean the app folder could not be read or the tool
// failed. Build is safe for concurrent use on different apps.
//
// Build does not confine the calling process: a caller that wants the kernel's fence around
// the whole build either confines its process first, to Fence(dir, opts), when it does
// nothing else (bundle build and bundle dev do), or runs the bundle command in a child
// process. Without it, the path checks and the CSS tools' own fence hold (see the package
// documentation for what they do not cover).
func Build(ctx context.Context, dir string, opts Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("build %s: internal error: %v", dir, r)
		}
	}()
	cfg, err := loadViteConfig(ctx, dir, opts)
	if err != nil {
		return nil, err
	}
	m, err := manifest.LoadEntry(dir, cfg.entry(dir))
	if err != nil {
		return nil, err
	}
	appRoot := m.Root
	cfg.apply(m)
	env, envWarnings, err := loadEnv(m, cfg)
	var el *diag.ListError
	if errors.As(err, &el) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("build %s: read .env: %w", dir, err)
	}
	var b *bundler
	if opts.Session != nil {
		key, _ := json.Marshal([]any{m, env, opts.OutDir, opts.Sourcemap, opts.KeepSourceMap, dir, cfg})
		b, err = opts.Session.bundler(string(key), func() (*bundler, error) { return newBundler(m, dir, appRoot, env, cfg, opts) })
	} else {
		b, err = newBundler(m, dir, appRoot, env, cfg, opts)
		if b != nil {
			defer b.css.close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", dir, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build %s: interrupted: %w", dir, err)
	}
	b.ctx = ctx
	raw, tsList := b.tsconfig()
	tsList = append(tsList, b.aboveRoot()...)
	if tsList.HasErrors() {
		tsList.Sort()
		return nil, tsList.Err()
	}
	b.tsconfigRaw = raw
	b.css.pathAliases = pathAliases(b.tsPaths())
	b.projects.Clear()        // a session's rebuild reads the folders' tsconfigs again
	b.solidOnce = sync.Once{} // the tsconfig and the dependencies may have changed since

	// Assemble the page.
	file, src, err := entryPage(m)
	if err != nil {
		return nil, fmt.Errorf("build %s: read %s: %w", dir, m.Entry, err)
	}
	if file == m.Entry {
		if len(bytes.TrimSpace(src)) == 0 {
			return nil, diag.List{{File: b.display(file), Text: file + " is empty",
				Note: "write the page (<!doctype html>, a <div id=\"root\">, <script type=\"module\" src=\"./src/main.ts\">), or set entry to a script and bundle writes the page"}}.Err()
		}
		if enc, off := offline.Encoding(src); enc != "" || !utf8.Valid(src) {
			d := diag.Message{File: b.display(file), Text: fmt.Sprintf("%s is not UTF-8", file),
				Note: `save it as UTF-8 and declare <meta charset="utf-8"> first in <head>: bundle writes UTF-8, and a page read in another encoding can show other markup`}
			if enc != "" {
				d.Text = fmt.Sprintf("%s declares the encoding %s", file, enc)
			}
			d.PlaceIn(diag.NewLines(src), off, 1)
			return nil, diag.List{d}.Err()
		}
	}
	a := newAssembler(b, m, file, src)
	if file == m.Entry {
		a.replaceEnv(b.define) // %NAME%, in the HTML entry only, as in Vite
	}
	a.sdk = !opts.NoSDK
	a.devScript = opts.DevScript
	a.prebuild()
	out := a.assemble()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build %s: interrupted: %w", dir, err)
	}
	if out.sdk >= 0 {
		// Compiled after the app's code, whose bundles tell whether it brings its own client.
		hosts := m.Hosts
		if len(hosts) > 0 && len(opts.DevHosts) > 0 {
			hosts = append(slices.Clone(hosts), opts.DevHosts...)
		}
		js, err := sdk.Script(sdk.Config{Name: m.Name, Version: m.Version, Hosts: hosts, LinkDomains: m.LinkDomains,
			Auth: m.HasCapability("auth"), DisplayModes: m.DisplayModes, Carry: b.carry})
		if err != nil {
			return nil, fmt.Errorf("build %s: compile the SDK: %w", dir, err)
		}
		a.texts[a.sdkText] = escapeScript(js)
		b.inputs[sdkInjected] = len(js)
	}
	// The page as the browser reads it: its scripts, whose texts the policy hashes, and the
	// tree the normal form is checked on. The texts are placeholders in out.page, so that
	// what is parsed is the markup, not the bundles and fonts (see hold).
	tree := readBuilt(out.page)
	scripts := scriptTexts(tree, out.page, a.texts)
	// The policy, with the page's own merged into it; what cannot be merged is refused at
	// its place (a.list).
	pol := a.mergeOwn(policyOf(append(append(scripts, a.srcdocScripts()...), a.runnerScripts()...), m, b.flags.assetURLs, b.flags.blobs, b.flags.styleData), styleTexts(tree, out.page, a.texts), b.lazy)
	list := a.list
	// References that the page cannot inline (remote URLs, pages) are reported at their
	// place in the source page, by the offline check over it.
	// (Not in a page refused for its markup: the walk took charge of nothing in it.)
	if a.wellFormed() {
		list = append(list, sourceFindings(a, m, policy(nil, m, b.flags.assetURLs, b.flags.blobs, b.flags.styleData))...)
	}
	codes := make([]string, len(scripts))
	for i, s := range scripts {
		codes[i] = s.text
	}
	list = append(list, b.refuseWebRTC(codes, b.display(file))...)
	list = append(list, b.evalInPackages()...)
	list = append(list, b.projectProblems()...)
	list = append(list, b.messages(b.routerWarnings(), diag.Warning)...)
	if list.HasErrors() {
		// Sorted, a message met twice (a stylesheet both linked and imported, each built
		// alone after the build of both failed) is said once.
		list.Sort()
		return nil, slices.Compact(list).Err()
	}
	if err := a.checkBuilt(tree, out); err != nil {
		var el *diag.ListError
		if errors.As(err, &el) {
			return nil, err
		}
		return nil, fmt.Errorf("build %s: %w", dir, err)
	}
	warnings := append(append(list, tsList...), envWarnings...)
	if w := cfg.pluginWarning(); w != nil {
		warnings = append(warnings, *w)
	}
	if w := cfg.cssModulesWarning(b.inputs); w != nil {
		warnings = append(warnings, *w)
	}
	if opts.Sourcemap && a.jsMap == nil {
		warnings = append(warnings, diag.Message{Severity: diag.Warning, File: b.display(file),
			Text: fmt.Sprintf("--sourcemap: no %s.js.map is written: the page has no module script, and classic scripts are minified in place without a map", m.ID),
			Note: "load the app's code with <script type=\"module\" src=\"…\"> to have it mapped"})
	}
	if len(m.Hosts) == 0 {
		example := m.Setting("hosts", []string{"https://chat.example.com"})
		warnings = append(warnings, m.Message(diag.Warning, "hosts", NoHostsWarning,
			"list the origins that may embed it, for example "+example))
	}

	// The markup is left as written: esbuild minified the code it holds, and what a markup
	// minifier would still save (0.1% gzip on the samples) is not worth what it changes in
	// the page (whitespace the page shows, attributes selectors read, quirks mode). The
	// policy is computed over the final script text, and written where assemble put its
	// <meta>, first in <head>.
	csp := pol.String()
	a.texts[a.policyText] = policyContent(csp)
	page := a.fill(out.page)

	if n := dataFonts(page); n > 0 && !slices.Contains(m.ResourceDomains, "data:") {
		example := m.Setting("resourceDomains", []string{"data:"})
		warnings = append(warnings, m.Message(diag.Warning, "resourceDomains",
			fmt.Sprintf("the bundle inlines %d %s, which an MCP Apps host blocks under its default policy (it has no font-src), so the text falls back to a system font", n, plural(n, "font as a data: URL", "fonts as data: URLs")),
			"declare them with "+example+" (the registry entry sends it as _meta.ui.csp.resourceDomains), or use system fonts"))
	}

	// The size line's gzip figure is computed on another core while the page is checked.
	gz := make(chan int, 1)
	if opts.NoGzip {
		gz <- 0
	} else {
		go func() { gz <- gzipSize(page) }()
	}

	// Check the exact bytes that will be pinned.
	name := m.ID + ".html"
	// The check holds every URL against the page's own policy too: a page it would break is
	// refused, not shipped.
	findings, err := offline.Check(name, page, offline.Options{LinkDomains: m.LinkDomains, Policy: csp, Emitted: a.emitted})
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", dir, err)
	}
	if len(findings) > 0 {
		l := findings.Diagnostics()
		return nil, l.Err()
	}
	inputs := sortedInputs(b.inputs)
	if limit := m.MaxKB * 1024; len(page) > limit {
		return nil, budgetError(m, len(page), limit, inputs).Err()
	}

	icon := a.icon
	if m.Icon != "" {
		if icon, err = a.dataURL(m.Icon); err != nil {
			return nil, diag.List{m.Message(diag.Error, "icon", fmt.Sprintf("the icon %s cannot be used: %v", m.Icon, err), "replace it with the real SVG or PNG file")}.Err()
		}
	}
	res = &Result{Manifest: m, HTML: page, Entry: pin(m, page, csp, registryIcon(icon)), Warnings: warnings, Inputs: inputs,
		CodeInputs: slices.Sorted(maps.Keys(b.codeIn)), StyleInputs: slices.Sorted(maps.Keys(b.styleIn))}
	if a.jsMap != nil && (opts.Sourcemap || opts.KeepSourceMap) {
		// The map's sources are relative to esbuild's output folder, "out" in the app folder.
		// It holds no texts: a line is read from its file, inside the root only (a source an
		// input map names, with its text, may be a path outside).
		res.SourceMap = sourcemap.NewPage(page, a.jsMap, path.Join(filepath.ToSlash(dir), "out")).Within(b.readRoot)
	}
	if !opts.NoWrite {
		err = write(res, b, a.jsMap, dir, opts) // while the gzip figure is computed
	}
	res.GzipSize = <-gz
	return res, err
}

// entryPage returns the page a build starts from and the name it goes by: the manifest's HTML
// entry, read, or for a script entry the page made for it (index.html).
func entryPage(m *manifest.Manifest) (string, []byte, error) {
	if !strings.HasSuffix(strings.ToLower(m.Entry), ".html") {
		return "index.html", generatedPage(m), nil
	}
	p, err := m.Resolve(m.Entry)
	if err != nil {
		return "", nil, err
	}
	src, err := os.ReadFile(p)
	return m.Entry, src, err
}

// generatedPage is the page of a script entry: doctype, charset, viewport, the app's name as
// title, a root element, and the entry as a module script.
func generatedPage(m *manifest.Manifest) []byte {
	return []byte(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>` + html.EscapeString(m.Name) + `</title>
</head>
<body>
<div id="root"></div>
<script type="module" src="./` + m.Entry + `"></script>
</body>
</html>
`)
}

// sourceFindings runs the offline check over the source page and keeps what assembly did not
// take charge of: remote URLs, local references in places that cannot be inlined (a page in
// an iframe, a link), and URLs the page's policy csp (its scripts not yet hashed) would
// block. Those are reported at their place in the source page.
func sourceFindings(a *assembler, m *manifest.Manifest, csp string) diag.List {
	fs, err := offline.Check(a.b.display(a.file), a.src, offline.Options{LinkDomains: m.LinkDomains, Policy: csp})
	if err != nil {
		return nil
	}
	var out diag.List
	for _, f := range fs {
		// A local URL, or an import of a data: URL, in code assembly bundles is esbuild's to
		// read (the data: URL's module is in the bundle, not loaded).
		if _, _, isLocal := local(f.URL); (isLocal || isDataImport(f.URL) || a.b.vite.aliases(f.URL)) && a.handles(f.Offset) {
			continue
		}
		// A javascript: URL assembly refused, with what to do instead.
		if offline.Scheme(f.URL) == "javascript" && a.handles(f.Offset) {
			continue
		}
		if a.edits != nil { // at its place in the page as written
			f.PlaceIn(a.lines, written(a.edits, f.Offset), f.Length)
		}
		out = append(out, f.Message)
	}
	return out
}

func isDataImport(u string) bool {
	_, _, _, ok := offline.DataURL(u)
	return ok
}

func sortedInputs(m map[string]int) []Input {
	out := make([]Input, 0, len(m))
	for p, n := range m {
		out = append(out, Input{Path: p, Bytes: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Path < out[j].Path
	})
	return out
}

func humanSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}

func budgetError(m *manifest.Manifest, size, limit int, inputs []Input) diag.List {
	var top []string
	for i, in := range inputs {
		if i == 5 {
			break
		}
		top = append(top, in.Path+" "+humanSize(in.Bytes))
	}
	note := fmt.Sprintf("raise maxKB (at most %d) or cut what is largest", manifest.MaxMaxKB)
	if len(top) > 0 {
		note = "largest inputs: " + strings.Join(top, ", ") + "; " + note
	}
	return diag.List{m.Message(diag.Error, "maxKB", fmt.Sprintf("the bundle is %.1f KB, over its budget of %d KB", float64(size)/1024, limit/1024), note)}
}

// legalNotices joins the legal comments of a build's bundles, sorted and each once: workers
// are bundled while their page's bundle is, on esbuild's goroutines, so the order in which
// their comments arrive is not the same from one build to the next.
func legalNotices(legal []string) []byte {
	l := slices.Compact(slices.Sorted(slices.Values(legal)))
	return []byte(strings.Join(l, "\n"))
}

// write writes the page, its entry, and the extra files: the licence file, and with
// opts.Sourcemap the source map jsMap of the page's first module script. Every file is
// written to a temporary name first; only when all are written are they renamed into place
// (the entry last, so that a host that sees it finds the page it pins), so a build that
// fails to write leaves the previous output as it was. A rename replaces a symbolic link in
// the output folder rather than writing through it. A registry.json there that is not one
// bundle writes refuses the build before anything is written.
func write(res *Result, b *bundler, jsMap []byte, dir string, opts Options) error {
	outDir := opts.OutDir
	if outDir == "" {
		outDir = filepath.Join(dir, "dist") // b.outDir, as the caller names it
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", outDir, err)
	}
	if err := foreignRegistry(outDir); err != nil {
		return err
	}
	// Another app folder that wrote this id here, in an earlier run, refuses the build.
	unlock := lockOwners(outDir)
	defer unlock()
	owned, err := claim(outDir, dir, b.readRoot, res.Manifest)
	if err != nil {
		return err
	}
	entry, err := MarshalEntry(res.Entry)
	if err != nil {
		return err
	}
	res.HTMLPath = filepath.Join(outDir, res.Entry.File)
	res.EntryPath = filepath.Join(outDir, res.Manifest.ID+".json")
	// The extra files, each written when the build has it and removed when it has not, so
	// that none is left from an earlier build.
	legal, sourcemap := []byte(nil), []byte(nil)
	if len(b.legal) > 0 {
		legal = legalNotices(b.legal)
	}
	if opts.Sourcemap {
		// Its sources are named from esbuild's output folder, "out" in the app folder: from
		// this one, where the map is.
		from, err1 := filepath.Abs(filepath.Join(dir, "out"))
		to, err2 := filepath.Abs(outDir)
		if sourcemap = jsMap; err1 == nil && err2 == nil {
			sourcemap = rebaseMap(jsMap, from, to)
		}
	}
	files := []outFile{{filepath.Join(outDir, res.Manifest.ID+".licenses.txt"), legal}, {filepath.Join(outDir, res.Manifest.ID+".js.map"), sourcemap},
		{filepath.Join(outDir, OwnersFile), owned}, {res.HTMLPath, res.HTML}, {res.EntryPath, entry}}
	if err := writeAll(files); err != nil {
		return err
	}
	for _, f := range files[:2] {
		if f.data != nil {
			res.Extra = append(res.Extra, f.path)
		}
	}
	return nil
}

// foreignRegistry refuses an output folder whose registry.json bundle would overwrite but did
// not write: a file that is not a registry (registry.Read), or a symbolic link, whose
// target is not read.
func foreignRegistry(outDir string) error {
	p := filepath.Join(outDir, registry.FileName)
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	why := ""
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		why = "a symbolic link"
	case !st.Mode().IsRegular():
		why = "not a file"
	default:
		if _, err := registry.Read(p); err != nil {
			why = "not a registry bundle writes"
		}
	}
	if why == "" {
		return nil
	}
	name := filepath.ToSlash(p)
	return diag.List{{File: name, Text: fmt.Sprintf("%s is %s, and bundle would replace it with the registry of the folder", name, why),
		Note: "move it away, or build into another folder (--out): bundle writes registry.json beside the pages it builds"}}.Err()
}

// registryIcon is the registry entry's icon as base64 (data:image/svg+xml;base64,…), the
// form hosts have always been given, whatever form the page's own copy of an SVG takes (Vite's
// svgToDataURL form, percent-encoded).
func registryIcon(d string) string {
	if !strings.HasPrefix(d, "data:image/svg+xml,") {
		return d
	}
	if _, _, payload, ok := offline.DataURL(d); ok {
		return encodeDataURL("icon.svg", payload)
	}
	return d
}
