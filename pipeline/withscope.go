package pipeline

import "github.com/tdewolff/parse/v2/js"

// A with statement's object is the first place its body's names are looked up (ECMAScript's
// object environment record: HasBinding is HasProperty on the object), before any binding
// around the statement: in with (location) { href = url } the name href is location.href, and
// in with (document) write(markup) the call is document.write's, on the document (the with
// object is the call's this). The page's objects are read so (withObject), by the properties
// the sinks read; a with statement whose object is not one of them is passed over, as the
// name may be the object's or not (the name is then read as without it, erring on the side
// of refusing).

// withProps are the properties of the page's objects a name in a with statement's body may
// read, beside those member gives: the sinks' methods and properties.
var withProps = map[pageObject]map[string]bool{
	pageLocation: {"href": true, "assign": true, "replace": true},
	pageDocument: {"write": true, "writeln": true, "open": true},
	pageWindow:   {"open": true, "eval": true, "Function": true, "setTimeout": true, "setInterval": true},
}

// withObject returns the page object whose property the name at the significant token i
// (not a member's name) reads, where i is in the body of a with statement whose object is
// that page object and has the property (the innermost such statement).
func (s *script) withObject(i int) pageObject {
	if !js.IsIdentifier(s.tok(i).tt) || s.is(i-1, ".") || s.is(i-1, "?.") {
		return notPageObject
	}
	if s.withs == nil {
		s.withs = [][3]int{}
		for k := range s.sig {
			if !s.is(k, "with", "(") || s.pair[k+1] < 0 {
				continue
			}
			body := s.pair[k+1] + 1
			end := s.pair[body]
			if !s.is(body, "{") || end < 0 {
				end = s.expressionEnd(body) // a statement of its own: to its end
			}
			s.withs = append(s.withs, [3]int{k + 1, body, end})
		}
	}
	name := s.text(i)
	for k := len(s.withs) - 1; k >= 0; k-- { // the innermost first: it starts later
		w := s.withs[k]
		if i < w[1] || i > w[2] {
			continue
		}
		obj := s.objectAt(s.pair[w[0]]-1, 0)
		if obj != notPageObject && (withProps[obj][name] || member(obj, name) != notPageObject) {
			return obj
		}
	}
	return notPageObject
}
