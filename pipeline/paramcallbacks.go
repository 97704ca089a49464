package pipeline

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// The calls of the app's own function that the platform makes where the function is given as
// a value: a callback the platform calls with arguments the call says (an array literal's
// forEach, Promise.resolve(value).then, setTimeout's arguments), and a function given to
// another of the app's own functions, which calls it through its parameter.

// callbackArgs returns the arguments the platform calls the function given as the first
// argument of the call whose '(' is the significant token open with: each element of an array
// literal, for forEach, map, … called on it; the value of Promise.resolve(value).then(f)
// (the promise's fulfilment, PerformPromiseThen's reaction); the arguments after the delay
// of setTimeout(f, delay, …) and setInterval (HTML's timer initialization steps); the
// elements of the array literal Reflect.apply(f, t, […]) gives.
func (s *script) callbackArgs(open int) ([][][2]int, bool) {
	if given, ok := s.arrayCallbackArgs(open); ok {
		return given, true
	}
	if s.is(open-1, "then") && (s.is(open-2, ".") || s.is(open-2, "?.")) && s.is(open-3, ")") {
		r := s.opener(open - 3)
		if r > 3 && s.is(r-3, "Promise", ".", "resolve") && !s.is(r-4, ".") && !s.is(r-4, "?.") && s.global(r-3) {
			args := s.args(r)
			switch {
			case len(args) == 0:
				return [][][2]int{{}}, true // undefined
			case s.is(args[0][0], "..."):
				return [][][2]int{nil}, true
			}
			return [][][2]int{args[:1]}, true
		}
	}
	if s.is(open-3, "Reflect", ".", "apply") && !s.is(open-4, ".") && !s.is(open-4, "?.") && s.global(open-3) {
		// Reflect.apply(f, t, list): f called with the list's elements (ECMA-262's
		// Reflect.apply, CreateListFromArrayLike).
		args := s.args(open)
		switch {
		case len(args) < 3:
			return [][][2]int{{}}, true // a TypeError: no list
		}
		if lit, ok := s.arrayAt(args[2]); ok {
			return [][][2]int{s.spreadArgs(s.args(lit))}, true
		}
		if list, ok := s.appliedList(args[2]); ok {
			return [][][2]int{list}, true
		}
		return [][][2]int{nil}, true
	}
	if (s.is(open-1, "setTimeout") || s.is(open-1, "setInterval")) && !s.is(open-2, ".") && !s.is(open-2, "?.") && s.global(open-1) {
		args := s.spreadArgs(s.args(open))
		switch {
		case args == nil:
			return [][][2]int{nil}, true
		case len(args) <= 2:
			return [][][2]int{{}}, true
		}
		return [][][2]int{args[2:]}, true
	}
	return nil, false
}

// arrayCallbackArgs returns the arguments each element of an array literal is given with, where
// the significant token open is the '(' of forEach, map, … called on the literal.
func (s *script) arrayCallbackArgs(open int) ([][][2]int, bool) {
	if !arrayCallbacks[s.text(open-1)] || !s.is(open-2, ".") && !s.is(open-2, "?.") || !s.is(open-3, "]") {
		return nil, false
	}
	lit := s.opener(open - 3)
	if lit < 0 || js.IsIdentifierName(s.tok(lit-1).tt) && !js.IsReservedWord(s.tok(lit-1).tt) || s.is(lit-1, ")") || s.is(lit-1, "]") {
		return nil, false // an index, not a literal
	}
	var out [][][2]int
	for _, e := range s.args(lit) {
		if s.is(e[0], "...") {
			return nil, false
		}
		out = append(out, [][2]int{e})
	}
	return out, true
}

// maxPassed bounds the functions a function given as an argument is followed through.
const maxPassed = 8

// passedCalls returns the calls of the function the significant tokens [ref, end] name where
// it is given as an argument: the calls the platform makes of a callback (callbackArgs), or,
// given to the app's own function, that function's calls of the parameter it binds it to
// (function run(cb, m) { cb(m); } run(put, markup)). Given to other code, its calls are the
// run's: none read.
func (s *script) passedCalls(ref, end int) [][][2]int {
	open := s.enclosing(ref)
	if open < 0 || !s.is(open, "(") {
		return nil
	}
	k := slices.Index(s.args(open), [2]int{ref, end + 1})
	if k < 0 {
		return nil
	}
	if k == 0 {
		if given, ok := s.callbackArgs(open); ok {
			return given
		}
	}
	callee := open - 1
	if !js.IsIdentifier(s.tok(callee).tt) || s.is(callee-1, ".") || s.is(callee-1, "?.") || s.passing >= maxPassed {
		return nil
	}
	p, ok := s.paramOf(callee, k)
	if !ok {
		return nil
	}
	s.passing++
	defer func() { s.passing-- }()
	var out [][][2]int
	for _, d := range s.references(p) {
		if !s.paramDecl(d) {
			out = append(out, s.functionCalls(d, d)...)
		}
	}
	return out
}

// paramOf returns the binding of the k-th parameter, a plain name, of the app's own function
// named at the significant token callee: function f(…), const f = (…) => …, const f =
// function (…), const f = x => ….
func (s *script) paramOf(callee, k int) (int, bool) {
	n, known := s.binding(callee)
	if !known || n.Free || n.Written {
		return 0, false
	}
	for _, sl := range s.paramSlots(n.Binding) {
		if sl.index == k && len(sl.path) == 0 && !sl.rest && !sl.unknown {
			return sl.binding, true
		}
	}
	return 0, false
}

// paramSlots returns the names the parameter list of the function bound to binding binds,
// where it is declared so: function f(…), const f = (…) => …, const f = function (…),
// const f = x => …; nil where it is not.
func (s *script) paramSlots(binding int) []paramSlot {
	for _, d := range s.references(binding) {
		switch {
		case s.is(d-1, "function") && s.is(d+1, "("):
			return s.slots(d + 1)
		case s.is(d+1, "=") && declares(s, d):
			x := d + 2
			if s.is(x, "async") {
				x++
			}
			if js.IsIdentifier(s.tok(x).tt) && s.is(x+1, "=>") {
				return []paramSlot{{binding: s.bindingOf(x), unknown: s.bindingOf(x) < 0}}
			}
			if s.is(x, "function") {
				x++
				if js.IsIdentifier(s.tok(x).tt) {
					x++
				}
			}
			if s.is(x, "(") && s.pair[x] > x && (s.is(s.pair[x]+1, "=>") || s.is(s.pair[x]+1, "{")) {
				return s.slots(x)
			}
		}
	}
	return nil
}

// paramDecl reports whether the name at the significant token d is declared there, in a
// parameter list (or as an arrow's one parameter).
func (s *script) paramDecl(d int) bool {
	if s.is(d+1, "=>") {
		return true
	}
	for open := s.enclosing(d); open >= 0; open = s.enclosing(open) {
		if s.is(open, "(") {
			return s.is(s.pair[open]+1, "=>") || s.is(s.pair[open]+1, "{") && !controlWords[s.text(open-1)]
		}
		if !s.is(open, "{") && !s.is(open, "[") {
			return false
		}
	}
	return false
}

// spreadArgs returns args with each argument spread from an array literal (...[a, b], or a
// const bound to one, arrayAt) given as its elements, or nil where one is spread from
// elsewhere (only the run knows them). A list apply is given (appliedList) is spread so.
func (s *script) spreadArgs(args [][2]int) [][2]int {
	out := [][2]int{}
	for _, a := range args {
		op, spread := s.spreadOperand(a)
		if !spread {
			out = append(out, a)
			continue
		}
		lit, ok := s.arrayAt(op)
		if !ok && op[1] == op[0]+1 {
			// A parameter, where a chain of call sites gives it (checkParamsBy): a rest
			// parameter's list (or the arguments object), or an array literal.
			if v, given := s.paramValue(op[0]); given && v.rest {
				out = append(out, v.list...)
				continue
			} else if given && len(v.path) == 0 {
				lit, ok = s.arrayAt(v.at)
			}
		}
		if !ok {
			return nil
		}
		for _, e := range s.args(lit) {
			if _, spread := s.spreadOperand(e); spread {
				return nil
			}
			out = append(out, e)
		}
	}
	return out
}

// checkParamCall reads the call whose '(' is the significant token i, of a parameter of the
// app's own function (function each(cb) { cb(markup) }), into the functions the function's
// calls give that parameter: each read with the call's arguments (seededCall). Where the
// build cannot read them all (the function is exported, passed as a value, given to a package
// or other code, or a call gives the parameter something other than a function it reads), the
// markup is refused if it holds what the policy blocks (refuseUnread).
func (r *rewrite) checkParamCall(i int) {
	s := r.s
	callee := i - 1
	if r.seed != nil || !s.is(i, "(") || i < 1 || !js.IsIdentifier(s.tok(callee).tt) || s.is(callee-1, ".") || s.is(callee-1, "?.") || s.is(callee-1, "function") {
		return
	}
	n, known := s.binding(callee)
	if !known || n.Free || n.Decl != js.ArgumentDecl {
		return
	}
	args := s.spreadArgs(s.args(i))
	given := s.givenValues(args)
	if given == nil {
		return
	}
	if _, _, ok := s.dynamicImported(callee); ok {
		return // import(…).then(({ put }) => put(…)): the module's export (checkImportedCall)
	}
	name := s.text(callee)
	unread := func() {
		r.refuseUnread(args, name+"(…)", "the build cannot read which function "+name+" is (code it does not read calls the function whose parameter it is)")
	}
	f, ok := s.paramFunction(callee)
	if !ok || n.Written || s.escapes(f) {
		unread()
		return
	}
	slot := slices.IndexFunc(f.slots, func(sl paramSlot) bool { return sl.binding == n.Binding })
	if slot >= 0 && len(f.slots[slot].path) > 0 && r.checkParamKey(callee, name, args) {
		return // function run({ put }) { put(…) } run(dom): the module's export (paramns.go)
	}
	if slot < 0 || f.slots[slot].rest || len(f.slots[slot].path) > 0 || f.slots[slot].unknown {
		unread()
		return
	}
	fn := name + "(…), the function " + s.text(f.name) + "(…) is given,"
	if f.name < 0 {
		fn = name + "(…), the function given there,"
	}
	for _, call := range s.calls(f) {
		k := f.slots[slot].index
		if call == nil || k >= len(call) {
			unread() // arguments only the run knows, or undefined: a TypeError where called
			return
		}
		a := call[k]
		v := a[0]
		if js.IsIdentifier(s.tok(v).tt) && a[1] == v+1 && !s.is(v+1, "=>") {
			b := s.bindingOf(v)
			if b < 0 {
				unread()
				return
			}
			slots := s.paramSlots(b)
			if slots == nil {
				unread()
				return
			}
			r.seededCall(args, given, s, slots, fn)
			continue
		}
		slots, ok := s.valueSlots(v, nil, 0)
		if !ok {
			unread()
			return
		}
		r.seededCall(args, given, s, slots, fn)
	}
}

// escapes reports whether code the module does not show may call the named function f: it
// is exported, or its name is read other than to call it.
func (s *script) escapes(f ownFunction) bool {
	if f.name < 0 {
		return false
	}
	if f.object >= 0 || f.class >= 0 {
		return true // a method: its object's calls are read where the object is
	}
	if s.exported(f) {
		return true
	}
	for _, ref := range s.references(s.bindingOf(f.name)) {
		if ref != f.name && !s.is(ref+1, "(") {
			return true
		}
	}
	return false
}

// exported reports whether the named function f's declaration is exported: export function
// f, export const f = ….
func (s *script) exported(f ownFunction) bool {
	d := f.name - 1
	for s.is(d, "function") || s.is(d, "async") || s.is(d, "const") || s.is(d, "let") || s.is(d, "var") || s.is(d, "*") {
		d--
	}
	return s.is(d, "export")
}

// arrayAt returns the '[' of the array literal the expression of the significant tokens a
// is: the literal itself, or a const bound to one (const args = [el, m]), whose elements the
// literal says where the array is only read (arrayRead); an array the script changes (a push,
// an element assigned) or gives where the build does not follow it holds what only the run
// knows in turn.
func (s *script) arrayAt(a [2]int) (int, bool) {
	if s.is(a[0], "[") && s.pair[a[0]] == a[1]-1 {
		return a[0], true
	}
	if a[1] != a[0]+1 || !js.IsIdentifier(s.tok(a[0]).tt) {
		return 0, false
	}
	init, ok := s.constInitAt(a[0])
	if !ok || !s.is(init[0], "[") || s.pair[init[0]] != init[1]-1 {
		return 0, false
	}
	for _, d := range s.references(s.bindingOf(a[0])) {
		if !s.arrayRead(d) {
			return 0, false
		}
	}
	return init[0], true
}

// arrayMutators are the methods of Array.prototype that change the array they are called on
// (ECMA-262's push, pop, shift, unshift, splice, sort, reverse, fill, copyWithin).
var arrayMutators = map[string]bool{"push": true, "pop": true, "shift": true, "unshift": true, "splice": true,
	"sort": true, "reverse": true, "fill": true, "copyWithin": true}

// arrayRead reports whether the name at the significant token d, bound to an array literal,
// only reads the array there: its declaration, spread (...a), the list apply or
// Reflect.apply is given, an element or a property read (a[0], a.length), a method of
// Array.prototype that leaves it as it is (a.map(…)).
func (s *script) arrayRead(d int) bool {
	switch {
	case declares(s, d) || s.is(d-1, "..."):
		return true
	case (s.is(d+1, ".") || s.is(d+1, "?.")) && js.IsIdentifierName(s.tok(d+2).tt):
		return !arrayMutators[s.text(d+2)] && !s.writtenAt(d+3)
	case s.is(d+1, "[") && s.pair[d+1] > d+1:
		return !s.writtenAt(s.pair[d+1] + 1)
	case s.is(d+1, ")") && s.is(d-1, ","):
		open := s.enclosing(d)
		if open < 1 || !s.is(open, "(") {
			return false
		}
		args := s.args(open)
		if s.is(open-1, "apply") && (s.is(open-2, ".") || s.is(open-2, "?.")) && len(args) == 2 && args[1] == [2]int{d, d + 1} {
			return true // f.apply(t, a)
		}
		return s.is(open-3, "Reflect", ".", "apply") && len(args) == 3 && args[2] == [2]int{d, d + 1}
	}
	return false
}

// assignOps are ECMA-262's assignment operators (AssignmentOperator, =, and the logical
// ones), and the update operators ++ and --.
var assignOps = map[string]bool{"=": true, "*=": true, "/=": true, "%=": true, "+=": true, "-=": true, "<<=": true, ">>=": true,
	">>>=": true, "&=": true, "^=": true, "|=": true, "**=": true, "&&=": true, "||=": true, "??=": true, "++": true, "--": true}

// writtenAt reports whether the significant token k is an assignment's operator or an update
// operator: what ends before it is written.
func (s *script) writtenAt(k int) bool {
	return k < len(s.sig) && assignOps[s.text(k)]
}
