package pipeline

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// import.meta.glob as Vite builds it (its importMetaGlob plugin): the patterns, relative
// (./, ../), root-relative (/), through an alias, a package's subpath imports (#x/*) or a
// package name, with ! for exclusions, matched as tinyglobby and picomatch match them
// (globmatch.go); the files in JavaScript's sort order of their paths, the importer left
// out; the keys relative to the importer when every pattern is, else to the app folder
// (/x), or to the base option; eager imports or lazy functions; import, query, as, base,
// exhaustive and caseSensitive as Vite reads them.

// globOptions are the options of one glob.
type globOptions struct {
	eager, exhaustive bool
	fold              bool   // caseSensitive: false
	imp               string // the import option: "" (the module), "*", or an export's name
	query             string // "?raw", … ("" for none)
	base              string
	variable          bool // a variable import() (`./pages/${name}.js`), not import.meta.glob
}

// what names the patterns in a message: the glob's, or the variable import()'s files.
func (o globOptions) what(patterns ...string) string {
	q := make([]string, len(patterns))
	for i, p := range patterns {
		q[i] = strconv.Quote(p)
	}
	if o.variable {
		return "this variable import() (its files " + strings.Join(q, ", ") + ")"
	}
	return "import.meta.glob pattern " + strings.Join(q, ", ")
}

// glob transforms import.meta.glob(…) at the significant token i.
func (r *rewrite) glob(i int) {
	s := r.s
	open := i + 5
	if !s.is(open, "(") {
		r.errAt(i, "import.meta.glob is not called here: bundle replaces each call, import.meta.glob(patterns, options), with the modules it names, and there is no glob function at run time",
			"call it where it is used: const modules = import.meta.glob('./dir/*.js')")
		r.claimed = open
		return
	}
	close := s.pair[open]
	args := s.args(open)
	r.claimed = close + 1
	if close < 0 || len(args) < 1 || len(args) > 2 {
		r.errAt(i, fmt.Sprintf("import.meta.glob takes one or two arguments (patterns, options), and this call has %d", len(args)),
			"write import.meta.glob('./dir/*.js') or import.meta.glob(['./a/*.js', '!./a/skip.js'], { eager: true })")
		return
	}
	var patterns []string
	v, err := s.value(args[0][0], args[0][1])
	switch v := v.(type) {
	case string:
		patterns = []string{v}
	case []jsValue:
		for _, p := range v {
			str, ok := p.(string)
			if !ok {
				err = &staticError{args[0][0]}
				break
			}
			patterns = append(patterns, str)
		}
	default:
		if err == nil {
			err = &staticError{args[0][0]}
		}
	}
	if err != nil {
		r.errAt(err.(*staticError).at, "import.meta.glob's patterns must be string literals, or an array of them: bundle finds the files at build time",
			"write the pattern as a string: import.meta.glob('./dir/*.js'), or an array: import.meta.glob(['./a/*.js', '!./a/skip.js'])")
		return
	}
	var o globOptions
	if len(args) == 2 {
		var ok bool
		if o, ok = r.globOptions(args[1]); !ok {
			return
		}
	}
	onlyKeys := s.is(i-4, "Object", ".", "keys", "(")
	onlyValues := !onlyKeys && s.is(i-4, "Object", ".", "values", "(")
	if obj, ok := r.globObject(args[0][0], patterns, o, onlyKeys, onlyValues); ok {
		r.replace(i, close, obj)
	}
}

// globKnown are the options Vite's import.meta.glob takes, with their types.
var globKnown = map[string][]string{"as": {"string"}, "eager": {"boolean"}, "import": {"string"}, "exhaustive": {"boolean"},
	"query": {"object", "string"}, "base": {"string"}, "caseSensitive": {"boolean"}}

// globOptions reads the options argument [a[0], a[1]).
func (r *rewrite) globOptions(a [2]int) (globOptions, bool) {
	o := globOptions{}
	v, err := r.s.value(a[0], a[1])
	if err != nil {
		r.errAt(err.(*staticError).at, "import.meta.glob's options must be an object literal of literals: bundle reads them at build time",
			"write them in the call: { eager: true, import: 'default', query: '?raw' }")
		return o, false
	}
	if v == nil {
		return o, true
	}
	obj, ok := v.(*jsObject)
	if !ok {
		r.errAt(a[0], "import.meta.glob's second argument must be an object literal of options", "write { eager: true } or leave it out")
		return o, false
	}
	typeOf := func(v jsValue) string {
		switch v.(type) {
		case string:
			return "string"
		case bool:
			return "boolean"
		case float64:
			return "number"
		case *jsObject:
			return "object"
		case nil:
			return "undefined"
		}
		return "object"
	}
	var as string
	for _, k := range obj.keys {
		val, at := obj.values[k], obj.at[k]
		want, known := globKnown[k]
		if !known {
			names := make([]string, 0, len(globKnown))
			for n := range globKnown {
				names = append(names, n)
			}
			sort.Strings(names)
			r.errAt(at-2, fmt.Sprintf("import.meta.glob has no option %q", k), "its options are "+strings.Join(names, ", "))
			return o, false
		}
		if val == nil {
			continue
		}
		if !slices.Contains(want, typeOf(val)) {
			r.errAt(at, fmt.Sprintf("import.meta.glob's option %q must be a %s, not a %s", k, strings.Join(want, " or "), typeOf(val)), "")
			return o, false
		}
		switch k {
		case "eager":
			o.eager = val.(bool)
		case "exhaustive":
			o.exhaustive = val.(bool)
		case "caseSensitive":
			o.fold = !val.(bool)
		case "import":
			o.imp = val.(string)
		case "as":
			as = val.(string)
		case "base":
			o.base = val.(string)
			if strings.HasPrefix(o.base, "!") || !strings.HasPrefix(o.base, "/") && !strings.HasPrefix(o.base, "./") && !strings.HasPrefix(o.base, "../") {
				r.errAt(at, fmt.Sprintf("import.meta.glob's base %q must start with /, ./ or ../", o.base), "write base: './dir' (from this file) or base: '/dir' (from the app folder)")
				return o, false
			}
		case "query":
			switch q := val.(type) {
			case string:
				o.query = q
			case *jsObject:
				var parts []string
				for _, qk := range q.keys {
					var s string
					switch qv := q.values[qk].(type) {
					case string:
						s = qv
					case bool:
						s = strconv.FormatBool(qv)
					case float64:
						s = strconv.FormatFloat(qv, 'f', -1, 64)
					case nil:
						continue
					default:
						r.errAt(q.at[qk], fmt.Sprintf("import.meta.glob's query.%s must be a string, number or boolean", qk), "")
						return o, false
					}
					if s == "" {
						parts = append(parts, url.QueryEscape(qk))
					} else {
						parts = append(parts, url.QueryEscape(qk)+"="+url.QueryEscape(s))
					}
				}
				o.query = strings.Join(parts, "&")
			}
		}
	}
	if as != "" {
		if o.query != "" {
			r.errAt(a[0], `import.meta.glob's options "as" and "query" cannot be used together`, fmt.Sprintf("write query: '?%s' alone (as is the old name of query)", as))
			return o, false
		}
		if as == "raw" || as == "url" {
			if o.imp != "" && o.imp != "default" && o.imp != "*" {
				r.errAt(a[0], fmt.Sprintf(`import.meta.glob's option "import" can only be "default" or "*" when "as" is %q`, as), "")
				return o, false
			}
			if o.imp == "" {
				o.imp = "default"
			}
		}
		o.query = as
	}
	if o.query != "" && !strings.HasPrefix(o.query, "?") {
		o.query = "?" + o.query
	}
	return o, true
}

// globObject finds the files the patterns name (for the glob or template literal at the
// significant token at) and returns the expression that replaces the call: the object of
// modules, or with onlyKeys (Object.keys(import.meta.glob(…))) of keys alone, with
// onlyValues (Object.values(…)) an array.
func (r *rewrite) globObject(at int, patterns []string, o globOptions, onlyKeys, onlyValues bool) (string, bool) {
	files, relative, msg := r.b.globFiles(r.file, patterns, o)
	if msg != "" && o.variable {
		r.errAt(at, msg, "name a folder inside "+r.b.rootName()+" in the import's static part, such as `./pages/${name}.js`, or move the modules into it")
		return "", false
	}
	if msg != "" {
		r.errAt(at, msg, "start each pattern with ./, ../ or / (the app folder), or an alias, a #subpath import or a package the app has; ! before a pattern excludes what it matches")
		return "", false
	}
	dir := filepath.ToSlash(filepath.Dir(r.file))
	root := filepath.ToSlash(r.b.root)
	var props []string
	for _, f := range files {
		imp := relSlash(dir, f)
		key := imp
		switch {
		case o.base != "":
			from := dir
			if strings.HasPrefix(o.base, "/") {
				from = root
			}
			key = relSlash(path.Join(from, o.base), f)
		case !relative:
			if key = relSlash(root, f); !strings.HasPrefix(key, "../") {
				key = strings.TrimPrefix(key, ".")
			}
		}
		if onlyKeys {
			props = append(props, jsString(key)+": 0")
			continue
		}
		spec := imp + o.query
		name := ""
		if o.imp != "" && o.imp != "*" {
			name = o.imp
		}
		if o.eager {
			id := r.ident()
			if name != "" {
				r.imp("{ "+jsString(name)+" as "+id+" }", spec)
			} else {
				r.imp("* as "+id, spec)
			}
			if onlyValues {
				props = append(props, id)
			} else {
				props = append(props, jsString(key)+": "+id)
			}
			continue
		}
		call := "import(" + jsString(spec) + ")"
		if name != "" {
			call += ".then((m) => m[" + jsString(name) + "])"
		}
		if onlyValues {
			props = append(props, "() => "+call)
		} else {
			props = append(props, jsString(key)+": () => "+call)
		}
	}
	switch {
	case onlyKeys:
		return "{" + strings.Join(props, ", ") + "}", true
	case onlyValues:
		return "[" + strings.Join(props, ", ") + "]", true
	}
	return "/* @__PURE__ */ Object.assign({" + strings.Join(props, ", ") + "})", true
}

// relSlash is the path of f relative to the folder dir, starting ./ or ../.
func relSlash(dir, f string) string {
	rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(f))
	if err != nil {
		return f
	}
	return dotted(filepath.ToSlash(rel))
}

// globFiles returns the files the patterns of a glob in importer name, sorted as Vite sorts
// them; relative says whether every pattern is relative (./, ../, or a ! one), and so the
// keys. msg says why a pattern names nothing bundle can find.
func (b *bundler) globFiles(importer string, patterns []string, o globOptions) (files []string, relative bool, msg string) {
	var pos, neg []*globPattern
	var bases []string
	relative = true
	for _, p := range patterns {
		if p == "" || !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "!") {
			relative = false
		}
		abs, m := b.absGlob(p, importer, o.base)
		if m != "" {
			return nil, false, m
		}
		excl := strings.HasPrefix(abs, "!")
		abs = strings.TrimPrefix(abs, "!")
		g, err := compileGlob(abs, o.exhaustive, o.fold)
		if err != nil {
			return nil, false, fmt.Sprintf("the glob %q cannot be read: %v", p, err)
		}
		if excl {
			neg = append(neg, g)
			continue
		}
		pos = append(pos, g)
		for _, alt := range g.alts {
			base := globBase(strings.Join(alt, "/"))
			// A pattern whose folder is outside the root (../, an absolute path, a link) is
			// refused where it is written, its folder never read.
			if b.leavesRoot(filepath.FromSlash(unescapeGlob(base))) {
				return nil, false, fmt.Sprintf("%s reaches outside %s", o.what(p), b.rootName())
			}
			bases = append(bases, base)
		}
	}
	if len(pos) == 0 {
		return nil, relative, ""
	}
	found := map[string]bool{}
	w := &globWalk{b: b, pos: pos, neg: neg, importer: filepath.ToSlash(importer), found: found, seen: map[string]bool{}}
	sort.Strings(bases)
	var walked []string
	for _, base := range bases {
		if slices.ContainsFunc(walked, func(d string) bool { return base == d || strings.HasPrefix(base, d+"/") }) {
			continue
		}
		walked = append(walked, base)
		w.walk(base)
	}
	if w.outside != "" {
		return nil, false, fmt.Sprintf("%s reaches %s, a link out of %s", o.what(patterns...), w.outside, b.rootName())
	}
	for f := range found {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return lessUTF16(files[i], files[j]) })
	return files, relative, ""
}

// globWalk walks folders for a glob.
type globWalk struct {
	b        *bundler
	pos, neg []*globPattern
	importer string
	found    map[string]bool
	seen     map[string]bool // real paths of the folders walked: a link never walks one twice
	outside  string          // the first link the walk met out of the root, which refuses the glob
}

// walk adds the matching files under the folder dir (slash-separated, as the patterns).
func (w *globWalk) walk(dir string) {
	real, err := filepath.EvalSymlinks(filepath.FromSlash(dir))
	if err != nil {
		return
	}
	st, err := os.Stat(real)
	if err != nil {
		return
	}
	if !st.IsDir() {
		w.file(dir, true)
		return
	}
	if w.seen[real] || real == w.b.outDir {
		return
	}
	if w.b.outside(real) != nil {
		if w.outside == "" {
			w.outside = dir // said, not walked
		}
		return
	}
	w.seen[real] = true
	entries, err := os.ReadDir(real)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := dir + "/" + e.Name()
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if w.b.leavesRoot(filepath.FromSlash(p)) {
				// A link out, by where it leads (nothing there is looked at): refused when
				// the glob would walk it as a folder or take it as a file.
				if w.outside == "" && slices.ContainsFunc(w.pos, func(g *globPattern) bool { return g.mayContain(p) || g.match(p) }) &&
					!slices.ContainsFunc(w.neg, func(g *globPattern) bool { return g.match(p) }) {
					w.outside = p
				}
				continue
			}
			if st, err := os.Stat(filepath.FromSlash(p)); err == nil {
				isDir = st.IsDir()
			}
		}
		if isDir {
			if slices.ContainsFunc(w.pos, func(g *globPattern) bool { return g.mayContain(p) }) {
				w.walk(p)
			}
			continue
		}
		w.file(p, e.Type()&os.ModeSymlink != 0)
	}
}

// file adds the file p if it matches; link says it may be a link (out of the folder, which
// walk has confined).
func (w *globWalk) file(p string, link bool) {
	if p == w.importer || !slices.ContainsFunc(w.pos, func(g *globPattern) bool { return g.match(p) }) ||
		slices.ContainsFunc(w.neg, func(g *globPattern) bool { return g.match(p) }) {
		return
	}
	if link && w.b.outside(filepath.FromSlash(p)) != nil {
		if w.outside == "" {
			w.outside = p // a matching file that links out: said, not read
		}
		return
	}
	w.found[p] = true
}

// absGlob makes the pattern p (of a glob in importer) absolute, as Vite's toAbsoluteGlob
// does: the folders it names are escaped, so that their characters match as written. msg
// says why it cannot.
func (b *bundler) absGlob(p, importer, base string) (abs, msg string) {
	pre := ""
	if strings.HasPrefix(p, "!") {
		pre, p = "!", p[1:]
	}
	root := escapeGlob(filepath.ToSlash(b.root))
	dir := escapeGlob(filepath.ToSlash(filepath.Dir(importer)))
	switch {
	case strings.HasPrefix(base, "/"):
		dir = path.Join(root, base)
	case base != "":
		dir = path.Join(dir, base)
	}
	switch {
	case strings.HasPrefix(p, "/"):
		return pre + path.Join(root, p[1:]), ""
	case strings.HasPrefix(p, "./"):
		return pre + path.Join(dir, p[2:]), ""
	case strings.HasPrefix(p, "../"):
		return pre + path.Join(dir, p), ""
	case strings.HasPrefix(p, "**"):
		return pre + path.Join(root, p), ""
	}
	if target, ok := b.globAlias(p, importer); ok {
		return pre + target, ""
	}
	return "", fmt.Sprintf("the glob %q names no file: it is neither relative (./, ../) nor root-relative (/), and no alias, #subpath import or package of the app starts it", pre+p)
}

// globAlias resolves a pattern that starts with an alias of the manifest's, a subpath
// import of the importer's package (#x/*) or a package name, to an absolute pattern whose
// folders are escaped and whose own part is as written.
func (b *bundler) globAlias(p, importer string) (string, bool) {
	// The config's resolve.alias first, as Vite's alias plugin sees the pattern: its
	// replacement's folder escaped, the rest of the pattern as written.
	if b.vite != nil {
		for _, al := range b.vite.Alias {
			if al.Regex != nil {
				if to, ok := al.apply(p); ok && filepath.IsAbs(to) {
					return to, true
				}
				continue
			}
			if p != al.Find && !strings.HasPrefix(p, al.Find+"/") {
				continue
			}
			rest := strings.TrimPrefix(p, al.Find)
			if filepath.IsAbs(al.Replacement) {
				return escapeGlob(filepath.ToSlash(filepath.Clean(al.Replacement))) + rest, true
			}
			p = al.Replacement + rest // an alias to a package, or a path relative to the importer
			break
		}
	}
	keys := make([]string, 0, len(b.m.Build.Alias))
	for k := range b.m.Build.Alias {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, k := range keys {
		if p != k && !strings.HasPrefix(p, k+"/") {
			continue
		}
		v := b.m.Build.Alias[k]
		if strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || v == "." {
			return path.Join(escapeGlob(filepath.ToSlash(filepath.Join(b.root, filepath.FromSlash(v)))), strings.TrimPrefix(p, k)), true
		}
		p = v + strings.TrimPrefix(p, k) // an alias to a package
		break
	}
	if to, ok := b.tsPathGlob(p); ok {
		return to, true
	}
	if strings.HasPrefix(p, "#") {
		return b.subpathImport(p, importer)
	}
	name := packageName(p)
	if name == "" || strings.ContainsAny(name, "*?[{") {
		return "", false
	}
	for dir := filepath.Dir(importer); ; dir = filepath.Dir(dir) {
		pkg := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
		if st, err := os.Stat(pkg); err == nil && st.IsDir() {
			return path.Join(escapeGlob(filepath.ToSlash(pkg)), strings.TrimPrefix(p, name)), true
		}
		if dir == b.readRoot || filepath.Dir(dir) == dir {
			return "", false
		}
	}
}
