package pipeline

import (
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestCreatesScript reads the name given to createElement and createElementNS as the DOM
// does when the call runs: "may" where the element may be a script (refused), "unknown" where
// the build cannot read the name (a document's is warned of), "no" where it is never one.
func TestCreatesScript(t *testing.T) {
	for _, r := range []struct{ name, src, want string }{
		{"literal", `document.createElement("script")`, "may"},
		{"upper case, lowercased in an HTML document", `document.createElement("SCRIPT")`, "may"},
		{"long s is no s to ASCII lowercase", `document.createElement("\u017fcript")`, "no"},
		{"long s upper-cased by JavaScript", `document.createElement("\u017fcript".toUpperCase())`, "may"},
		{"dotted I lower-cased by JavaScript is no i", `document.createElement("SCR\u0130PT".toLowerCase())`, "no"},
		{"concatenation", `document.createElement("scr" + "ipt")`, "may"},
		{"three parts", `document.createElement("s" + "cr" + "ipt")`, "may"},
		{"template", "document.createElement(`scr${\"ip\"}t`)", "may"},
		{"template, two substitutions", "document.createElement(`${\"s\"}cr${\"ip\"}t`)", "may"},
		{"a const", `const tag = "scr" + "ipt"; document.createElement(tag)`, "may"},
		{"a const of a const", `const a = "SCR"; const tag = a + "IPT"; document.createElement(tag.toLowerCase())`, "may"},
		{"a choice", `document.createElement(window.x ? "div" : "script")`, "may"},
		{"a choice of others", `document.createElement(window.x ? "div" : "span")`, "no"},
		{"or", `document.createElement(window.tag || "script")`, "unknown"},
		{"or, constants", `document.createElement(("" || "script"))`, "may"},
		{"a div", `document.createElement("div")`, "no"},
		{"a parameter", `function h(tag) { return document.createElement(tag); }`, "unknown"},
		{"a parameter shadowing a const", `const tag = "script"; function h(tag) { return document.createElement(tag); }`, "unknown"},
		{"an arrow's parameter", `const tag = "script"; const h = (tag) => document.createElement(tag);`, "unknown"},
		{"a let written nowhere else", `let tag = "script"; document.createElement(tag)`, "may"},
		{"a var in a list", `var a = 1, tag = "scr" + "ipt"; document.createElement(tag)`, "may"},
		{"a let written again", `let tag = "script"; tag = window.x; document.createElement(tag)`, "unknown"},
		{"a var declared twice", `var tag = "script"; var tag = window.x; document.createElement(tag)`, "unknown"},
		{"a let updated", `let tag = "script"; tag += "s"; document.createElement(tag)`, "unknown"},
		{"a let in a pattern's assignment", `let tag = "script"; [tag] = list; document.createElement(tag)`, "unknown"},
		{"a for-of const", `for (const tag of ["div", "script"]) document.createElement(tag);`, "unknown"},
		{"a const used in an if", `const tag = "script"; if (tag) { document.createElement(tag); }`, "may"},
		{"HTML namespace", `document.createElementNS("http://www.w3.org/1999/xhtml", "script")`, "may"},
		{"SVG namespace, prefixed", `document.createElementNS("http://www.w3.org/2000/svg", "svg:script")`, "may"},
		{"HTML namespace, upper case is unknown to HTML", `document.createElementNS("http://www.w3.org/1999/xhtml", "SCRIPT")`, "no"},
		{"another namespace", `document.createElementNS("http://www.w3.org/1998/Math/MathML", "script")`, "no"},
		{"namespace unknown", `document.createElementNS(ns, "script")`, "unknown"},
		{"a computed member", `document["create" + "Element"]("script")`, "may"},
		{"optionally chained", `doc?.createElement?.("script")`, "may"},
		{"a const shadowed by a block's", `const tag = "script"; { const tag = "div"; document.createElement(tag); }`, "no"},
	} {
		t.Run(r.name, func(t *testing.T) {
			s, err := readScript("main.js", r.src, api.LoaderJS)
			if err != nil || s == nil {
				t.Fatalf("read: %v", err)
			}
			got := "none"
			for i := range s.sig {
				if prop := createElementAt(s, i); prop != "" {
					_, _, after, _ := s.memberAt(i)
					args, _ := s.callAt(after)
					switch may, known := s.createsScript(args, prop == "createElementNS"); {
					case may:
						got = "may"
					case !known:
						got = "unknown"
					default:
						got = "no"
					}
				}
			}
			if got != r.want {
				t.Errorf("%s: got %s, want %s", r.src, got, r.want)
			}
		})
	}
}
