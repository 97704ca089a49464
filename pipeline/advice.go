package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/sdk"
)

// packages is what the app declares and has installed, read from the importing file's folder
// up to the folder the build may read: the names in each package.json's dependencies (all
// four kinds), the packages in each node_modules, and the package.json files found.
type packages struct {
	declared  map[string]string // name → the package.json that declares it
	installed map[string]bool
	manifests []string // the package.json files, nearest first
	modules   bool     // a node_modules folder exists
}

// packagesFrom reads what the folders from dir up to readRoot declare and hold, listing
// folders through f.
func packagesFrom(f *folders, dir, readRoot string) packages {
	confined := func(path string) bool {
		return path == readRoot || strings.HasPrefix(path, readRoot+string(filepath.Separator))
	}
	p := packages{declared: map[string]string{}, installed: map[string]bool{}}
	for {
		if f := filepath.Join(dir, "package.json"); confined(f) {
			if data, err := readIn(f, readRoot); err == nil {
				p.manifests = append(p.manifests, f)
				var pj map[string]json.RawMessage
				if json.Unmarshal(data, &pj) == nil {
					for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
						var deps map[string]any
						if json.Unmarshal(pj[k], &deps) == nil {
							for name := range deps {
								if _, ok := p.declared[name]; !ok {
									p.declared[name] = f
								}
							}
						}
					}
				}
			}
		}
		if nm := filepath.Join(dir, "node_modules"); confined(nm) && within(nm, readRoot) {
			if names, err := f.names(nm); err == nil {
				p.modules = true
				for _, name := range names {
					if strings.HasPrefix(name, ".") {
						continue
					}
					if strings.HasPrefix(name, "@") {
						var scoped []string
						if scope := filepath.Join(nm, name); within(scope, readRoot) {
							scoped, _ = f.names(scope)
						}
						for _, s := range scoped {
							p.installed[name+"/"+s] = true
						}
						continue
					}
					p.installed[name] = true
				}
			}
		}
		if dir == readRoot {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir || !confined(parent) {
			return p
		}
		dir = parent
	}
}

// suggest returns the package the app declares or has installed whose name is closest to
// pkg, when one is close enough to be what its author meant, and the package.json that
// declares it ("" for one only installed).
func (p packages) suggest(pkg string) (best, declaredIn string, ok bool) {
	var known []string
	for name := range p.declared {
		known = append(known, name)
	}
	for name := range p.installed {
		if _, ok := p.declared[name]; !ok {
			known = append(known, name)
		}
	}
	slices.Sort(known)
	best, ok = diag.Suggest(pkg, known)
	return best, p.declared[best], ok
}

// namedPackageAdvice is the advice for the npm package name that the app's own code or
// config asks a tool to load (a PostCSS plugin, a Tailwind @plugin, a vite.config import)
// and that is not installed, as read from the folder from up to readRoot (the same reads as
// an import's advice, inside the root, so that it is the same whether the kernel's fence
// holds or not). A name a package.json declares is installed by installing what is
// declared; a name close to one the app declares or has installed gets "did you mean …?";
// any other name is not put in an install command: it may be a slip of a package the app
// has not installed yet, and a package of the misspelt name may exist on npm (a
// typosquatter). add is the command that adds a package ("npm install -D").
func namedPackageAdvice(from, readRoot, name, add string) string {
	var f folders
	pkg := packageName(name)
	p := packagesFrom(&f, from, readRoot)
	rel := func(file string) string {
		r, err := filepath.Rel(from, file)
		if err != nil {
			return file
		}
		return filepath.ToSlash(r)
	}
	if declaredIn := p.declared[pkg]; declaredIn != "" {
		verb, _, _ := strings.Cut(add, " ")
		return fmt.Sprintf("%s is in %s but not installed: run %s install in %s", pkg, rel(declaredIn), verb, filepath.ToSlash(filepath.Dir(declaredIn)))
	}
	if best, declaredIn, ok := p.suggest(pkg); ok {
		how := "installed"
		if declaredIn != "" {
			how = "in " + rel(declaredIn)
		}
		return fmt.Sprintf("did you mean %q (%s)? Correct the name where it is written", best+strings.TrimPrefix(name, pkg), how)
	}
	return fmt.Sprintf("no package.json of the app declares %s, and no package installed has a name close to it: check the name where it is written, and add the package by the name its own documentation gives (%s <that name>)", pkg, add)
}

// missingPackage explains a bare import spec that does not resolve from the folder from. Its
// advice never names a package the author did not mean: "npm install X" only for a name that
// no package.json declares, that is not installed, and that is not close to a name that is
// (a typo of "recharts" is not a package to install: an unrelated one of that name may exist
// on npm). noModules says the app has no node_modules folder at all.
func (b *bundler) missingPackage(spec, from string) (text, note string, noModules bool) {
	pkg := packageName(spec)
	if pkg == "@miniapp/sdk" {
		text = fmt.Sprintf("Could not resolve %q: the SDK's entry points are %s", spec, strings.Join(sdk.Specifiers, " and "))
		note = "import one of them; the SDK ships inside bundle, not on npm, so there is nothing to install"
		if best, ok := diag.Suggest(spec, sdk.Specifiers); ok {
			note = fmt.Sprintf("did you mean %q? The SDK ships inside bundle, not on npm, so there is nothing to install", best)
		}
		return text, note, false
	}
	p := packagesFrom(&b.folders, from, b.readRoot)
	where := func(f string) string { return b.display(b.rel(filepath.Dir(f))) }
	switch {
	case p.installed[pkg]:
		if text, note, ok := b.entryOutside(spec, pkg, from); ok {
			return text, note, false
		}
		return fmt.Sprintf("Could not resolve %q: the package %s is installed, but has no %q", spec, pkg, strings.TrimPrefix(spec, pkg)),
			fmt.Sprintf("check the paths it exports in node_modules/%s/package.json (its \"exports\" field lists them)", pkg), false
	case p.declared[pkg] != "":
		note = fmt.Sprintf("run npm install (or pnpm install, yarn) in %s", where(p.declared[pkg]))
		if !p.modules {
			// Every bare import fails alike: the caller says it once.
			return fmt.Sprintf("Could not resolve %q: the app has no node_modules folder", spec), note, true
		}
		return fmt.Sprintf("Could not resolve %q: %s is in %s but not installed", spec, pkg, b.display(b.rel(p.declared[pkg]))), note, false
	}
	if best, declaredIn, ok := p.suggest(pkg); ok {
		how := "installed"
		if declaredIn != "" {
			how = "in " + b.display(b.rel(declaredIn))
		}
		return fmt.Sprintf("Could not resolve %q: no package %s is declared or installed", spec, pkg),
			fmt.Sprintf("did you mean %q (%s)?", best+strings.TrimPrefix(spec, pkg), how), false
	}
	if len(p.manifests) == 0 {
		return fmt.Sprintf("Could not resolve %q: the app has no package.json, and the package %s is not installed", spec, pkg),
			fmt.Sprintf("create one in the app folder (npm init -y), then run npm install %s there; or map the name with [build] alias", pkg), false
	}
	text = fmt.Sprintf("Could not resolve %q: the package %s is not installed", spec, pkg)
	if !p.modules {
		text = fmt.Sprintf("Could not resolve %q: the package %s is not in %s, and the app has no node_modules folder", spec, pkg, b.display(b.rel(p.manifests[0])))
	}
	return text, fmt.Sprintf("run npm install %s in %s, or map the name with [build] alias", pkg, where(p.manifests[0])), false
}

// entryConditions are the package conditions esbuild resolves an entry of the browser build
// under: of an import, and of a require (a CommonJS module's).
func (b *bundler) entryConditions() [][]string {
	base := append([]string{"browser", "default"}, b.conditions()...)
	return [][]string{append(slices.Clone(base), "import"), append(slices.Clone(base), "require")}
}

// conditionTargets returns the targets a value of "exports" gives under conds: a string; each
// of a list's (esbuild takes the first it can use); an object's first condition in conds, in
// the object's order, that gives any.
func conditionTargets(raw json.RawMessage, conds []string) []string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return []string{str}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, e := range list {
			out = append(out, conditionTargets(e, conds)...)
		}
		return out
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token()
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		var skip json.RawMessage
		dec.Decode(&skip)
		if k, _ := t.(string); slices.Contains(conds, k) {
			if out := conditionTargets(obj[k], conds); len(out) > 0 {
				return out
			}
		}
	}
	return nil
}

// entryOutside explains an installed package whose entry for spec leads out of the folder the
// build may read: its package.json's "exports" target for the subpath, or (without
// "exports", for the package itself) its "browser", "module" or "main" field, the fields
// esbuild reads for the browser, in that order. Under the kernel's fence esbuild cannot see
// the file there and says only that it found nothing; without it the file is refused where
// it is read. ok is false when no entry leaves.
func (b *bundler) entryOutside(spec, pkg, from string) (text, note string, ok bool) {
	dir := ""
	for d := from; ; d = filepath.Dir(d) {
		if f := filepath.Join(d, "node_modules", filepath.FromSlash(pkg), "package.json"); b.inRoot(f) {
			dir = filepath.Dir(f)
			break
		}
		if d == b.readRoot || filepath.Dir(d) == d || !strings.HasPrefix(d, b.readRoot) {
			return "", "", false
		}
	}
	data, err := readIn(filepath.Join(dir, "package.json"), b.readRoot)
	if err != nil {
		return "", "", false
	}
	var pj map[string]any
	if json.Unmarshal(data, &pj) != nil {
		return "", "", false
	}
	sub := "." + strings.TrimPrefix(spec, pkg)
	var field, target string
	if _, has := pj["exports"]; has {
		// The targets esbuild would take for the subpath in the browser build, under its
		// conditions, of an import or of a require: a "node" condition's target is never
		// the page's, and leads where it likes.
		var raw struct {
			Exports json.RawMessage `json:"exports"`
		}
		json.Unmarshal(data, &raw)
		exports := map[string]json.RawMessage{}
		if json.Unmarshal(raw.Exports, &exports) != nil || !strings.HasPrefix(firstKey(raw.Exports), ".") {
			exports = map[string]json.RawMessage{".": raw.Exports} // a string, a list, or conditions
		}
		for _, conds := range b.entryConditions() {
			var targets []string
			if raw, ok := exports[sub]; ok {
				targets = conditionTargets(raw, conds)
			} else if t, ok := matchExports(exports, sub, conds); ok {
				targets = []string{t} // a pattern's ("./x/*": "./lib/*"), the * replaced
			}
			for _, t := range targets {
				if target == "" && b.leavesRoot(filepath.Join(dir, filepath.FromSlash(t))) {
					target = t
				}
			}
		}
		field = fmt.Sprintf(`"exports" (for %q)`, sub)
	} else if sub == "." {
		for _, f := range []string{"browser", "module", "main"} {
			if v, isString := pj[f].(string); isString && b.leavesRoot(filepath.Join(dir, filepath.FromSlash(v))) {
				field, target = fmt.Sprintf("%q", f), v
				break
			}
		}
	}
	if m, isObject := pj["browser"].(map[string]any); isObject && target == "" {
		// A "browser" object, which esbuild applies to the file it found for the import (the
		// entry, or a subpath's file), by more keys than Vite: refused as a whole, as
		// browserLeaves refuses the one over the app's own imports, when a path it maps to
		// leads out (esbuild looked there: "… is outside" where a file was, "has no" where not).
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if to, isString := m[k].(string); isString && (strings.HasPrefix(to, "./") || strings.HasPrefix(to, "../") || strings.HasPrefix(to, "/")) &&
				b.leavesRoot(browserTarget(dir, to)) {
				field, target = fmt.Sprintf(`"browser" (for %q)`, k), to
				break
			}
		}
	}
	if target == "" {
		return "", "", false
	}
	manifest := b.display(b.rel(filepath.Join(dir, "package.json")))
	return fmt.Sprintf("Could not resolve %q: the entry of the package %s leaves %s: %s's %s is %q", spec, pkg, b.rootName(), manifest, field, target),
		fmt.Sprintf("bundle reads only files inside %s: reinstall the package (npm install %s) so that its files are in %s, or map the name to a file inside it with [build] alias", b.rootName(), pkg, b.display(b.rel(dir))), true
}
