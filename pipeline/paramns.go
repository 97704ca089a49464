package pipeline

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// A module object given to the app's own function. A parameter's member called with markup,
// function run(x) { x.put(el, markup) }, calls the export of the module whose namespace object
// the function's calls give it:
//
//	import * as dom from "./dom.js"; run(dom)
//	const m = await import("./dom.js"); run(m)      (or through another function's parameter)
//
// Each call of the function the module makes (calls: f(…), f.call, f.apply, bind, a
// callback's) is read at the parameter's place: a name bound to a module object is read as
// that module's (followImport), a parameter of the caller is read so in turn (maxParamDepth),
// anything else is no module object and is not followed. Where code the build does not read
// may call the function (it is exported, or passed as a value: setTimeout(run, 0, dom)), or a
// call's arguments are only the run's, the build cannot read which function x.put is: an
// argument holding what the policy blocks is an error (refuseUnread), as a parameter's own
// call is (checkParamCall).

// nsGiven is a module object a function's calls give a parameter: the import (its module, "*")
// and how it is written, for the message; or, where the specifier is not one the build reads
// (a computed import(…), a package's), why not.
type nsGiven struct {
	imp    importBinding
	how    string
	unread string
}

// checkParamModule reads the call of root's member path keys (name, as written) with the
// arguments args, root a parameter of the app's own function, into the modules whose objects
// the function's calls give it.
func (r *rewrite) checkParamModule(root int, keys []string, name string, args [][2]int) {
	s := r.s
	given, unread, key, others := r.paramNamespaces(root, 0)
	if key != "" {
		return // function run({ put }) { put.x(…) }: the export's member, not read
	}
	had := len(r.errs)
	r.followNamespaces(root, given, keys, name, args)
	rest := s.restParam(root) && len(r.moduleObjects()) > 0 // ...xs: the calls' module objects in its array
	if unread == "" && !others || len(r.errs) > had || !rest && !r.mayGetModule(root) || r.refusedElsewhere(root, args) {
		return
	}
	switch {
	case unread == "" && rest:
		unread = s.paramFnName(root) + ", the rest parameter: an array of what its calls give, which the build does not follow into a module object"
	case unread == "":
		// A call gives it what may hold a module object the script gives as a value
		// ([dom], { d: dom }, a default, a value written to it).
		unread = s.paramFnName(root) + ", which is given what the build does not read as a module object, where the script gives one as a value"
	}
	call := "ns" + memberTail(keys) + "(…)"
	if at, how, ok := r.moduleEscape(); ok && s.importCall(at) {
		unread += ", and " + how + " goes where the build does not follow it, at " + r.escapePlace(at)
	}
	if at, _, ok := r.moduleEscape(); ok {
		call = s.text(at) + memberTail(keys) + "(…)"
		if len(keys) == 1 {
			call = r.escapeCall(at, keys[0]) // importedvalues.go
		}
	}
	r.refuseUnreadFix(args, name+"(…)", "the build cannot read which function it calls ("+s.text(root)+" is a parameter of "+unread+")",
		"call the module's function on the module object where it is imported ("+call+"), or give the module object only to a parameter of a plain function that does not write it, which the build follows")
}

// followNamespaces reads the call of keys' path from the module objects given (to the
// parameter at the significant token root) with the arguments args, as each module's export
// (followImport); one whose module the build does not read is an error at the argument.
func (r *rewrite) followNamespaces(root int, given []nsGiven, keys []string, name string, args [][2]int) {
	s := r.s
	for _, g := range given {
		if g.unread != "" {
			r.refuseUnread(args, name+"(…)", g.unread)
			return
		}
		fn, _ := s.paramFunction(root)
		via := "the parameter " + s.text(root) + " of the function written there"
		if n := s.fnName(fn); n != "" {
			via = n + "'s parameter " + s.text(root)
		}
		r.followImport(args, name, g.imp, keys, via+" is given "+g.how)
	}
}

// checkParamKey reads the call of the parameter at the significant token root, destructured
// from a module object by key (function run({ put }) { put(…) } run(dom)), with the
// arguments args, into that module's export; ok is false where a call of the function gives
// something else, or code the build does not read may call it (checkParamCall says so).
func (r *rewrite) checkParamKey(root int, name string, args [][2]int) (ok bool) {
	given, unread, key, others := r.paramNamespaces(root, 0)
	if key == "" || unread != "" || others || len(given) == 0 {
		return false
	}
	r.followNamespaces(root, given, []string{key}, name, args)
	return true
}

// mayGetModule reports whether a module object may reach the parameter at the significant
// token p by code the build does not read: its function is exported (another module's
// calls give it what they give), or the script gives a module object where the build does
// not follow it (moduleEscape: setTimeout(run, 0, dom), lib.use(dom), [dom], a parameter
// returned or written).
func (r *rewrite) mayGetModule(p int) bool {
	s := r.s
	if f, ok := s.paramFunction(p); ok && f.name >= 0 && s.exported(f) {
		return true
	}
	_, _, escapes := r.moduleEscape() // unreadcallee.go
	return escapes
}

// moduleObjects returns the bindings of the names the script binds to module objects of the
// app: import * as name, const name = await import(…), import(…).then((name) => …).
func (r *rewrite) moduleObjects() []int {
	s := r.s
	var out []int
	for k := range s.sig {
		if !js.IsIdentifier(s.tok(k).tt) || s.is(k-1, ".") || s.is(k-1, "?.") {
			continue
		}
		n, known := s.binding(k)
		if !known || n.Free || slices.Contains(out, n.Binding) {
			continue
		}
		switch n.Decl {
		case js.NoDecl:
			if imp, ok := r.imports()[s.text(k)]; ok && imp.name == "*" {
				out = append(out, n.Binding)
			}
		case js.LexicalDecl, js.VariableDecl:
			if s.is(k+1, "=", "await", "import", "(") {
				if _, export, ok := s.dynamicImported(k); ok && export == "*" {
					out = append(out, n.Binding)
				}
			}
		case js.ArgumentDecl:
			// import(…).then((m) => …): the parameter a then's function binds to it.
			if s.paramDecl(k) {
				if _, export, ok := s.dynamicImported(k); ok && export == "*" {
					out = append(out, n.Binding)
				}
			}
		}
	}
	return out
}

// refusedElsewhere reports whether a check of the platform's sinks refuses the call of root's
// member with the arguments args already (el.insertAdjacentHTML(…), el.setAttribute("onclick",
// …) on a parameter el): its message says what the build reads.
func (r *rewrite) refusedElsewhere(root int, args [][2]int) bool {
	if len(args) == 0 {
		return false
	}
	probe := &rewrite{b: r.b, file: r.file, s: r.s}
	for k := root; k < args[len(args)-1][1] && len(probe.errs) == 0; k++ {
		probe.checkMarkup(k)
		probe.checkAttr(k)
		probe.checkNav(k)
	}
	return len(probe.errs) > 0
}

// paramNamespaces returns the module objects the calls of the app's own function give the
// parameter at the significant token p, and, where code the build does not read may call it,
// the function's name and why (else ""). others says a call gives it something else. At
// depth 0 the parameter may be one key destructured from the argument, function run({ put
// }): key is that key (the export it reads), else "".
func (r *rewrite) paramNamespaces(p int, depth int) (out []nsGiven, unread, key string, others bool) {
	s := r.s
	n, known := s.binding(p)
	if !known || n.Free || n.Decl != js.ArgumentDecl {
		return nil, "", "", false
	}
	f, ok := s.paramFunction(p)
	switch {
	case n.Written:
		return nil, s.paramFnName(p) + ", which writes it (" + s.text(p) + " = …), so the build does not follow what it holds", "", true
	case !ok && depth == 0:
		// A generator's, a class's constructor's, a function given to code the build does
		// not read: its calls are not read.
		return nil, s.paramFnName(p) + ", whose calls the build does not read", "", true
	}
	if !ok || f.name < 0 && f.given == nil {
		return nil, "", "", false
	}
	slot := slices.IndexFunc(f.slots, func(sl paramSlot) bool { return sl.binding == n.Binding })
	if slot < 0 {
		return nil, "", "", false
	}
	if f.slots[slot].rest || f.slots[slot].unknown {
		return nil, "", "", true // ...xs, an array of what the calls give
	}
	switch path := f.slots[slot].path; {
	case len(path) == 0:
	case depth == 0 && len(path) == 1 && path[0].hasKey && !path[0].computed && path[0].key != "":
		key = path[0].key
	default:
		return nil, "", "", false
	}
	fname := "the function written there"
	if n := s.fnName(f); n != "" {
		fname = n
	}
	if s.escapes(f) {
		unread = fname + ", which code the build does not read may call: it is exported or passed as a value"
	}
	k := f.slots[slot].index
	for _, call := range s.calls(f) {
		if call == nil {
			unread = fname + ", a call of which gives arguments only the run knows"
			continue
		}
		if k >= len(call) {
			others = true // undefined, or the parameter's default
			continue
		}
		a := call[k]
		v := a[0]
		if a[1] != v+1 || !js.IsIdentifier(s.tok(v).tt) {
			others = true
			continue
		}
		m, known := s.binding(v)
		if !known || m.Free {
			others = true
			continue
		}
		if m.Decl == js.NoDecl {
			if imp, ok := r.imports()[s.text(v)]; ok && imp.name == "*" {
				g := nsGiven{imp: imp, how: "import * as " + s.text(v)}
				if !isAppSpec(imp.module) {
					g.unread = "the build does not read what the package's code does with it"
				}
				out = append(out, g)
			} else {
				others = true
			}
			continue
		}
		if imp, export, ok := s.dynamicImported(v); ok {
			if export != "*" {
				others = true // a function, not the module object
				continue
			}
			spec, ok := s.importSpec(imp)
			switch {
			case !ok:
				out = append(out, nsGiven{how: "import(…)", unread: "the build cannot read which module import(…) loads"})
			case !isAppSpec(spec):
				out = append(out, nsGiven{how: "import(" + s.text(imp+2) + ")", unread: "the build does not read what the package's code does with it"})
			default:
				out = append(out, nsGiven{imp: importBinding{module: spec, name: "*"}, how: "import(" + s.text(imp+2) + ")"})
			}
			continue
		}
		if m.Decl != js.ArgumentDecl || depth >= maxParamDepth {
			others = true
			continue
		}
		more, why, _, other := r.paramNamespaces(v, depth+1)
		out = append(out, more...)
		others = others || other
		if why != "" && unread == "" {
			unread = why
		}
	}
	return out, unread, key, others
}

// restParam reports whether the name at the significant token p is its function's rest
// parameter (...xs).
func (s *script) restParam(p int) bool {
	n, known := s.binding(p)
	f, ok := s.paramFunction(p)
	if !known || !ok {
		return false
	}
	slot := slices.IndexFunc(f.slots, func(sl paramSlot) bool { return sl.binding == n.Binding })
	return slot >= 0 && f.slots[slot].rest
}

// paramFnName names the function whose parameter the name at the significant token p is, as
// messages do (fnName), or "the function written there".
func (s *script) paramFnName(p int) string {
	if f, ok := s.paramFunction(p); ok && s.fnName(f) != "" {
		return s.fnName(f)
	}
	if n, known := s.binding(p); known && !n.Free {
		d := s.references(n.Binding)[0]
		open := s.enclosing(d)
		for open >= 0 && (s.is(open, "{") || s.is(open, "[")) {
			open = s.enclosing(open)
		}
		if open >= 0 && s.is(open, "(") {
			return s.listName(open) // unreadcallee.go
		}
	}
	return "the function written there"
}
