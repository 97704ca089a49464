package pipeline

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// Markup that reaches a sink through a parameter of the app's own function. Inside the
// function the parameter is a value only the run knows (data, values), but the module's call
// sites say what the run gives it: function setHTML(el, m) { el.innerHTML = m } called as
// setHTML(div, "<img src=x onerror=go()>") parses the handler into the page as the literal
// would. Where a sink's value is (or is built from) a parameter of a function the module
// declares (a function declaration, a const's function or arrow, an object literal's method
// bound to a const, let or var, a class's method, a function written where it is called),
// each call of the function the platform makes (by the name's binding, not its spelling:
// f(…), f.call, f.apply, f.bind, an array literal's forEach(f), obj.key(…), this.key(…) in a class)
// gives its arguments, or the parameters' defaults, to the parameters, and the value is read
// so, as the sink's own would be; an argument that is itself a parameter of the caller is
// read so in turn (maxParamDepth). A function that escapes (exported, imported, passed as a
// value) has callers the module does not show: its call sites are still read, and the rest
// is data, as before. A function or parameter written elsewhere is not followed.

// maxParamDepth bounds the functions a value is followed through, caller by caller.
const maxParamDepth = 8

// paramEnv is what the parameters of the functions a value is followed through hold at one
// chain of call sites: a parameter's binding to its argument's tokens; a binding in seen but
// not in args is given nothing (undefined), and read as data.
type paramEnv struct {
	args map[int]paramVal
	seen map[int]bool
	// reads is how many call sites are left to read for the sink (maxParamReads).
	reads *int
}

// maxParamReads bounds the call sites one sink's value is read through, on every chain: a
// helper called from many places, each passing on its own parameter, multiplies them.
const maxParamReads = 256

// paramArg returns the tokens of the value the parameter at the significant token i is given
// in the environment names reads in (script.params): its argument, or what its pattern reads
// of it (paramslot.go).
func (s *script) paramArg(i int) ([2]int, bool) {
	v, ok := s.paramValue(i)
	if !ok || v.rest || v.strs != nil {
		return [2]int{}, false
	}
	return s.follow(v.at, v.path)
}

// paramValue returns what the parameter at the significant token i is given in the
// environment names reads in.
func (s *script) paramValue(i int) (paramVal, bool) {
	if s.params == nil || s.is(i-1, ".") || s.is(i-1, "?.") {
		return paramVal{}, false
	}
	if key, ok := s.argumentsKey(i); ok {
		a, ok := s.params.args[key] // a function's arguments object (appliedlist.go)
		return a, ok
	}
	n, known := s.binding(i)
	if !known || n.Free {
		return paramVal{}, false
	}
	a, ok := s.params.args[n.Binding]
	return a, ok
}

// ownFunction is a function the module declares, read from its parameter list's '(' (or its
// one parameter, for x => …): the names its parameters bind (slots), and
// how its calls are found: by the binding of name (a token), or, for a method, as
// obj.key(…) on a const bound to the literal whose '{' is object, or on the class whose
// body's '{' is class (C.key(…) for a static method; this.key(…) in the body, new C().key(…)
// and obj.key(…) on a const bound to new C(…) for the others). A function written where it is
// called (an IIFE, a callback given to an array literal's forEach) has no name (-1): given
// holds its calls' arguments.
type ownFunction struct {
	slots  []paramSlot
	name   int
	key    string
	object int
	class  int
	static bool
	setter bool
	given  [][][2]int
}

// paramFn is what paramFunction found for a binding.
type paramFn struct {
	f  ownFunction
	ok bool
}

// callsKey names a function for the calls read of it (calls).
type callsKey struct {
	name, object, class int
	key                 string
	static, setter      bool
}

// references returns the significant tokens of the names of binding, in order.
func (s *script) references(binding int) []int {
	if s.refs == nil {
		s.refs = map[int][]int{}
		for d := range s.sig {
			if !js.IsIdentifier(s.tok(d).tt) || s.is(d-1, ".") || s.is(d-1, "?.") {
				continue
			}
			if m, ok := s.binding(d); ok && !m.Free {
				s.refs[m.Binding] = append(s.refs[m.Binding], d)
			}
		}
	}
	return s.refs[binding]
}

// paramFunction returns the function whose parameter the name at the significant token k is.
func (s *script) paramFunction(k int) (ownFunction, bool) {
	n, known := s.binding(k)
	if !known || n.Free || n.Decl != js.ArgumentDecl || n.Written {
		return ownFunction{}, false
	}
	if p, ok := s.paramFns[n.Binding]; ok {
		return p.f, p.ok
	}
	f, ok := s.readParamFunction(n.Binding)
	if s.paramFns == nil {
		s.paramFns = map[int]paramFn{}
	}
	s.paramFns[n.Binding] = paramFn{f, ok}
	return f, ok
}

// readParamFunction is paramFunction's reading of the function binding is a parameter of.
func (s *script) readParamFunction(binding int) (ownFunction, bool) {
	for _, d := range s.references(binding) {
		if s.is(d+1, "=>") && !s.is(d-1, "(") { // x => …
			if f, ok := s.functionNamed(d, d); ok {
				f.slots = []paramSlot{{binding: binding}}
				return f, true
			}
			return ownFunction{}, false
		}
		// The parameter list around the name, through the patterns it is in.
		open := s.enclosing(d)
		for open >= 0 && (s.is(open, "{") || s.is(open, "[")) {
			open = s.enclosing(open)
		}
		if open < 0 || !s.is(open, "(") || !s.is(s.pair[open]+1, "=>") && !s.is(s.pair[open]+1, "{") {
			continue
		}
		f, ok := s.functionNamed(open, s.pair[open])
		if !ok {
			return ownFunction{}, false
		}
		f.slots = s.slots(open)
		if !slices.ContainsFunc(f.slots, func(sl paramSlot) bool { return sl.binding == binding }) {
			return ownFunction{}, false // not a name the list binds
		}
		return f, true
	}
	return ownFunction{}, false
}

// functionNamed reads how the function whose parameters are the significant tokens
// [open, close] is named: function f(…), const f = function (…), const f = (…) => …,
// const f = async (…) => …, const f = x => …; an object literal's method key(…) { … },
// key: function (…), key: (…) => …, the literal bound to a const, let or var; a class's
// method key(…) { … }, static too; or written where it is called (written).
func (s *script) functionNamed(open, close int) (ownFunction, bool) {
	h := open - 1
	if s.is(h, "async") {
		h--
	}
	named := func(k int) (ownFunction, bool) {
		if !js.IsIdentifier(s.tok(k).tt) {
			return ownFunction{}, false
		}
		n, known := s.binding(k)
		if !known || n.Free || n.Written || n.Decl != js.FunctionDecl && n.Decl != js.LexicalDecl && n.Decl != js.VariableDecl {
			return ownFunction{}, false
		}
		return ownFunction{name: k, object: -1, class: -1}, true
	}
	switch {
	case s.is(h-1, "function") && js.IsIdentifier(s.tok(h).tt):
		if s.is(h-2, "=") {
			if f, ok := s.fieldNamed(h - 2); ok {
				return f, true
			}
			return named(h - 3) // const f = function g(…)
		}
		return named(h)
	case s.is(h, "function") && s.is(h-1, "="):
		if f, ok := s.fieldNamed(h - 1); ok {
			return f, true
		}
		return named(h - 2)
	case s.is(h, "="):
		if f, ok := s.fieldNamed(h); ok {
			return f, true // a class's field put = (…) => …
		}
		return named(h - 1)
	}
	if f, ok := s.written(h + 1); ok {
		return f, true
	}
	// A method: key(…) { … }, key: function (…), key: (…) => ….
	key := h
	if s.is(key, "function") {
		key--
	}
	if s.is(key, ":") {
		key--
	}
	if !js.IsIdentifierName(s.tok(key).tt) {
		return ownFunction{}, false
	}
	// A setter, set key(v) { … }: called by an assignment of the key (obj.key = value).
	setter := key == open-1 && s.is(key-1, "set") && !s.is(key-2, ".") && s.is(close+1, "{")
	head := key // the member's first token after static
	if setter {
		head--
	}
	brace := s.enclosing(key)
	if brace < 2 || !s.is(brace, "{") {
		return ownFunction{}, false
	}
	if class, ok := s.classOf(brace); ok {
		// A class's method, key(…) { … }, after a member's '}' or ';' or the body's '{'.
		static := s.is(head-1, "static")
		before := head - 1
		if static {
			before--
		}
		if !s.is(open-1, s.text(key)) || !s.is(before, "{") && !s.is(before, "}") && !s.is(before, ";") || !s.is(close+1, "{") || s.text(key) == "constructor" {
			return ownFunction{}, false
		}
		f, ok := named(class)
		if !ok {
			return ownFunction{}, false
		}
		f.key, f.class, f.static, f.setter = s.text(key), brace, static, setter
		return f, true
	}
	if !s.is(head-1, "{") && !s.is(head-1, ",") || !s.is(brace-1, "=") || !s.is(brace-3, "const") && !s.is(brace-3, "let") && !s.is(brace-3, "var") {
		return ownFunction{}, false
	}
	f, ok := named(brace - 2)
	if !ok {
		return ownFunction{}, false
	}
	f.key, f.object, f.setter = s.text(key), brace, setter
	return f, true
}

// classOf returns the name of the class whose body's '{' is the significant token brace:
// class C {, class C extends B {, const C = class {.
func (s *script) classOf(brace int) (int, bool) {
	for k := brace - 1; k >= 0 && brace-k < 64; k-- {
		switch {
		case s.is(k, ")") || s.is(k, "]"):
			if k = s.opener(k); k < 0 {
				return 0, false
			}
		case s.is(k, "class"):
			if js.IsIdentifier(s.tok(k+1).tt) && k+1 < brace && !s.is(k+1, "extends") {
				return k + 1, true
			}
			if s.is(k-1, "=") {
				return k - 2, true
			}
			return 0, false
		case s.is(k, ";") || s.is(k, "{") || s.is(k, "}"):
			return 0, false
		}
	}
	return 0, false
}

// written reads a function written where it is called, its first token at the significant
// token start: an IIFE, (function (…) { … })(…) or ((…) => …)(…), whose call gives its
// arguments; or the first argument of forEach, map, … called on an array literal, which
// gives it each element in turn (Array.prototype.forEach's callbackfn(element, index, array)).
func (s *script) written(start int) (ownFunction, bool) {
	g := start - 1
	if !s.is(g, "(") || s.pair[g] < 0 {
		return ownFunction{}, false
	}
	f := ownFunction{name: -1, object: -1, class: -1}
	args := s.args(g)
	if len(args) == 0 || args[0][0] != start {
		return ownFunction{}, false
	}
	if given, ok := s.callbackArgs(g); ok {
		f.given = given
		return f, true
	}
	if len(args) == 1 && s.is(s.pair[g]+1, "(") && !js.IsIdentifierName(s.tok(g-1).tt) && !s.is(g-1, ")") && !s.is(g-1, "]") {
		f.given = [][][2]int{s.args(s.pair[g] + 1)}
		return f, true
	}
	return ownFunction{}, false
}

// arrayCallbacks are the methods of Array.prototype that call their first argument with each
// element first.
var arrayCallbacks = map[string]bool{"forEach": true, "map": true, "filter": true, "some": true, "every": true, "find": true,
	"findIndex": true, "findLast": true, "findLastIndex": true, "flatMap": true}

// calls returns the arguments of each call of f the module makes: f(…) by the binding of its
// name, f.call(t, …), f.apply(t, […]), an array literal's forEach(f) (each element), and
// obj.key(…) for a method; an argument spread from an array literal is its elements. A call
// whose arguments are not known (spread from elsewhere, apply's array made elsewhere) is
// read as giving data (a nil list).
func (s *script) calls(f ownFunction) [][][2]int {
	if f.name < 0 {
		return f.given
	}
	key := callsKey{f.name, f.object, f.class, f.key, f.static, f.setter}
	if out, ok := s.callsOf[key]; ok {
		return out
	}
	out := s.readCalls(f)
	if s.callsOf == nil {
		s.callsOf = map[callsKey][][][2]int{}
	}
	s.callsOf[key] = out
	return out
}

// readCalls is calls' reading of the calls of a named function.
func (s *script) readCalls(f ownFunction) [][][2]int {
	var out [][][2]int
	if f.class < 0 {
		for _, c := range s.references(s.bindingOf(f.name)) {
			switch {
			case c == f.name:
			case f.object < 0:
				out = append(out, s.functionCalls(c, c)...)
			default:
				out = append(out, s.methodCalls(c, f.key, f.setter)...)
			}
		}
		if f.object >= 0 {
			// this.key(…) in the literal's own methods, this the object (thismethod.go).
			for c := f.object; c < s.pair[f.object]; c++ {
				if s.tok(c).tt == js.ThisToken {
					if ok, _ := s.thisMethod(c, f.object, false); ok {
						out = append(out, s.methodCalls(c, f.key, f.setter)...)
					}
				}
			}
		}
		return out
	}
	// A class's method: called on the class (static) or its instances, the class's and
	// those of each class that extends it (class B extends A, const B = class extends A),
	// which inherit it: B.put(…), new B().put(…), this.put(…) and super.put(…) in B.
	names, braces := []int{f.name}, []int{f.class}
	for n := 0; n < len(names) && n < maxSubclasses; n++ {
		name, brace := names[n], braces[n]
		for _, c := range s.references(s.bindingOf(name)) {
			switch {
			case c == name:
			case s.is(c-1, "extends") && s.is(c+1, "{"):
				if s.overrides(c+1, f) {
					// Its own key: its instances call that one, its super.key(…) this.
					for k := c + 1; k < s.pair[c+1]; k++ {
						if s.tok(k).tt == js.SuperToken {
							out = append(out, s.methodCalls(k, f.key, f.setter)...)
						}
					}
				} else if !slices.Contains(braces, c+1) {
					sub, ok := s.classOf(c + 1)
					if !ok {
						sub = -1
					}
					names, braces = append(names, sub), append(braces, c+1)
				}
			case f.static:
				out = append(out, s.methodCalls(c, f.key, f.setter)...)
			case s.is(c-1, "new") && s.is(c+1, "("):
				out = append(out, s.methodCalls(s.pair[c+1], f.key, f.setter)...) // new C(…).key(…)
			case s.is(c-2, "new") && s.is(c-1, "(") && s.is(c+1, ")"):
				out = append(out, s.methodCalls(c+1, f.key, f.setter)...) // (new C).key(…)
			}
			if !f.static && s.is(c-1, "new") && s.is(c-2, "=") && s.is(c+1, "(") && (s.is(s.pair[c+1]+1, ";") || s.is(s.pair[c+1]+1, ",")) {
				// const obj = new C(…): obj.key(…), by obj's binding.
				if o, ok := s.binding(c - 3); ok && !o.Free && !o.Written && o.Decl == js.LexicalDecl {
					for _, d := range s.references(o.Binding) {
						if d != c-3 {
							out = append(out, s.methodCalls(d, f.key, f.setter)...)
						}
					}
				}
			}
		}
		for c := brace; c < s.pair[brace]; c++ {
			switch {
			case !f.static && s.tok(c).tt == js.ThisToken && s.ownThis(c, brace):
				// this.key(…) where this is the instance: in the class's body, no function of its own between.
				out = append(out, s.methodCalls(c, f.key, f.setter)...)
			case f.static && s.tok(c).tt == js.ThisToken:
				// this.key(…) in a static method, this the class (C.run(…)), or a subclass.
				if ok, static := s.thisMethod(c, brace, true); ok && static {
					out = append(out, s.methodCalls(c, f.key, f.setter)...)
				}
			case n > 0 && s.tok(c).tt == js.SuperToken:
				out = append(out, s.methodCalls(c, f.key, f.setter)...) // super.key(…) in a subclass
			}
		}
	}
	return out
}

// overrides reports whether the class whose body's '{' is brace declares a member of f's key
// of its own (a method, a setter, a field), static as f is or not: its instances' key is that.
func (s *script) overrides(brace int, f ownFunction) bool {
	for k := brace + 1; k < s.pair[brace]; k++ {
		if p := s.pair[k]; p > k {
			k = p
			continue
		}
		if !s.is(k, f.key) || !s.is(k+1, "(") && !s.is(k+1, "=") && !s.is(k+1, ";") && !s.is(k+1, "}") {
			continue
		}
		before := k - 1
		if s.is(before, "set") || s.is(before, "get") || s.is(before, "async") || s.is(before, "*") {
			before--
		}
		static := s.is(before, "static")
		if static {
			before--
		}
		if static == f.static && (s.is(before, "{") || s.is(before, "}") || s.is(before, ";")) {
			return true
		}
	}
	return false
}

// maxSubclasses bounds the classes a class's method is looked for on: itself and those that
// extend it, and theirs.
const maxSubclasses = 32

// methodCalls returns the arguments of obj.key(…), obj?.key(…), obj["key"](…), and its
// .call and .apply, where obj ends at the significant token end; for a setter, the value of
// obj.key = value.
func (s *script) methodCalls(end int, key string, setter bool) [][][2]int {
	m := end + 1
	name := -1 // the member's last token
	switch {
	case (s.is(m, ".") || s.is(m, "?.")) && s.is(m+1, key):
		name = m + 1
	case s.is(m, "[") || s.is(m, "?.") && s.is(m+1, "["):
		if s.is(m, "?.") {
			m++
		}
		if k, err := s.str(m + 1); err == nil && k == key && s.pair[m] == m+2 {
			name = m + 2
		}
	}
	switch {
	case name < 0:
		return nil
	case setter:
		if s.is(name+1, "=") {
			return [][][2]int{{{name + 2, s.expressionEnd(name + 2)}}}
		}
		return nil
	}
	return s.functionCalls(name, name)
}

// functionCalls returns the arguments of the call of the function the significant tokens
// [ref, end] name: f(…), f?.(…), f.call(t, …), f.apply(t, […]), the calls of f.bind(t, …),
// […].forEach(f), and a group's value called, (0, f)(…).
func (s *script) functionCalls(ref, end int) [][][2]int {
	m := end + 1
	if s.is(m, "?.") && s.is(m+1, "(") {
		m++
	}
	switch {
	case s.is(m, "("):
		return [][][2]int{s.spreadArgs(s.args(m))}
	case (s.is(m, ".") || s.is(m, "?.")) && s.is(m+1, "call") && s.is(m+2, "("):
		args := s.spreadArgs(s.args(m + 2))
		if args == nil || len(args) == 0 {
			return [][][2]int{args}
		}
		return [][][2]int{args[1:]}
	case (s.is(m, ".") || s.is(m, "?.")) && s.is(m+1, "apply") && s.is(m+2, "("):
		args := s.args(m + 2)
		if len(args) < 2 {
			return [][][2]int{{}}
		}
		if lit, ok := s.arrayAt(args[1]); ok {
			return [][][2]int{s.spreadArgs(s.args(lit))}
		}
		if list, ok := s.appliedList(args[1]); ok {
			return [][][2]int{list} // a parameter's list, the arguments object (appliedlist.go)
		}
		return [][][2]int{nil}
	case (s.is(m, ".") || s.is(m, "?.")) && s.is(m+1, "bind") && s.is(m+2, "("):
		// f.bind(t, …): the bound function's calls, after the arguments bound.
		pre := s.spreadArgs(s.args(m + 2))
		if pre == nil {
			return nil
		}
		if len(pre) > 0 {
			pre = pre[1:]
		}
		close := s.pair[m+2]
		var calls [][][2]int
		switch b := ref - 2; {
		case s.is(close+1, "("):
			calls = s.functionCalls(ref, close) // f.bind(t)(…)
		case s.is(ref-1, "=") && js.IsIdentifier(s.tok(b).tt) && (s.is(b-1, "const") || s.is(b-1, "let") || s.is(b-1, "var")):
			if n, ok := s.binding(b); ok && !n.Free && !n.Written {
				for _, d := range s.references(n.Binding) {
					if d != b {
						calls = append(calls, s.functionCalls(d, d)...)
					}
				}
			}
		}
		if calls == nil && !s.is(close+1, "(") && !s.is(ref-1, "=") {
			// Given as a value (setTimeout(f.bind(t, el, m))): whoever calls it gives the
			// arguments bound first; the rest are the run's.
			calls = [][][2]int{{}}
		}
		out := make([][][2]int, 0, len(calls))
		for _, args := range calls {
			if args != nil {
				args = append(append([][2]int{}, pre...), args...)
			}
			out = append(out, args)
		}
		return out
	case s.is(end+1, ")") && s.groupLast(ref, end):
		return s.functionCalls(ref, s.pair[s.enclosing(ref)]) // (0, f)(…): the group's value is f
	case s.is(end+1, ")") || s.is(end+1, ","):
		return s.passedCalls(ref, end)
	}
	return nil
}

// groupLast reports whether the significant tokens [ref, end] are the last expression of a
// parenthesized group (not a call's arguments): (f), (0, f), whose value is theirs.
func (s *script) groupLast(ref, end int) bool {
	open := s.enclosing(ref)
	if open < 0 || !s.is(open, "(") || s.pair[open] != end+1 {
		return false
	}
	if open > 0 {
		p := s.tok(open - 1).tt
		if js.IsIdentifierName(p) && !js.IsReservedWord(p) || p == js.CloseParenToken || p == js.CloseBracketToken || p == js.ThisToken || s.is(open-1, "function") {
			return false // a call's arguments, a parameter list
		}
		if controlWords[s.text(open-1)] {
			return false // if (f) …: a condition
		}
	}
	if s.is(end+2, "=>") {
		return false
	}
	args := s.args(open)
	return len(args) > 0 && args[len(args)-1] == [2]int{ref, end + 1}
}

// controlWords are the statements whose '(…)' a block follows.
var controlWords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true}

// ownThis reports whether this at the significant token c is the instance of the class whose
// body's '{' is class: no function between them but the class's methods and arrows.
func (s *script) ownThis(c, class int) bool {
	for k := s.enclosing(c); k > class; k = s.enclosing(k) {
		if s.is(k, "{") && s.is(k-1, ")") {
			open := s.opener(k - 1)
			if open < 1 || controlWords[s.text(open-1)] && !s.is(open-2, ".") {
				continue // if (…) { … }, a block of the same function
			}
			if s.is(open-1, "function") || s.is(open-2, "function") || s.is(open-2, "*") || s.enclosing(open) != class {
				return false
			}
		}
	}
	return true
}

// checkParams reads a sink's value (parts) through the parameters it is built from, with the
// arguments each call site gives them, and refuses, at the argument that gives it, a value
// holding what the bundle's policy blocks (judge, as the sink's own value is judged).
func (r *rewrite) checkParams(sink string, parts [][2]int, judge func([]string) (markupFinding, bool)) {
	r.checkParamsBy(sink, parts, func() (markupFinding, bool) {
		values, data, known := r.s.concatenation(parts)
		if !known {
			return markupFinding{}, false
		}
		f, blocked := judge(values)
		f.what += dataSaid(data)
		return f, blocked
	})
}

// checkParamsBy is checkParams with the sink's reading of its own: judge reads the sink's
// arguments (parts) with what the parameters are given at one chain of call sites.
func (r *rewrite) checkParamsBy(sink string, parts [][2]int, judge func() (markupFinding, bool)) {
	if r.b.noParamReads {
		return
	}
	reads := maxParamReads
	env := paramEnv{args: map[int]paramVal{}, seen: map[int]bool{}, reads: &reads}
	for b, v := range r.seed {
		env.args[b], env.seen[b] = v, true
	}
	r.paramValues(sink, parts, judge, env, -1, "", 0)
}

// paramValues is checkParams' reading at one chain of call sites (env): at is the first
// token of the argument last given (the place), fn what it was given to.
func (r *rewrite) paramValues(sink string, parts [][2]int, judge func() (markupFinding, bool), env paramEnv, at int, fn string, depth int) {
	s := r.s
	// The first parameter the value reads that no call gives yet, through the arguments
	// given so far (the value's parameters', in turn), and the first another module's call
	// gives (seeded).
	free, seeded := s.freeParam(parts, env), -1
	if free < 0 && r.seed != nil {
		seeded = r.seededOf(parts, env)
		if seeded < 0 || r.found != nil {
			return // what this module's own calls give: its own build's to say
		}
		s.params = &env
		f, blocked := judge()
		s.params = nil
		if blocked {
			r.found = &seedFinding{binding: seeded, sink: sink, markupFinding: f}
		}
		return
	}
	if free < 0 {
		if at < 0 {
			return
		}
		s.params = &env
		f, blocked := judge()
		s.params = nil
		if blocked {
			if f.at > 0 {
				at = f.at
			}
			r.errAt(at, "the value given to "+fn+" its code gives "+sink+", holds "+f.what, f.note)
		}
		return
	}
	freeKey, _ := s.paramKey(free)
	argsKey, argsObj := s.argumentsKey(free)
	var f ownFunction
	var ok bool
	if argsObj {
		f, ok = s.argumentsFunction(free)
	} else {
		f, ok = s.paramFunction(free)
	}
	if !ok || depth >= maxParamDepth {
		env.seen[freeKey] = true // read as data
		r.paramValues(sink, parts, judge, env, at, fn, depth)
		delete(env.seen, freeKey)
		return
	}
	label := func(param string) string {
		called := "(…)"
		name := s.fnName(f)
		if argsObj {
			param = "arguments object"
			if name == "" {
				return "the arguments object of the function written there, which"
			}
			return name + called + "'s arguments object, which"
		}
		if name == "" {
			return "the parameter " + param + " of the function written there, which"
		}
		if f.setter {
			return "the setter " + name + "'s parameter " + param + ", which"
		}
		return name + called + "'s parameter " + param + ", which"
	}
	for _, sl := range f.slots {
		env.seen[sl.binding] = true
	}
	if argsObj {
		env.seen[argsKey] = true
	}
	for _, args := range s.calls(f) {
		if *env.reads <= 0 {
			break
		}
		*env.reads--
		if args == nil {
			continue // arguments only the run knows
		}
		place, given := at, fn
		for _, sl := range f.slots {
			v, first, ok := s.given(sl, args)
			if !ok {
				continue
			}
			env.args[sl.binding] = v
			if !argsObj && sl.binding == freeKey {
				place, given = first, label(s.text(free))
			}
		}
		if argsObj {
			// What the call gives, all of it (the arguments object's elements).
			env.args[argsKey] = paramVal{list: args, rest: true}
			if len(args) > 0 {
				place = args[0][0]
			}
			given = label("")
		}
		r.paramValues(sink, parts, judge, env, place, given, depth+1)
		for _, sl := range f.slots {
			delete(env.args, sl.binding)
		}
		if argsObj {
			delete(env.args, argsKey)
		}
	}
	for _, sl := range f.slots {
		delete(env.seen, sl.binding)
	}
	if argsObj {
		delete(env.seen, argsKey)
	}
}

// freeParam returns the significant token of the first parameter (or arguments object) the
// value parts reads that env neither gives nor reads as given nothing: read in parts, or in
// the argument env gives a parameter parts reads, in turn; -1 where none is.
func (s *script) freeParam(parts [][2]int, env paramEnv) int {
	seen := map[int]bool{}
	for len(parts) > 0 {
		var next [][2]int
		for _, p := range parts {
			for k := p[0]; k < p[1]; k++ {
				key, ok := s.paramKey(k)
				if !ok || seen[key] {
					continue
				}
				seen[key] = true
				if !env.seen[key] {
					return k
				}
				if v, ok := env.args[key]; ok {
					next = append(append(next, v.at), v.list...)
				}
			}
		}
		parts = next
	}
	return -1
}

// seededOf returns the parameter another module's call gives (r.seed) that the value parts
// is read from at the chain of call sites env: a parameter parts reads, or one the argument
// given to it reads, in turn; -1 where none is.
func (r *rewrite) seededOf(parts [][2]int, env paramEnv) int {
	s := r.s
	seen := map[int]bool{}
	for len(parts) > 0 {
		var next [][2]int
		for _, p := range parts {
			for k := p[0]; k < p[1]; k++ {
				key, ok := s.paramKey(k)
				if !ok || seen[key] {
					continue
				}
				seen[key] = true
				if _, given := r.seed[key]; given {
					return key
				}
				if v, ok := env.args[key]; ok {
					next = append(append(next, v.at), v.list...)
				}
			}
		}
		parts = next
	}
	return -1
}

// enclosing returns the significant token of the bracket that opens around k, or -1.
func (s *script) enclosing(k int) int {
	for m := k - 1; m >= 0; m-- {
		if s.pair[m] > k {
			return m
		}
	}
	return -1
}

// bindingOf returns the binding number of the name at the significant token k, or -1.
func (s *script) bindingOf(k int) int {
	if n, ok := s.binding(k); ok && !n.Free {
		return n.Binding
	}
	return -1
}

// fnName returns how a message names the app's own function f: f, obj.key, C.key (static),
// C.prototype.key; "" for one written where it is called.
func (s *script) fnName(f ownFunction) string {
	name := s.text(f.name)
	switch {
	case f.name < 0:
		return ""
	case f.object >= 0 || f.static:
		name += "." + f.key
	case f.class >= 0:
		name += ".prototype." + f.key
	}
	return name
}
