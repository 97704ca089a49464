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
// bound to a const), each call site of the function (by the name's binding, not its
// spelling) gives its arguments, or the parameters' defaults, to the parameters, and the
// value is read so, as the sink's own would be; an argument that is itself a parameter of
// the caller is read so in turn (maxParamDepth). A function that escapes (exported, passed
// as a value) has callers the module does not show: its call sites are still read, and the
// rest is data, as before. A function or parameter written elsewhere is not followed.

// maxParamDepth bounds the functions a value is followed through, caller by caller.
const maxParamDepth = 4

// paramEnv is what the parameters of the functions a value is followed through hold at one
// chain of call sites: a parameter's binding to its argument's tokens; a binding in seen but
// not in args is given nothing (undefined), and read as data.
type paramEnv struct {
	args map[int][2]int
	seen map[int]bool
	// reads is how many chains of call sites are left to read for the sink (maxParamReads).
	reads *int
}

// maxParamReads bounds the chains of call sites one sink's value is read through: a helper
// called from many places, each passing on its own parameter, multiplies them.
const maxParamReads = 256

// paramArg returns the argument tokens bound to the parameter at the significant token i in
// the environment names reads in (script.params).
func (s *script) paramArg(i int) ([2]int, bool) {
	if s.params == nil || s.is(i-1, ".") || s.is(i-1, "?.") {
		return [2]int{}, false
	}
	n, known := s.binding(i)
	if !known || n.Free {
		return [2]int{}, false
	}
	a, ok := s.params.args[n.Binding]
	return a, ok
}

// ownFunction is a function the module declares, read from its parameter list's '(' (or its
// one parameter, for x => …): its parameters' bindings (-1 for a pattern) and defaults, and
// how its calls are found: by the binding of name (a token), or, for an object literal's
// method, as obj.key(…) on a const bound to the literal whose '{' is object.
type ownFunction struct {
	params   []int
	defaults [][2]int
	name     int
	key      string
	object   int
}

// paramFunction returns the function whose parameter the name at the significant token k is.
func (s *script) paramFunction(k int) (ownFunction, bool) {
	n, known := s.binding(k)
	if !known || n.Free || n.Decl != js.ArgumentDecl || n.Written {
		return ownFunction{}, false
	}
	for d := range s.sig {
		if !js.IsIdentifier(s.tok(d).tt) || s.is(d-1, ".") || s.is(d-1, "?.") {
			continue
		}
		if m, ok := s.binding(d); !ok || m.Binding != n.Binding {
			continue
		}
		if s.is(d+1, "=>") && !s.is(d-1, "(") { // x => …
			if f, ok := s.functionNamed(d, d); ok {
				f.params, f.defaults = []int{n.Binding}, [][2]int{{}}
				return f, true
			}
			return ownFunction{}, false
		}
		open := s.enclosing(d)
		if open < 0 || !s.is(open, "(") || !s.is(s.pair[open]+1, "=>") && !s.is(s.pair[open]+1, "{") {
			continue
		}
		f, ok := s.functionNamed(open, s.pair[open])
		if !ok {
			return ownFunction{}, false
		}
		for _, e := range s.args(open) {
			b, def := -1, [2]int{}
			if js.IsIdentifier(s.tok(e[0]).tt) && (e[1] == e[0]+1 || s.is(e[0]+1, "=")) {
				if m, ok := s.binding(e[0]); ok {
					b = m.Binding
				}
				if e[1] > e[0]+2 {
					def = [2]int{e[0] + 2, e[1]}
				}
			}
			f.params, f.defaults = append(f.params, b), append(f.defaults, def)
		}
		return f, true
	}
	return ownFunction{}, false
}

// functionNamed reads how the function whose parameters are the significant tokens
// [open, close] is named: function f(…), const f = function (…), const f = (…) => …,
// const f = async (…) => …, const f = x => …, and an object literal's method key(…) { … },
// key: function (…), key: (…) => …, the literal bound to a const.
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
		return ownFunction{name: k, object: -1}, true
	}
	switch {
	case s.is(h-1, "function") && js.IsIdentifier(s.tok(h).tt):
		if s.is(h-2, "=") {
			return named(h - 3) // const f = function g(…)
		}
		return named(h)
	case s.is(h, "function") && s.is(h-1, "="):
		return named(h - 2)
	case s.is(h, "="):
		return named(h - 1)
	}
	// An object literal's method: key(…) { … }, key: function (…), key: (…) => ….
	key := h
	if s.is(key, "function") {
		key--
	}
	if s.is(key, ":") {
		key--
	}
	if !js.IsIdentifierName(s.tok(key).tt) || !s.is(key-1, "{") && !s.is(key-1, ",") {
		return ownFunction{}, false
	}
	brace := s.enclosing(key)
	if brace < 2 || !s.is(brace, "{") || !s.is(brace-1, "=") || !s.is(brace-3, "const") {
		return ownFunction{}, false
	}
	f, ok := named(brace - 2)
	if !ok {
		return ownFunction{}, false
	}
	f.key, f.object = s.text(key), brace
	return f, true
}

// calls returns the '(' of each call of f the module makes: f(…) by the binding of its name,
// obj.key(…) for a method, obj the const bound to its literal.
func (s *script) calls(f ownFunction) []int {
	n, _ := s.binding(f.name)
	var out []int
	for c := range s.sig {
		if !js.IsIdentifier(s.tok(c).tt) || c == f.name || s.is(c-1, ".") || s.is(c-1, "?.") {
			continue
		}
		if m, ok := s.binding(c); !ok || m.Binding != n.Binding {
			continue
		}
		switch {
		case f.object < 0 && s.is(c+1, "("):
			out = append(out, c+1)
		case f.object >= 0 && (s.is(c+1, ".") || s.is(c+1, "?.")) && s.is(c+2, f.key) && s.is(c+3, "("):
			out = append(out, c+3)
		}
	}
	return out
}

// checkParams reads a sink's value (parts) through the parameters it is built from, with the
// arguments each call site gives them, and refuses, at the argument that gives it, a value
// holding what the bundle's policy blocks (judge, as the sink's own value is judged).
func (r *rewrite) checkParams(sink string, parts [][2]int, judge func([]string) (markupFinding, bool)) {
	reads := maxParamReads
	r.paramValues(sink, parts, judge, paramEnv{args: map[int][2]int{}, seen: map[int]bool{}, reads: &reads}, -1, "", 0)
}

// paramValues is checkParams' reading at one chain of call sites (env): at is the first
// token of the argument last given (the place), fn what it was given to.
func (r *rewrite) paramValues(sink string, parts [][2]int, judge func([]string) (markupFinding, bool), env paramEnv, at int, fn string, depth int) {
	s := r.s
	// The first parameter the value (or an argument given so far) reads that no call gives yet.
	free := -1
	var given [][2]int
	for _, a := range env.args {
		given = append(given, a)
	}
	slices.SortFunc(given, func(a, b [2]int) int { return a[0] - b[0] }) // the same reading each build
	scan := append(append([][2]int{}, parts...), given...)
	for _, p := range scan {
		for k := p[0]; k < p[1] && free < 0; k++ {
			if !js.IsIdentifier(s.tok(k).tt) || s.is(k-1, ".") || s.is(k-1, "?.") {
				continue
			}
			if n, ok := s.binding(k); ok && !n.Free && n.Decl == js.ArgumentDecl && !env.seen[n.Binding] {
				free = k
			}
		}
	}
	if free < 0 {
		if at < 0 || *env.reads <= 0 {
			return
		}
		*env.reads--
		s.params = &env
		values, data, known := s.concatenation(parts)
		s.params = nil
		if !known {
			return
		}
		if f, blocked := judge(values); blocked {
			r.errAt(at, "the value given to "+fn+", which its code gives "+sink+", holds "+f.what+dataSaid(data), f.note)
		}
		return
	}
	f, ok := s.paramFunction(free)
	if !ok || depth >= maxParamDepth {
		n, _ := s.binding(free)
		env.seen[n.Binding] = true // read as data
		r.paramValues(sink, parts, judge, env, at, fn, depth)
		delete(env.seen, n.Binding)
		return
	}
	name := s.text(f.name)
	if f.object >= 0 {
		name += "." + f.key
	}
	for _, b := range f.params {
		env.seen[b] = true
	}
	for _, call := range s.calls(f) {
		args := s.args(call)
		place, given := at, fn
		spread := false
		for k, b := range f.params {
			a := [2]int{}
			switch {
			case k < len(args) && s.is(args[k][0], "..."):
				spread = true
			case k < len(args):
				a = args[k]
			default:
				a = f.defaults[k]
			}
			if spread || b < 0 || a[0] >= a[1] {
				continue
			}
			env.args[b] = a
			if b == s.bindingOf(free) {
				place, given = a[0], name+"(…)'s parameter "+s.text(free)
			}
		}
		if !spread {
			r.paramValues(sink, parts, judge, env, place, given, depth+1)
		}
		for _, b := range f.params {
			delete(env.args, b)
		}
	}
	for _, b := range f.params {
		delete(env.seen, b)
	}
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
