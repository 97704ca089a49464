package pipeline

import (
	"github.com/tdewolff/parse/v2/js"
)

// A list applied to a function that no array literal says: f.apply(t, a) and Reflect.apply(f,
// t, a) call f with the elements of a (ECMA-262's Function.prototype.apply and Reflect.apply,
// CreateListFromArrayLike), as f(...a) does. Where a is a parameter of the app's own function
// (a rest parameter, function put(...a), holds what its calls give from its place on) or a
// function's arguments object (what its calls give, all of it), a chain of call sites says
// the elements (checkParamsBy): the call is read as f(...a), the list spread where each chain
// gives it. Where a is any other value the build does not read (an array the run builds),
// only the run knows the elements: the call's arguments are the run's (a nil list).

// appliedList returns the arguments of a call that applies the list whose tokens are a: one
// argument, a, marked as spread (spreadOperand), where a is a parameter or a function's
// arguments object; ok is false where a chain of call sites does not give it.
func (s *script) appliedList(a [2]int) ([][2]int, bool) {
	if a[1] != a[0]+1 || !js.IsIdentifier(s.tok(a[0]).tt) {
		return nil, false
	}
	if _, ok := s.argumentsKey(a[0]); !ok {
		n, known := s.binding(a[0])
		if !known || n.Free || n.Decl != js.ArgumentDecl || n.Written {
			return nil, false
		}
	}
	if s.applied == nil {
		s.applied = map[int]bool{}
	}
	s.applied[a[0]] = true
	return [][2]int{a}, true
}

// spreadOperand returns the list the argument a spreads into the call's arguments: xs of
// ...xs, or the list apply is given (appliedList).
func (s *script) spreadOperand(a [2]int) ([2]int, bool) {
	switch {
	case a[0] >= a[1]:
		return [2]int{}, false
	case s.is(a[0], "..."):
		return [2]int{a[0] + 1, a[1]}, true
	case s.applied[a[0]]:
		return a, true
	}
	return [2]int{}, false
}

// argumentsKey returns the key a chain of call sites (paramEnv) holds the arguments object
// the name at the significant token k reads under: arguments, no binding of the script's, in
// a function that is no arrow (an arrow has none of its own: its function's is read), keyed
// by that function's parameter list's '(' (below every binding, which counts from 0).
func (s *script) argumentsKey(k int) (int, bool) {
	if !s.is(k, "arguments") || s.is(k-1, ".") || s.is(k-1, "?.") || !s.global(k) {
		return 0, false
	}
	open, ok := s.ownFunction(k)
	if !ok {
		return 0, false
	}
	return -2 - open, true
}

// paramKey returns the key a chain of call sites holds what the name at the significant
// token k is given under: a parameter's binding, or a function's arguments object
// (argumentsKey).
func (s *script) paramKey(k int) (int, bool) {
	if !js.IsIdentifier(s.tok(k).tt) || s.is(k-1, ".") || s.is(k-1, "?.") {
		return 0, false
	}
	if key, ok := s.argumentsKey(k); ok {
		return key, true
	}
	n, ok := s.binding(k)
	if !ok || n.Free || n.Decl != js.ArgumentDecl {
		return 0, false
	}
	return n.Binding, true
}

// argumentsFunction returns the function whose arguments object the name at the significant
// token k is (argumentsKey), with its parameters, as paramFunction does a parameter's.
func (s *script) argumentsFunction(k int) (ownFunction, bool) {
	open, ok := s.ownFunction(k)
	if !ok {
		return ownFunction{}, false
	}
	f, ok := s.functionNamed(open, s.pair[open])
	if !ok {
		return ownFunction{}, false
	}
	f.slots = s.slots(open)
	return f, true
}

// maxListSlots bounds the parameters a list the build cannot read is given to, each read as
// any of the values the list may hold.
const maxListSlots = 8

// checkListCall refuses, at the value, markup the policy blocks that an array the script
// changes may hold where a function is called with its elements (f(...a), f.apply(t, a),
// Reflect.apply(f, t, a)), the significant token i the call's '(': const a = [el];
// a.push('<img … onerror>'); dom.put(...a). Which element each value becomes is the run's
// (the order of the pushes), so each value the array may hold (the literal's elements, the
// values push, unshift, splice and fill give it, an element assigned) is read as given to
// each parameter from the list's place on, into the function another module exports
// (followImport) or the app's own (seededCall).
func (r *rewrite) checkListCall(i int) {
	s := r.s
	if r.seed != nil || !s.is(i, "(") || i < 1 {
		return
	}
	args := s.args(i)
	var end int // the callee's last token
	var prefix [][2]int
	var list [2]int
	switch {
	case s.is(i-1, "apply") && (s.is(i-2, ".") || s.is(i-2, "?.")) && len(args) == 2:
		end, list = i-3, args[1]
	case i > 3 && s.is(i-3, "Reflect", ".", "apply") && !s.is(i-4, ".") && s.global(i-3) && len(args) == 3:
		end, list = args[0][1]-1, args[2]
	default:
		p := len(args) - 1
		if p < 0 || !s.is(args[p][0], "...") {
			return
		}
		end, prefix, list = i-1, args[:p], [2]int{args[p][0] + 1, args[p][1]}
	}
	if _, ok := s.arrayAt(list); ok {
		return // a literal the build reads (spreadArgs)
	}
	values := s.listValues(list)
	root, keys, ok := s.memberPath(end)
	if len(values) == 0 || !ok {
		return
	}
	name := s.text(root) + memberTail(keys)
	for _, v := range values {
		call := append([][2]int{}, prefix...)
		for len(call) < len(prefix)+maxListSlots {
			call = append(call, v)
		}
		had := len(r.errs)
		if imp, ik, e, ok := r.importPath(root); ok && e == end && isAppSpec(imp.module) {
			r.followImport(call, name, imp, ik, "")
		} else if n, known := s.binding(root); known && !n.Free && len(keys) == 0 {
			if slots := s.paramSlots(n.Binding); slots != nil {
				if given := s.givenValues(call); given != nil {
					r.seededCall(call, given, s, slots, name+"(…),")
				}
			}
		}
		if len(r.errs) > had {
			return
		}
	}
}

// listValues returns the values the array a const names (the significant tokens list) may
// hold, where it is bound to an array literal: the literal's elements, the arguments push and
// unshift give it, splice's from its third, fill's first, and an element assigned (a[k] = v).
func (s *script) listValues(list [2]int) [][2]int {
	if list[1] != list[0]+1 || !js.IsIdentifier(s.tok(list[0]).tt) {
		return nil
	}
	init, ok := s.constInitAt(list[0])
	if !ok || !s.is(init[0], "[") || s.pair[init[0]] != init[1]-1 {
		return nil
	}
	var out [][2]int
	for _, e := range s.args(init[0]) {
		if !s.is(e[0], "...") {
			out = append(out, e)
		}
	}
	for _, d := range s.references(s.bindingOf(list[0])) {
		switch {
		case (s.is(d+1, ".") || s.is(d+1, "?.")) && s.is(d+3, "("):
			a := s.args(d + 3)
			switch s.text(d + 2) {
			case "push", "unshift":
			case "splice":
				a = a[min(2, len(a)):]
			case "fill":
				a = a[:min(1, len(a))]
			default:
				a = nil
			}
			out = append(out, a...)
		case s.is(d+1, "[") && s.pair[d+1] > d+1 && s.is(s.pair[d+1]+1, "="):
			v := s.pair[d+1] + 2
			out = append(out, [2]int{v, s.expressionEnd(v)})
		}
	}
	return out
}

// listCalled reports whether the function the significant tokens [ref, end] name is called
// with the elements of an array a const names that the script changes (listValues), which
// checkListCall reads: f.apply(t, a), Reflect.apply(f, t, a).
func (s *script) listCalled(ref, end int) bool {
	var list [2]int
	switch {
	case (s.is(end+1, ".") || s.is(end+1, "?.")) && s.is(end+2, "apply") && s.is(end+3, "("):
		args := s.args(end + 3)
		if len(args) != 2 {
			return false
		}
		list = args[1]
	case s.is(end+1, ","):
		open := s.enclosing(ref)
		if open < 4 || !s.is(open-3, "Reflect", ".", "apply") || s.is(open-4, ".") || !s.global(open-3) {
			return false
		}
		args := s.args(open)
		if len(args) != 3 || args[0] != [2]int{ref, end + 1} {
			return false
		}
		list = args[2]
	default:
		return false
	}
	if _, ok := s.arrayAt(list); ok {
		return false
	}
	return len(s.listValues(list)) > 0
}

// writtenArgs returns the arguments document.write is given, each spread from an array a
// const names given as its elements (spreadArgs), or, where the script changes the array, as
// the values it may hold (listValues) in the order the script gives them; a spread the build
// does not read is left as it is (read as what only the run knows).
func (s *script) writtenArgs(args [][2]int) [][2]int {
	var out [][2]int
	for _, a := range args {
		op, spread := s.spreadOperand(a)
		if !spread {
			out = append(out, a)
			continue
		}
		if lit, ok := s.arrayAt(op); ok {
			if sp := s.spreadArgs(s.args(lit)); sp != nil {
				out = append(out, sp...)
				continue
			}
		} else if vals := s.listValues(op); len(vals) > 0 {
			out = append(out, vals...)
			continue
		}
		out = append(out, a)
	}
	return out
}
