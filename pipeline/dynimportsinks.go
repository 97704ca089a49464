package pipeline

import (
	"github.com/tdewolff/parse/v2/js"
)

// Markup given to a function a dynamic import gives. import("./dom.js") links the module as
// a static import does and gives its namespace object: a call of a name bound to it, or
// destructured from it, calls the module's export, read as checkImportedCall reads a static
// import's (the specifier resolved as esbuild resolves it, the export graph followed):
//
//	const { put } = await import("./dom.js"); put(el, markup)
//	const m = await import("./dom.js"); m.put(el, markup)
//	import("./dom.js").then(({ put }) => put(el, markup))
//	import("./dom.js").then((m) => m.put(el, markup))   (or function (m) { … })
//	function setup(m) { m.put(el, markup) } import("./dom.js").then(setup)
//
// Where the specifier is not a string (a template or a sum esbuild turns into every module it
// may name) the build cannot say which module's function is called: an argument holding what
// the policy blocks is refused (refuseUnread), as it is for a package's module.

// dynamicImported returns, for the name at the significant token root, the import() whose
// namespace object it is bound to (export "*") or destructured from (the export it reads):
// its "import" token. ok is false where the name is bound otherwise or written again (a
// const's pattern is never: constPatternAt).
func (s *script) dynamicImported(root int) (imp int, export string, ok bool) {
	n, known := s.binding(root)
	if !known || n.Free {
		return 0, "", false
	}
	awaited := func(init [2]int) (int, bool) {
		k := init[0] + 1
		return k, s.is(init[0], "await") && s.importCall(k) && s.pair[k+1] == init[1]-1
	}
	switch n.Decl {
	case js.LexicalDecl, js.VariableDecl:
		if init, ok := s.constInitAt(root); ok {
			k, ok := awaited(init)
			return k, "*", ok
		}
		if key, init, ok := s.constPatternAt(root); ok {
			k, ok := awaited(init)
			return k, key, ok
		}
	case js.ArgumentDecl:
		refs := s.references(n.Binding)
		if n.Written || len(refs) == 0 {
			return 0, "", false
		}
		d := refs[0]
		fn, open := d, -1 // the function's first token; its parameter list's '(' (-1: x => …)
		if !s.is(d+1, "=>") || s.is(d-1, "(") {
			open = s.enclosing(d)
			for open >= 0 && (s.is(open, "{") || s.is(open, "[")) {
				open = s.enclosing(open)
			}
			switch {
			case open < 0 || !s.is(open, "("):
				return 0, "", false
			case s.is(s.pair[open]+1, "=>"):
				fn = open
			case s.is(open-1, "function"):
				fn = open - 1
			case s.is(open-2, "function") && js.IsIdentifier(s.tok(open-1).tt):
				fn = open - 2
			default:
				return 0, "", false
			}
		}
		if s.is(fn-1, "async") {
			fn--
		}
		// import(…).then(fn…): the function is the first argument of then; or it has a
		// name, given there: function setup(m) { … } and import(…).then(setup).
		k := s.thenOfImport(fn)
		if k < 0 {
			name := -1
			switch {
			case s.is(fn, "function") && open == fn+2:
				name = fn + 1
			case s.is(fn-1, "=") && declares(s, fn-2):
				name = fn - 2
			}
			if name < 0 {
				return 0, "", false
			}
			for _, ref := range s.references(s.bindingOf(name)) {
				if s.is(ref+1, ")") {
					if k = s.thenOfImport(ref); k >= 0 {
						break
					}
				}
			}
			if k < 0 {
				return 0, "", false
			}
		}
		if open < 0 {
			return k, "*", true
		}
		for _, sl := range s.slots(open) {
			if sl.binding != n.Binding {
				continue
			}
			switch {
			case sl.index != 0 || sl.rest || sl.unknown:
			case len(sl.path) == 0:
				return k, "*", true
			case len(sl.path) == 1 && sl.path[0].hasKey && !sl.path[0].computed && sl.path[0].key != "":
				return k, sl.path[0].key, true
			}
			return 0, "", false
		}
	}
	return 0, "", false
}

// thenOfImport returns the "import" token of import(…).then(f…) where f, the first
// argument of then, starts at the significant token first; or -1.
func (s *script) thenOfImport(first int) int {
	p := first - 1
	if !s.is(p-3, ")", ".", "then", "(") {
		return -1
	}
	if k := s.opener(p-3) - 1; s.importCall(k) {
		return k
	}
	return -1
}

// importCall reports whether the significant token k is the "import" of an import(…) call.
func (s *script) importCall(k int) bool {
	return k >= 0 && s.tok(k).tt == js.ImportToken && s.is(k+1, "(") && !s.is(k-1, ".") && !s.is(k-1, "?.")
}

// importSpec returns the specifier of the import(…) call at the significant token k, where
// it is a string; ok is false where it is computed (a template, a sum).
func (s *script) importSpec(k int) (spec string, ok bool) {
	args := s.args(k + 1)
	if len(args) == 0 {
		return "", false
	}
	a := args[0]
	if a[1] != a[0]+1 || s.tok(a[0]).tt != js.StringToken && s.tok(a[0]).tt != js.TemplateToken {
		return "", false
	}
	spec, err := s.str(a[0])
	return spec, err == nil
}
