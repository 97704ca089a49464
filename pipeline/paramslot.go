package pipeline

import (
	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/tdewolff/parse/v2/js"
)

// The names a function's parameter list binds, and what a call gives each, as ECMAScript's
// IteratorBindingInitialization does: a plain name is its argument (or its default where the
// argument is undefined); a name in an object pattern ({ html }, { view: { body: b = "…" } })
// is the property of the argument its keys lead to, and an array pattern's ([el, m]) the
// element; each step's default is read where the argument has no such property; a rest
// parameter (...a) holds the arguments from its place on, as an array (a[0] is the first).
// What a call gives is read from the argument's literal (an object or array literal, through
// a const bound to one or the caller's parameter): where the literal may hold the key
// otherwise (a spread, a computed key, an accessor), it is a value only the run knows (data).

// paramSlot is one name a parameter list binds: its binding, the argument it is read from
// (index), the way into that argument (path), the argument's default, and whether it is the
// rest. unknown marks a name read as data whatever the call: a pattern's own rest, a
// computed key's.
type paramSlot struct {
	binding, index int
	path           []patStep
	def            [2]int
	rest, unknown  bool
}

// patStep is one step into a value: an object pattern's property (key), or an array
// pattern's element (elem, where key is ""), and the default the pattern gives what the step
// reads where the value has none.
type patStep struct {
	key      string
	elem     int
	hasKey   bool
	def      [2]int
	computed bool
}

// paramVal is what a call gives one parameter's name: the argument's tokens and the way into
// them, or for a rest parameter the arguments from its place on.
type paramVal struct {
	at   [2]int
	path []patStep
	list [][2]int
	rest bool
	// strs are the values another module's call gives it (read there), data whether a part
	// of one is the run's (importedsinks.go).
	strs []string
	data bool
}

// slots reads the parameter list whose '(' is the significant token open into the names it
// binds.
func (s *script) slots(open int) []paramSlot {
	var out []paramSlot
	for k, e := range s.args(open) {
		s.patternSlots(e, k, nil, [2]int{}, false, &out)
	}
	return out
}

// patternSlots adds the names the binding element e (of the parameter at index, reached by
// path; top is the parameter's default) binds.
func (s *script) patternSlots(e [2]int, index int, path []patStep, top [2]int, unknown bool, out *[]paramSlot) {
	if e[0] >= e[1] {
		return
	}
	if s.is(e[0], "...") {
		inner := [2]int{e[0] + 1, e[1]}
		s.patternSlots(inner, index, path, top, unknown || len(path) > 0, out)
		if len(path) == 0 && len(*out) > 0 && js.IsIdentifier(s.tok(e[0]+1).tt) && e[1] == e[0]+2 {
			(*out)[len(*out)-1].rest = true
		}
		return
	}
	// The element's target, and its default (target = default).
	target, def := e, [2]int{}
	end := e[0] + 1
	if p := s.pair[e[0]]; p > e[0] && (s.is(e[0], "{") || s.is(e[0], "[")) {
		end = p + 1
	}
	if end < e[1] && s.is(end, "=") {
		target, def = [2]int{e[0], end}, [2]int{end + 1, e[1]}
	}
	if len(path) == 0 {
		top = def
	} else {
		path = append([]patStep(nil), path...)
		path[len(path)-1].def = def
	}
	switch {
	case js.IsIdentifier(s.tok(target[0]).tt) && target[1] == target[0]+1:
		b := s.bindingOf(target[0])
		*out = append(*out, paramSlot{binding: b, index: index, path: path, def: top, unknown: unknown || b < 0})
	case s.is(target[0], "{"):
		for _, p := range s.split(target[0]+1, s.pair[target[0]]) {
			if p[0] >= p[1] {
				continue
			}
			if s.is(p[0], "...") {
				s.patternSlots([2]int{p[0] + 1, p[1]}, index, path, top, true, out)
				continue
			}
			step, sub, computed := patStep{hasKey: true}, [2]int{p[0], p[1]}, false
			switch k := s.tok(p[0]); {
			case s.is(p[0], "[") && s.pair[p[0]] > p[0] && s.is(s.pair[p[0]]+1, ":"):
				computed, sub = true, [2]int{s.pair[p[0]] + 2, p[1]}
			case s.is(p[0]+1, ":"):
				key, ok := s.keyText(p[0])
				if !ok {
					computed = true
				}
				step.key, sub = key, [2]int{p[0] + 2, p[1]}
			case js.IsIdentifier(k.tt): // { html } or { html = "…" }
				step.key = s.text(p[0])
			default:
				computed = true
			}
			step.computed = computed
			s.patternSlots(sub, index, append(path, step), top, unknown || computed, out)
		}
	case s.is(target[0], "["):
		for n, p := range s.split(target[0]+1, s.pair[target[0]]) {
			if s.is(p[0], "...") && p[0] < p[1] {
				s.patternSlots([2]int{p[0] + 1, p[1]}, index, path, top, true, out)
				continue
			}
			s.patternSlots(p, index, append(path, patStep{elem: n}), top, unknown, out)
		}
	}
}

// keyText reads the property key at the significant token k: a name, a string, a number.
func (s *script) keyText(k int) (string, bool) {
	switch t := s.tok(k); {
	case t.tt == js.StringToken:
		return jsstring.Decode(s.text(k))
	case js.IsIdentifierName(t.tt) || js.IsNumeric(t.tt):
		return s.text(k), true
	}
	return "", false
}

// given returns what the call whose arguments are args gives the slot's name, and the first
// token of the value it gives (the place a message names).
func (s *script) given(sl paramSlot, args [][2]int) (paramVal, int, bool) {
	if sl.unknown || sl.binding < 0 {
		return paramVal{}, 0, false
	}
	for p, a := range args {
		if p > sl.index || !s.applied[a[0]] {
			continue
		}
		// A list apply is given (appliedList), its elements the arguments from p on: the
		// slot's is the list's element, where the list is the call's last argument.
		if sl.rest || p != len(args)-1 {
			return paramVal{}, 0, false
		}
		first := patStep{elem: sl.index - p, def: sl.def}
		return paramVal{at: a, path: append([]patStep{first}, sl.path...)}, a[0], true
	}
	if sl.rest {
		if sl.index >= len(args) {
			return paramVal{}, 0, false
		}
		return paramVal{list: args[sl.index:], rest: true}, args[sl.index][0], true
	}
	a := [2]int{}
	if sl.index < len(args) {
		a = args[sl.index]
	}
	if a[0] >= a[1] || a[1] == a[0]+1 && s.is(a[0], "undefined") {
		a = sl.def
	}
	if a[0] >= a[1] {
		return paramVal{}, 0, false
	}
	v := paramVal{at: a, path: sl.path}
	place := a[0]
	if at, ok := s.follow(a, sl.path); ok {
		place = at[0]
	}
	return v, place, true
}

// follow reads the value path leads to from the tokens v, as the pattern's binding does:
// a property of an object literal, an element of an array literal, or the default where the
// literal has none. ok is false where only the run knows it.
func (s *script) follow(v [2]int, path []patStep) ([2]int, bool) {
	for _, st := range path {
		sub, found, known := s.member(v, st)
		if !known {
			return [2]int{}, false
		}
		if !found {
			if st.def[0] >= st.def[1] {
				return [2]int{}, false // undefined: the run's value, read as data
			}
			sub = st.def
		}
		v = sub
	}
	return v, true
}

// member reads the property st.key (or the element st.elem) of the literal the tokens v are,
// through a const bound to it or a parameter given it: whether the literal has it, and
// whether the literal says (a spread, a computed key, an accessor may give it otherwise).
func (s *script) member(v [2]int, st patStep) (sub [2]int, found, known bool) {
	if st.computed {
		return sub, false, false
	}
	for depth := 0; v[1] == v[0]+1 && js.IsIdentifier(s.tok(v[0]).tt); depth++ {
		if depth > 8 {
			return sub, false, false
		}
		if pv, ok := s.paramValue(v[0]); ok && pv.rest {
			// A rest parameter's list, or the arguments object: what the call gives.
			if st.hasKey {
				return sub, false, false
			}
			for n, e := range pv.list {
				if _, spread := s.spreadOperand(e); spread {
					return sub, false, false
				}
				if n == st.elem {
					return e, e[0] < e[1], true
				}
			}
			return sub, false, true
		}
		if a, ok := s.paramArg(v[0]); ok {
			v = a
		} else if init, ok := s.constInitAt(v[0]); ok {
			v = init
		} else {
			return sub, false, false
		}
	}
	if v[0] >= v[1] || s.pair[v[0]] != v[1]-1 {
		return sub, false, false
	}
	switch {
	case s.is(v[0], "{") && st.hasKey:
		for _, p := range s.split(v[0]+1, v[1]-1) {
			switch {
			case p[0] >= p[1]:
			case s.is(p[0], "...") || s.is(p[0], "["):
				return sub, false, false // a spread or a computed key may give it
			case s.is(p[0]+1, ":"):
				if key, ok := s.keyText(p[0]); !ok {
					return sub, false, false
				} else if key == st.key {
					sub, found = [2]int{p[0] + 2, p[1]}, true // the last of a key wins
				}
			case p[1] == p[0]+1 && js.IsIdentifier(s.tok(p[0]).tt):
				if s.text(p[0]) == st.key {
					sub, found = p, true // { html }: the name's value
				}
			default:
				// A method, getter or setter: a function, or a value the run's getter gives.
				if k := p[0]; s.text(k) == st.key || s.text(k+1) == st.key || s.text(k+2) == st.key {
					return sub, false, false
				}
			}
		}
		return sub, found, true
	case s.is(v[0], "[") && !st.hasKey:
		for n, e := range s.split(v[0]+1, v[1]-1) {
			if s.is(e[0], "...") && e[0] < e[1] {
				return sub, false, false
			}
			if n == st.elem {
				return e, e[0] < e[1], true
			}
		}
		return sub, false, true
	}
	return sub, false, false
}

// paramElem returns the tokens of element n of the parameter at the significant token i
// (a[0]): a rest parameter's argument, or the element of the array literal it is given.
func (s *script) paramElem(i, n int) ([2]int, bool) {
	v, ok := s.paramValue(i)
	if !ok {
		return [2]int{}, false
	}
	if v.rest {
		if n < len(v.list) && v.list[n][0] < v.list[n][1] {
			return v.list[n], true
		}
		return [2]int{}, false
	}
	return s.follow(v.at, append(append([]patStep(nil), v.path...), patStep{elem: n}))
}
