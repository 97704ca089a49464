package pipeline

import (
	"encoding/json"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Vite's resolution rules where esbuild's differ: a package's subpath imports (#x/*) in glob
// patterns, and a stylesheet's @import of a package, which Vite resolves by the package's
// "style" export condition or "style" field (its CSS resolver), where esbuild takes the
// package's script.

// cssPackage resolves a stylesheet's @import of the package spec (pkg or pkg/sub), from the
// folder dir, as Vite's CSS resolver does: the package's exports under the conditions style,
// production and default, else for the package itself its "style" field, else for a subpath
// the file (with .css added when it has none). ok is false when the package has none of
// these, or is not installed: esbuild resolves it then, and says why it cannot.
func (b *bundler) cssPackage(spec, dir string) (string, bool) {
	name := packageName(spec)
	sub := strings.TrimPrefix(spec, name)
	if name == "" || strings.HasPrefix(name, ".") {
		return "", false
	}
	for d := dir; ; d = filepath.Dir(d) {
		pkgDir := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		if data, err := readIn(filepath.Join(pkgDir, "package.json"), b.readRoot); err == nil {
			var pkg struct {
				Exports json.RawMessage `json:"exports"`
				Style   string          `json:"style"`
			}
			if json.Unmarshal(data, &pkg) != nil {
				return "", false
			}
			var target string
			if len(pkg.Exports) > 0 && string(pkg.Exports) != "null" {
				exports := map[string]json.RawMessage{}
				var obj map[string]json.RawMessage
				if json.Unmarshal(pkg.Exports, &obj) == nil && slices.ContainsFunc(slices.Collect(maps.Keys(obj)), func(k string) bool { return strings.HasPrefix(k, ".") }) {
					exports = obj
				} else {
					exports["."] = pkg.Exports // a target, or conditions, for the package itself
				}
				t, ok := matchExports(exports, "."+sub, cssConditions)
				if !ok {
					return "", false
				}
				target = t
			} else if sub == "" && pkg.Style != "" {
				target = pkg.Style
			} else if sub != "" {
				target = "." + sub
				if path.Ext(target) == "" {
					target += ".css"
				}
			}
			if target == "" {
				return "", false
			}
			f := filepath.Join(pkgDir, filepath.FromSlash(path.Clean(target)))
			if b.leavesRoot(f) {
				// Refused where it is loaded, by where it leads (outside): whether a
				// file is there is not looked at.
				return f, true
			}
			if st, err := os.Stat(f); err != nil || st.IsDir() {
				return "", false
			}
			return f, true
		}
		if d == b.readRoot || filepath.Dir(d) == d || !strings.HasPrefix(d, b.readRoot) {
			return "", false
		}
	}
}

// cssImportPackage is the onResolve callback of a stylesheet's @import of a package.
func (b *bundler) cssImportPackage(a api.OnResolveArgs) (api.OnResolveResult, error) {
	if a.Kind != api.ResolveCSSImportRule {
		return api.OnResolveResult{}, nil
	}
	if f, ok := b.cssPackage(a.Path, a.ResolveDir); ok {
		return api.OnResolveResult{Path: f, Namespace: "file"}, nil
	}
	return api.OnResolveResult{}, nil
}

// subpathImport resolves p (#x/…) through the "imports" of the nearest package.json above
// importer, as Node resolves a package's imports (a key with one * takes what it stands for
// into its target), under the conditions a browser build has.
func (b *bundler) subpathImport(p, importer string) (string, bool) {
	for dir := filepath.Dir(importer); ; dir = filepath.Dir(dir) {
		data, err := readIn(filepath.Join(dir, "package.json"), b.readRoot)
		if err == nil {
			var pkg struct {
				Imports map[string]json.RawMessage `json:"imports"`
			}
			if json.Unmarshal(data, &pkg) != nil || pkg.Imports == nil {
				return "", false
			}
			target, ok := matchExports(pkg.Imports, p, resolveConditions)
			if !ok || !strings.HasPrefix(target, "./") {
				return "", false
			}
			return path.Join(escapeGlob(filepath.ToSlash(dir)), target), true
		}
		if dir == b.readRoot || filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// importsLeave returns, for the #subpath import p from importer, the package.json whose
// "imports" map it and the target, when the target leads out of the root (Node's rule, as
// subpathImport reads it): esbuild would look for the file there.
func (b *bundler) importsLeave(p, importer string) (manifest, target string, ok bool) {
	for dir := filepath.Dir(importer); within(dir, b.readRoot); dir = filepath.Dir(dir) {
		f := filepath.Join(dir, "package.json")
		data, err := readIn(f, b.readRoot)
		if err == nil {
			var pkg struct {
				Imports map[string]json.RawMessage `json:"imports"`
			}
			if json.Unmarshal(data, &pkg) != nil || pkg.Imports == nil {
				return "", "", false
			}
			t, found := matchExports(pkg.Imports, p, resolveConditions)
			if !found || !strings.HasPrefix(t, "./") || !b.leavesRoot(filepath.Join(dir, filepath.FromSlash(t))) {
				return "", "", false
			}
			return f, t, true
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", "", false
}

// matchExports finds p in a package's imports or exports map (a "#x" or "./x" key): an exact
// key, or the longest key with a * whose ends p has, whose target takes the middle for its
// *; a target of conditions is chosen under conds.
func matchExports(imports map[string]json.RawMessage, p string, conds []string) (string, bool) {
	if raw, ok := imports[p]; ok {
		return conditionalTarget(raw, conds)
	}
	best, mid := "", ""
	for k := range imports {
		pre, post, ok := strings.Cut(k, "*")
		if !ok || !strings.HasPrefix(p, pre) || !strings.HasSuffix(p[len(pre):], post) || len(p) < len(pre)+len(post) {
			continue
		}
		if len(pre) > len(strings.SplitN(best, "*", 2)[0]) || best == "" {
			best, mid = k, p[len(pre):len(p)-len(post)]
		}
	}
	if best == "" {
		// The folder mappings Node once had ("./dir/": "./lib/"), which Vite still follows.
		for k := range imports {
			if strings.HasSuffix(k, "/") && strings.HasPrefix(p, k) && len(k) > len(best) {
				best = k
			}
		}
		if best == "" {
			return "", false
		}
		t, ok := conditionalTarget(imports[best], conds)
		return t + p[len(best):], ok && strings.HasSuffix(t, "/")
	}
	t, ok := conditionalTarget(imports[best], conds)
	return strings.ReplaceAll(t, "*", mid), ok
}

// resolveConditions are the package conditions of a browser build's scripts, as Vite sets
// them; cssConditions those of a stylesheet's @import (Vite's CSS resolver).
var (
	resolveConditions = []string{"browser", "import", "module", "production", "default"}
	cssConditions     = []string{"style", "production", "default"}
)

// conditionalTarget picks a target from a string or a conditions object, under conds.
func conditionalTarget(raw json.RawMessage, conds []string) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", false
	}
	// Conditions are tried in the object's order: decode the keys in order.
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.Token()
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", false
		}
		var skip json.RawMessage
		dec.Decode(&skip)
		if k, _ := t.(string); slices.Contains(conds, k) {
			if v, ok := conditionalTarget(obj[k], conds); ok {
				return v, true
			}
		}
	}
	return "", false
}
