package pipeline

import (
	"github.com/tdewolff/parse/v2/js"
)

// A module's function used as a value. A function the app imports from another of its
// modules (import { put }, import * as dom and dom.put, or a const bound to either) is called
// where the build reads the call (put(…), dom.put(…), dom.put.call(…): checkImportedCall),
// and also where it is given as a value: the platform calls it where the app's own function
// would be (functionCalls: f.apply(t, […]), f.bind(t)(…), Reflect.apply(f, t, […]),
// setTimeout(f, 0, …), an array literal's forEach(f), Promise.resolve(v).then(f), (0, f)(…),
// the app's own function's parameter). Each of those calls is read into the module as a direct
// call is (followImport). Any other read of the function, one whose calls the build does not
// read (a value stored, returned, given to other code), is where it escapes: a module object's
// escape (unreadcallee.go), so a call whose callee the build cannot read, given what the
// policy blocks, is refused there. A value the build reads as no function with a sink (a
// function whose parameters reach no sink, a string or a number) goes nowhere that matters.

// importPath reads the value the significant token i starts as one read from an import: the
// name an import binds (import { put }, import * as dom, or a dynamic import's, const m =
// await import(…), const { put } = await import(…), import(…).then((m) => …)), or a const
// bound to a member path of one (const f = dom.put), and the members read from it by constant
// keys. end is the path's last token; call, apply and bind followed by '(' are the function's
// own methods, not keys. imp.module is the specifier (a package's too; "" where import(…)'s
// is not a string).
func (r *rewrite) importPath(i int) (imp importBinding, keys []string, end int, ok bool) {
	s := r.s
	if !js.IsIdentifier(s.tok(i).tt) || s.is(i-1, ".") || s.is(i-1, "?.") || declares(s, i) || s.importDecl(i) {
		return imp, nil, 0, false
	}
	n, known := s.binding(i)
	if !known || n.Free || n.Decl != js.NoDecl && s.references(n.Binding)[0] == i {
		return imp, nil, 0, false // a declaration: a pattern's, a parameter's
	}
	if imp, ok = r.importOf(i); !ok {
		init, isConst := s.constInitAt(i)
		if !isConst || init[1] <= init[0] {
			return imp, nil, 0, false
		}
		root, k, ok := s.memberPath(init[1] - 1)
		if !ok || root != init[0] {
			return imp, nil, 0, false
		}
		if imp, ok = r.importOf(root); !ok {
			return imp, nil, 0, false
		}
		keys = append(keys, k...)
	}
	end = i
	for len(keys) <= maxExportHops {
		switch {
		case (s.is(end+1, ".") || s.is(end+1, "?.")) && js.IsIdentifierName(s.tok(end+2).tt):
			if key := s.text(end + 2); (key == "call" || key == "apply" || key == "bind") && s.is(end+3, "(") {
				return imp, keys, end, true
			}
			keys = append(keys, s.text(end+2))
			end += 2
			continue
		case s.is(end+1, "[") && s.pair[end+1] == end+3 && s.tok(end+2).tt == js.StringToken:
			key, err := s.str(end + 2)
			if err != nil {
				return imp, keys, end, true
			}
			keys = append(keys, key)
			end += 3
			continue
		}
		break
	}
	return imp, keys, end, true
}

// importDecl reports whether the name at the significant token k is one an import
// declaration binds (import { put as p }, import * as dom, import d from …).
func (s *script) importDecl(k int) bool {
	for m := k - 1; m >= 0 && k-m < 64; m-- {
		t := s.tok(m).tt
		switch {
		case t == js.ImportToken:
			return !s.is(m+1, "(") && !s.is(m+1, ".")
		case js.IsIdentifierName(t) || t == js.StringToken || t == js.CommaToken || t == js.OpenBraceToken || t == js.MulToken:
		default:
			return false
		}
	}
	return false
}

// calledDirectly reports whether the value whose last significant token is end is a call's
// callee the build reads: f(…), f?.(…), f.call(…).
func (s *script) calledDirectly(end int) bool {
	return s.is(end+1, "(") || s.is(end+1, "?.") && s.is(end+2, "(") ||
		(s.is(end+1, ".") || s.is(end+1, "?.")) && s.is(end+2, "call") && s.is(end+3, "(")
}

// checkImportedValue reads the calls the platform makes of a function an import gives where
// the significant token i starts it as a value (importPath; setTimeout(dom.put, 0, el, m)),
// each into the module as a direct call is.
func (r *rewrite) checkImportedValue(i int) {
	s := r.s
	if r.resolve == nil || r.seed != nil && !r.seedImports {
		return
	}
	imp, keys, end, ok := r.importPath(i)
	if !ok || imp.name == "*" && len(keys) == 0 || s.is(end+1, "(") || s.is(end+1, "?.", "(") || s.is(end+1, "=") && !s.is(end+2, "=") {
		return
	}
	if s.calledDirectly(end) && r.importResolves(imp, append(append([]string{}, keys...), s.text(end+2))) {
		return // an object's own method named call (checkImportedCall)
	}
	name := s.text(i)
	if _, own, ok := s.memberPath(end); ok {
		name += memberTail(own) // the keys written here, not a const's (const f = dom.put)
	}
	for _, args := range s.functionCalls(i, end) {
		switch {
		case args == nil:
		case imp.module == "":
			r.refuseUnread(args, name+"(…)", "the build cannot read which module import(…) loads")
		case !isAppSpec(imp.module):
			r.refuseUnread(args, imp.module+"'s "+name+"(…)", "the build does not read what the package's code does with it")
		default:
			r.followImport(args, name, imp, keys, name+" read as a value and called")
		}
	}
}

// checkParamValue reads the calls the platform makes of a member of a parameter of the app's
// own function read as a value where the significant token i starts it (function run(x) {
// setTimeout(x.put, 0, el, m) }), each as a call x.put(…) is (checkParamModule): into the
// module objects the function's calls give the parameter.
func (r *rewrite) checkParamValue(i int) {
	s := r.s
	if r.resolve == nil || r.seed != nil || !js.IsIdentifier(s.tok(i).tt) || s.is(i-1, ".") || s.is(i-1, "?.") {
		return
	}
	n, known := s.binding(i)
	if !known || n.Free || n.Decl != js.ArgumentDecl || s.references(n.Binding)[0] == i {
		return
	}
	if _, ok := r.importOf(i); ok {
		return // a dynamic import's (checkImportedValue)
	}
	root, keys, ok := s.memberPath(s.pathEnd(i))
	if !ok || root != i || len(keys) == 0 || s.calledDirectly(s.pathEnd(i)) || s.is(s.pathEnd(i)+1, "=") {
		return
	}
	name := s.text(i) + memberTail(keys)
	for _, args := range s.functionCalls(i, s.pathEnd(i)) {
		if args != nil && s.givenValues(args) != nil {
			r.checkParamModule(i, keys, name, args)
		}
	}
}

// pathEnd returns the last significant token of the member path by constant keys that starts
// at the name at i (x, x.a.b, x["a"]); call, apply and bind followed by '(' are not keys.
func (s *script) pathEnd(i int) int {
	end := i
	for n := 0; n <= maxExportHops; n++ {
		switch {
		case (s.is(end+1, ".") || s.is(end+1, "?.")) && js.IsIdentifierName(s.tok(end+2).tt):
			if key := s.text(end + 2); (key == "call" || key == "apply" || key == "bind") && s.is(end+3, "(") {
				return end
			}
			end += 2
			continue
		case s.is(end+1, "[") && s.pair[end+1] == end+3 && s.tok(end+2).tt == js.StringToken:
			end += 3
			continue
		}
		break
	}
	return end
}

// maxAliasDepth bounds the consts bound to a function an import gives that are followed.
const maxAliasDepth = 4

// importedUseFollowed reports whether the use of a function an import gives that the
// significant token ref starts (importPath) is one whose calls the build reads: a call it
// reads (calledDirectly), a const bound to it whose uses are so in turn, one whose calls
// functionCalls reads, or a value the build reads as no function with a sink (sinkValue).
// A namespace object itself (no key) is not such a use: followedUse says.
func (r *rewrite) importedUseFollowed(ref, depth int) bool {
	s := r.s
	imp, keys, end, ok := r.importPath(ref)
	if !ok || imp.name == "*" && len(keys) == 0 {
		return false
	}
	if s.calledDirectly(end) {
		return true
	}
	if s.is(ref-1, "=") && js.IsIdentifier(s.tok(ref-2).tt) && declares(s, ref-2) && !s.is(end+1, ".") && !s.is(end+1, "?.") {
		// const f = dom.put: where f is read.
		if _, isConst := s.constInitAt(ref - 2); isConst && depth < maxAliasDepth {
			for _, d := range s.references(s.bindingOf(ref - 2)) {
				if d != ref-2 && !r.importedUseFollowed(d, depth+1) {
					return false
				}
			}
			return true
		}
	}
	if !r.sinkValue(imp, keys) {
		return true
	}
	if s.listCalled(ref, end) {
		return true // f.apply(t, a), Reflect.apply(f, t, a) of an array the script changes (checkListCall)
	}
	calls := s.functionCalls(ref, end)
	if len(calls) == 0 {
		return false
	}
	for _, args := range calls {
		if args == nil {
			return false // arguments only the run knows
		}
	}
	return true
}

// sinkValue reports whether the value an import gives at the key path keys may be a
// function that gives what it is given to a sink: one the build reads as the module's
// function, read with each parameter given markup with a handler, a javascript: URL and a
// handler's name (seededCall's reading); or one it cannot read (made by a call, a class, a
// package's), which it may be. A string, a number, a boolean or null is none.
func (r *rewrite) sinkValue(imp importBinding, keys []string) bool {
	if !isAppSpec(imp.module) {
		return true // a package's, or a module import(…) names as the run says
	}
	export := imp.name
	if export == "*" {
		export, keys = keys[0], keys[1:]
	}
	path, ok := r.b.barrelTarget(r.resolve, r.file, imp.module)
	if !ok {
		return true
	}
	fn, ok := r.exportedFunction(path, export, keys, 0)
	if !ok {
		if x := r.module(path); x != nil && len(keys) == 0 {
			if v, _, _ := x.exportedValue(export); v >= 0 && v < len(x.sig) {
				switch t := x.tok(v).tt; {
				case t == js.StringToken || t == js.DecimalToken || t == js.IntegerToken || t == js.TrueToken || t == js.FalseToken || t == js.NullToken:
					return false
				}
			}
		}
		return true
	}
	seed := map[int]paramVal{}
	for _, sl := range fn.slots {
		if sl.unknown || sl.rest || len(sl.path) > 0 {
			continue
		}
		seed[sl.binding] = paramVal{strs: []string{`<img src=x onerror=x()>`, "javascript:x()", "onclick"}}
	}
	if len(seed) == 0 {
		return false
	}
	probe := &rewrite{b: r.b, file: fn.path, s: fn.x, seed: seed}
	for k := 0; k < len(fn.x.sig) && probe.found == nil; k++ {
		probe.checkMarkup(k)
		probe.checkAttr(k)
		probe.checkNav(k)
		probe.checkSeededThis(k)
	}
	return probe.found != nil
}

// escapeCall says how to call the module's function key (or the function, "function") so
// that the build reads the call, where the use of a module object or of an import's function
// at the significant token at goes where the build does not follow it (moduleEscape).
func (r *rewrite) escapeCall(at int, key string) string {
	s := r.s
	if s.importCall(at) {
		spec := "…"
		if v, ok := s.importSpec(at); ok {
			spec = jsString(v)
		}
		m := "m." + key + "(…)"
		if key == "function" {
			m = "m.name(…)"
		}
		return "const m = await import(" + spec + "), or import(" + spec + ").then((m) => …), then " + m
	}
	if imp, ok := r.importOf(at); ok && imp.name != "*" {
		if _, keys, _, ok := r.importPath(at); ok && len(keys) > 0 || key == "function" || key == s.text(at) {
			return s.text(at) + memberTail(keys) + "(…)"
		}
	}
	if key == "function" {
		return s.text(at) + "[\"name\"](…), by a constant key"
	}
	return s.text(at) + "." + key + "(…)"
}

// importResolves reports whether the build reads the value an import gives at the key path
// keys as a function (exportedFunction).
func (r *rewrite) importResolves(imp importBinding, keys []string) bool {
	export := imp.name
	if !isAppSpec(imp.module) {
		return false
	}
	if export == "*" {
		if len(keys) == 0 {
			return false
		}
		export, keys = keys[0], keys[1:]
	}
	path, ok := r.b.barrelTarget(r.resolve, r.file, imp.module)
	if !ok {
		return false
	}
	_, ok = r.exportedFunction(path, export, keys, 0)
	return ok
}

// importOf returns the import the name at the significant token k is bound to: a static
// import's binding, or a name a dynamic import gives (dynamicImported).
func (r *rewrite) importOf(k int) (importBinding, bool) {
	s := r.s
	n, known := s.binding(k)
	if !known || n.Free {
		return importBinding{}, false
	}
	if n.Decl == js.NoDecl {
		imp, ok := r.imports()[s.text(k)]
		return imp, ok
	}
	call, export, ok := s.dynamicImported(k)
	if !ok {
		return importBinding{}, false
	}
	spec, _ := s.importSpec(call)
	return importBinding{module: spec, name: export}, true
}
