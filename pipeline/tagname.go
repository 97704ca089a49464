package pipeline

import (
	"slices"
	"strings"

	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/miniapp/bundle/markup"
	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// What element a page's createElement makes. A <script> the page makes runs its text or its
// src, neither of which the bundle's policy allows, so the build refuses a call that makes
// one, at its place. The browser decides by the name's value when the call runs (DOM,
// "create an element": in an HTML document createElement lowercases the name, in ASCII only,
// so "SCRIPT" makes a script and "ſcript" does not; createElementNS makes a script in the
// HTML namespace and in SVG's, by its local name exactly). The build knows that value where
// the name is a constant: a literal, a concatenation or template of constants, a choice
// between constants (?:, ||, ??, &&), a const bound to one (by the file's scopes: receivers.go's
// binding), and their
// toLowerCase()/toUpperCase(). A name that may be "script" is refused (the page as written
// runs that script, the built page blocks it). A name only the run knows is data, as a value
// only the run knows is at every sink (values): no message. An app's own renderer (h(tag, …))
// makes elements by computed names, and a warning would be on every such app for what it
// may never do.

// scriptNamespaces are the namespaces in which createElementNS makes an element that runs.
var scriptNamespaces = []string{"http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg"}

// maxNames bounds the values a constant name is read as (the choices multiply).
const maxNames = 64

// names returns the values the expression of the significant tokens [i, j) may have, when
// each is a constant string the build can read; ok is false when one is not.
func (s *script) names(i, j, depth int) (out []string, ok bool) {
	if i >= j || depth > 8 {
		return nil, false
	}
	// A choice: cond ? a : b, a || b, a ?? b (the lowest precedence first).
	if q := s.topLevel(i, j, js.QuestionToken); q > 0 {
		c := s.colon(q, j)
		if c < 0 {
			return nil, false
		}
		return s.union(q+1, c, c+1, j, depth)
	}
	for _, op := range []js.TokenType{js.OrToken, js.NullishToken, js.AndToken} {
		if k := s.topLevel(i, j, op); k > 0 {
			return s.union(i, k, k+1, j, depth) // a && b is a where a is falsy
		}
	}
	if k := s.topLevel(i, j, js.AddToken); k > 0 {
		a, ok := s.names(i, k, depth+1)
		if !ok {
			return nil, false
		}
		b, ok := s.names(k+1, j, depth+1)
		if !ok || len(a)*len(b) > maxNames {
			return nil, false
		}
		for _, x := range a {
			for _, y := range b {
				out = append(out, x+y)
			}
		}
		return out, true
	}
	t := s.tok(i)
	switch {
	case j == i+1 && (t.tt == js.StringToken || t.tt == js.TemplateToken):
		v, err := s.str(i)
		return []string{v}, err == nil
	case t.tt == js.OpenParenToken && s.pair[i] == j-1:
		return s.names(i+1, j-1, depth+1)
	case t.tt == js.TemplateStartToken:
		return s.templateNames(i, j, depth)
	case j-i >= 4 && s.is(j-4, ".", "toLowerCase", "(", ")") || j-i >= 4 && s.is(j-4, ".", "toUpperCase", "(", ")"):
		v, ok := s.names(i, j-4, depth+1)
		if !ok {
			return nil, false
		}
		for _, x := range v {
			// JavaScript's case mappings are Unicode's full ones (SpecialCasing: "ß" to
			// "SS", "İ" to "i̇"), as x/text's for no language.
			if s.text(j-3) == "toLowerCase" {
				out = append(out, cases.Lower(language.Und).String(x))
			} else {
				out = append(out, cases.Upper(language.Und).String(x))
			}
		}
		return out, true
	case j == i+4 && js.IsIdentifier(t.tt) && s.is(i+1, "[") && js.IsNumeric(s.tok(i+2).tt) && s.is(i+3, "]"):
		// An element of what a parameter is given: a rest parameter's argument (a[0]), an
		// array literal's element.
		if n, ok := number(s.text(i + 2)); ok && n >= 0 && n < 1<<16 && n == float64(int(n)) {
			if arg, ok := s.paramElem(i, int(n)); ok {
				return s.names(arg[0], arg[1], depth+1)
			}
			// A const's array literal: the element, where the script only reads the array
			// (arrayAt); where it changes it (a push), any value it may hold (listValues).
			if lit, ok := s.arrayAt([2]int{i, i + 1}); ok {
				if e, k := s.args(lit), int(n); k < len(e) && !s.is(e[k][0], "...") && e[k][0] < e[k][1] {
					if !slices.ContainsFunc(e[:k], func(a [2]int) bool { return s.is(a[0], "...") }) {
						return s.names(e[k][0], e[k][1], depth+1)
					}
				}
			} else if vals := s.listValues([2]int{i, i + 1}); len(vals) > 0 {
				for _, v := range vals {
					if got, ok := s.names(v[0], v[1], depth+1); ok {
						out = append(out, got...)
					}
				}
				if len(out) > 0 {
					return out, true
				}
			}
		}
	case j == i+1 && js.IsIdentifier(t.tt):
		if v, ok := s.paramValue(i); ok && v.strs != nil {
			s.readData = s.readData || v.data
			return append([]string(nil), v.strs...), true // given by another module's call
		}
		if arg, ok := s.paramArg(i); ok {
			return s.names(arg[0], arg[1], depth+1)
		}
		if init, ok := s.constInitAt(i); ok {
			return s.names(init[0], init[1], depth+1)
		}
	case t.tt == js.OpenBracketToken && s.pair[i] > i && s.is(s.pair[i]+1, ".", "join", "(") && s.pair[s.pair[i]+3] == j-1:
		// An array literal's join(separator): its elements, each read so, between separators
		// ("," by default; an element that is null or undefined joins as "").
		return s.joined(i, s.pair[i], s.pair[i]+3, depth)
	case js.IsIdentifier(t.tt) && s.is(i+1, "(") && s.pair[i+1] == j-1:
		// A call of the page's own function that returns one expression: its value, the
		// parameters read as what the run gives (const tpl = (id) => `<li onclick="pick(${id})">`).
		if body, ok := s.returned(i); ok {
			return s.names(body[0], body[1], depth+1)
		}
	}
	if s.asData {
		s.readData = true
		return []string{dataPart}, true
	}
	return nil, false
}

// joined returns the values of the array literal between the significant tokens open and
// close joined by the separator given to the join call whose '(' is call.
func (s *script) joined(open, close, call, depth int) ([]string, bool) {
	seps := []string{","}
	if args := s.args(call); len(args) > 1 {
		return nil, false
	} else if len(args) == 1 {
		var ok bool
		if seps, ok = s.names(args[0][0], args[0][1], depth+1); !ok {
			return nil, false
		}
	}
	out := []string{""}
	for n, e := range s.split(open+1, close) {
		var vals []string
		switch {
		case e[0] >= e[1]:
			vals = []string{""} // a hole
		case s.tok(e[0]).tt == js.EllipsisToken:
			return nil, false
		case e[1] == e[0]+1 && (s.is(e[0], "null") || s.is(e[0], "undefined")):
			vals = []string{""}
		default:
			var ok bool
			if vals, ok = s.names(e[0], e[1], depth+1); !ok {
				return nil, false
			}
		}
		var more []string
		for _, x := range out {
			for _, sep := range seps {
				if n == 0 {
					sep = ""
				}
				for _, y := range vals {
					more = append(more, x+sep+y)
				}
				if n == 0 {
					break
				}
			}
		}
		if len(more) > maxNames {
			return nil, false
		}
		out = more
	}
	return out, true
}

// returned returns the expression the function bound to the name at the significant token i
// returns, where its body is that one expression: an arrow's (const f = (x) => expr), or a
// function's whose body is return expr (const f = function (x) { return expr; }, function
// f(x) { return expr; }, declared once and written nowhere else). An async function or a
// generator returns no string.
func (s *script) returned(i int) ([2]int, bool) {
	var at int // the function's first significant token
	if init, ok := s.constInitAt(i); ok {
		at = init[0]
	} else {
		declared := false // a function of the name is declared: only then are the scopes read
		for k := range s.sig {
			if declared = s.is(k, "function") && s.text(k+1) == s.text(i) && s.is(k+2, "("); declared {
				break
			}
		}
		if !declared {
			return [2]int{}, false
		}
		n, known := s.binding(i)
		if !known || n.Free || n.Written || n.Decl != js.FunctionDecl {
			return [2]int{}, false
		}
		at = -1
		for k := range s.sig {
			if js.IsIdentifier(s.tok(k).tt) && s.is(k-1, "function") && s.is(k+1, "(") {
				if m, ok := s.binding(k); ok && m.Binding == n.Binding {
					if at >= 0 {
						return [2]int{}, false // declared twice
					}
					at = k - 1
				}
			}
		}
		if at < 0 {
			return [2]int{}, false
		}
	}
	switch {
	case js.IsIdentifier(s.tok(at).tt) && s.is(at+1, "=>"):
		return s.arrowBody(at + 2)
	case s.is(at, "(") && s.pair[at] > at && s.is(s.pair[at]+1, "=>"):
		return s.arrowBody(s.pair[at] + 2)
	case s.is(at, "function") && !s.is(at+1, "*"):
		open := at + 1
		if js.IsIdentifier(s.tok(open).tt) {
			open++
		}
		if !s.is(open, "(") || s.pair[open] < 0 || !s.is(s.pair[open]+1, "{") {
			return [2]int{}, false
		}
		body := s.pair[open] + 1
		end := s.pair[body]
		if !s.is(body+1, "return") || end < 0 {
			return [2]int{}, false
		}
		e := s.expressionEnd(body + 2)
		if e == end || s.is(e, ";") && e+1 == end {
			return [2]int{body + 2, e}, true
		}
	}
	return [2]int{}, false
}

// arrowBody returns an arrow function's body from the significant token at (after =>) when it
// is an expression.
func (s *script) arrowBody(at int) ([2]int, bool) {
	if s.is(at, "{") {
		return [2]int{}, false
	}
	return [2]int{at, s.expressionEnd(at)}, true
}

// dataPart is what values reads a part of a value only the run knows as: plain text, as data
// (a user's text, a record's field) holds, which the HTML parser reads as text or as a name
// and the URL parser as a path.
const dataPart = "x"

// values returns the values the expression of the significant tokens [i, j) may have, as
// names does, each part only the run knows read as data (dataPart): what the constants the
// page's code wrote hold is read whatever the run gives the rest ("<img onerror=" + f + ">"
// holds a handler; "javascript:" + code is a javascript: URL), and a value the run alone
// gives (el.innerHTML = text) holds nothing but data. data says a part was read so.
func (s *script) values(i, j int) (out []string, data, ok bool) {
	s.asData, s.readData = true, false
	defer func() { s.asData = false }()
	out, ok = s.names(i, j, 0)
	return out, s.readData, ok
}

// colon returns the significant token of the ':' of the choice whose '?' is q, before j, or -1.
func (s *script) colon(q, j int) int {
	nest := 0
	for k := q + 1; k < j; k++ {
		if p := s.pair[k]; p > k {
			k = p
			continue
		}
		switch s.tok(k).tt {
		case js.QuestionToken:
			nest++
		case js.ColonToken:
			if nest == 0 {
				return k
			}
			nest--
		}
	}
	return -1
}

// union returns the values of either expression, [a, b) or [c, d).
func (s *script) union(a, b, c, d, depth int) ([]string, bool) {
	x, ok := s.names(a, b, depth+1)
	if !ok {
		return nil, false
	}
	y, ok := s.names(c, d, depth+1)
	if !ok || len(x)+len(y) > maxNames {
		return nil, false
	}
	return append(x, y...), true
}

// topLevel returns the first significant token of type tt in [i, j) outside brackets (the
// last, for a left-associative +, so that the parts are split as they are evaluated), or -1.
func (s *script) topLevel(i, j int, tt js.TokenType) int {
	found := -1
	for k := i; k < j; k++ {
		if p := s.pair[k]; p > k {
			k = p
			continue
		}
		if s.tok(k).tt == tt {
			if tt != js.AddToken {
				return k
			}
			found = k
		}
	}
	// A unary + at the start, or after an operator, is no addition.
	if found == i {
		return -1
	}
	return found
}

// templateNames returns the values of the template literal of the significant tokens [i, j)
// (its head at i), each substitution a constant.
func (s *script) templateNames(i, j, depth int) ([]string, bool) {
	out := []string{""}
	for k := i; ; {
		text := strings.TrimPrefix(strings.TrimPrefix(s.text(k), "`"), "}")
		text = strings.TrimSuffix(strings.TrimSuffix(text, "`"), "${")
		v, ok := jsstring.Decode("`" + text + "`")
		if !ok {
			return nil, false
		}
		for n := range out {
			out[n] += v
		}
		if s.tok(k).tt == js.TemplateEndToken {
			return out, k == j-1
		}
		next := s.pair[k]
		if next <= k || next >= j {
			return nil, false
		}
		sub, ok := s.names(k+1, next, depth+1)
		if !ok || len(out)*len(sub) > maxNames {
			return nil, false
		}
		var more []string
		for _, x := range out {
			for _, y := range sub {
				more = append(more, x+y)
			}
		}
		out, k = more, next
	}
}

// constInit returns the initializer of the one binding of name in the file, when that is
// a const declaration (const name = …): a name bound twice (a parameter, a let, another
// scope's const, a pattern's) is not read.
func (s *script) constInit(name string) ([2]int, bool) {
	var init [2]int
	found := 0
	for k := range s.sig {
		if s.text(k) != name || !js.IsIdentifier(s.tok(k).tt) || s.is(k-1, ".") || s.is(k-1, "?.") {
			continue
		}
		if s.is(k-1, "const") && s.is(k+1, "=") {
			found++
			end := k + 2
			for ; end < len(s.sig); end++ {
				if p := s.pair[end]; p > end {
					end = p
					continue
				}
				if tt := s.tok(end).tt; tt == js.CommaToken || tt == js.SemicolonToken || tt == js.CloseBraceToken || tt == js.CloseParenToken || tt == js.CloseBracketToken {
					break
				}
			}
			init = [2]int{k + 2, end}
			continue
		}
		if s.binds(k) {
			return init, false
		}
	}
	return init, found == 1
}

// binds reports whether the identifier at the significant token k may bind its name: a
// declaration's (let, var, function, class, a const without its own initializer, as in a
// for-of head), a parameter's (a => or a list followed by => or a body, but an if's or a
// loop's condition), catch's, or one in braces or brackets (a pattern's: an object literal's
// shorthand or an array's element is taken so too, which only costs the constant).
func (s *script) binds(k int) bool {
	if s.is(k-1, "let") || s.is(k-1, "var") || s.is(k-1, "function") || s.is(k-1, "class") || s.is(k-1, "const") || s.is(k+1, "=>") || s.is(k-1, "...") {
		return true
	}
	o := -1
	for m := k - 1; m >= 0; m-- {
		if s.pair[m] > k {
			o = m
			break
		}
	}
	if o < 0 {
		return false
	}
	switch s.tok(o).tt {
	case js.OpenBraceToken, js.OpenBracketToken:
		return s.is(k-1, "{") || s.is(k-1, ",") || s.is(k-1, "[")
	case js.OpenParenToken:
		close := s.pair[o]
		if s.is(close+1, "=>") || s.is(o-1, "catch") || s.is(o-1, "function") || s.is(o-2, "function") {
			return true
		}
		if s.is(close+1, "{") {
			for _, kw := range []string{"if", "while", "for", "switch", "with"} {
				if s.is(o-1, kw) {
					return false
				}
			}
			return true // a method's parameters
		}
	}
	return false
}

// createsScript reads the call of createElement (or createElementNS, ns) given args: may
// says the element may be a script, known that the build knows each name it may have.
func (s *script) createsScript(args [][2]int, ns bool) (may, known bool) {
	if len(args) == 0 || ns && len(args) < 2 {
		return false, true
	}
	a := args[0]
	if ns {
		spaces, ok := s.names(a[0], a[1], 0)
		if !ok {
			return false, false
		}
		if !containsAny(spaces, scriptNamespaces) {
			return false, true
		}
		a = args[1]
	}
	names, ok := s.names(a[0], a[1], 0)
	if !ok {
		return false, false
	}
	for _, n := range names {
		if ns {
			if _, local, ok := strings.Cut(n, ":"); ok {
				n = local
			}
			if n == "script" {
				return true, true
			}
		} else if markup.ASCIILower(n) == "script" {
			return true, true
		}
	}
	return false, true
}

func containsAny(list, want []string) bool {
	for _, x := range list {
		for _, w := range want {
			if x == w {
				return true
			}
		}
	}
	return false
}
