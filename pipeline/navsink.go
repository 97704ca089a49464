package pipeline

import (
	"fmt"

	"github.com/miniapp/bundle/offline"
	"github.com/tdewolff/parse/v2/js"
)

// Navigation to a javascript: URL a script starts. The page as written runs the URL's code
// (in itself, or in the window it opens); the bundle's policy blocks it: a javascript: URL is
// code by URL, which only script-src 'unsafe-inline' allows (CSP 3, "should navigation request
// of type be blocked by Content Security Policy?"), and a window the page opens, about:blank,
// has the page's policy. The sinks are the page's location (or a same-origin frame's) assigned
// (location = url, window.location = url, document.location = url, location.href = url),
// location.assign and location.replace, and window.open (and open, document.open given
// three arguments, which opens a window as window.open does), each on the page's object by
// the binding of the name it is reached through (receivers.go). Where the URL is a constant
// (tagname.go's reading) and a javascript: URL, the build refuses it at the value.

// navSink reads the navigation at the significant token i: the sink as the message says it,
// the URL's tokens, and whether it opens a window.
func (s *script) navSink(i int) (sink string, arg [2]int, opens, ok bool) {
	if js.IsIdentifier(s.tok(i).tt) && !s.is(i-1, ".") && !s.is(i-1, "?.") {
		// A global's name: location = url, open(url); or a method bound (methodCall). In a
		// with statement's body, the name of its object's property (withObject): with
		// (location) { href = url }, with (document) location = url.
		args, call := s.callAt(i + 1)
		switch obj := s.withObject(i); {
		case obj == pageLocation && s.is(i, "href", "="):
			return "location.href = …", [2]int{i + 2, s.expressionEnd(i + 2)}, false, true
		case obj == pageLocation && (s.is(i, "assign") || s.is(i, "replace")) && call && len(args) > 0:
			return "location." + s.text(i) + "(…)", args[0], false, true
		case obj == pageDocument && s.is(i, "open") && call && len(args) >= 3:
			return "window.open(…)", args[0], true, true
		case obj != notPageObject && s.is(i, "location", "="):
			return "location = …", [2]int{i + 2, s.expressionEnd(i + 2)}, false, true
		case obj != notPageObject && obj != pageWindow:
			return "", arg, false, false // another property of the object's
		}
		switch {
		case s.is(i, "location", "=") && s.global(i):
			return "location = …", [2]int{i + 2, s.expressionEnd(i + 2)}, false, true
		case s.is(i, "open") && s.global(i):
			if call && len(args) > 0 {
				return "open(…)", args[0], true, true
			}
			return "", arg, false, false
		}
	} else if prop, objEnd, after, member := s.memberAt(i); member && s.is(after, "=") && (prop == "location" || prop == "href") {
		switch obj := s.objectAt(objEnd, 0); {
		case prop == "location" && (obj == pageWindow || obj == pageDocument):
			return "location = …", [2]int{after + 1, s.expressionEnd(after + 1)}, false, true
		case prop == "href" && obj == pageLocation:
			return "location.href = …", [2]int{after + 1, s.expressionEnd(after + 1)}, false, true
		}
		return "", arg, false, false
	}
	prop, recvEnd, args, call := s.methodCall(i)
	if !call || len(args) == 0 || prop != "assign" && prop != "replace" && prop != "open" {
		return "", arg, false, false
	}
	switch obj := s.objectAt(recvEnd, 0); {
	case (prop == "assign" || prop == "replace") && obj == pageLocation:
		return "location." + prop + "(…)", args[0], false, true
	case prop == "open" && (obj == pageWindow || obj == pageDocument && len(args) >= 3):
		return "window.open(…)", args[0], true, true
	}
	return "", arg, false, false
}

// checkNav refuses, at the URL, a navigation to a javascript: URL (navSink, at the significant
// token i) that the bundle's policy blocks, where the page as written runs its code.
func (r *rewrite) checkNav(i int) {
	s := r.s
	sink, arg, opens, ok := s.navSink(i)
	if !ok || arg[0] >= arg[1] {
		return
	}
	urls, data, known := s.values(arg[0], arg[1])
	if !known {
		return
	}
	judge := func(urls []string) (markupFinding, bool) {
		for _, u := range urls {
			if offline.Scheme(u) != "javascript" {
				continue
			}
			where, note := "in the page", "call the code instead of navigating to it: write what the URL runs as a function and call it"
			if opens {
				where = "in the window it opens (about:blank, which has the page's policy)"
				note = "open the window without the URL (const w = window.open()) and act on it from the page's code, or call the code directly"
			}
			return markupFinding{what: fmt.Sprintf("a javascript: URL (%q), whose code the page as written runs %s and the bundle's policy blocks: a javascript: URL is code by URL, which its script-src does not allow", u, where), note: note}, true
		}
		return markupFinding{}, false
	}
	if f, blocked := judge(urls); blocked {
		r.errAt(arg[0], fmt.Sprintf("%s navigates to %s%s", sink, f.what, dataSaid(data)), f.note)
	} else if data {
		r.checkParams(sink, [][2]int{arg}, judge)
	}
}
