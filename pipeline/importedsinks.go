package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
)

// Markup given to a function the app imports from another of its modules. The parameter rule
// (markupparam.go) reads a module's own calls; a call from another module (import { put }
// from "./dom.js"; put(el, "<img src=x onerror=go()>"), or ns.put(…) on import * as ns) is
// read by the import graph, as the browser links it: the specifier resolved as esbuild
// resolves it (barrelTarget), the module read as the transforms read a module, the name it
// exports found (export function put, export const put = …, export { local as put }, export
// default function), and each sink of the module read with the parameters given what the
// call gives them (seed), through the module's own functions as its own calls are. A call
// whose arguments hold nothing the policy might block in markup, an attribute or a URL
// (mayHold) is not followed. A name re-exported from a third module, or an exported object's
// method, is found as the browser links it (exportgraph.go).

// resolveFunc is esbuild's resolver, as a plugin's callbacks are given it.
type resolveFunc = func(string, api.ResolveOptions) api.ResolveResult

// seedFinding is what a seeded reading found: the parameter given (its binding), the sink.
type seedFinding struct {
	markupFinding
	binding int
	sink    string
}

// checkImportedCall refuses, at the argument, a value given to a function the app imports from
// another of its modules whose code gives it a sink where it holds what the policy blocks;
// the significant token i is the call's '('. The callee is an imported name (put(…)), or a
// member path from one (dom.put(…), ns.put(…) on import * as ns, ns.dom.put(…)).
func (r *rewrite) checkImportedCall(i int) {
	s := r.s
	if r.resolve == nil || r.seed != nil && !r.seedImports || !s.is(i, "(") || i < 1 {
		return
	}
	root, keys, ok := s.memberPath(i - 1)
	if !ok {
		return
	}
	name := s.text(root) + memberTail(keys)
	if init, ok := s.constInitAt(root); ok && init[1] > init[0] {
		// A const bound to the import, or to a member of it: const p = dom.put; p(…).
		if r2, k2, ok := s.memberPath(init[1] - 1); ok && r2 == init[0] {
			root, keys = r2, append(k2, keys...)
		}
	}
	n, known := s.binding(root)
	if !known || n.Free {
		return
	}
	var imp importBinding
	var args [][2]int
	if sup, supKeys, ok := r.inheritedImport(root, keys); ok {
		// Mine.run(…) where class Mine extends View, an import, and declares no run: View's
		// (thismethod.go).
		imp, keys = sup, supKeys
	} else if n.Decl == js.NoDecl {
		if imp, ok = r.imports()[s.text(root)]; !ok || !isAppSpec(imp.module) {
			return
		}
		if n := len(keys); n > 0 && (keys[n-1] == "call" || keys[n-1] == "apply" || keys[n-1] == "bind") && (imp.name != "*" || n > 1) && !r.importResolves(imp, keys) {
			return // put.call(t, …): the function's own method (checkImportedValue)
		}
	} else {
		// A name a dynamic import gives (dynimportsinks.go), read where a call gives it
		// what the policy might block.
		if args = s.spreadArgs(s.args(i)); s.givenValues(args) == nil {
			return
		}
		k, export, ok := s.dynamicImported(root)
		if !ok {
			if n.Decl == js.ArgumentDecl && len(keys) > 0 {
				r.checkParamModule(root, keys, name, args) // paramns.go
			}
			return
		}
		spec, ok := s.importSpec(k)
		switch {
		case !ok:
			r.refuseUnread(args, name+"(…)", "the build cannot read which module import(…) loads")
			return
		case !isAppSpec(spec):
			r.refuseUnread(args, spec+"'s "+name+"(…)", "the build does not read what the package's code does with it")
			return
		}
		imp = importBinding{module: spec, name: export}
	}
	if args == nil {
		args = s.spreadArgs(s.args(i))
	}
	if args == nil && s.readsParam(s.args(i)) {
		args = s.args(i) // ...a of a parameter: spread as each chain of call sites gives it
	}
	r.followImport(args, name, imp, keys, "")
}

// followImport reads the call of the function imp's module exports (imp.name; for "*", the
// namespace object, keys[0]), of keys' path from it, with the call's arguments args, into the
// module (seededCall). name is the callee as written; via, where not "", says how the
// callee's root is the module's (in parentheses after the module).
func (r *rewrite) followImport(args [][2]int, name string, imp importBinding, keys []string, via string) {
	export := imp.name
	if export == "*" {
		if len(keys) == 0 {
			return
		}
		export, keys = keys[0], keys[1:]
	}
	given := r.s.givenValues(args)
	if given == nil && !r.s.readsParam(args) {
		return
	}
	path, ok := r.b.barrelTarget(r.resolve, r.file, imp.module)
	if !ok {
		return // esbuild's resolution says why
	}
	fn, ok := r.exportedFunction(path, export, keys, 0)
	if !ok {
		rel, err := filepath.Rel(filepath.Dir(r.file), path)
		if err != nil {
			rel = filepath.Base(path)
		}
		r.refuseUnread(args, name+"(…)", "the build cannot read the function "+filepath.ToSlash(rel)+" exports as "+export+memberTail(keys))
		return
	}
	rel, err := filepath.Rel(filepath.Dir(r.file), fn.path)
	if err != nil {
		rel = filepath.Base(fn.path)
	}
	if via != "" {
		via = " (" + via + ")"
	}
	if given != nil {
		r.seededCall(args, given, fn.x, fn.slots, name+"(…), imported from "+filepath.ToSlash(rel)+via+",")
		return
	}
	// An argument a parameter of the app's own function gives (function show(m) { put(el,
	// m) }): read with what each call of that function gives it, as a sink's value is
	// (checkParamsBy), the call into the module its sink.
	// Each argument apart, so that the parameter named and the place are the one that gives
	// the value the module's sink gets.
	s := r.s
	had := len(r.errs)
	for k := range args {
		if len(r.errs) > had || !s.readsParam(args[k:k+1]) {
			continue
		}
		r.checkParamsBy(name+"(…), imported from "+filepath.ToSlash(rel)+via, args[k:k+1], func() (markupFinding, bool) {
			all := s.spreadArgs(args)
			given := s.givenValues(all)
			if given == nil {
				return markupFinding{}, false
			}
			f, arg := r.seededFind(all, given, fn.x, fn.slots)
			_, spread := s.spreadOperand(args[k])
			if f == nil || arg != k && !spread {
				return markupFinding{}, false
			}
			if spread {
				f.at = all[arg][0] // the element of the list that gives it
			}
			return f.markupFinding, true
		})
	}
}

// readsParam reports whether an argument of args reads a parameter of the app's own
// function, or its arguments object.
func (s *script) readsParam(args [][2]int) bool {
	for _, a := range args {
		for k := a[0]; k < a[1]; k++ {
			if _, ok := s.paramKey(k); ok {
				return true
			}
		}
	}
	return false
}

// memberPath reads the callee whose last significant token is end as a name and the keys of
// the members read from it: put, dom.put, ns.dom.put, dom?.put, dom["put"].
func (s *script) memberPath(end int) (root int, keys []string, ok bool) {
	k := end
	for {
		if js.IsIdentifierName(s.tok(k).tt) && (s.is(k-1, ".") || s.is(k-1, "?.")) {
			keys = append(keys, s.text(k))
			k -= 2
			continue
		}
		// obj["key"], obj?.["key"]: a constant key; xs[0], an index (the property's key, its
		// canonical numeric string).
		if s.is(k, "]") && s.is(k-2, "[") && (s.tok(k-1).tt == js.StringToken || s.tok(k-1).tt == js.IntegerToken) {
			key, err := s.str(k - 1)
			if s.tok(k-1).tt == js.IntegerToken {
				key = s.text(k - 1)
				var n int
				if n, err = strconv.Atoi(key); err == nil && strconv.Itoa(n) != key {
					break
				}
			}
			if err != nil {
				break
			}
			keys = append(keys, key)
			k -= 3
			if s.is(k, "?.") {
				k--
			}
			continue
		}
		break
	}
	if !js.IsIdentifier(s.tok(k).tt) || s.is(k-1, "function") || len(keys) > maxExportHops {
		return 0, nil, false
	}
	slices.Reverse(keys)
	return k, keys, true
}

// memberTail returns keys as a member path's tail: ".a.b", "[0].put" for an index.
func memberTail(keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		if n, err := strconv.Atoi(k); err == nil && strconv.Itoa(n) == k {
			b.WriteString("[" + k + "]")
			continue
		}
		b.WriteString("." + k)
	}
	return b.String()
}

// givenValues reads the arguments of a call for a seeded reading (seededCall): each one's
// values, or nil where none might hold what the policy blocks (mayHold) or an argument is
// spread (the parameters' places are the run's).
func (s *script) givenValues(args [][2]int) []paramVal {
	given := make([]paramVal, len(args))
	may := false
	for k, a := range args {
		if _, spread := s.spreadOperand(a); spread {
			return nil
		}
		values, data, known := s.values(a[0], a[1])
		if !known {
			continue
		}
		given[k] = paramVal{strs: values, data: data}
		for _, v := range values {
			may = may || mayHold(v)
		}
	}
	if !may {
		return nil
	}
	return given
}

// seededCall reads the sinks of x, the module or script the function a call calls is
// declared in, with its parameters (slots) given what the call's arguments (args, read as
// given) hold, and refuses, at the argument, the first value that reaches a sink holding what
// the policy blocks. fn names the function called, and where it is.
func (r *rewrite) seededCall(args [][2]int, given []paramVal, x *script, slots []paramSlot, fn string) {
	f, arg := r.seededFind(args, given, x, slots)
	if f == nil {
		return
	}
	r.errAt(args[arg][0], "the value given to "+fn+" whose code gives its parameter "+x.bindingName(f.binding)+" to "+f.sink+", holds "+f.what, f.note)
}

// seededFind is seededCall's reading: the first value that reaches a sink holding what the
// policy blocks, and the index of the argument that gives it; nil where none does.
func (r *rewrite) seededFind(args [][2]int, given []paramVal, x *script, slots []paramSlot) (*seedFinding, int) {
	seed, argOf := map[int]paramVal{}, map[int]int{}
	for _, sl := range slots {
		if sl.unknown || sl.rest || len(sl.path) > 0 || sl.index >= len(args) || given[sl.index].strs == nil {
			continue
		}
		seed[sl.binding], argOf[sl.binding] = given[sl.index], sl.index
	}
	if len(seed) == 0 {
		return nil, 0
	}
	other := &rewrite{b: r.b, file: r.file, s: x, seed: seed, seeds: r.seeds + 1}
	if x != r.s {
		// Another module of the app: its imports resolved from its own place, read into
		// the modules they name in turn (a call of a third module's function given what
		// the seed gives), to maxSeedDepth modules.
		for path, m := range r.modules {
			if m == x && r.resolve != nil && r.seeds+1 < maxSeedDepth {
				other.file, other.resolve, other.modules = path, r.resolve, r.modules
			}
		}
	}
	for k := 0; k < len(x.sig) && other.found == nil; k++ {
		other.checkMarkup(k)
		other.checkAttr(k)
		other.checkNav(k)
		other.checkSeededThis(k) // thismethod.go
		if other.resolve != nil {
			other.checkSeededImport(k)
		}
	}
	if other.found == nil {
		return nil, 0
	}
	return other.found, argOf[other.found.binding]
}

// mayHold reports whether a value might hold what the policy blocks in markup (a tag), an
// attribute (an inline event handler's name, srcdoc) or a URL (javascript:): the values a
// call's arguments hold that checkImportedCall follows into the module.
func mayHold(v string) bool {
	lower := strings.ToLower(strings.TrimSpace(v))
	handler := len(lower) > 2 && strings.HasPrefix(lower, "on") && strings.Trim(lower, "abcdefghijklmnopqrstuvwxyz") == ""
	return strings.Contains(v, "<") || offline.Scheme(v) == "javascript" || handler || lower == "srcdoc"
}

// module returns the app's module at path as the transforms read it, read once per script.
func (r *rewrite) module(path string) *script {
	if x, ok := r.modules[path]; ok {
		return x
	}
	var x *script
	if src, err := os.ReadFile(path); err == nil {
		x, _ = readScript(path, string(src), r.b.loaderFor(path))
	}
	if r.modules == nil {
		r.modules = map[string]*script{}
	}
	r.modules[path] = x
	return x
}

// declared returns the binding of the function, class or variable the module declares at its top
// level as name (an export list's names are no references of it), or -1.
func (s *script) declared(name string) int {
	for k := range s.sig {
		if s.is(k, name) && (s.is(k-1, "function") || s.is(k-1, "class") || declares(s, k)) && s.enclosing(k) < 0 {
			return s.bindingOf(k)
		}
	}
	return -1
}

// bindingName returns the name a binding is declared with: its first name.
func (s *script) bindingName(binding int) string {
	if refs := s.references(binding); len(refs) > 0 {
		return s.text(refs[0])
	}
	return ""
}

// maxSeedDepth bounds the modules a call's values are read into, one module's function giving
// them to another's.
const maxSeedDepth = 4

// checkSeededImport reads, in a seeded reading (another module's call read into this module:
// seededCall), the call whose '(' is the significant token i of a function this module imports
// from a third (import { raw } from "./raw.js"; export function put(el, m) { raw(el, m) }),
// given what the seed gives, into that module as checkImportedCall reads the app's call: the
// first value that reaches a sink there holding what the policy blocks is the seed's finding.
func (r *rewrite) checkSeededImport(i int) {
	if r.seed == nil || r.resolve == nil || r.found != nil {
		return
	}
	r.seedImports = true // read as the app's own call is, the seed's values given
	defer func() { r.seedImports = false }()
	r.checkImportedCall(i)
	r.checkInstanceCall(i)
	r.checkImportedValue(i)
}
