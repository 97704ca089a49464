package pipeline

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// Where a module object goes that the build does not follow. The calls of a module object's
// members are read into the module (checkImportedCall), and so are those of a parameter of
// the app's own function its calls give one (paramns.go), as long as the object goes nowhere
// else: each use of import * as dom (or const m = await import(…)) is a member read by a
// constant key (dom.put, dom["put"]) or an argument of a call of the app's own function whose
// parameter is used so in turn. Any other use, a value returned (function id(x) { return x }),
// a parameter written to, destructured in the body (const { put } = x), read by a key the
// build does not read (x[k]), given as this (run.call(dom)), to a constructor (new Run(dom)),
// to a generator or to code the build does not read, puts the object where a call the build
// cannot read may reach it: id(dom).put(…), this.put(…), x[k](…), put(…). There a call whose
// callee the build cannot read is refused where its argument holds what the policy blocks,
// with the place the object goes and how to call the module's function so the build reads it.

// moduleEscape returns the first use of a module object of the script that the build does
// not follow (see above): its significant token and how the object is written (import * as
// dom), or ok false.
func (r *rewrite) moduleEscape() (at int, how string, ok bool) {
	return r.moduleEscapeIn(0, math.MaxInt)
}

// escapeUse is a use of a module object, or of its function, that goes where the build does
// not follow it: its significant token, how the object is written, and whether it is a
// module object's own use (first, in the order of the objects), or else another.
type escapeUse struct {
	at    int
	how   string
	first bool
}

// moduleEscapeIn is moduleEscape of the uses at a significant token from start to end: a
// module object's own first, else the first of the others.
func (r *rewrite) moduleEscapeIn(start, end int) (at int, how string, found bool) {
	if r.escapes == nil {
		r.escapes = r.escapeUses()
	}
	for _, e := range *r.escapes {
		if e.at < start || e.at > end {
			continue
		}
		if e.first {
			return e.at, e.how, true
		}
		if !found || e.at < at {
			at, how, found = e.at, e.how, true
		}
	}
	return at, how, found
}

// escapeUses reads the uses of the script's module objects and of their functions that go
// where the build does not follow them, once a script.
func (r *rewrite) escapeUses() *[]escapeUse {
	s := r.s
	var out []escapeUse
	for _, b := range r.moduleObjects() {
		for _, ref := range s.references(b) {
			if declares(s, ref) || s.is(ref-1, "as") && s.is(ref-2, "*") || r.followedUse(ref, 0) {
				continue
			}
			how := "import * as " + s.text(ref)
			if _, ok := r.imports()[s.text(ref)]; !ok {
				how = "the module object " + s.text(ref) + " (import(…))"
			}
			if _, keys, _, ok := r.importPath(ref); ok && len(keys) > 0 {
				how = s.text(ref) + memberTail(keys) + " (" + how + ")"
			}
			out = append(out, escapeUse{ref, how, true})
		}
	}
	// A function an import gives (import { put }, or a namespace another module exports by
	// name), read where the build does not read its calls (importedvalues.go).
	for name, imp := range r.imports() {
		if imp.name == "*" || !isAppSpec(imp.module) {
			continue
		}
		for _, ref := range s.references(r.importBinding(name)) {
			if s.importDecl(ref) || r.importedUseFollowed(ref, 0) {
				continue
			}
			how := "import { " + name + " }"
			if _, keys, _, ok := r.importPath(ref); ok && len(keys) > 0 {
				how = name + memberTail(keys) + " (" + how + ")"
			}
			out = append(out, escapeUse{ref, how, false})
		}
	}
	// A name destructured from a dynamic import's namespace (const { put } = await
	// import(…), import(…).then(({ put }) => …)), read so.
	for k := range s.sig {
		n, known := s.binding(k)
		if !js.IsIdentifier(s.tok(k).tt) || !known || n.Free || n.Decl == js.NoDecl || s.references(n.Binding)[0] != k || !s.is(k+1, ",") && !s.is(k+1, "}") && !s.is(k+1, ":") && !s.is(k+1, "=") {
			continue
		}
		imp, ok := r.importOf(k)
		if !ok || imp.name == "*" || !isAppSpec(imp.module) {
			continue
		}
		for _, ref := range s.references(n.Binding)[1:] {
			if !r.importedUseFollowed(ref, 0) {
				out = append(out, escapeUse{ref, s.text(k) + " (destructured from import(" + jsString(imp.module) + "))", false})
			}
		}
	}
	// A dynamic import whose namespace goes where dynamicImported does not read it:
	// Promise.resolve(import(…)), Promise.all([import(…)]), return import(…), a then whose
	// function the build does not read.
	for k := range s.sig {
		if s.importCall(k) && !s.dynamicImportFollowed(k) {
			how := "the module object import(…) gives"
			if spec, ok := s.importSpec(k); ok {
				how = "the module object import(" + jsString(spec) + ") gives"
			}
			out = append(out, escapeUse{k, how, false})
		}
	}
	return &out
}

// dynamicImportFollowed reports whether the namespace object the import(…) call at the
// significant token k gives goes only where dynamicImported reads it: a const bound to it, or
// destructured from it, by await; a then's function (written there, or the app's own function
// by its name); nowhere (import("./x.js") for its effects alone).
func (s *script) dynamicImportFollowed(k int) bool {
	close := s.pair[k+1]
	if close < 0 {
		return false
	}
	if s.is(close+1, ".", "then", "(") {
		args := s.args(close + 3)
		if len(args) == 0 {
			return true
		}
		f := args[0][0]
		if s.is(f, "async") {
			f++
		}
		switch {
		case s.is(f, "function") || js.IsIdentifier(s.tok(f).tt) && s.is(f+1, "=>") || s.is(f, "(") && s.is(s.pair[f]+1, "=>"):
			return true
		case js.IsIdentifier(s.tok(f).tt) && args[0][1] == f+1:
			return s.paramSlots(s.bindingOf(f)) != nil
		}
		return false
	}
	e := k
	if s.is(k-1, "await") {
		e = k - 1
	}
	last := close+1 >= len(s.sig) || s.is(close+1, ";") || s.is(close+1, "}") || s.is(close+1, ",")
	if !last {
		return false
	}
	switch {
	case e == 0 || s.is(e-1, ";") || s.is(e-1, "{") || s.is(e-1, "}"):
		return true // a statement of its own: the namespace goes nowhere
	case e == k || !s.is(e-1, "="):
		return false
	case js.IsIdentifier(s.tok(e - 2).tt):
		_, export, ok := s.dynamicImported(e - 2)
		return ok && export == "*"
	case s.is(e-2, "}"):
		for m := s.opener(e - 2); m > 0 && m < e-2; m++ {
			if js.IsIdentifier(s.tok(m).tt) && (s.is(m+1, ",") || s.is(m+1, "}")) {
				_, _, ok := s.dynamicImported(m)
				return ok
			}
		}
	}
	return false
}

// importBinding returns the binding of the name an import declaration of the script binds,
// or -1.
func (r *rewrite) importBinding(name string) int {
	s := r.s
	for k := range s.sig {
		// The parser binds no name in the declaration itself: the module scope's name it
		// does not declare is the import's (nschain.go).
		if !s.is(k, name) || !js.IsIdentifier(s.tok(k).tt) || s.is(k-1, ".") || s.is(k-1, "?.") || s.importDecl(k) {
			continue
		}
		if n, ok := s.binding(k); ok && !n.Free && n.Decl == js.NoDecl {
			return n.Binding
		}
	}
	return -1
}

// followedUse reports whether the use of a module object (or of a parameter its calls give
// it) at the significant token ref is one the build follows: a member read by a constant key,
// or an argument of a call of the app's own function whose parameter at that place is used so
// in turn, or is one key destructured from it (function run({ put })).
func (r *rewrite) followedUse(ref, depth int) bool {
	s := r.s
	switch {
	case s.is(ref+1, ".") || s.is(ref+1, "?."):
		if s.is(ref+3, "=") {
			return false
		}
		if imp, _, _, ok := r.importPath(ref); ok && depth == 0 && isAppSpec(imp.module) {
			return r.importedUseFollowed(ref, 0) // dom.put read as a value (importedvalues.go)
		}
		if depth > 0 {
			// A parameter's member read as a value, setTimeout(x.put, 0, …): followed where
			// functionCalls reads its calls (checkParamValue), else the module object's
			// function goes where the build does not follow it.
			end := s.pathEnd(ref)
			if !s.calledDirectly(end) && len(s.functionCalls(ref, end)) == 0 {
				return false
			}
		}
		return true
	case s.is(ref+1, "[") || s.is(ref+1, "?.") && s.is(ref+2, "["):
		open := ref + 1
		if s.is(open, "?.") {
			open++
		}
		if s.pair[open] != open+2 || s.tok(open+1).tt != js.StringToken && s.tok(open+1).tt != js.IntegerToken || s.is(open+3, "=") {
			return false
		}
		if imp, _, _, ok := r.importPath(ref); ok && depth == 0 && !s.is(ref+1, "?.") && isAppSpec(imp.module) {
			return r.importedUseFollowed(ref, 0)
		}
		return true
	}
	open := s.enclosing(ref)
	if depth >= maxParamDepth || open < 1 || !s.is(open, "(") || !js.IsIdentifier(s.tok(open-1).tt) ||
		s.is(open-2, ".") || s.is(open-2, "?.") || s.is(open-2, "function") || s.is(open-2, "new") {
		return false
	}
	k := -1
	for m, a := range s.args(open) {
		if a == [2]int{ref, ref + 1} {
			k = m
		}
		if s.is(a[0], "...") {
			return false
		}
	}
	fn, known := s.binding(open - 1)
	if k < 0 || !known || fn.Free || fn.Written || fn.Decl == js.NoDecl || fn.Decl == js.ArgumentDecl {
		return false
	}
	slots := s.paramSlots(fn.Binding)
	if slots == nil {
		return false // a class, a generator, a value the build does not read as a function
	}
	if !slices.ContainsFunc(slots, func(sl paramSlot) bool { return sl.index == k }) {
		return false // no parameter: the function's arguments object holds it
	}
	for _, sl := range slots {
		if sl.index != k {
			continue
		}
		if sl.rest || sl.unknown || len(sl.path) > 1 || len(sl.path) == 1 && (!sl.path[0].hasKey || sl.path[0].computed || sl.path[0].key == "") {
			return false
		}
		if len(sl.path) == 1 {
			continue // function run({ put }): the export, read where it is called (checkParamKey)
		}
		if n, ok := s.binding(s.references(sl.binding)[0]); !ok || n.Written {
			return false
		}
		for _, d := range s.references(sl.binding) {
			if !s.paramDecl(d) && !r.followedUse(d, depth+1) {
				return false
			}
		}
	}
	return true
}

// escapesWithin reports whether a module object of the script goes where the build does not
// follow it (moduleEscape) at a significant token from start to end: the app's own object or
// class that holds it there ({ dom }, { __proto__: dom }, a getter's return, a class's field)
// is no function of its own the build reads.
func (r *rewrite) escapesWithin(start, end int) bool {
	_, _, ok := r.moduleEscapeIn(start, end)
	return ok
}

// escapePlace says where the use of a module object at the significant token at is, as a
// message says a place: file:line:column.
func (r *rewrite) escapePlace(k int) string {
	off, _ := r.s.srcAt(k)
	l := at(r.file, r.s.src, off, "", "").Location
	return fmt.Sprintf("%s:%d:%d", filepath.Base(r.file), l.Line, l.Column+1)
}

// checkUnreadCallee refuses, at the argument, what the policy blocks given to a call whose
// '(' is the significant token i and whose callee the build cannot read where a module object
// of the script goes where the build does not follow it (moduleEscape): a member of this, of
// a call's result, by a key the build does not read, or a local name bound to what the build
// does not read as a function; and a member of a function's arguments object, whatever the
// script's modules (the build follows no call's arguments through it).
func (r *rewrite) checkUnreadCallee(i int) {
	s := r.s
	if r.seed != nil || !s.is(i, "(") || i < 1 || s.is(i-1, "function") || s.is(i-2, "function") {
		return
	}
	// A name or this, or a group or an array literal ([dom][0].put(…), ({ ...dom }).put(…),
	// (c ? dom : o).put(…)): a value the build does not read.
	start, group, chain := s.chainStart(i - 1)
	if !chain {
		return
	}
	args := s.spreadArgs(s.args(i))
	if s.givenValues(args) == nil || r.refusedElsewhere(start, args) {
		return
	}
	name := s.calleeText(i-1) + "(…)"
	if s.is(start, "this") {
		name = "this" + s.calleeText(i-1) + "(…)"
	}
	if s.is(start, "arguments") && i-1 > start && s.global(start) {
		if open, ok := s.ownFunction(start); ok {
			fn := s.listName(open)
			r.refuseUnreadFix(args, name, "the build cannot read which function it calls (arguments is the arguments object of "+fn+", which holds what its calls give: the build does not follow a call's arguments through it)",
				"name the parameter (function "+fn+"(x) { x.… }), which the build reads with what its calls give")
			return
		}
	}
	if r.instanceRead(i) || r.instancePlatform(i) {
		return // an instance of another module's class, its method read (checkInstanceCall) or the platform's
	}
	var what, exported string
	n, known := s.binding(start)
	switch {
	case group:
		what = s.calleeText(i-1) + " is read from what the build does not read (a group's value, an array literal)"
	case s.is(start, "this"):
		open, ok := s.ownFunction(start)
		if !ok {
			return // a module's this: undefined
		}
		if f, ok := s.functionNamed(open, s.pair[open]); ok && f.name >= 0 && f.object < 0 && f.class < 0 && s.exported(f) {
			exported = s.fnName(f)
		}
		if brace := s.enclosing(open); brace > 0 && s.is(brace, "{") {
			if _, class := s.classOf(brace); class && s.ownThis(start, brace) && !r.escapesWithin(brace, s.pair[brace]) {
				return // a class's method's this, its instance (markupparam.go reads its calls)
			}
		}
		what = "this is what a call of " + s.listName(open) + " gives it"
	case !known || n.Free:
		if !isPlatformGlobal(s.text(start)) || s.plainPath(start, i-1) || globalWindows[s.text(start)] {
			return // a global's (checkGlobalCall)
		}
		// Object.assign({}, dom).put(…), Object.values(dom)[0](…): what the platform's
		// function returns holds what it is given, a module object too.
		what = s.calleeText(i-1) + " is read from what the platform's " + s.text(start) + " gives, which holds what it is given"
	case s.plainPath(start, i-1):
		init, isConst := s.constInitAt(start)
		body, class := s.classBody(n.Binding)
		if n.Decl == js.NoDecl || n.Decl == js.ArgumentDecl || s.readFunction(start) && !(isConst && r.escapesWithin(init[0], init[1])) && !(class && r.escapesWithin(body, s.pair[body])) {
			// An import's member (checkImportedCall), a parameter's (paramns.go), the
			// app's own function (markupparam.go).
			return
		}
		if _, _, ok := s.dynamicImported(start); ok {
			return
		}
		if init, ok := s.constInitAt(start); ok && init[1] > init[0] {
			if r2, _, ok := s.memberPath(init[1] - 1); ok && r2 == init[0] {
				if m, known := s.binding(r2); known && m.Decl == js.NoDecl && !m.Free {
					return // const p = dom.put (checkImportedCall)
				}
			}
		}
		what = s.text(start) + " is bound to what the build does not read as a function"
		if class {
			what = s.text(start) + " is the app's own class, whose body holds what the build does not follow"
		}
	default:
		what = s.calleeText(i-1) + " is read from what the build does not read (a call's result, a key it does not read)"
		if f, ok := s.paramFunction(start); ok && n.Decl == js.ArgumentDecl && f.name >= 0 && s.exported(f) {
			exported = s.fnName(f)
		}
	}
	ns, key := "ns", "function"
	if js.IsIdentifierName(s.tok(i - 1).tt) {
		key = s.text(i - 1)
	}
	at, how, ok := r.moduleEscape()
	var reach string
	switch {
	case ok:
		ns = s.text(at)
		reach = how + " goes where the build does not follow it, at " + r.escapePlace(at) + ", so it may be that module's " + key
	case exported != "":
		// Another module's call may give it a module object (run.call(dom), run(dom)).
		reach = exported + " is exported: another module's call may give it a module object, whose " + key + " it may be"
	default:
		return
	}
	call := ns + "[\"name\"](…), by a constant key"
	if key != "function" {
		call = ns + "." + key + "(…)"
	}
	if ok {
		call = r.escapeCall(at, key)
	}
	r.refuseUnreadFix(args, name, "the build cannot read which function it calls ("+what+", and "+reach+")",
		"call the module's function on the module object itself ("+call+"), or import it by name, which the build reads")
}

// plainPath reports whether the callee from the significant token start to end is a name and
// members read from it by constant keys (memberPath's): no call, no key the build does not
// read.
func (s *script) plainPath(start, end int) bool {
	root, _, ok := s.memberPath(end)
	return ok && root == start
}

// readFunction reports whether the name at the significant token k is bound to what the
// build reads as the app's own function or object: a function, a class, a const bound to a
// function, an arrow, an object literal or a class.
func (s *script) readFunction(k int) bool {
	n, known := s.binding(k)
	if !known || n.Free {
		return false
	}
	if n.Decl == js.FunctionDecl || s.paramSlots(n.Binding) != nil {
		return true
	}
	if c, ok := s.classOf(k + 1); ok && c == k {
		return true
	}
	for _, d := range s.references(n.Binding) {
		if s.is(d-1, "class") {
			return true
		}
	}
	if init, ok := s.constInitAt(k); ok && init[1] > init[0] {
		return s.is(init[0], "{") || s.is(init[0], "function") || s.is(init[0], "class") || s.is(init[0], "async") ||
			s.is(init[0], "(") && s.is(s.pair[init[0]]+1, "=>")
	}
	return false
}

// ownFunction returns the '(' of the parameter list of the function, no arrow, whose this and
// arguments are those at the significant token k (an arrow's are its enclosing function's).
func (s *script) ownFunction(k int) (int, bool) {
	for b := s.enclosing(k); b >= 0; b = s.enclosing(b) {
		if !s.is(b, "{") || !s.is(b-1, ")") {
			continue
		}
		open := s.opener(b - 1)
		if open < 1 || controlWords[s.text(open-1)] && !s.is(open-2, ".") && !s.is(open-2, "function") {
			continue // if (…) { … }: a block of the same function
		}
		return open, true
	}
	return 0, false
}

// listName names the function whose parameter list's '(' is the significant token open, as
// messages do: f, a generator's f, C's constructor, obj.key; or "the function written there".
func (s *script) listName(open int) string {
	if f, ok := s.functionNamed(open, s.pair[open]); ok && s.fnName(f) != "" {
		return s.fnName(f)
	}
	h := open - 1
	switch {
	case s.is(h, "constructor"):
		if c, ok := s.classOf(s.enclosing(h)); ok {
			return s.text(c) + "'s constructor"
		}
	case js.IsIdentifier(s.tok(h).tt) && s.is(h-1, "*") && s.is(h-2, "function"):
		return "the generator " + s.text(h)
	case js.IsIdentifierName(s.tok(h).tt) && !js.IsReservedWord(s.tok(h).tt):
		return s.text(h)
	}
	return "the function written there"
}

// classBody returns the '{' of the body of the class declaration (class A { … }, class A
// extends B { … }) that binds binding: a static field there (static f = dom.put) is what
// A.f(…) calls.
func (s *script) classBody(binding int) (int, bool) {
	for _, d := range s.references(binding) {
		if !s.is(d-1, "class") {
			continue
		}
		for k := d + 1; k < len(s.sig); k++ {
			if s.is(k, "{") {
				return k, s.pair[k] > k
			}
			if p := s.pair[k]; p > k {
				k = p
			}
		}
	}
	return 0, false
}

// checkEscapedArgs refuses, at the argument, what the policy blocks given to a call whose
// arguments hold a use of a module object or of its function that goes where the build does
// not follow it (moduleEscape), or a name bound to a value that holds one (const { put } =
// dom, const o = { put: dom.put }): the callee may call it with the other arguments, as the
// platform's do (setTimeout(put, 0, el, m), Function.prototype.call.call(dom.put, null, el,
// m), a const bound to Reflect.apply), an array literal's elements among them too.
func (r *rewrite) checkEscapedArgs(i int) {
	s := r.s
	if r.seed != nil || !s.is(i, "(") || i < 1 || s.pair[i] < 0 || s.is(i-1, "function") || s.is(i-2, "function") {
		return
	}
	if p := s.tok(i - 1).tt; !(js.IsIdentifierName(p) && !js.IsReservedWord(p) || p == js.CloseParenToken || p == js.CloseBracketToken) || s.is(s.pair[i]+1, "{") || s.is(s.pair[i]+1, "=>") {
		return // a group, a method's parameter list
	}
	args := s.args(i)
	via, given := -1, ""
	for _, a := range args {
		given = "…"
		if s.plainPath(a[0], a[1]-1) {
			given = s.calleeText(a[1] - 1)
		}
		if r.escapesWithin(a[0], a[1]-1) {
			via = a[0]
			break
		}
		root := a[0]
		if s.is(root, "...") {
			root++
		}
		if !js.IsIdentifier(s.tok(root).tt) || !s.plainPath(root, a[1]-1) {
			continue
		}
		init, ok := s.constInitAt(root)
		if !ok {
			_, init, ok = s.constPatternAt(root)
		}
		if ok && init[1] > init[0] && r.escapesWithin(init[0], init[1]-1) {
			via, given = root, s.calleeText(a[1]-1)
			break
		}
	}
	if via < 0 {
		return
	}
	all := append([][2]int{}, args...)
	for _, a := range args {
		if lit, ok := s.arrayAt(a); ok {
			all = append(all, s.args(lit)...)
		}
	}
	at, how, ok := r.moduleEscape()
	if !ok {
		return
	}
	r.refuseUnreadFix(all, s.calleeText(i-1)+"(…)", "the build cannot read what it calls with its arguments (it is given "+given+", and "+how+" goes where the build does not follow it, at "+r.escapePlace(at)+", so "+given+" may be that module's function)",
		"call the module's function on the module object itself ("+r.escapeCall(at, "function")+"), or import it by name, which the build reads")
}
