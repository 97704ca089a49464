package pipeline

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
)

// A folder's own tsconfig.json for the imports its files write. esbuild is given one
// tsconfig, the app's (TsconfigRaw: it then reads none of its own, so none outside the root
// applies), while Vite (resolve.tsconfigPaths) resolves an import by the paths of the project
// that holds the importing file, as TypeScript does: the nearest tsconfig.json above the file,
// or for a solution file (references, nothing of its own), the referenced project whose
// include or files hold it. projectPathsResolve does that for a file of the app whose project
// is another than the app's.

// project is the tsconfig of a project of the app and its paths, targets absolute; compile
// is its TsconfigRaw when the compiler options esbuild reads differ from the app's ("" when
// they do not), with which each of its scripts is compiled on its own (projectCompile).
type project struct {
	file    string
	paths   []tsPath
	compile string
	// problems are the config's, at their place (an extends that leaves the root, a config
	// that does not parse): the build reports them (projectProblems), as the app's own.
	problems diag.List
}

// projectPathsResolve resolves a bare import of a file of the app by the paths of its own
// project, when that is not the app's: the first key that matches, each of its targets in
// order, the first that resolves (TypeScript's order). ok is false when it does not apply.
func (b *bundler) projectPathsResolve(pb api.PluginBuild, a api.OnResolveArgs) (api.OnResolveResult, bool) {
	if a.Namespace != "file" || a.Importer == "" || a.Kind == api.ResolveEntryPoint || strings.HasPrefix(a.Path, ".") ||
		filepath.IsAbs(a.Path) || strings.Contains(a.Importer, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
		return api.OnResolveResult{}, false
	}
	ask := askedBy(a.PluginData)
	if !ask.answers(byProjectPaths) {
		return api.OnResolveResult{}, false
	}
	p := b.projectOf(a.Importer)
	if p == nil {
		return api.OnResolveResult{}, false
	}
	for _, t := range p.paths {
		m, ok := t.match(a.Path)
		if !ok {
			continue
		}
		for _, target := range t.targets {
			o := again(a, byProjectPaths)
			o.ResolveDir = filepath.Dir(a.Importer)
			r := pb.Resolve(filepath.FromSlash(strings.Replace(target, "*", m, 1)), o)
			if len(r.Errors) == 0 {
				return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, External: r.External, PluginData: r.PluginData, Suffix: r.Suffix}, true
			}
		}
		break
	}
	return api.OnResolveResult{}, false
}

// projectOf returns the project that holds the file, when it is another than the app's
// (nil then, and for a file under no tsconfig below the root). Each folder's nearest
// tsconfig is kept, and each project read once: the files of one folder may belong to
// different projects (a solution's include).
func (b *bundler) projectOf(file string) *project {
	if p, ok := b.projects.Load("file:" + file); ok {
		return p.(*project)
	}
	p := b.findProject(file)
	b.projects.Store("file:"+file, p)
	return p
}

func (b *bundler) findProject(file string) *project {
	dir := filepath.Dir(file)
	cfg, ok := b.projects.Load(dir)
	if !ok {
		cfg, _ = b.projects.LoadOrStore(dir, b.nearestTsconfig(dir))
	}
	if cfg == "" {
		return nil
	}
	f := projectFile(cfg.(string), file, b.root)
	if f == b.tsconfigFile || !within(f, b.readRoot) {
		return nil
	}
	p, ok := b.projects.Load("project:" + f)
	if !ok {
		p, _ = b.projects.LoadOrStore("project:"+f, b.readProject(f, filepath.Dir(cfg.(string))))
	}
	return p.(*project)
}

// nearestTsconfig returns the tsconfig.json (or jsconfig.json) nearest above dir, up to the
// app folder; "" for none.
func (b *bundler) nearestTsconfig(dir string) string {
	for d := dir; b.inRoot(d); d = filepath.Dir(d) {
		for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
			if st, err := os.Stat(filepath.Join(d, name)); err == nil && !st.IsDir() {
				return filepath.Join(d, name)
			}
		}
		if d == b.root || filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

// projectFile returns, for the tsconfig cfg nearest above file, the config of the project
// that holds file: for a solution (references, and an empty include or files), the first
// referenced project whose include or files hold it; else cfg.
func projectFile(cfg, file, root string) string {
	c, ok := readTsconfig(cfg)
	if !ok || len(c.References) == 0 || !(c.Include != nil && len(c.Include) == 0 || c.Files != nil && len(c.Files) == 0) {
		return cfg
	}
	for _, ref := range c.References {
		p := referencedConfig(filepath.Dir(cfg), ref.Path)
		if !within(p, root) {
			continue
		}
		if sub, ok := readTsconfig(p); ok && sub.holds(filepath.Dir(p), []string{filepath.ToSlash(file)}) == 1 {
			return p
		}
	}
	return cfg
}

// readProject reads a project's tsconfig (its extends followed inside the root) for its
// paths, made absolute as the app's are (tsconfigReader.raw); a config that does not read
// has none here (the app's own build reports the app's).
func (b *bundler) readProject(file, configDir string) *project {
	r := &tsconfigReader{b: b, configDir: configDir}
	o, ok := r.read(file, nil)
	p := &project{file: file}
	if !ok {
		p.problems = r.list
		return p
	}
	raw := r.raw(o, file)
	p.problems = r.list
	p.paths = pathsOf(raw)
	if !sameOptions(raw, b.tsconfigRaw) {
		p.compile = raw
	}
	return p
}

// projectProblems are the problems of the projects the build's files belong to: a project's
// config is read when a file of it is loaded, and one whose extends leaves the root (never
// read) was left out without a word.
// They are said by project in the order of its config's path, as the map's order differs
// from one run to the next.
func (b *bundler) projectProblems() diag.List {
	var projects []*project
	b.projects.Range(func(k, v any) bool {
		if key, _ := k.(string); strings.HasPrefix(key, "project:") {
			if p, _ := v.(*project); p != nil {
				projects = append(projects, p)
			}
		}
		return true
	})
	slices.SortFunc(projects, func(x, y *project) int { return strings.Compare(x.file, y.file) })
	var out diag.List
	for _, p := range projects {
		out = append(out, p.problems...)
	}
	return out
}

// sameOptions reports whether two TsconfigRaw give esbuild the same compiler options
// (esbuildTSOptions; paths and baseUrl are resolution's).
func sameOptions(x, y string) bool {
	pick := func(raw string) map[string]string {
		var c struct {
			CompilerOptions map[string]json.RawMessage `json:"compilerOptions"`
		}
		json.Unmarshal([]byte(raw), &c)
		out := map[string]string{}
		for _, k := range esbuildTSOptions {
			if v, ok := c.CompilerOptions[k]; ok {
				var buf bytes.Buffer
				json.Compact(&buf, v)
				out[k] = strings.ToLower(buf.String()) // "ESNext" and "esnext" are one target
			}
		}
		return out
	}
	return maps.Equal(pick(x), pick(y))
}

// projectCompile compiles a script of a project whose compiler options differ from the app's
// with its own tsconfig, as Vite's esbuild plugin compiles each file with the tsconfig that
// holds it (useDefineForClassFields, experimentalDecorators, verbatimModuleSyntax, jsx…): the
// build then takes it as JavaScript, its source map inline when the build keeps one.
func (b *bundler) projectCompile(p *project, path, code string, loader api.Loader) (string, []api.Message) {
	sm := api.SourceMapNone
	if b.sourcemap {
		sm = api.SourceMapInline
	}
	r := api.Transform(code, api.TransformOptions{Loader: loader, TsconfigRaw: p.compile, Sourcefile: path, Sourcemap: sm,
		JSX: api.JSXAutomatic, Target: api.ESNext, Platform: api.PlatformBrowser, LogLevel: api.LogLevelSilent})
	return string(r.Code), r.Errors
}
