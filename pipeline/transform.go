package pipeline

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// The source transforms run on the app's own scripts (not on node_modules), before esbuild
// parses them, for what Vite supports and esbuild does not:
//
//   - new URL('<literal>', import.meta.url): the file as a data: URL (a blob: URL for a
//     script); inside new Worker(…) or new SharedWorker(…), the file bundled on its own and
//     started from a blob: URL;
//   - import.meta.glob(patterns, { eager, import, query }): the object Vite builds, of lazy
//     imports or (eager) of modules;
//   - a literal URL given to fetch, WebSocket or EventSource on an origin the manifest's
//     allowedDomains does not list, a local URL given to fetch, postMessage to "*", and
//     process.env.NAME other than NODE_ENV: a warning at its place.
//
// What they add goes after the file's last line (imports are hoisted), so that every line
// keeps its number for esbuild's messages.

var (
	newURL = regexp.MustCompile(`new\s+URL\s*\(\s*(?:'([^'\n\\]*)'|"([^"\n\\]*)"|` + "`([^`$\\n\\\\]*)`" + `)\s*,\s*import\.meta\.url\s*\)`)
	// workerBefore matches what stands before new URL(…) when it names a worker's script.
	workerBefore = regexp.MustCompile(`new\s+(?:Shared)?Worker\s*\(\s*$`)
	moduleAfter  = regexp.MustCompile(`^\s*,\s*\{[^{}]*type\s*:\s*["']module["']`)
	globCall     = regexp.MustCompile(`import\.meta\.glob\s*(?:<[^<>()]*>)?\s*\(\s*('[^'\n]*'|"[^"\n]*"|\[[^\]]*\])\s*(?:,\s*(\{[^{}]*\})\s*)?\)`)
	quoted       = regexp.MustCompile(`'([^'\n]*)'|"([^"\n]*)"`)
	globEager    = regexp.MustCompile(`\beager\s*:\s*true\b`)
	globImport   = regexp.MustCompile(`\bimport\s*:\s*['"]([A-Za-z_$][\w$]*)['"]`)
	globQuery    = regexp.MustCompile(`\bquery\s*:\s*['"](\??[\w&=-]+)['"]`)
	evalCall     = regexp.MustCompile(`\bnew\s+Function\s*\(|(?:^|[^.\w$])eval\s*\(`)
	networkCall  = regexp.MustCompile(`\b(fetch|new\s+WebSocket|new\s+EventSource)\s*\(\s*['"` + "`" + `]((?:https?|wss?)://[^/'"` + "`" + `\s?#]+)`)
	// postAny matches postMessage(…, "*"): a message to whatever page frames the app.
	postAny = regexp.MustCompile(`\bpostMessage\s*\([^;]*?,\s*(['"` + "`" + `])\*(['"` + "`" + `])\s*[,)]`)
	// processEnv matches process.env.NAME, which a browser does not have.
	processEnv = regexp.MustCompile(`\bprocess\.env\.([A-Za-z_$][\w$]*)`)
	// localFetch matches fetch of a literal local URL: a path, or a file's name.
	localFetch = regexp.MustCompile(`\bfetch\s*\(\s*(['"` + "`" + `])((?:\.{1,2}/|/[^/'"` + "`" + `])[^'"` + "`" + `\s$]*|[\w-]+(?:/[\w.-]+)*\.[A-Za-z0-9]+)(['"` + "`" + `])`)
)

// scriptFile matches the files loadScript loads.
var scriptFile = regexp.MustCompile(`\.([mc]?[jt]sx?)$`)

// loadScript loads a script the confine plugin has let through: a package's module as
// esbuild would (it reads it), one of the app's with the source transforms applied.
func (b *bundler) loadScript(path string, resolve func(string, api.ResolveOptions) api.ResolveResult) (api.OnLoadResult, error) {
	if strings.Contains(filepath.ToSlash(path), "/node_modules/") {
		return api.OnLoadResult{}, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return api.OnLoadResult{}, nil // esbuild reports it
	}
	out, errs, warnings := b.appScript(path, string(src), resolve)
	if b.sourcemap && out != "" {
		b.written.Store(path, string(src))
	} else {
		b.written.Delete(path) // a bundle dev session's file that no longer needs them
	}
	if out == "" && len(errs) == 0 {
		return api.OnLoadResult{Warnings: warnings}, nil
	}
	return api.OnLoadResult{Contents: &out, Loader: b.loaderFor(path), Errors: errs, Warnings: warnings}, nil
}

// appScript applies to a script of the app's own (a file, or an inline module script of the
// page, whose file is the page) the source transforms, the rewriting of barrel imports with
// the build's resolver, the refusal of eval and scriptWarnings. out is "" when the transforms
// left src as it is.
func (b *bundler) appScript(file, src string, resolve func(string, api.ResolveOptions) api.ResolveResult) (out string, errs, warnings []api.Message) {
	warnings = b.scriptWarnings(file, []byte(src))
	out, errs = b.transform(file, src)
	base := out
	if base == "" {
		base = src
	}
	if !b.m.Build.RewriteBarrels() {
		resolve = nil
	}
	if r := b.rewriteBarrelImports(file, base, resolve); r != "" {
		out = r
	}
	return out, append(errs, b.evalErrors(file, []byte(src))...), warnings
}

// loaderFor is the loader esbuild would pick for a script.
func (b *bundler) loaderFor(p string) api.Loader {
	ext := strings.ToLower(filepath.Ext(p))
	if l, ok := b.m.Build.Loader[ext]; ok {
		return loaderNames[l]
	}
	switch ext {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	}
	return api.LoaderJS
}

// transform rewrites new URL(…, import.meta.url) and import.meta.glob(…) in src; it returns
// "" when there is nothing to rewrite.
func (b *bundler) transform(file, src string) (string, []api.Message) {
	if !strings.Contains(src, "import.meta") {
		return "", nil
	}
	var out, tail strings.Builder
	var errs []api.Message
	n := 0
	ident := func() string { n++; return fmt.Sprintf("__miniapp_%d", n) }
	imp := func(name, spec string) { fmt.Fprintf(&tail, "\nimport %s from %s;", name, jsString(spec)) }
	last := 0
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for _, m := range newURL.FindAllStringSubmatchIndex(src, -1) {
		lit := ""
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				lit = src[m[2*g]:m[2*g+1]]
			}
		}
		spec, msg := b.urlSpec(file, lit, src, m[0])
		if msg != nil {
			errs = append(errs, *msg)
			continue
		}
		id := ident()
		if workerBefore.MatchString(src[:m[0]]) {
			q := "?miniapp-worker"
			if moduleAfter.MatchString(src[m[1]:]) {
				q += "&module"
			}
			imp(id, spec+q)
			edits = append(edits, edit{m[0], m[1], id})
		} else {
			imp(id, spec+"?url")
			edits = append(edits, edit{m[0], m[1], "new URL(" + id + ")"})
		}
	}
	for _, m := range globCall.FindAllStringSubmatchIndex(src, -1) {
		var opts string
		if m[4] >= 0 {
			opts = src[m[4]:m[5]]
		}
		obj, msg := b.glob(file, src[m[2]:m[3]], opts, src, m[0], ident, imp)
		if msg != nil {
			errs = append(errs, *msg)
			continue
		}
		edits = append(edits, edit{m[0], m[1], obj})
	}
	if len(edits) == 0 && len(errs) == 0 {
		return "", nil
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	for _, e := range edits {
		if e.start < last {
			continue
		}
		out.WriteString(src[last:e.start] + e.text)
		last = e.end
	}
	out.WriteString(src[last:])
	out.WriteString(tail.String())
	return out.String(), errs
}

func jsString(s string) string { j, _ := json.Marshal(s); return string(j) }

// at places a message at byte offset off of src in file.
func at(file, src string, off int, text, note string) *api.Message {
	line := strings.Count(src[:off], "\n") + 1
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	m := &api.Message{Text: text, Location: &api.Location{File: file, Line: line, Column: off - start, LineText: src[start : off+end]}}
	if note != "" {
		m.Notes = []api.Note{{Text: note}}
	}
	return m
}

// urlSpec turns the literal of new URL(literal, import.meta.url) into an import specifier:
// relative as written, root-relative ("/x") from the public folder or the app folder, and a
// name that is no sibling file as a package path.
func (b *bundler) urlSpec(file, lit, src string, off int) (string, *api.Message) {
	switch {
	case lit == "" || strings.Contains(lit, "://") || strings.HasPrefix(lit, "data:") || strings.HasPrefix(lit, "#"):
		return "", at(file, src, off, fmt.Sprintf("new URL(%q, import.meta.url) does not name a file of the app", lit), "name a file relative to this script, such as './worker.ts'")
	case strings.HasPrefix(lit, "/"):
		for _, dir := range []string{b.m.Build.PublicDir, "."} {
			p := filepath.Join(b.root, filepath.FromSlash(dir), filepath.FromSlash(lit))
			if _, err := os.Stat(p); err == nil {
				rel, _ := filepath.Rel(filepath.Dir(file), p)
				return "./" + filepath.ToSlash(rel), nil
			}
		}
		return "", at(file, src, off, fmt.Sprintf("%s does not exist in the public folder or the app folder", lit), "fix the path")
	case strings.HasPrefix(lit, "./") || strings.HasPrefix(lit, "../"):
		return lit, nil
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(file), filepath.FromSlash(lit))); err == nil {
		return "./" + lit, nil
	}
	return lit, nil // a package path, resolved from node_modules
}

// glob expands import.meta.glob(patterns, options) to the object Vite builds.
func (b *bundler) glob(file, patterns, opts, src string, off int, ident func() string, imp func(name, spec string)) (string, *api.Message) {
	var pats []string
	for _, q := range quoted.FindAllStringSubmatch(patterns, -1) {
		pats = append(pats, q[1]+q[2])
	}
	eager := globEager.MatchString(opts)
	name := ""
	if m := globImport.FindStringSubmatch(opts); m != nil {
		name = m[1]
	}
	query := ""
	if m := globQuery.FindStringSubmatch(opts); m != nil {
		query = "?" + strings.TrimPrefix(m[1], "?")
	}
	dir := filepath.Dir(file)
	var include, exclude []*regexp.Regexp
	var bases []string
	for _, p := range pats {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		var abs string
		switch {
		case strings.HasPrefix(p, "/"):
			abs = filepath.ToSlash(b.root) + p
		case strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../"):
			abs = path.Join(filepath.ToSlash(dir), p)
		default:
			return "", at(file, src, off, fmt.Sprintf("import.meta.glob pattern %q is neither relative nor root-relative", p), "start it with ./, ../ or /, as Vite requires")
		}
		re := globRegexp(abs)
		if neg {
			exclude = append(exclude, re)
			continue
		}
		include = append(include, re)
		bases = append(bases, globBase(abs))
	}
	var files []string
	for _, base := range bases {
		filepath.WalkDir(filepath.FromSlash(base), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == "node_modules" || d.Name() == ".git" || (b.outDir != "" && p == b.outDir) {
					return filepath.SkipDir
				}
				return nil
			}
			s := filepath.ToSlash(p)
			if p == file || slices.Contains(files, s) || b.outside(p) != nil {
				return nil
			}
			if slices.ContainsFunc(include, func(r *regexp.Regexp) bool { return r.MatchString(s) }) &&
				!slices.ContainsFunc(exclude, func(r *regexp.Regexp) bool { return r.MatchString(s) }) {
				files = append(files, s)
			}
			return nil
		})
	}
	slices.Sort(files)
	var obj strings.Builder
	obj.WriteString("{")
	for i, f := range files {
		var key string
		if strings.HasPrefix(pats[0], "/") {
			key = "/" + strings.TrimPrefix(strings.TrimPrefix(f, filepath.ToSlash(b.root)), "/")
		} else {
			rel, _ := filepath.Rel(dir, filepath.FromSlash(f))
			key = filepath.ToSlash(rel)
			if !strings.HasPrefix(key, "../") {
				key = "./" + key
			}
		}
		spec := key
		if strings.HasPrefix(key, "/") {
			rel, _ := filepath.Rel(dir, filepath.FromSlash(f))
			spec = "./" + filepath.ToSlash(rel)
			if strings.HasPrefix(filepath.ToSlash(rel), "../") {
				spec = filepath.ToSlash(rel)
			}
		}
		spec += query
		if i > 0 {
			obj.WriteString(", ")
		}
		obj.WriteString(jsString(key) + ": ")
		switch {
		case eager && name == "":
			id := ident()
			imp("* as "+id, spec)
			obj.WriteString(id)
		case eager:
			id := ident()
			if name == "default" {
				imp(id, spec)
			} else {
				imp("{ "+name+" as "+id+" }", spec)
			}
			obj.WriteString(id)
		case name != "":
			fmt.Fprintf(&obj, "() => import(%s).then((m) => m[%s])", jsString(spec), jsString(name))
		default:
			fmt.Fprintf(&obj, "() => import(%s)", jsString(spec))
		}
	}
	obj.WriteString("}")
	return obj.String(), nil
}

// globBase is the folder a pattern's matches are under: its path up to the first segment
// with a wildcard.
func globBase(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "*?{[") {
			return strings.Join(segs[:i], "/")
		}
	}
	return path.Dir(p)
}

// globRegexp compiles a glob (**, *, ?, {a,b}) over slash-separated paths.
func globRegexp(p string) *regexp.Regexp {
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case strings.HasPrefix(p[i:], "**/"):
			re.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			re.WriteString(".*")
			i++
		case c == '*':
			re.WriteString("[^/]*")
		case c == '?':
			re.WriteString("[^/]")
		case c == '{':
			j := strings.IndexByte(p[i:], '}')
			if j < 0 {
				re.WriteString(`\{`)
				continue
			}
			alts := strings.Split(p[i+1:i+j], ",")
			for k := range alts {
				alts[k] = regexp.QuoteMeta(alts[k])
			}
			re.WriteString("(?:" + strings.Join(alts, "|") + ")")
			i += j
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	return regexp.MustCompile(re.String())
}

// scriptWarnings warns, at its place, of what the app's script src does that fails in the
// page: a literal URL given to fetch, WebSocket or EventSource whose origin the manifest's
// allowedDomains does not list (the page's policy blocks it), a message posted to "*" (any
// page that frames the app reads it), process.env.NAME other than NODE_ENV (a browser has no
// process), and fetch of a local file (a bundle is one file).
func (b *bundler) scriptWarnings(file string, src []byte) []api.Message {
	var out []api.Message
	for _, m := range networkCall.FindAllSubmatchIndex(src, -1) {
		origin := string(src[m[4]:m[5]])
		if b.allowed(origin) {
			continue
		}
		https := strings.Replace(strings.Replace(origin, "wss://", "https://", 1), "ws://", "http://", 1)
		note := fmt.Sprintf(`add %q to allowedDomains in %s if the app may connect there`, https, filepath.Base(b.m.File))
		if strings.HasPrefix(https, "http://") {
			note = "the bundle connects only over HTTPS: use https:// and add the origin to allowedDomains"
		}
		call := strings.Fields(string(src[m[2]:m[3]]))
		out = append(out, *at(file, string(src), m[4], fmt.Sprintf("%s connects to %s, which allowedDomains does not list: the page's policy blocks it", call[len(call)-1], origin), note))
	}
	// A message posted to "*" reaches whatever page frames the app, of any origin.
	for _, m := range postAny.FindAllSubmatchIndex(src, -1) {
		if src[m[2]] != src[m[4]] {
			continue
		}
		w := at(file, string(src), m[2], `postMessage(…, "*") sends the message to whatever page frames the app, whichever its origin: a page that is not the host reads it`,
			"talk to the host through the SDK (document.modelContext, @miniapp/sdk), which pins the host's origin, or post to the host's origin")
		w.Location.Length = 3
		out = append(out, *w)
	}
	// process.env is Node's: bundle defines NODE_ENV alone, as Vite does.
	for _, m := range processEnv.FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		if _, defined := b.define["process.env."+name]; defined {
			continue // NODE_ENV, or the manifest's own define
		}
		w := at(file, string(src), m[0], fmt.Sprintf("process.env.%s is Node's: a browser has no process, and bundle defines process.env.NODE_ENV alone, so this throws unless guarded", name),
			fmt.Sprintf("write import.meta.env.VITE_%s and set VITE_%s in .env (only names starting VITE_ or MINIAPP_ reach the bundle, as in Vite)", strings.TrimPrefix(name, "VITE_"), strings.TrimPrefix(name, "VITE_")))
		w.Location.Length = m[1] - m[0]
		out = append(out, *w)
	}
	// A bundle is one file: a local URL fetched at run time names nothing beside it.
	for _, m := range localFetch.FindAllSubmatchIndex(src, -1) {
		if src[m[2]] != src[m[6]] {
			continue // not one literal
		}
		u := string(src[m[4]:m[5]])
		rel := u // as an import names it: relative, as fetch reads it
		if !strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "/") {
			rel = "./" + rel
		}
		note := fmt.Sprintf("import the file instead (import data from %q for JSON, %q for text), or fetch new URL(%q, import.meta.url), which bundle turns into a data: URL", rel, rel+"?raw", rel)
		if strings.HasPrefix(u, "/") {
			note = fmt.Sprintf("a file of the public folder: import its URL, a data: URL, and fetch that (import url from %q; fetch(url))", u)
		}
		w := at(file, string(src), m[4], fmt.Sprintf("fetch(%q) loads a file at run time, and the bundle is one file with nothing beside it: the request fails", u), note)
		w.Location.Length = len(u)
		out = append(out, *w)
	}
	return out
}

// evalErrors refuses eval and new Function in the app's own code when the manifest does not
// let the page run them (eval = true): the page's policy would throw at the call. In
// node_modules they are left to the runtime check (bundle render), since a library often
// holds one on a path it never takes.
func (b *bundler) evalErrors(file string, src []byte) []api.Message {
	if b.m.Eval {
		return nil
	}
	var out []api.Message
	for _, m := range evalCall.FindAllIndex(src, -1) {
		off := m[0]
		if src[off] != 'n' && src[off] != 'e' {
			off++ // the character before eval
		}
		out = append(out, *at(file, string(src), off, "eval and new Function cannot run under the bundle's policy",
			fmt.Sprintf("avoid them, or set eval = true in %s: the policy then allows 'unsafe-eval', and hosts see it in the registry entry", filepath.Base(b.m.File))))
	}
	return out
}

// allowed reports whether the manifest's allowedDomains admits origin (ws: and wss: as the
// policy matches them, as http: and https:).
func (b *bundler) allowed(origin string) bool {
	o := strings.Replace(strings.Replace(strings.ToLower(origin), "wss://", "https://", 1), "ws://", "http://", 1)
	for _, d := range b.m.AllowedDomains {
		if d == o {
			return true
		}
		if rest, ok := strings.CutPrefix(d, "https://*."); ok {
			host, hasHost := strings.CutPrefix(o, "https://")
			if hasHost && strings.HasSuffix(host, "."+rest) {
				return true
			}
		}
	}
	return false
}
