package pipeline

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// A folder's own tsconfig.json for the imports its files write. esbuild is given one
// tsconfig, the app's (TsconfigRaw: it then reads none of its own, so none outside the root
// applies), while Vite (resolve.tsconfigPaths) resolves an import by the paths of the project
// that holds the importing file, as TypeScript does: the nearest tsconfig.json above the file,
// or for a solution file (references, nothing of its own), the referenced project whose
// include or files hold it. projectPathsResolve does that for a file of the app whose project
// is another than the app's.

// tsPathData marks a resolve that a project's paths already rewrote.
type tsPathData struct{}

// project is the tsconfig of a project of the app and its paths, targets absolute.
type project struct {
	file  string
	paths []tsPath
}

// projectPathsResolve resolves a bare import of a file of the app by the paths of its own
// project, when that is not the app's: the first key that matches, each of its targets in
// order, the first that resolves (TypeScript's order). ok is false when it does not apply.
func (b *bundler) projectPathsResolve(pb api.PluginBuild, a api.OnResolveArgs) (api.OnResolveResult, bool) {
	if a.Namespace != "file" || a.Importer == "" || a.Kind == api.ResolveEntryPoint || strings.HasPrefix(a.Path, ".") ||
		filepath.IsAbs(a.Path) || strings.Contains(a.Importer, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
		return api.OnResolveResult{}, false
	}
	if _, done := a.PluginData.(tsPathData); done {
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
			r := pb.Resolve(filepath.FromSlash(strings.Replace(target, "*", m, 1)), api.ResolveOptions{Importer: a.Importer,
				ResolveDir: filepath.Dir(a.Importer), Kind: a.Kind, PluginData: tsPathData{}})
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
		p := filepath.Join(filepath.Dir(cfg), filepath.FromSlash(ref.Path))
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "tsconfig.json")
		}
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
	if !ok || o.paths == nil {
		return p
	}
	p.paths = pathsOf(r.raw(o, file))
	return p
}
