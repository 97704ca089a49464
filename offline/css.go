package offline

import "strings"

// cssBlock is an open function, parenthesis, bracket or brace of a stylesheet: CSS Syntax
// consumes each as one component value, up to its own closing token, so that a ';', '}' or
// ')' of another kind inside it closes nothing.
type cssBlock struct {
	kind cssKind // cssFunction, cssOpenParen, cssOpenSquare, cssOpenCurly
	name string  // a function's name, lower case; an at-rule's name for its block
	// prop is the declaration the block belongs to ("" outside one), inside a brace the
	// declaration being read in it.
	prop string
}

// transparent are the functions whose arguments are what the enclosing function reads:
// arbitrary substitution functions (var(), if(), env(), inherit(), a custom --function())
// and plain parentheses.
func transparent(name string) bool {
	switch name {
	case "var", "if", "env", "inherit", "(":
		return true
	}
	return strings.HasPrefix(name, "--")
}

// takesURLString reports whether a CSS function reads a string argument as a URL.
func takesURLString(fn string) bool {
	switch fn {
	case "url", "src", "image-set", "-webkit-image-set", "image":
		return true
	}
	return false
}

// checkCSS reports every URL that the stylesheet (or declaration list) src would load: url
// tokens, the strings of url() and src() functions, @import with a string, and strings that
// reach image-set(), -webkit-image-set() or image() directly or through an arbitrary
// substitution function (var(--x, "a.png"), if(…: "a.png")). Strings that a custom property
// holds, or an @property's initial-value, or an @function, are URLs when the document reads a
// custom property (var(), a custom function) where a URL string goes: those hits are cond,
// and the place that reads one is a marker; the document resolves them. Tokens are read as
// CSS Syntax reads them (csstoken.go), so that escapes, comments and bad urls hide nothing. A
// data: stylesheet that @import names is checked in turn. URLs in a top-level @namespace name
// a namespace and load nothing.
func (c *checker) checkCSS(src string, sc scope) []hit {
	// Every construct that loads needs a literal '(' (a function or url token) or '@' (an
	// at-rule), which no escape makes; or a custom property's string, which var() may read
	// as a URL elsewhere.
	if strings.IndexByte(src, '(') < 0 && strings.IndexByte(src, '@') < 0 &&
		!(strings.ContainsAny(src, `"'`) && (strings.Contains(src, "--") || strings.IndexByte(src, '\\') >= 0)) {
		return nil
	}
	var hits []hit
	var stack []cssBlock
	atRule, atDepth := "", -1 // the at-rule whose prelude is being read, at the stack depth of its keyword
	declStart := true         // the next ident may name a declaration
	lastIdent := ""
	topProp := "" // the declaration being read outside any block (a style attribute's)
	// inBlock reports whether an enclosing brace belongs to the at-rule name.
	inBlock := func(name string) bool {
		for _, b := range stack {
			if b.kind == cssOpenCurly && b.name == name {
				return true
			}
		}
		return false
	}
	prop := func() string {
		if n := len(stack); n > 0 {
			return stack[n-1].prop
		}
		return topProp
	}
	// urlContext returns the function that reads a string here as a URL, looking through
	// transparent functions, or "".
	urlContext := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			b := stack[i]
			if b.kind != cssFunction && b.kind != cssOpenParen {
				return ""
			}
			if takesURLString(b.name) {
				return b.name
			}
			if !transparent(b.name) {
				return ""
			}
		}
		return ""
	}
	namespace := func() bool { return atRule == "namespace" && atDepth == 0 }
	add := func(at, n int, place, u string) {
		if namespace() {
			return
		}
		if isOwn(u) {
			if sc.depth == 0 {
				d := "img-src"
				switch {
				case atRule == "import":
					d = "style-src-elem"
				case inBlock("font-face"):
					d = "font-src"
				}
				hits = append(hits, c.policyHit(d, at, n, place, u)...)
			}
			if atRule == "import" && isData(u) {
				hits = append(hits, c.nested(at, n, place, u, docCSS, sc, fallback{})...)
			}
			return
		}
		hits = append(hits, hit{off: at, length: n, place: place, url: u})
	}
	z := cssTokenizer{s: src}
	for {
		t := z.next()
		if t.kind == cssEOF {
			break
		}
		switch t.kind {
		case cssAtKeyword:
			atRule, atDepth = strings.ToLower(t.value), len(stack)
			declStart = false
			if atRule == "import" {
				if at, u := unquotedImport(z, src); u != "" {
					add(at, len(u), "CSS @import (unquoted, which Chromium's preload scanner fetches)", u)
				}
			}
		case cssIdent:
			lastIdent = t.value
		case cssColon:
			if declStart && lastIdent != "" && len(stack) > 0 && stack[len(stack)-1].kind == cssOpenCurly {
				stack[len(stack)-1].prop = lastIdent
			} else if declStart && lastIdent != "" && len(stack) == 0 && atRule == "" {
				topProp = lastIdent
			}
			declStart = false
		case cssSemicolon:
			if atDepth == len(stack) {
				atRule, atDepth = "", -1
			}
			if n := len(stack); n > 0 && stack[n-1].kind == cssOpenCurly {
				stack[n-1].prop = ""
				declStart = true
			} else if n == 0 {
				topProp = ""
				declStart = true
			}
		case cssOpenCurly:
			name := ""
			if atDepth == len(stack) {
				name = atRule
				atRule, atDepth = "", -1
			}
			stack = append(stack, cssBlock{kind: cssOpenCurly, name: name})
			declStart = true
		case cssOpenParen, cssOpenSquare:
			name := "("
			if t.kind == cssOpenSquare {
				name = "["
			}
			stack = append(stack, cssBlock{kind: t.kind, name: name, prop: prop()})
		case cssFunction:
			name := strings.ToLower(t.value)
			if (name == "var" || strings.HasPrefix(name, "--")) && urlContext() != "" {
				// A custom property (or a custom function's result) is read where a URL
				// string goes: the document's custom property strings load.
				hits = append(hits, hit{off: t.start, length: t.end - t.start, marker: true})
			}
			if name == "attr" && urlContext() != "" {
				hits = append(hits, hit{off: t.start, length: t.end - t.start, place: "CSS attr() in " + urlContext() + "()", url: "attr()",
					text: "CSS " + urlContext() + "() reads an attribute's value as a URL (attr()), which the check cannot follow", note: noteCSSAttr})
			}
			stack = append(stack, cssBlock{kind: cssFunction, name: name, prop: prop()})
		case cssCloseParen, cssCloseSquare, cssCloseCurly:
			open := map[cssKind]cssKind{cssCloseParen: cssOpenParen, cssCloseSquare: cssOpenSquare, cssCloseCurly: cssOpenCurly}[t.kind]
			n := len(stack)
			if n == 0 {
				continue // a stray closer at the top level
			}
			top := stack[n-1].kind
			if top == cssFunction {
				top = cssOpenParen
			}
			if top != open {
				continue // a closer of another kind is a token inside the block
			}
			stack = stack[:n-1]
			if atDepth > len(stack) {
				atRule, atDepth = "", -1
			}
			if t.kind == cssCloseCurly {
				declStart = true
				if atDepth == len(stack) {
					atRule, atDepth = "", -1
				}
			}
		case cssURL:
			add(t.start, t.end-t.start, urlPlace(atRule, "url"), t.value)
		case cssString:
			u := t.value
			p := prop()
			switch {
			case strings.HasPrefix(p, "--"):
				// A custom property's string: a URL wherever var() reads it as one.
				if !isOwn(u) {
					hits = append(hits, hit{off: t.start, length: t.end - t.start, place: "CSS custom property " + p + " (a string image-set() reads through var())", url: u, cond: true})
				}
			case inBlock("property") && strings.EqualFold(p, "initial-value"),
				inBlock("function") || atRule == "function":
				// A registered property's initial value, a custom function's result: the
				// same, read through var() or the function's call.
				if !isOwn(u) {
					place := "CSS @property initial-value (a string image-set() reads through var())"
					if inBlock("function") || atRule == "function" {
						place = "CSS @function string (a result image-set() reads through a call)"
					}
					hits = append(hits, hit{off: t.start, length: t.end - t.start, place: place, url: u, cond: true})
				}
			}
			if fn := urlContext(); fn != "" {
				add(t.start, t.end-t.start, urlPlace(atRule, fn), u)
			} else if atRule == "import" && atDepth == len(stack) {
				add(t.start, t.end-t.start, "CSS @import", u)
			}
		}
		if t.kind != cssWhitespace && t.kind != cssIdent && t.kind != cssColon {
			if t.kind != cssSemicolon && t.kind != cssOpenCurly && t.kind != cssCloseCurly {
				declStart = false
			}
			lastIdent = ""
		}
	}
	return hits
}

// unquotedImport returns the URL Chromium's preload scanner takes from an @import (read from
// z, just past the keyword) where CSS Syntax reads none, or another: the scanner takes the
// prelude's text up to the next white space, and strips only a url( ) or quotes that close
// there. It fetched "i.css;" for <style>@import i.css;</style> and "url(" for
// <style>@import url(</style>, rules CSS Syntax ignores; a reader of the page must read the
// scanner's way too. A string or a url() the text holds whole is left to the tokens.
func unquotedImport(z cssTokenizer, src string) (int, string) {
	t := z.next()
	for t.kind == cssWhitespace {
		t = z.next()
	}
	switch t.kind {
	case cssEOF, cssSemicolon, cssOpenCurly:
		return 0, ""
	}
	end := t.start
	for end < len(src) && !strings.ContainsRune(" \t\n\r\f", rune(src[end])) {
		end++
	}
	raw := src[t.start:end]
	whole := strings.TrimSuffix(raw, ";")
	switch {
	case t.kind == cssString && t.end-t.start == len(whole) && len(whole) >= 2 && whole[len(whole)-1] == whole[0],
		t.kind == cssURL && t.end-t.start == len(whole) && strings.HasSuffix(whole, ")"):
		return 0, ""
	case t.kind == cssFunction && strings.EqualFold(t.value, "url") && strings.HasSuffix(whole, ")"):
		return 0, ""
	}
	return t.start, raw
}

func urlPlace(atRule, fn string) string {
	switch atRule {
	case "import":
		return "CSS @import " + fn + "()"
	case "font-face":
		return "CSS @font-face " + fn + "()"
	}
	return "CSS " + fn + "()"
}
