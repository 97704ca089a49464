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
