package pipeline

import (
	"slices"
	"strings"

	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/net/html/atom"
)

// Markup given to a function a property of the global object holds. A name no declaration
// binds reads the global object's property (window.put = function (m) { … } makes put(…)
// and window.put(…) call it), and a member path from one reads its properties (App.render =
// function (el, m) { … }, then App.render(el, markup)). Where a script of the page assigns a
// function to the path a call reads (window.X, globalThis.X, self.X or X itself, X free; in
// a classic script, X may be a name its top level declares, the page's global too), the
// call's arguments are read into that function as an imported function's are (seededCall).
// Where a script gives the name (assigns it or a property of it, or declares it at a classic
// script's top level) and the build cannot read which function the call reaches (jQuery's
// $.fn.put = function (m) { … } then $("#x").put(markup): $.fn is the prototype of what $(…)
// returns only when the code that runs says so), the markup is refused if it holds what the
// policy blocks: the page as written may run it, and the build cannot say it does not.

// globalWindows are the names the global object is read by in a page: its window, its
// globalThis, its self.
var globalWindows = map[string]bool{"window": true, "globalThis": true, "self": true}

// globalPath reads the callee whose last significant token is end as a path of the global
// object's properties: put, window.put, App.render, self.App.render (a name no declaration
// binds, or, classic, one the script's top level declares); its root's name where the
// callee's chain holds a call or an index (root, path nil), or ok false.
func (s *script) globalPath(end int, classic bool) (root string, path []string, ok bool) {
	start, chain := s.chainRoot(end)
	if !chain || !s.globalName(start, classic) {
		return "", nil, false
	}
	window := globalWindows[s.text(start)] && s.global(start)
	r, keys, plain := s.memberPath(end)
	switch {
	case plain && r == start && window && len(keys) > 0:
		return keys[0], keys, true // window.put, window["put"]
	case plain && r == start:
		return s.text(start), append([]string{s.text(start)}, keys...), true
	case window && (s.is(start+1, ".") || s.is(start+1, "?.")) && js.IsIdentifierName(s.tok(start+2).tt):
		return s.text(start + 2), nil, true // window.$(…).put
	}
	return s.text(start), nil, true
}

// globalName reports whether the name at the significant token k reads the page's global:
// free, or, in a classic script, declared at its top level.
func (s *script) globalName(k int, classic bool) bool {
	if s.is(k-1, ".") || s.is(k-1, "?.") || s.is(k, "this") {
		return false
	}
	if s.global(k) {
		_, args := s.ownFunction(k) // a function's arguments object (unreadcallee.go)
		return !s.is(k, "arguments") || !args
	}
	n, known := s.binding(k)
	return classic && known && s.globalDecl(n.Binding) && n.Decl != js.ArgumentDecl
}

// globalValue returns the first significant token of the value the script last gives a
// prefix of the global path (an assignment path = value, or, classic, a top-level declaration
// of its first name: decl), and the keys of path after that prefix. gives reports whether the
// script gives path's first name a value the call may reach: the name itself, a path to key
// (the call's last key: $.fn.put for $(…).put), or a prefix of path.
func (s *script) globalValue(path []string, key string, classic bool) (v int, rest []string, decl, gives bool) {
	v = -1
	if !strings.Contains(string(s.js), path[0]) {
		return v, nil, false, false
	}
	if classic {
		if init := s.declInit(path[0]); init >= 0 {
			v, rest, decl, gives = init, path[1:], true, true
		}
	}
	for _, a := range s.globalAssigns(classic) {
		p := a.path
		if p[0] != path[0] {
			continue
		}
		if len(p) == 1 || p[len(p)-1] == key {
			gives = true
		}
		if len(p) <= len(path) && slices.Equal(p, path[:len(p)]) {
			v, rest, decl, gives = a.value, path[len(p):], false, true
		}
	}
	return v, rest, decl, gives
}

// globalAssign is an assignment of a global path: path = value, value its first token.
type globalAssign struct {
	path  []string
	value int
}

// globalAssigns returns the assignments of global paths the script makes, in order, read
// once (classic: as a classic script, whose top-level names are the global's).
func (s *script) globalAssigns(classic bool) []globalAssign {
	c := 0
	if classic {
		c = 1
	}
	if s.assigned[c] {
		return s.assigns[c]
	}
	s.assigned[c] = true
	for e := 1; e < len(s.sig); e++ {
		if s.tok(e).tt != js.EqToken || declares(s, e-1) {
			continue // a declaration's: declInit's
		}
		if _, p, ok := s.globalPath(e-1, classic); ok && p != nil {
			s.assigns[c] = append(s.assigns[c], globalAssign{p, e + 1})
		}
	}
	return s.assigns[c]
}

// globalScript is a script of the page a call of a global is read into: its reading, where
// it is (for the message), and whether it is classic (its top level is the global's).
type globalScript struct {
	x       *script
	where   string
	classic bool
}

// checkGlobalCall reads the call whose '(' is the significant token i of the script, a call
// of a property of the global object, into the scripts in that give it, the last first: the
// function the path reads, read with the call's arguments (seededCall); or, where one gives
// the name but the build cannot read the function the call reaches, a refusal of an argument
// holding what the policy blocks. skipOwn leaves a call of a global the script gives itself.
// Where in holds every script of the page that may give it, unseen says of a call of a name no
// script gives why the build cannot see what gives the function it calls (not the platform's,
// platformglobals.go, nor an element's member, unseenMember), the fix, and whether a feature
// test of the name makes it another browser's: its call is refused so too. It is nil otherwise.
func (r *rewrite) checkGlobalCall(i int, in []globalScript, skipOwn bool, unseen func(root string, path []string) (why, fix string, testable bool)) {
	s := r.s
	if !s.is(i, "(") || i < 1 || s.is(i-1, "function") || s.is(i-2, "function") {
		return
	}
	root, path, ok := s.globalPath(i-1, false)
	if !ok {
		return
	}
	args := s.spreadArgs(s.args(i))
	given := s.givenValues(args)
	if given == nil || skipOwn && s.givesCall(i) {
		return // nothing to follow, or the script's own, which the transforms read
	}
	key := s.text(i - 1)
	gives := ""
	for m := len(in) - 1; m >= 0 && gives == ""; m-- {
		g := in[m]
		if path == nil {
			if _, _, _, ok := g.x.globalValue([]string{root}, key, g.classic); ok {
				gives = g.where
			}
			continue
		}
		v, rest, decl, ok := g.x.globalValue(path, key, g.classic)
		if !ok {
			continue
		}
		if v >= 0 {
			if slots, ok := g.x.valueSlots(v, rest, 0); ok {
				how := "assigned in "
				if decl && len(rest) == 0 {
					how = "declared in "
				}
				r.seededCall(args, given, g.x, slots, s.calleeText(i-1)+"(…), "+how+g.where+",")
				return
			}
		}
		gives = g.where
	}
	switch {
	case gives != "":
		r.refuseUnread(args, s.calleeText(i-1)+"(…)", "the build cannot read which function it calls ("+root+" is given in "+gives+")")
	case unseen != nil:
		why, fix, testable := unseen(root, path)
		if why == "" {
			return
		}
		if start, _ := s.chainRoot(i - 1); testable && s.featureTested(start, root) {
			if !s.givesUnseen(root) && !slices.ContainsFunc(in, func(g globalScript) bool { return g.x.givesUnseen(root) }) {
				return // another browser's, where it has it: the platform's there
			}
			why = "the page's feature test of " + root + " says nothing of the browser, as a script of the page may give " + root +
				" where the build does not read it (Object.assign(window, …), window[name] = …, an element it gives the id or name " + root + ")"
			fix = "give " + root + " in a script of the page by a name the build reads (window." + root + " = …, or a declaration)"
		}
		r.refuseUnreadFix(args, s.calleeText(i-1)+"(…)", why, fix)
	}
}

// givesCall reports whether the script gives the global the call whose '(' is the
// significant token i reads (checkGlobalCall): its own reading says what it calls.
func (s *script) givesCall(i int) bool {
	root, path, ok := s.globalPath(i-1, false)
	if !ok {
		return false
	}
	if path == nil {
		path = []string{root}
	}
	_, _, _, gives := s.globalValue(path, s.text(i-1), false)
	return gives
}

// refuseUnread refuses, at the argument, a constant given to code the build cannot read (fn
// names the call) that holds markup with what the policy blocks (an inline event handler, a
// javascript: URL, read by the fragment parsing algorithm) or is a javascript: URL: the page
// as written runs it where that code parses it into the page or navigates to it, and the build
// cannot say it does not. why says what the build cannot read.
func (r *rewrite) refuseUnread(args [][2]int, fn, why string) {
	r.refuseUnreadFix(args, fn, why, "")
}

// refuseUnreadFix is refuseUnread with fix, where it is not "", the fix the message gives
// before the markup's own.
func (r *rewrite) refuseUnreadFix(args [][2]int, fn, why, fix string) {
	s := r.s
	for _, a := range args {
		values, data, known := s.values(a[0], a[1])
		if !known {
			continue
		}
		for _, v := range values {
			f, blocked := blockedInMarkup(v, false, atom.Body)
			if !blocked && offline.Scheme(strings.TrimSpace(v)) == "javascript" {
				f, blocked = blockedAttr("href", v)
			}
			if blocked {
				note := f.note + " (or, with a package, its own: jQuery's .on(…)), and the markup has nothing the policy blocks"
				if fix != "" {
					note = fix + "; or " + note
				}
				r.errAt(a[0], "the markup given to "+fn+" holds "+f.what+dataSaid(data)+": "+why+", and where it parses the markup into the page (as jQuery's .html does) the page as written runs it and the built page does not", note)
				return
			}
		}
	}
}

// calleeText writes the callee whose last significant token is end as a path, its calls and
// indexes shortened: $(…).put, lib.render, a[…].b.
func (s *script) calleeText(end int) string {
	var parts []string
	for k := end; k >= 0; {
		t := s.tok(k)
		switch {
		case js.IsIdentifierName(t.tt) && (s.is(k-1, ".") || s.is(k-1, "?.")):
			parts = append(parts, s.text(k-1)+s.text(k))
			k -= 2
		case js.IsIdentifier(t.tt):
			parts = append(parts, s.text(k))
			k = -1
		case t.tt == js.CloseParenToken || t.tt == js.CloseBracketToken:
			open := s.opener(k)
			if open < 1 {
				k = -1
				break
			}
			parts = append(parts, s.text(open)+"…"+s.text(k))
			k = open - 1
			if s.is(k, "?.") {
				parts = append(parts, "?.")
				k--
			}
		default:
			k = -1
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, "")
}

// moduleGlobalCalls are the calls of globals a module makes whose global it does not give itself
// (checkGlobalCall reads them into the page's other scripts): its reading, each call's '(',
// and whether it gives a global path itself (window.lib = …), which the page's other
// scripts' calls may reach.
type moduleGlobalCalls struct {
	file  string
	s     *script
	calls []int
	gives bool
}

// noteModuleGlobals keeps the calls of globals the module script s (at file, named name as
// esbuild names it: a module script written in the page is inlineNamespace:key.j) makes with
// an argument holding what a function might give a sink, whose global it does not give
// itself, for the page's other scripts to be read against (checkGlobalCalls), and whether it
// gives a global; a module read again replaces what it kept.
func (b *bundler) noteModuleGlobals(file, name string, s *script) {
	var calls []int
	for i := 1; i < len(s.sig); i++ {
		if !s.is(i, "(") || s.is(i-1, "function") || s.is(i-2, "function") {
			continue
		}
		if _, _, ok := s.globalPath(i-1, false); !ok || s.givenValues(s.spreadArgs(s.args(i))) == nil || s.givesCall(i) {
			continue
		}
		calls = append(calls, i)
	}
	gives := len(s.globalAssigns(false)) > 0 || s.writesGlobals() || s.namesElement("") // the latter two, for feature tests
	if calls == nil && !gives {
		b.moduleGlobals.Delete(name)
		return
	}
	b.moduleGlobals.Store(name, moduleGlobalCalls{file, s, calls, gives})
}

// mayGiveGlobal reports whether a module's text might give the global object a property: a
// module's code is strict, where a name no declaration binds cannot be assigned, so it names
// the global object (window.lib = …, globalThis, self).
func mayGiveGlobal(src string) bool {
	for w := range globalWindows {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}
