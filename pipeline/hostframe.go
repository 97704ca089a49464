package pipeline

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2/js"
)

// A host frames an app at a URL of its own: not at "/", not on the app's origin, with nothing
// beside the page. Two checks of the app's scripts, on the transforms' reading of them, say
// what then fails: a router that reads the URL's path (it shows its not-found page), and a
// string that names a file of the public folder (the file is not there to load).

// routerHistory is, by module, the exports that make a router read the URL's path, with the
// router's name and the fix.
var routerHistory = map[string]struct {
	router, fix string
	names       []string
}{
	"react-router":                {"React Router", "createHashRouter or createMemoryRouter (HashRouter, MemoryRouter)", []string{"createBrowserRouter", "BrowserRouter"}},
	"react-router-dom":            {"React Router", "createHashRouter or createMemoryRouter (HashRouter, MemoryRouter)", []string{"createBrowserRouter", "BrowserRouter"}},
	"@tanstack/react-router":      {"TanStack Router", "history: createHashHistory() (or createMemoryHistory({ initialEntries: [\"/\"] }))", []string{"createBrowserHistory"}},
	"@tanstack/solid-router":      {"TanStack Router", "history: createHashHistory() (or createMemoryHistory({ initialEntries: [\"/\"] }))", []string{"createBrowserHistory"}},
	"@tanstack/vue-router":        {"TanStack Router", "history: createHashHistory() (or createMemoryHistory({ initialEntries: [\"/\"] }))", []string{"createBrowserHistory"}},
	"@tanstack/router-core":       {"TanStack Router", "history: createHashHistory() (or createMemoryHistory({ initialEntries: [\"/\"] }))", []string{"createBrowserHistory"}},
	"@tanstack/history":           {"TanStack Router", "createHashHistory() (or createMemoryHistory({ initialEntries: [\"/\"] }))", []string{"createBrowserHistory"}},
	"vue-router":                  {"Vue Router", "createWebHashHistory() or createMemoryHistory()", []string{"createWebHistory"}},
	"history":                     {"history", "createHashHistory() or createMemoryHistory()", []string{"createBrowserHistory"}},
	"wouter/use-browser-location": {"wouter", "<Router hook={useHashLocation}> (wouter/use-hash-location) or a memoryLocation (wouter/memory-location)", []string{"useBrowserLocation", "navigate"}},
}

// tanstackRouters are the modules whose createRouter takes the browser's history when given
// none.
var tanstackRouters = map[string]bool{"@tanstack/react-router": true, "@tanstack/solid-router": true, "@tanstack/vue-router": true, "@tanstack/router-core": true}

// wouterNames are wouter's exports that route on its location hook, the browser's path
// unless a <Router hook> gives another: "wouter/use-hash-location" or "wouter/memory-location"
// imported anywhere in the app says it does.
var wouterNames = map[string]bool{"Route": true, "Switch": true, "Router": true, "Link": true, "Redirect": true,
	"useLocation": true, "useRoute": true, "useParams": true, "useSearch": true, "useSearchParams": true, "Nest": true}

// mayRoute finds the text of a router's module before a script is read.
var mayRoute = regexp.MustCompile(`react-router|@tanstack/|vue-router|wouter|["']history["']`)

// routes is what one build found of routing on the URL's path, safe for concurrent use.
type routes struct {
	mu sync.Mutex
	// wouter holds the warning for the first use of wouter's routing on the browser's path
	// by file and place (not the first a load callback met: they run at once), said after
	// the build unless another location hook is imported (otherLocation).
	wouter        *api.Message
	otherLocation bool
}

// binding is what an imported name of a script binds: the module and the name it exports
// ("*" for a namespace, "default").
type importBinding struct{ module, name string }

// imports reads the import declarations of the script: each local name with the module and
// the export it binds.
func (r *rewrite) imports() map[string]importBinding {
	if r.bound != nil {
		return r.bound
	}
	r.bound = map[string]importBinding{}
	s := r.s
	for i := range s.sig {
		if s.tok(i).tt != js.ImportToken || s.is(i+1, "(") || s.is(i+1, ".") || s.is(i-1, ".") {
			continue
		}
		// import [type] (x | * as x | { a as b, … } | x, { … } | x, * as y) from "m"
		var locals []importBinding // name: the export; module: the local, until "from" names the module
		k := i + 1
		if s.is(k, "type") && !s.is(k+1, "from") && !s.is(k+1, ",") {
			k++
		}
		for ; k < len(s.sig) && !s.is(k, "from") && s.tok(k).tt != js.StringToken; k++ {
			switch {
			case s.is(k, "*", "as"):
				locals = append(locals, importBinding{module: s.text(k + 2), name: "*"})
				k += 2
			case s.is(k, "{"):
				close := s.pair[k]
				if close < 0 {
					break
				}
				for m := k + 1; m < close; m++ {
					name := s.text(m)
					if s.tok(m).tt == js.StringToken {
						name, _ = s.str(m)
					}
					if name == "type" && !s.is(m+1, ",") && !s.is(m+1, "}") && !s.is(m+1, "as") {
						continue
					}
					local := s.text(m)
					if s.is(m+1, "as") {
						local = s.text(m + 2)
						m += 2
					}
					locals = append(locals, importBinding{module: local, name: name})
					if s.is(m+1, ",") {
						m++
					}
				}
				k = close
			case js.IsIdentifierName(s.tok(k).tt) && !s.is(k, ","):
				locals = append(locals, importBinding{module: s.text(k), name: "default"})
			}
		}
		if !s.is(k, "from") || s.tok(k+1).tt != js.StringToken {
			continue
		}
		mod, err := s.str(k + 1)
		if err != nil {
			continue
		}
		for _, l := range locals {
			r.bound[l.module] = importBinding{module: mod, name: l.name}
		}
		if mod == "wouter/use-hash-location" || mod == "wouter/memory-location" {
			r.b.routes.mu.Lock()
			r.b.routes.otherLocation = true
			r.b.routes.mu.Unlock()
		}
	}
	return r.bound
}

// router checks the significant token i for a router that reads the URL's path: a use of a
// browser-history export of a known router (createBrowserRouter, <BrowserRouter>,
// createWebHistory, createBrowserHistory), TanStack Router's createRouter given no history,
// and wouter's routing without another location hook anywhere in the app. A hash or memory
// router is never warned of.
func (r *rewrite) router(i int) {
	s := r.s
	t := s.tok(i)
	if !js.IsIdentifierName(t.tt) || s.is(i-1, ".") || s.is(i-1, "?.") || s.is(i+1, ":") && s.is(i-1, "{") {
		return
	}
	b, ok := r.imports()[s.text(i)]
	if !ok || r.inImport(i) {
		return
	}
	name, pos := b.name, i
	if name == "*" {
		if !s.is(i+1, ".") {
			return
		}
		name, pos = s.text(i+2), i+2
	}
	h, known := routerHistory[b.module]
	switch {
	case known && contains(h.names, name):
		r.warnRouter(pos, fmt.Sprintf("%s reads the URL's path (%s): a host frames the app at a path of its own, where it matches no route and shows the router's not-found page", h.router, name),
			"route on the hash or in memory: "+h.fix)
	case tanstackRouters[b.module] && name == "createRouter" && s.is(pos+1, "("):
		if r.namesHistory(pos + 1) {
			return
		}
		r.warnRouter(pos, "TanStack Router's createRouter, given no history, takes the browser's, which reads the URL's path: a host frames the app at a path of its own, where it matches no route and shows the router's not-found page",
			"give it a hash or memory history: "+routerHistory["@tanstack/react-router"].fix+", imported from "+b.module)
	case b.module == "wouter" && wouterNames[name]:
		off, _ := s.srcAt(pos)
		w := at(r.file, r.s.src, off, fmt.Sprintf("wouter's %s routes on the browser's path unless a <Router hook> gives another location: a host frames the app at a path of its own, where no route matches", name),
			"wrap the app in <Router hook={useHashLocation}> (import { useHashLocation } from \"wouter/use-hash-location\"), or use a memoryLocation (wouter/memory-location)")
		w.Location.Length = len(s.text(pos))
		r.b.routes.mu.Lock()
		if r.b.routes.wouter == nil || placedBefore(w.Location, r.b.routes.wouter.Location) {
			r.b.routes.wouter = w
		}
		r.b.routes.mu.Unlock()
	}
}

// placedBefore reports whether the place x comes before y: by file, then line and column.
func placedBefore(x, y *api.Location) bool {
	if x.File != y.File {
		return x.File < y.File
	}
	if x.Line != y.Line {
		return x.Line < y.Line
	}
	return x.Column < y.Column
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// warnRouter warns at the significant token i.
func (r *rewrite) warnRouter(i int, text, note string) {
	off, ok := r.s.srcAt(i)
	if !ok {
		return
	}
	r.warnAt(off, len(r.s.text(i)), text, note)
}

// inImport reports whether the significant token i is inside an import or export
// declaration (a name it binds, not a use).
func (r *rewrite) inImport(i int) bool {
	s := r.s
	for k := i - 1; k >= 0 && k >= i-64; k-- {
		switch {
		case s.is(k, ";"):
			return false
		case s.tok(k).tt == js.ImportToken && !s.is(k+1, "(") && !s.is(k+1, "."):
			return true
		case s.tok(k).tt == js.ExportToken:
			return s.is(k+1, "{") || s.is(k+1, "*") // export { … } [from], not a declaration
		}
	}
	return false
}

// namesHistory reports whether the call whose '(' is the significant token open is given a
// history, or options bundle cannot read: its first argument an object literal with a key
// history (or a spread), or anything but an object literal.
func (r *rewrite) namesHistory(open int) bool {
	s := r.s
	args := s.args(open)
	if len(args) == 0 {
		return false // createRouter(): the browser's history
	}
	a := args[0]
	if !s.is(a[0], "{") || s.pair[a[0]] != a[1]-1 {
		return true // not a literal: bundle cannot tell
	}
	for k := a[0] + 1; k < a[1]-1; k++ {
		switch {
		case s.is(k, "..."):
			return true
		case s.text(k) == "history" || s.text(k) == `"history"` || s.text(k) == `'history'`:
			if s.is(k+1, ":") || s.is(k+1, ",") || s.is(k+1, "}") {
				return true
			}
		}
		if p := s.pair[k]; p > k {
			k = p // a nested object, call or template: not a key of the options
		}
	}
	return false
}

// routerWarnings returns what the build says of routing after its scripts were read: wouter's
// routing on the browser's path, unless the app imports another location hook.
func (b *bundler) routerWarnings() []api.Message {
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	if b.routes.wouter == nil || b.routes.otherLocation {
		return nil
	}
	return []api.Message{*b.routes.wouter}
}

// publicRef checks the significant token i, a string or a template literal: one that names a
// file of the public folder as a page names it at run time ("/images/x.png", "./images/x.png",
// "images/x.png") is replaced by the file's data: URL, as Vite inlines the public files a
// page names (a bundle has nothing beside it to load); a template literal whose static head
// names a folder of the public folder is refused with the import that works. Import
// specifiers, and the calls the transforms rewrite, are left alone.
func (r *rewrite) publicRef(i int) {
	s := r.s
	t := s.tok(i)
	if r.b.publicFiles() == nil || s.is(i-1, "from") || s.is(i-1, "import") || s.is(i-1, "require", "(") ||
		s.tok(i-2).tt == js.ImportToken && s.is(i-1, "(") {
		return
	}
	switch t.tt {
	case js.StringToken, js.TemplateToken:
		if s.is(i+1, ":") && (s.is(i-1, "{") || s.is(i-1, ",")) || s.is(i-1, "[") && s.is(i+1, "]") || s.is(i-1, "case") || comparison(s.text(i-1)) || comparison(s.text(i+1)) {
			return // a key, or a value compared: not a URL the page loads
		}
		v, err := s.str(i)
		if err != nil {
			return
		}
		file, ok := r.b.publicFile(v)
		if !ok {
			return
		}
		rel, err := filepath.Rel(filepath.Dir(r.file), file)
		if err != nil {
			return
		}
		id := r.ident()
		r.impAt(id, dotted(filepath.ToSlash(rel))+"?url", i)
		text := id
		if off, ok := s.srcAt(i); ok && s.is(i-1, ":") && precededByEquals(s.src, off) {
			text = "{" + id + "}" // a JSX attribute's value: src="/x.png"
		}
		r.replace(i, i, text)
	case js.TemplateStartToken:
		head := string(s.js[t.start+1 : t.end-2])
		dir, ok := r.b.publicFolder(head)
		if !ok {
			return
		}
		pattern, _ := templateGlob(s, i, s.pair[i]+1)
		glob := "/" + path.Join(r.b.m.Build.PublicDir, strings.TrimPrefix(strings.TrimPrefix(pattern, "."), "/"))
		r.errAt(i, fmt.Sprintf("this template literal names files of the public folder (%s/) at run time, which a bundle cannot load: it is one file, with nothing beside it", dir),
			fmt.Sprintf("import them, and look the URL up: const urls = import.meta.glob(%q, { eager: true, query: \"?url\", import: \"default\" }), then urls[`%s…`] (the same path under /%s)", glob, "/"+r.b.m.Build.PublicDir+"/"+strings.TrimPrefix(strings.TrimPrefix(head, "."), "/"), r.b.m.Build.PublicDir))
	}
}

// comparison reports whether op compares its operands.
func comparison(op string) bool {
	switch op {
	case "==", "===", "!=", "!==", "in":
		return true
	}
	return false
}

// precededByEquals reports whether the source before off (spaces aside) ends with '=': a JSX
// attribute, whose value esbuild prints as a property.
func precededByEquals(src string, off int) bool {
	k := off - 1
	for k >= 0 && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
		k--
	}
	return k >= 0 && src[k] == '='
}

// publicFiles returns the files of the public folder, by their path as a page names them
// ("/images/x.png"), listed once per build; nil when there are none.
func (b *bundler) publicFiles() map[string]string {
	b.public.once.Do(func() {
		dir := filepath.Join(b.root, filepath.FromSlash(b.m.Build.PublicDir))
		var walk func(dir, prefix string, depth int)
		walk = func(dir, prefix string, depth int) {
			names, err := b.folders.names(dir)
			if err != nil || depth > 8 {
				return
			}
			for _, n := range names {
				p := filepath.Join(dir, n)
				switch {
				case strings.HasPrefix(n, "."):
				case b.folders.isFile(p):
					if b.public.files == nil {
						b.public.files = map[string]string{}
					}
					b.public.files[prefix+"/"+n] = p
				case b.folders.isDir(p) && b.outside(p) == nil:
					if b.public.dirs == nil {
						b.public.dirs = map[string]string{}
					}
					b.public.dirs[prefix+"/"+n+"/"] = p
					walk(p, prefix+"/"+n, depth+1)
				}
			}
		}
		walk(dir, "", 0)
	})
	return b.public.files
}

// pagePath returns the path a page at "/" gives the URL v, when v is a path: absolute, or
// relative (./x, x/y); "" for a URL with a scheme, a query or a fragment.
func pagePath(v string) string {
	if v == "" || strings.HasPrefix(v, "//") || strings.ContainsAny(v, ":?#\\ \n") {
		return ""
	}
	if !strings.HasPrefix(v, "/") {
		v = "/" + v
	}
	clean := path.Clean(v)
	if strings.HasSuffix(v, "/") && clean != "/" {
		clean += "/"
	}
	return clean
}

// publicFile returns the file of the public folder the string v names at run time.
func (b *bundler) publicFile(v string) (string, bool) {
	p := pagePath(v)
	if p == "" || strings.HasSuffix(p, "/") {
		return "", false
	}
	f, ok := b.publicFiles()[p]
	return f, ok
}

// publicFolder returns the folder of the public folder (as the message names it) that the
// static head of a template literal names, up to its last '/'.
func (b *bundler) publicFolder(head string) (string, bool) {
	i := strings.LastIndexByte(head, '/')
	if i < 0 {
		return "", false
	}
	p := pagePath(head[:i+1])
	if p == "" || p == "/" {
		return "", false
	}
	d, ok := b.public.dirs[p]
	if !ok {
		return "", false
	}
	rel, _ := filepath.Rel(b.root, d)
	return b.display(filepath.ToSlash(rel)), true
}

// mayNamePublic reports whether src holds the name of a file of the public folder, before it
// is read.
func (b *bundler) mayNamePublic(src string) bool {
	files := b.publicFiles()
	if len(files) > 512 {
		return true
	}
	for p := range files {
		if strings.Contains(src, path.Base(p)) {
			return true
		}
	}
	for p := range b.public.dirs {
		if strings.Contains(src, "/"+path.Base(strings.TrimSuffix(p, "/"))+"/") {
			return true
		}
	}
	return false
}

// publicListing is the public folder's files and folders, listed once per build.
type publicListing struct {
	once  sync.Once
	files map[string]string // "/images/x.png" → the file
	dirs  map[string]string // "/images/" → the folder
}
