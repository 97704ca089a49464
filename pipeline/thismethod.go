package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/net/html/atom"
)

// this in a method. A method called as obj.key(…) runs with this the object (ECMA-262's
// EvaluateCall: the reference's base is the this value), so this.put(…) in a method of an
// object literal bound to a const, let or var is a call of that object's put as obj.put(…)
// is; in a class's method this is the instance (the class itself in a static method:
// C.run(…)). An arrow has no this of its own (its function's is read), another function has
// its own. The calls markupparam.go reads of a method are these too.

// thisMethod reports whether this at the significant token c is the this of a method of the
// object literal or class body whose '{' is brace: no function between them but arrows and
// that method (key(…) { … }, get/set/async/static before the key, an object literal's key:
// function (…) { … }); or, in a class, a field's initializer (this the instance). static says
// whether the method is a class's static one.
func (s *script) thisMethod(c, brace int, class bool) (ok, static bool) {
	method := -1
	for k := s.enclosing(c); k > brace; k = s.enclosing(k) {
		if !s.is(k, "{") || !s.is(k-1, ")") {
			continue
		}
		open := s.opener(k - 1)
		if open < 1 || controlWords[s.text(open-1)] && !s.is(open-2, ".") && !s.is(open-2, "function") {
			continue // if (…) { … }: a block of the same function
		}
		if s.enclosing(open) != brace {
			return false, false // another function's this
		}
		method = open
	}
	if method < 0 {
		if !class {
			return false, false // an object literal's arrow: the this around the literal
		}
		// A field's initializer: this the instance, or the class for a static field.
		for k := c; k > brace; k = s.enclosing(k) {
			if s.enclosing(k) == brace {
				for m := k; m > brace && !s.is(m, ";") && !s.is(m, "}"); m-- {
					if s.is(m, "static") && (s.is(m-1, "{") || s.is(m-1, ";") || s.is(m-1, "}")) {
						return true, true
					}
				}
				return true, false
			}
		}
		return true, false
	}
	key := method - 1
	switch {
	case s.is(key, "function") || js.IsIdentifier(s.tok(key).tt) && s.is(key-1, "function"):
		// key: function (…) { … }, an object literal's.
		if s.is(key, "function") {
			key--
		} else {
			key -= 2
		}
		if class || !s.is(key, ":") {
			return false, false
		}
		return true, false
	case js.IsIdentifierName(s.tok(key).tt) || s.tok(key).tt == js.StringToken || s.is(key, "]"):
		if s.is(key, "]") {
			key = s.opener(key)
		}
	default:
		return false, false
	}
	for m := key - 1; m > brace; m-- {
		switch {
		case s.is(m, "get") || s.is(m, "set") || s.is(m, "async") || s.is(m, "*"):
			continue
		case s.is(m, "static"):
			return true, class
		}
		break
	}
	return true, false
}

// instanceOf reads the object whose last significant token is end as an instance of a class
// an import gives: new C(…) (or new ns.C(…)), or a const bound to one (const v = new C(…)).
// It returns the import, the class's name as written (the import's local name, with no
// keys), and the key path to the class from it, as importPath does.
func (r *rewrite) instanceOf(end int) (imp importBinding, name string, keys []string, ok bool) {
	s := r.s
	if js.IsIdentifier(s.tok(end).tt) && !s.is(end-1, ".") && !s.is(end-1, "?.") {
		init, isConst := s.constInitAt(end)
		if !isConst || init[1] <= init[0] {
			return imp, "", nil, false
		}
		end = init[1] - 1
		if !s.is(init[0], "new") {
			return imp, "", nil, false
		}
	}
	if !s.is(end, ")") {
		return imp, "", nil, false
	}
	open := s.opener(end)
	if open < 2 {
		return imp, "", nil, false
	}
	root, keys, ok := s.memberPath(open - 1)
	if !ok || !s.is(root-1, "new") {
		return imp, "", nil, false
	}
	if imp, ok = r.importOf(root); !ok {
		return imp, "", nil, false
	}
	return imp, s.text(root), keys, true
}

// checkInstanceCall reads the call whose '(' is the significant token i of a method of an
// instance of a class another of the app's modules exports (new View().put(…), v.put(…) on
// const v = new View()) into the module, as the class's prototype's function
// (View.prototype.put: exportedFunction), as checkImportedCall reads View.put(…).
func (r *rewrite) checkInstanceCall(i int) {
	s := r.s
	if r.resolve == nil || r.seed != nil && !r.seedImports || !s.is(i, "(") || i < 3 {
		return
	}
	key := i - 1
	if !js.IsIdentifierName(s.tok(key).tt) || !s.is(key-1, ".") && !s.is(key-1, "?.") {
		return
	}
	imp, name, keys, ok := r.instanceOf(key - 2)
	if !ok || !isAppSpec(imp.module) {
		return
	}
	args := s.spreadArgs(s.args(i))
	if args == nil && s.readsParam(s.args(i)) {
		args = s.args(i)
	}
	if r.platformMethod(imp, keys, s.text(key)) {
		return // the platform's method the instance inherits (checkMarkup reads its sinks)
	}
	name += memberTail(keys) + ".prototype." + s.text(key)
	keys = append(append(keys, "prototype"), s.text(key))
	r.followImport(args, name, imp, keys, "")
}

// instanceRead reports whether the call whose '(' is the significant token i is of a method
// of an instance of a class another of the app's modules exports that the build reads as the
// class's prototype's function (checkInstanceCall follows it).
func (r *rewrite) instanceRead(i int) bool {
	s := r.s
	key := i - 1
	if r.resolve == nil || i < 3 || !js.IsIdentifierName(s.tok(key).tt) || !s.is(key-1, ".") && !s.is(key-1, "?.") {
		return false
	}
	imp, _, keys, ok := r.instanceOf(key - 2)
	return ok && r.importResolves(imp, append(append(keys, "prototype"), s.text(key)))
}

// instancePlatform reports whether the call whose '(' is the significant token i is of a
// method an instance of a class another of the app's modules exports inherits from the
// platform (platformMethod): none of a module's, wherever the class goes.
func (r *rewrite) instancePlatform(i int) bool {
	s := r.s
	key := i - 1
	if r.resolve == nil || i < 3 || !js.IsIdentifierName(s.tok(key).tt) || !s.is(key-1, ".") && !s.is(key-1, "?.") {
		return false
	}
	imp, _, keys, ok := r.instanceOf(key - 2)
	return ok && isAppSpec(imp.module) && r.platformMethod(imp, keys, s.text(key))
}

// checkSeededThis reads, in a seeded reading (another module's call read into this module:
// seededCall), a call this.key(…) whose this the build does not read as an object's or a
// class's (thisRead: an exported function's this, what its call gives it; a method of a literal
// bound to nothing; a key the literal or class does not declare) as a sink: markup the call
// gives it holding an inline event handler or a javascript: URL goes to code the build does
// not read, where the page as written may parse it (refuseUnread's rule).
func (r *rewrite) checkSeededThis(i int) {
	s := r.s
	if r.seed == nil || !s.is(i, "(") || i < 3 {
		return
	}
	start, group, ok := s.chainStart(i - 1)
	if !ok || group {
		return
	}
	callee := "this" + s.calleeText(i-1)
	this := start
	if init, isConst := s.constInitAt(start); isConst && init[1] > init[0]+1 && s.tok(init[0]).tt == js.ThisToken && s.thisPath(init) {
		// const f = this.put; f.call(this, …): a member of this read as a value, whose calls
		// the build does not read.
		this, callee = init[0], s.calleeText(i-1)
	} else if s.tok(start).tt != js.ThisToken || i-1 == start || r.thisRead(start, i-1) {
		return
	}
	open, ok := s.ownFunction(this)
	if !ok {
		return // a module's this: undefined, the call a TypeError
	}
	args := s.args(i)
	if !s.readsParam(args) {
		return
	}
	sink := callee + "(…), which the build cannot read (this is what a call of " + s.listName(open) + " gives it)"
	for _, a := range args {
		if r.found != nil {
			return
		}
		if !s.readsParam([][2]int{a}) {
			continue
		}
		// Each argument apart: the parameter named is the one that gives the value.
		r.checkParams(sink, [][2]int{a}, func(values []string) (markupFinding, bool) {
			for _, v := range values {
				f, blocked := blockedInMarkup(v, false, atom.Body)
				if !blocked && offline.Scheme(strings.TrimSpace(v)) == "javascript" {
					f, blocked = blockedAttr("href", v)
				}
				if blocked {
					return f, true
				}
			}
			return markupFinding{}, false
		})
	}
}

// thisRead reports whether the call this.key(…) (this at the significant token this, the
// callee's last token end) is one whose callee the build reads: this is the this of a method
// of an object literal bound to a const, let or var, or of a class (thisMethod), which
// declares key (markupparam.go reads the calls of that method, this.key(…) among them).
func (r *rewrite) thisRead(this, end int) bool {
	s := r.s
	if end != this+2 || !s.is(this+1, ".") && !s.is(this+1, "?.") {
		return false
	}
	key := s.text(end)
	for b := s.enclosing(this); b >= 0; b = s.enclosing(b) {
		if !s.is(b, "{") {
			continue
		}
		if _, class := s.classOf(b); class {
			ok, static := s.thisMethod(this, b, true)
			return ok && s.readMember(b, key, static, true)
		}
		if !s.is(b-1, "=") || !s.is(b-3, "const") && !s.is(b-3, "let") && !s.is(b-3, "var") {
			continue
		}
		if ok, _ := s.thisMethod(this, b, false); !ok {
			continue
		}
		return s.readMember(b, key, false, false)
	}
	return false
}

// fieldNamed reads the function a class's field is given, where the significant token eq is
// the '=' of key = (…) => …, key = function (…) (static too): the instance's key (the
// class's, static), called as a method is (C.key(…), new C().key(…), this.key(…)).
func (s *script) fieldNamed(eq int) (ownFunction, bool) {
	key := eq - 1
	brace := s.enclosing(key)
	if !js.IsIdentifierName(s.tok(key).tt) || brace < 1 || !s.is(brace, "{") {
		return ownFunction{}, false
	}
	class, ok := s.classOf(brace)
	if !ok {
		return ownFunction{}, false
	}
	static := s.is(key-1, "static")
	before := key - 1
	if static {
		before--
	}
	if !s.is(before, "{") && !s.is(before, "}") && !s.is(before, ";") {
		return ownFunction{}, false
	}
	n, known := s.binding(class)
	if !known || n.Free || n.Written {
		return ownFunction{}, false
	}
	return ownFunction{name: class, object: -1, class: brace, key: s.text(key), static: static}, true
}

// readMember reports whether the member key (static or not) of the object literal or class
// body whose '{' is brace is a function whose calls markupparam.go reads: a method key(…) { …
// } (async, a generator), an object literal's key: function (…), key: (…) => …, a class's
// field key = (…) => …; not an accessor (get key(), whose value the getter gives), a field
// given another value, a shorthand.
func (s *script) readMember(brace int, key string, static, class bool) bool {
	// fn reports whether the value at v is a function written there.
	fn := func(v int) bool {
		if s.is(v, "async") {
			v++
		}
		return s.is(v, "function") || js.IsIdentifier(s.tok(v).tt) && s.is(v+1, "=>") || s.is(v, "(") && s.pair[v] > v && s.is(s.pair[v]+1, "=>")
	}
	if !class {
		for _, e := range s.split(brace+1, s.pair[brace]) {
			k := e[0]
			for s.is(k, "async") || s.is(k, "*") {
				k++
			}
			if (s.is(k, "get") || s.is(k, "set")) && s.is(k+1, key) && s.is(k+2, "(") {
				return false // an accessor
			}
			if name, ok := s.keyText(k); !ok || name != key || k+1 >= e[1] {
				continue
			}
			return s.is(k+1, "(") || s.is(k+1, ":") && fn(k+2)
		}
		return false
	}
	for k := brace + 1; k < s.pair[brace]; k++ {
		if p := s.pair[k]; p > k {
			k = p
			continue
		}
		if !s.is(k, key) {
			continue
		}
		head := k
		for s.is(head-1, "async") || s.is(head-1, "*") || s.is(head-1, "get") || s.is(head-1, "set") {
			head--
		}
		st := s.is(head-1, "static")
		if st {
			head--
		}
		if !s.is(head-1, "{") && !s.is(head-1, "}") && !s.is(head-1, ";") || st != static {
			continue
		}
		if s.is(k-1, "get") || s.is(k-1, "set") {
			return false // an accessor
		}
		return s.is(k+1, "(") || s.is(k+1, "=") && fn(k+2)
	}
	return false
}

// thisPath reports whether the significant tokens v are this and members read from it by
// names: this.put, this.ui.put.
func (s *script) thisPath(v [2]int) bool {
	k := v[0] + 1
	for k+1 < v[1] && (s.is(k, ".") || s.is(k, "?.")) && js.IsIdentifierName(s.tok(k+1).tt) {
		k += 2
	}
	return k == v[1] && k > v[0]+1
}

// platformMethod reports whether key is a method an instance of the class imp's module
// exports (at keys, for a namespace) inherits from the platform: the class, declared there,
// declares no member key, and extends nothing (Object.prototype's) or a global of the page
// (HTMLElement's). A class that extends another of the app's, or a package's, is not: its
// key is that class's, which the build does not read.
func (r *rewrite) platformMethod(imp importBinding, keys []string, key string) bool {
	export := imp.name
	if export == "*" {
		if len(keys) != 1 {
			return false
		}
		export = keys[0]
	} else if len(keys) != 0 {
		return false
	}
	path, ok := r.b.barrelTarget(r.resolve, r.file, imp.module)
	if !ok {
		return false
	}
	x := r.module(path)
	if x == nil {
		return false
	}
	v, _, _ := x.exportedValue(export)
	if v < 0 || v >= len(x.sig) || !x.is(v, "class") {
		return false
	}
	body := v + 1
	for body < len(x.sig) && !x.is(body, "{") {
		body++
	}
	if body >= len(x.sig) || x.pair[body] < body {
		return false
	}
	if x.overrides(body, ownFunction{key: key}) || x.overrides(body, ownFunction{key: key, static: true}) {
		return false // its own member (read, or refused where the build cannot read it)
	}
	for k := range x.sig {
		if x.is(k, "prototype") && (x.is(k+1, "[") || (x.is(k+1, ".") || x.is(k+1, "?.")) && x.is(k+2, key)) || x.is(k, "setPrototypeOf") || x.is(k, "__proto__") {
			return false // View.prototype.key = …: the module gives the class's key
		}
	}
	for k := body; k < x.pair[body]; k++ {
		if x.tok(k).tt != js.ThisToken {
			continue
		}
		// this.key = …, this[…], Object.assign(this, …): an own property the instance
		// may be given by key.
		if x.is(k+1, "[") || x.is(k-1, "(") || x.is(k-1, ",") || (x.is(k+1, ".") || x.is(k+1, "?.")) && x.is(k+2, key) && !x.is(k+3, "(") {
			return false
		}
	}
	for k := v + 1; k < body; k++ {
		if x.is(k, "extends") {
			return js.IsIdentifier(x.tok(k+1).tt) && x.global(k+1) && isPlatformGlobal(x.text(k+1)) && x.is(k+2, "{")
		}
	}
	return true
}

// inheritedImport reads C.key(…), where the name at the significant token root is a class the
// script declares that extends a class an import gives (class Mine extends View) and declares
// no static member key (keys, one): the static method C inherits, the import's; it returns
// the import and the key path from it.
func (r *rewrite) inheritedImport(root int, keys []string) (importBinding, []string, bool) {
	s := r.s
	if len(keys) != 1 || keys[0] == "call" || keys[0] == "apply" || keys[0] == "bind" {
		return importBinding{}, nil, false
	}
	body, ok := s.classBody(s.bindingOf(root))
	if !ok || s.overrides(body, ownFunction{key: keys[0], static: true}) {
		return importBinding{}, nil, false
	}
	ext := -1
	for k := body - 1; k > 0 && k > body-64; k-- {
		if s.is(k, "extends") {
			ext = k
			break
		}
		if s.is(k, "class") {
			break
		}
	}
	if ext < 0 {
		return importBinding{}, nil, false
	}
	sup, supKeys, ok := s.memberPath(body - 1)
	if !ok || sup != ext+1 {
		return importBinding{}, nil, false
	}
	imp, ok := r.importOf(sup)
	if !ok || !isAppSpec(imp.module) {
		return importBinding{}, nil, false
	}
	return imp, append(supKeys, keys[0]), true
}
