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

	"github.com/miniapp/bundle/diag"
)

// esbuildTSOptions are the compilerOptions esbuild reads from a tsconfig.json
// (internal/resolver/tsconfig_json.go), besides baseUrl and paths, which name folders.
var esbuildTSOptions = []string{"jsx", "jsxFactory", "jsxFragmentFactory", "jsxImportSource",
	"experimentalDecorators", "useDefineForClassFields", "target", "strict", "alwaysStrict",
	"importsNotUsedAsValues", "preserveValueImports", "verbatimModuleSyntax"}

// tsOptions are the compilerOptions of a tsconfig and the configs it extends, merged as
// esbuild merges them (applyExtendedConfig): an option of the config wins over its bases', a
// later base over an earlier one.
type tsOptions struct {
	values   map[string]json.RawMessage
	baseURL  string          // absolute; "" when no config sets it
	paths    json.RawMessage // as written; nil when no config sets it
	pathsDir string          // the folder of the config that set paths
}

func (o *tsOptions) apply(base tsOptions) {
	for k, v := range base.values {
		o.values[k] = v
	}
	if base.baseURL != "" {
		o.baseURL = base.baseURL
	}
	if base.paths != nil {
		o.paths, o.pathsDir = base.paths, base.pathsDir
	}
}

// tsconfigReader reads the app's tsconfig and what it extends, each file confined to the
// folder the build may read.
type tsconfigReader struct {
	b         *bundler
	configDir string // the folder of the app's config: ${configDir}
	list      diag.List
}

// tsconfig returns the tsconfig esbuild applies to the whole build, as TsconfigRaw: esbuild
// then reads no tsconfig.json or jsconfig.json itself, and none above the root applies. It is
// the app folder's tsconfig.json (else jsconfig.json; for a solution file, the referenced
// project that holds the app's scripts), or the nearest one above the app inside the
// workspace root, its extends followed inside the root, the compilerOptions
// esbuild reads merged, and paths made absolute. Problems are reported at their place: a
// config that does not parse, an extends that leaves the root (never read) or names nothing.
func (b *bundler) tsconfig() (string, diag.List) {
	// A solution tsconfig.json (Vite's templates) stands for the referenced project that
	// holds the app's scripts.
	file := solutionTsconfig(b.root, b.outDir)
	if file == "" {
		file = b.enclosingTsconfig(b.root)
	}
	b.tsconfigFile = file
	return b.tsconfigAt(file)
}

// enclosingTsconfig returns the tsconfig esbuild would apply to a file in dir: the nearest
// tsconfig.json (else jsconfig.json) from dir up, looked for up to the root and no higher;
// "" for none.
func (b *bundler) enclosingTsconfig(dir string) string {
	for ; ; dir = filepath.Dir(dir) {
		for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
			p := filepath.Join(dir, name)
			if st, err := os.Lstat(p); err == nil && !st.IsDir() {
				return p
			}
		}
		if dir == b.readRoot || filepath.Dir(dir) == dir || !b.inRoot(dir) {
			return ""
		}
	}
}

// tsconfigAt returns the tsconfig in file ("" for none) as TsconfigRaw, read as tsconfig
// reads it: its extends followed inside the root, problems reported at their place.
func (b *bundler) tsconfigAt(file string) (string, diag.List) {
	if file == "" {
		return "{}", nil
	}
	r := &tsconfigReader{b: b, configDir: filepath.Dir(file)}
	if msg := b.outside(file); msg != nil {
		return "{}", diag.List{{File: b.display(b.rel(file)), Text: fmt.Sprintf("%s is a symbolic link to a file outside %s", filepath.Base(file), b.rootName()),
			Note: "bundle reads only files inside " + b.rootName() + ": copy the config in instead of linking to it"}}
	}
	opts, ok := r.read(file, nil)
	if !ok {
		return "{}", r.list
	}
	return r.raw(opts, file), r.list
}

// raw renders merged options as esbuild's TsconfigRaw, whose folder is the app folder.
func (r *tsconfigReader) raw(o tsOptions, file string) string {
	co := map[string]json.RawMessage{}
	for k, v := range o.values {
		co[k] = v
	}
	if o.baseURL != "" {
		co["baseUrl"], _ = json.Marshal(o.baseURL)
	}
	if o.paths != nil {
		var paths map[string][]string
		if json.Unmarshal(o.paths, &paths) == nil {
			for key, targets := range paths {
				var kept []string
				for _, t := range targets {
					t = strings.ReplaceAll(t, "${configDir}", r.configDir)
					switch {
					case filepath.IsAbs(t) || o.baseURL != "":
					case t == "." || t == ".." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../"):
						t = filepath.Join(o.pathsDir, t) + map[bool]string{true: "/", false: ""}[strings.HasSuffix(t, "/")]
					default:
						r.list = append(r.list, diag.Message{Severity: diag.Warning, File: r.b.display(r.b.rel(file)),
							Text: fmt.Sprintf("paths: %q is not relative, and there is no baseUrl: it is ignored, as TypeScript ignores it", t),
							Note: fmt.Sprintf("write %q", "./"+t)})
						continue
					}
					kept = append(kept, t)
				}
				paths[key] = kept
			}
			co["paths"], _ = json.Marshal(paths)
		}
	}
	out, _ := json.Marshal(map[string]any{"compilerOptions": co})
	return string(out)
}

// read reads the config at file (checked to be inside the root) and the configs it extends;
// chain holds the configs that extend it, to find a cycle. ok is false when the config
// cannot be used.
func (r *tsconfigReader) read(file string, chain []string) (tsOptions, bool) {
	o := tsOptions{values: map[string]json.RawMessage{}}
	src, err := os.ReadFile(file)
	if err != nil {
		r.list = append(r.list, diag.Message{File: r.b.display(r.b.rel(file)), Text: fmt.Sprintf("cannot read %s: %v", filepath.Base(file), errors.Unwrap(err))})
		return o, false
	}
	clean := jsonc(src)
	var cfg struct {
		Extends         json.RawMessage            `json:"extends"`
		CompilerOptions map[string]json.RawMessage `json:"compilerOptions"`
	}
	if err := json.Unmarshal(clean, &cfg); err != nil {
		d := diag.Message{File: r.b.display(r.b.rel(file)), Text: fmt.Sprintf("%s does not parse: %v", filepath.Base(file), err),
			Note: "fix the JSON (comments and trailing commas are allowed, as TypeScript allows them)"}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			d.Place(src, max(int(se.Offset)-1, 0), 1)
		}
		r.list = append(r.list, d)
		return o, false
	}
	var bases []string
	var one string
	if json.Unmarshal(cfg.Extends, &one) == nil {
		bases = []string{one}
	} else if cfg.Extends != nil {
		json.Unmarshal(cfg.Extends, &bases)
	}
	for _, ext := range bases {
		base, ok := r.extends(file, src, ext, append(chain, file))
		if ok {
			o.apply(base)
		}
	}
	dir := filepath.Dir(file)
	for k, v := range cfg.CompilerOptions {
		switch {
		case k == "baseUrl":
			var s string
			if json.Unmarshal(v, &s) == nil {
				s = strings.ReplaceAll(s, "${configDir}", r.configDir)
				if !filepath.IsAbs(s) {
					s = filepath.Join(dir, s)
				}
				o.baseURL = s
			}
		case k == "paths":
			o.paths, o.pathsDir = v, dir
		case slices.Contains(esbuildTSOptions, k):
			o.values[k] = v
		}
	}
	return o, true
}

// extends reads the config that file (whose source is src) names in its extends as ext, found
// as esbuild finds it: a path relative to file or absolute ("." and ".." mean their
// tsconfig.json; .json may be left out), or a package in a node_modules folder at or above
// file's, inside the root (its "tsconfig" field, its "exports", or a file of it). A config
// outside the root is refused where ext is written, never read.
func (r *tsconfigReader) extends(file string, src []byte, ext string, chain []string) (tsOptions, bool) {
	place := func(sev diag.Severity, text, note string) {
		d := diag.Message{Severity: sev, File: r.b.display(r.b.rel(file)), Text: text, Note: note}
		lit, _ := json.Marshal(ext)
		key := strings.Index(string(src), `"extends"`)
		if i := strings.Index(string(src[max(key, 0):]), string(lit)); key >= 0 && i >= 0 {
			d.Place(src, key+i, len(lit))
		} else if key >= 0 {
			d.Place(src, key, len(`"extends"`))
		}
		r.list = append(r.list, d)
	}
	var cands []string
	if isPackagePath(ext) {
		cands = r.packageConfig(filepath.Dir(file), ext)
	} else {
		p := ext
		if p == "." || p == ".." {
			p += "/tsconfig.json"
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(file), filepath.FromSlash(p))
		}
		cands = []string{p}
		if !strings.HasSuffix(p, ".json") {
			cands = append(cands, p+".json")
		}
	}
	for _, c := range cands {
		// Where it is decides, before whether it exists: nothing outside is looked at.
		if r.b.leavesRoot(c) {
			place(diag.Error, fmt.Sprintf("extends %q names a config outside %s", ext, r.b.rootName()),
				"bundle reads only files inside "+r.b.rootName()+": copy the base config in, or install its package in the app (npm install -D …)")
			return tsOptions{}, false
		}
		st, err := os.Stat(c)
		if err != nil || st.IsDir() {
			if errors.Is(err, fs.ErrPermission) {
				place(diag.Error, fmt.Sprintf("extends %q names a file bundle may not read", ext), "keep the base config inside "+r.b.rootName())
				return tsOptions{}, false
			}
			continue
		}
		if !r.b.inRoot(c) {
			place(diag.Error, fmt.Sprintf("extends %q names a config outside %s", ext, r.b.rootName()),
				"bundle reads only files inside "+r.b.rootName()+": copy the base config in, or install its package in the app (npm install -D …)")
			return tsOptions{}, false
		}
		real, _ := filepath.EvalSymlinks(c)
		if slices.Contains(chain, real) {
			place(diag.Warning, fmt.Sprintf("base config file %q forms a cycle", ext), "remove the extends that leads back to this config")
			return tsOptions{}, false
		}
		return r.read(real, chain)
	}
	place(diag.Warning, fmt.Sprintf("cannot find base config file %q", ext), "fix the path, or install the package that holds it in the app (npm install -D …)")
	return tsOptions{}, false
}

// packageConfig returns the files that the package path ext may name, from the node_modules
// folders at and above dir, up to the root: as esbuild looks for them, the package's
// "tsconfig" field or its "exports" entry for the subpath, then <path>/tsconfig.json,
// <path> and <path>.json.
func (r *tsconfigReader) packageConfig(dir, ext string) []string {
	name, sub := packageName(ext), ""
	if rest := strings.TrimPrefix(ext, name); rest != "" {
		sub = "." + rest
	} else {
		sub = "."
	}
	var out []string
	for cur := dir; ; cur = filepath.Dir(cur) {
		if filepath.Base(cur) != "node_modules" {
			join := filepath.Join(cur, "node_modules", filepath.FromSlash(ext))
			pkgDir := filepath.Join(cur, "node_modules", filepath.FromSlash(name))
			if pj := filepath.Join(pkgDir, "package.json"); r.b.inRoot(pj) {
				if src, err := os.ReadFile(pj); err == nil {
					var pkg struct {
						Tsconfig string          `json:"tsconfig"`
						Exports  json.RawMessage `json:"exports"`
					}
					if json.Unmarshal(src, &pkg) == nil {
						if pkg.Tsconfig != "" {
							join = filepath.Join(pkgDir, filepath.FromSlash(pkg.Tsconfig))
						}
						if t, ok := exportsTarget(pkg.Exports, sub); ok {
							out = append(out, filepath.Join(pkgDir, filepath.FromSlash(t)))
						}
					}
				}
			}
			out = append(out, filepath.Join(join, "tsconfig.json"), join, join+".json")
		}
		if cur == r.b.readRoot || filepath.Dir(cur) == cur || !r.b.inRoot(cur) {
			return out
		}
	}
}

// exportsTarget resolves the subpath sub ("." or "./x") in a package.json's "exports", with
// the conditions TypeScript uses for a tsconfig's extends (require, then default), and with
// "./*" patterns; ok is false when it names nothing.
func exportsTarget(exports json.RawMessage, sub string) (string, bool) {
	if exports == nil {
		return "", false
	}
	var s string
	if json.Unmarshal(exports, &s) == nil {
		return s, sub == "."
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(exports, &m) != nil {
		return "", false
	}
	subpaths := false
	for k := range m {
		subpaths = subpaths || strings.HasPrefix(k, ".")
	}
	if !subpaths { // conditions for "."
		if sub != "." {
			return "", false
		}
		return condition(exports)
	}
	if v, ok := m[sub]; ok {
		return condition(v)
	}
	for k, v := range m {
		if pre, post, ok := strings.Cut(k, "*"); ok && strings.HasPrefix(sub, pre) && strings.HasSuffix(sub, post) && len(sub) >= len(pre)+len(post) {
			star := sub[len(pre) : len(sub)-len(post)]
			if t, ok := condition(v); ok {
				return strings.ReplaceAll(t, "*", star), true
			}
		}
	}
	return "", false
}

// condition picks the target of an exports value: a string, or the first of require and
// default in a conditions object, recursively.
func condition(v json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return "", false
	}
	for _, c := range []string{"require", "default"} {
		if x, ok := m[c]; ok {
			return condition(x)
		}
	}
	return "", false
}

// isPackagePath reports whether an extends value names a package, as esbuild's IsPackagePath
// decides: neither absolute nor relative.
func isPackagePath(p string) bool {
	return !filepath.IsAbs(p) && !strings.HasPrefix(p, "/") && p != "." && p != ".." &&
		!strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../")
}

// jsonc returns src with its comments and trailing commas turned into spaces, as TypeScript
// reads a tsconfig: every byte stays at its offset, so that a JSON error's offset is the
// place in the file.
func jsonc(src []byte) []byte {
	out := slices.Clone(src)
	lastComma := -1 // a comma, and nothing since but space and comments
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
			lastComma = -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := i + 2
			for j+1 < len(out) && (out[j] != '*' || out[j+1] != '/') {
				j++
			}
			end := min(j+2, len(out))
			for k := i; k < end; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			i = end - 1
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

// solutionTsconfig returns the tsconfig that holds the app's code when the app's
// tsconfig.json is a solution file, as Vite's templates write it ("files": [] and
// "references" to tsconfig.app.json and tsconfig.node.json): esbuild takes the tsconfig.json
// for every file, and would miss the paths and JSX options of the project that holds them.
// Vite follows the references (TypeScript's project references: each file belongs to the
// project whose include or files hold it); esbuild takes one tsconfig for the build, so it
// is the referenced project that holds most of the app's scripts. "" when the tsconfig.json
// is not a solution file, or when no referenced project holds a script.
func solutionTsconfig(root, outDir string) string {
	top := filepath.Join(root, "tsconfig.json")
	if !within(top, root) {
		return "" // a link out of the app: tsconfig refuses it, unread
	}
	cfg, ok := readTsconfig(top)
	if !ok || len(cfg.References) == 0 || cfg.Include != nil || cfg.Files == nil || len(cfg.Files) > 0 {
		return ""
	}
	scripts := appScripts(root, outDir)
	best, most := "", 0
	for _, ref := range cfg.References {
		p := referencedConfig(root, ref.Path)
		if !within(p, root) {
			continue // never read: it is outside the app
		}
		sub, ok := readTsconfig(p)
		if !ok {
			continue
		}
		if n := sub.holds(filepath.Dir(p), scripts); n > most {
			best, most = p, n
		}
	}
	return best
}

// referencedConfig returns the config file a project reference in the folder dir names, as
// TypeScript takes it (resolveConfigFileProjectName) and Vite's tsconfck does: a path ending
// in .json is the file, any other the tsconfig.json in that folder. It looks at nothing: the
// caller refuses by where the path leads (within) before it reads, so that nothing outside
// the app is looked at (a stat of a reference outside asked whether its folder was there).
func referencedConfig(dir, ref string) string {
	p := filepath.Join(dir, filepath.FromSlash(ref))
	if strings.HasSuffix(ref, ".json") {
		return p
	}
	return filepath.Join(p, "tsconfig.json")
}

// tsconfig is what solutionTsconfig reads of a tsconfig.json. Files is nil when it is not
// written, and empty when it is [].
type tsconfig struct {
	Files      []string `json:"files"`
	Include    []string `json:"include"`
	References []struct {
		Path string `json:"path"`
	} `json:"references"`
}

// holds counts the scripts (slash-separated absolute paths) that the project in dir holds by
// its include (TypeScript's default: everything) or files.
func (c tsconfig) holds(dir string, scripts []string) int {
	base := escapeGlob(filepath.ToSlash(dir))
	var globs []*globPattern
	include := c.Include
	if include == nil && c.Files == nil {
		include = []string{"**/*"}
	}
	for _, p := range include {
		p = strings.TrimPrefix(p, "./")
		if !hasGlobMeta(p) && path.Ext(p) == "" {
			p = strings.TrimSuffix(p, "/") + "/**/*" // a folder: everything in it
		}
		if g, err := compileGlob(path.Join(base, p), false, false); err == nil {
			globs = append(globs, g)
		}
	}
	n := 0
	for _, s := range scripts {
		if slices.ContainsFunc(globs, func(g *globPattern) bool { return g.match(s) }) ||
			slices.ContainsFunc(c.Files, func(f string) bool { return filepath.ToSlash(filepath.Join(dir, f)) == s }) {
			n++
		}
	}
	return n
}

// readTsconfig reads a tsconfig file, which is JSON with comments and trailing commas.
func readTsconfig(p string) (tsconfig, bool) {
	var c tsconfig
	data, err := os.ReadFile(p)
	if err != nil {
		return c, false
	}
	return c, json.Unmarshal(jsonc(data), &c) == nil
}

// appScripts lists the app's scripts (slash-separated absolute paths), outside node_modules,
// the output folder and dot folders, up to 10,000.
func appScripts(root, outDir string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= 10000 {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") || p == outDir) {
				return filepath.SkipDir
			}
			return nil
		}
		if scriptFile.MatchString(strings.ToLower(d.Name())) && !strings.HasSuffix(d.Name(), ".d.ts") {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	return out
}

// tsPaths are the paths of the tsconfig the build gives esbuild (b.tsconfigRaw, its targets
// absolute), as TypeScript matches them: a key without * only the import itself, else its
// prefix and suffix around the *, the longest prefix first (TypeScript's
// matchPatternOrExact).
func (b *bundler) tsPaths() []tsPath { return pathsOf(b.tsconfigRaw) }

// pathsOf reads the paths of a tsconfig as tsconfigReader.raw renders it (targets absolute,
// or relative to its baseUrl), sorted as TypeScript tries them.
func pathsOf(tsconfigRaw string) []tsPath {
	var raw struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal([]byte(tsconfigRaw), &raw) != nil {
		return nil
	}
	var out []tsPath
	for key, targets := range raw.CompilerOptions.Paths {
		var abs []string
		for _, t := range targets {
			if !filepath.IsAbs(t) {
				if raw.CompilerOptions.BaseURL == "" {
					continue
				}
				t = filepath.Join(raw.CompilerOptions.BaseURL, t)
			}
			abs = append(abs, filepath.ToSlash(t))
		}
		if len(abs) > 0 && strings.Count(key, "*") <= 1 {
			out = append(out, tsPath{key: key, targets: abs})
		}
	}
	sortTsPaths(out)
	return out
}

// sortTsPaths puts keys in the order TypeScript tries them: exact keys, then the longest
// prefix before the *.
func sortTsPaths(out []tsPath) {
	slices.SortFunc(out, func(x, y tsPath) int {
		xs, ys := !strings.Contains(x.key, "*"), !strings.Contains(y.key, "*")
		if xs != ys { // exact keys first
			if xs {
				return -1
			}
			return 1
		}
		px, _, _ := strings.Cut(x.key, "*")
		py, _, _ := strings.Cut(y.key, "*")
		if len(px) != len(py) {
			return len(py) - len(px)
		}
		return strings.Compare(x.key, y.key)
	})
}

// tsPath is one key of a tsconfig's paths and its absolute targets.
type tsPath struct {
	key     string
	targets []string
}

// match returns what the key's * matched in the import spec, and whether the key matches.
func (t tsPath) match(spec string) (string, bool) {
	pre, suf, wild := strings.Cut(t.key, "*")
	if !wild {
		return "", spec == t.key
	}
	if len(spec) < len(pre)+len(suf) || !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, suf) {
		return "", false
	}
	return spec[len(pre) : len(spec)-len(suf)], true
}

// tsPathGlob resolves a glob pattern that a key of the tsconfig's paths starts, as Vite's
// resolve.tsconfigPaths reads the pattern: the target's folder escaped, the pattern's own part
// as written; of several targets, the first whose folder is there.
func (b *bundler) tsPathGlob(p string) (string, bool) {
	for _, t := range b.tsPaths() {
		m, ok := t.match(p)
		if !ok {
			continue
		}
		for _, target := range t.targets {
			pre, suf, wild := strings.Cut(target, "*")
			if !wild {
				return escapeGlob(target), true
			}
			// A folder outside the root is taken as it is named, not looked at: the glob
			// is then refused for where it reaches, whatever is there.
			if d := filepath.Dir(filepath.FromSlash(pre + "x")); !b.leavesRoot(d) {
				if st, err := os.Stat(d); err != nil || !st.IsDir() {
					continue
				}
			}
			return escapeGlob(pre) + m + escapeGlob(suf), true
		}
	}
	return "", false
}
