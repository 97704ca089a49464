package pipeline

import (
	"github.com/tdewolff/parse/v2/js"
)

// The function a module's export names, as the browser links it (ECMA-262's
// ResolveExport): the module's own export (export function, export const, export { local as
// name }, export default), an object it exports and the key path to a method of it (export
// const dom = { put(el, m) { … } }, dom.put(…)), a name it re-exports from another module
// (export { put } from "./dom.js", export { default as put } from …, an import exported
// again: import w from "./dom.js"; export { w as put }), one of every name another module
// exports (export * from "./dom.js", never its default), and a namespace it re-exports
// (export * as ui from "./dom.js"). Each specifier is resolved as esbuild resolves it.

// maxExportHops bounds the modules an export is followed through.
const maxExportHops = 16

// exportedFn is the function an export names: the module that declares it and the names its
// parameters bind.
type exportedFn struct {
	path  string
	x     *script
	slots []paramSlot
}

// exportedFunction returns the function the module at path exports as name, at the key path
// keys of the value exported (a method of an object), following re-exports.
func (r *rewrite) exportedFunction(path, name string, keys []string, hops int) (exportedFn, bool) {
	x := r.module(path)
	if x == nil || hops > maxExportHops {
		return exportedFn{}, false
	}
	v, local, from := x.exportedValue(name)
	if v >= 0 {
		slots, ok := x.valueSlots(v, keys, 0)
		return exportedFn{path, x, slots}, ok
	}
	if local != "" {
		// An import of the module exported again: the other module's export it binds.
		imp, ok := (&rewrite{b: r.b, s: x}).imports()[local]
		if !ok {
			return exportedFn{}, false
		}
		if imp.name == "*" {
			if len(keys) == 0 {
				return exportedFn{}, false
			}
			return r.reexported(path, imp.module, keys[0], keys[1:], hops)
		}
		return r.reexported(path, imp.module, imp.name, keys, hops)
	}
	for _, f := range from {
		switch {
		case f.star && f.as == "" && name != "default":
			if fn, ok := r.reexported(path, f.spec, name, keys, hops); ok {
				return fn, true
			}
		case f.star && f.as == name && len(keys) > 0:
			return r.reexported(path, f.spec, keys[0], keys[1:], hops)
		case !f.star && f.as == name:
			return r.reexported(path, f.spec, f.name, keys, hops)
		}
	}
	return exportedFn{}, false
}

// reexported is exportedFunction of the module spec names from the module at path.
func (r *rewrite) reexported(path, spec, name string, keys []string, hops int) (exportedFn, bool) {
	if !isAppSpec(spec) {
		return exportedFn{}, false
	}
	target, ok := r.b.barrelTarget(r.resolve, path, spec)
	if !ok {
		return exportedFn{}, false
	}
	return r.exportedFunction(target, name, keys, hops+1)
}

// isAppSpec reports whether an import's specifier names a module of the app's folder (a
// relative or root path), not a package's.
func isAppSpec(spec string) bool {
	return len(spec) > 0 && (spec[0] == '.' || spec[0] == '/')
}

// exportFrom is an export from another module: export { name as as } from spec, or, star,
// export * from spec (as "") and export * as as from spec.
type exportFrom struct {
	spec, name, as string
	star           bool
}

// exportedValue finds the export name of the module: the first significant token of the
// value it exports (a function declaration's function, a const's value, a default export's
// expression), or else the local name of an export list that no declaration of the module
// gives (an import's), or else the module's re-exports from others, in order.
func (s *script) exportedValue(name string) (v int, local string, from []exportFrom) {
	for k := range s.sig {
		if s.tok(k).tt != js.ExportToken || s.is(k-1, ".") || s.is(k-1, "?.") {
			continue
		}
		d := k + 1
		switch {
		case s.is(d, "default"):
			if name == "default" {
				return d + 1, "", nil
			}
		case s.is(d, "*"):
			f := exportFrom{star: true}
			m := d + 1
			if s.is(m, "as") {
				f.as, _ = s.keyText(m + 1)
				m += 2
			}
			if s.is(m, "from") {
				if spec, err := s.str(m + 1); err == nil {
					f.spec = spec
					from = append(from, f)
				}
			}
		case s.is(d, "{"):
			close := s.pair[d]
			if close < 0 {
				continue
			}
			spec, reexp := "", s.is(close+1, "from")
			if reexp {
				var err error
				if spec, err = s.str(close + 2); err != nil {
					continue
				}
			}
			for _, e := range s.split(d+1, close) {
				exported := e[0]
				if e[1] == e[0]+3 && s.is(e[0]+1, "as") {
					exported = e[0] + 2
				}
				ex, ok := s.keyText(exported)
				if !ok || ex != name {
					continue
				}
				l, _ := s.keyText(e[0])
				switch {
				case reexp:
					from = append(from, exportFrom{spec: spec, name: l, as: name})
				default:
					if v := s.declInit(l); v >= 0 {
						return v, "", nil
					}
					local = l
				}
			}
		default:
			if s.is(d, "async") {
				d++
			}
			switch {
			case s.is(d, "function") && s.is(d+1, name), s.is(d, "class") && s.is(d+1, name):
				return d, "", nil
			case (s.is(d, "const") || s.is(d, "let") || s.is(d, "var")) && s.is(d+1, name) && s.is(d+2, "="):
				return d + 3, "", nil
			}
		}
	}
	return -1, local, from
}

// declInit returns the first significant token of the value the module's top level declares
// name with: a function declaration's function, a const's, let's or var's value; or -1.
func (s *script) declInit(name string) int {
	k := s.declared(name)
	if k < 0 {
		return -1
	}
	for _, d := range s.references(k) {
		switch {
		case s.enclosing(d) >= 0:
		case s.is(d-1, "function") || s.is(d-1, "class"):
			return d - 1
		case s.is(d+1, "=") && declares(s, d):
			return d + 2
		}
	}
	return -1
}

// valueSlots returns the names the parameters bind of the function the expression from the
// significant token v gives, at the key path keys of it: a function or arrow, or for a key,
// an object literal's method (key(…) { … }, key: function (…), key: (…) => …, a shorthand
// { put } or key: put naming a function the module declares), through names the module's top
// level declares.
func (s *script) valueSlots(v int, keys []string, depth int) ([]paramSlot, bool) {
	if depth > maxExportHops || v >= len(s.sig) {
		return nil, false
	}
	if js.IsIdentifier(s.tok(v).tt) && !s.is(v+1, "=>") && !s.is(v-1, "function") && (v+1 >= len(s.sig) || s.is(v+1, ";") || s.is(v+1, ",") || s.is(v+1, "}")) {
		init := s.declInit(s.text(v))
		if init < 0 {
			return nil, false
		}
		return s.valueSlots(init, keys, depth+1)
	}
	if len(keys) == 0 {
		d := v
		if s.is(d, "async") {
			d++
		}
		if s.is(d, "function") {
			d++
			if s.is(d, "*") {
				d++
			}
			if js.IsIdentifier(s.tok(d).tt) {
				d++
			}
		}
		switch {
		case s.is(d, "(") && s.pair[d] > d && (s.is(s.pair[d]+1, "{") || s.is(s.pair[d]+1, "=>")):
			return s.slots(d), true
		case js.IsIdentifier(s.tok(d).tt) && s.is(d+1, "=>"):
			return []paramSlot{{binding: s.bindingOf(d), unknown: s.bindingOf(d) < 0}}, true
		}
		return nil, false
	}
	if s.is(v, "class") {
		// A class's static method, key(…) { … } after static in its body.
		body := v + 1
		for body < len(s.sig) && !s.is(body, "{") {
			body++
		}
		// An instance's, C.prototype.key: a method key(…) { … } without static (not the
		// constructor, the class's own call).
		proto := len(keys) == 2 && keys[0] == "prototype" && keys[1] != "constructor"
		if len(keys) != 1 && !proto || body >= len(s.sig) || s.pair[body] < body {
			return nil, false
		}
		for k := body + 1; k < s.pair[body]; k++ {
			if p := s.pair[k]; p > k {
				k = p
				continue
			}
			if !proto && s.is(k, "static") && s.is(k+1, keys[0]) && s.is(k+2, "(") {
				return s.slots(k + 2), true
			}
			if m := k; proto && (s.is(m, "async") || s.is(m, "*")) && s.is(m+2, "(") {
				k = m + 1
			}
			if proto && s.is(k, keys[1]) && s.is(k+1, "(") && (s.is(k-1, "{") || s.is(k-1, "}") || s.is(k-1, ";") || s.is(k-1, "async") || s.is(k-1, "*")) && !s.is(k-2, "static") {
				return s.slots(k + 1), true
			}
		}
		return nil, false
	}
	if !s.is(v, "{") || s.pair[v] < v {
		return nil, false
	}
	for _, e := range s.split(v+1, s.pair[v]) {
		k := e[0]
		if (s.is(k, "async") || s.is(k, "*")) && s.is(k+2, "(") {
			k++
		}
		key, ok := s.keyText(k)
		if !ok || key != keys[0] {
			continue
		}
		switch {
		case s.is(k+1, "(") && len(keys) == 1:
			return s.slots(k + 1), true // key(…) { … }
		case s.is(k+1, ":"):
			return s.valueSlots(k+2, keys[1:], depth+1)
		case e[1] == k+1:
			return s.valueSlots(k, keys[1:], depth+1) // { put }
		}
		return nil, false
	}
	return nil, false
}
