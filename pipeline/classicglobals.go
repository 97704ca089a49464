package pipeline

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
)

// Markup given to a function another classic script of the page declares. A page's classic
// scripts share one global scope (HTML's script-level environment is the global object's): a
// function one declares at its top level (function put(…) { … }, var put = (…) => …) is the
// global another calls by its name, put(el, "<img src=x onerror=go()>"), which the name's
// binding there says is the global's (free). Once the page's classic scripts are all known,
// each such call whose arguments might hold what the policy blocks (givenValues) is read into
// the script that declares the function, as an imported function is (seededCall); the last
// script to declare the name is the one whose function the global holds once all have run.
// A property of the global object another script assigns a function (window.put = …,
// App.render = …) is read so too (globalfns.go).

// classicScript is a classic script of the page: its file (or the page, for one written in
// it, at textOff) and its text.
type classicScript struct {
	rel, text string
	inline    bool
	textOff   int
}

// checkGlobalCalls reads the calls each classic script of the page makes of a function
// another declares or assigns to the global object, and those the app's modules make
// (noteModuleGlobals), and adds their refusals to the page's messages.
func (a *assembler) checkGlobalCalls() {
	if a.b == nil {
		return
	}
	read := make([]*script, len(a.classics))
	get := func(k int) *script {
		if read[k] == nil {
			read[k], _ = readScript(a.abs(k), a.classics[k].text, api.LoaderJS)
		}
		return read[k]
	}
	// unseen says of a name no script of the page gives why what gives the function a call
	// of it reaches is out of the build's sight: not the platform's; an element's id or name
	// (the global object's named properties: <p id="out"> makes out the element, <form
	// name="f"> f; windowNames) where the member called is none of an element's, or the
	// name is a frame's (unseenMember); else a name Chromium has not, which a feature test
	// makes another browser's.
	unseen := func(root string, path []string) (why, fix string, testable bool) {
		if isPlatformGlobal(root) {
			return "", "", false
		}
		if n, ok := a.pageNames[root]; ok {
			why, fix = n.unseenMember(path)
			return why, fix, false
		}
		return "no script of the page gives " + root + ", and Chromium has no global " + root +
				" (the build knows the platform's globals as Chromium has them, and which browser the host runs is unknown): another browser's (Safari's, Firefox's), or given by what the build cannot see (another frame, an extension, Object.assign(window, …))",
			"where it is another browser's, feature-test it (if (typeof " + root + " !== \"undefined\") …, or \"" + root + "\" in window), and the build reads it as that browser's; else give it in a script of the page",
			true
	}
	// others returns the page's classic scripts but the skip-th, as checkGlobalCall reads them.
	others := func(skip int) []globalScript {
		var in []globalScript
		for m := range a.classics {
			if m == skip {
				continue
			}
			where := filepath.Base(a.classics[m].rel)
			if a.classics[m].inline {
				where = "a script of the page"
			}
			if x := get(m); x != nil {
				in = append(in, globalScript{x: x, where: where, classic: true})
			}
		}
		return in
	}
	// The app's modules: their calls of globals, and the globals they give (they run after
	// the classic scripts, deferred, and read the same global object).
	var files []string
	a.b.moduleGlobals.Range(func(k, _ any) bool {
		files = append(files, k.(string))
		return true
	})
	slices.Sort(files) // the same messages, in the same order, each build
	var modules []globalScript
	for _, name := range files {
		v, _ := a.b.moduleGlobals.Load(name)
		if mc := v.(moduleGlobalCalls); mc.gives {
			where := filepath.Base(mc.file)
			if name != mc.file {
				where = "a script of the page"
			}
			modules = append(modules, globalScript{x: mc.s, where: where})
		}
	}
	for k, c := range a.classics {
		if !mayHoldText(c.text) {
			continue
		}
		s := get(k)
		if s == nil {
			continue
		}
		r := &rewrite{b: a.b, file: a.abs(k), s: s}
		in := append(others(k), modules...)
		for i := 1; i < len(s.sig); i++ {
			r.checkGlobalCall(i, in, true, unseen)
		}
		l := a.b.messages(r.errs, diag.Error)
		if c.inline {
			l = a.shift(l, c.textOff)
		}
		a.list = append(a.list, l...)
	}
	var in []globalScript
	for _, file := range files {
		v, _ := a.b.moduleGlobals.Load(file)
		mc := v.(moduleGlobalCalls)
		if len(mc.calls) == 0 {
			continue
		}
		if in == nil {
			in = append(others(-1), modules...)
		}
		r := &rewrite{b: a.b, file: mc.file, s: mc.s}
		for _, i := range mc.calls {
			r.checkGlobalCall(i, in, false, unseen)
		}
		if file == mc.file {
			a.list = append(a.list, a.b.messages(r.errs, diag.Error)...)
			continue
		}
		// A module script written in the page: placed in the page, at the script.
		for k := range r.errs {
			if r.errs[k].Location != nil {
				r.errs[k].Location.File = file
			}
		}
		a.list = append(a.list, a.graphMessages(r.errs, diag.Error)...)
	}
}

// abs returns the path of the k-th classic script's file (the page's, for one written in it).
func (a *assembler) abs(k int) string {
	return filepath.Join(a.b.root, filepath.FromSlash(a.classics[k].rel))
}

// mayHoldText reports whether a script's text might hold a value mayHold follows: a tag, a
// javascript: URL, a handler's name.
func mayHoldText(text string) bool {
	lower := strings.ToLower(text)
	return strings.Contains(text, "<") || strings.Contains(lower, "javascript:") || strings.Contains(lower, "\"on") || strings.Contains(lower, "'on") || strings.Contains(lower, "`on")
}

// globalDecl reports whether binding is declared at the script's top level by a function
// declaration or var (a global object's property), or let or const (the global lexical
// scope, which the page's classic scripts share too).
func (s *script) globalDecl(binding int) bool {
	refs := s.references(binding)
	return len(refs) > 0 && s.enclosing(refs[0]) < 0
}
