// Package v8stack reads a frame of a V8 stack trace, as Error.prototype.stack holds it in Node
// and Chromium, the way V8 writes one (SerializeJSStackFrame and AppendFileLocation in V8's
// src/objects/call-site-info.cc):
//
//	f, ok := v8stack.ParseFrame("    at async Object.load [as run] (file:///app/vite.config.mjs:3:9)")
//	// ok, f.Async, f.Function "Object.load [as run]",
//	// f.Place.Script "file:///app/vite.config.mjs", f.Place.Line 3, f.Place.Column 9
//
// A frame is "at ", then "async " for a frame an await resumed, then either a place alone (a
// script's top-level code) or a head (the function: "f", "Type.f [as g]", "new C") and the
// place in parentheses. A place is the script's name or its sourceURL as V8 has it (a path, a
// URL with its query, "node:internal/…", "<anonymous>" for a script without a name), then
// ":line:column", 1-based; V8 writes no line where the frame has no script ("Array.map
// (<anonymous>)"). A frame of eval'd code whose script has no sourceURL writes first where
// eval was called: "eval (eval at f (file:1:2), <anonymous>:3:4)", eval origins nesting for
// eval inside eval; "async Promise.all (index 0)" has no place; a WebAssembly frame's place is
// "url:wasm-function[N]:0xOFFSET".
//
// The text is ambiguous where a name holds parentheses: both a function's name and a script's
// may hold any character. The place is taken as the last parenthesised group of the frame,
// its parentheses matched (V8's own nest, in eval origins), so that a path such as
// "/work/app (1)/x.js", a data: URL holding code, and a function named by a computed key that
// holds " (" all read as V8 wrote them; a script whose name holds an unmatched "(" does not.
// ParseFrame is the one reader of V8 frames in bundle: Node's stack where the app's code
// stopped Node (pipeline's nodetool), a page's error in render and in bundle dev.
package v8stack

import "strings"

// Frame is one frame of a V8 stack trace. The zero value is a frame with no place.
type Frame struct {
	// Async is true for a frame that an await resumed ("at async …").
	Async bool
	// Function is what V8 writes before the place: "f", "Object.<anonymous>", "Type.f [as
	// g]", "new C", "eval", "Promise.all"; "" for a script's top-level code.
	Function string
	// Place is where the frame's code is; its Script is "" for a frame without one
	// ("async Promise.all (index 0)").
	Place Place
	// EvalAt is, for a frame of eval'd code whose script has no name (Place.Script
	// "<anonymous>"), where the outermost eval was called in a script of its own (the innermost
	// eval origin's place); the zero Place where V8 wrote none.
	EvalAt Place
}

// Place is a script and a position in it, as V8 writes one in a frame.
type Place struct {
	// Script is the script's name or sourceURL as V8 has it: a path (Node's CommonJS), a URL
	// with its query (a page's, an ES module's file: URL), "node:…", "<anonymous>".
	Script string
	// Line and Column are 1-based; 0 where V8 wrote none.
	Line, Column int
	// Start and End are the place's bytes in the line ParseFrame read: line[Start:End] is the
	// place as written, Script and its line and column.
	Start, End int
}

// ParseFrame reads line, one line of a stack trace, spaces and a line end around it allowed.
// ok is false for a line that is no frame (the error's message, a line of it). It is safe
// for concurrent use.
func ParseFrame(line string) (f Frame, ok bool) {
	start, end := 0, len(line)
	for start < end && isSpace(line[start]) {
		start++
	}
	for end > start && isSpace(line[end-1]) {
		end--
	}
	if !strings.HasPrefix(line[start:end], "at ") {
		return Frame{}, false
	}
	start += len("at ")
	// "async " is V8's, unless what follows is the place of a function named async.
	if rest, ok := strings.CutPrefix(line[start:end], "async "); ok && !strings.HasPrefix(rest, "(") {
		f.Async = true
		start += len("async ")
	}
	body := line[start:end]
	loc, locStart := body, start
	if open := placeOpen(body); open >= 0 {
		f.Function = body[:open-1]
		loc, locStart = body[open+1:len(body)-1], start+open+1
	}
	if f.Async && isPromiseCombinator(f.Function) && isIndex(loc) {
		return f, true
	}
	f.Place = readPlace(loc, locStart)
	// A frame of eval'd code without a name: its origin, ", ", then "<anonymous>" and the
	// position in the eval'd code.
	name := f.Place.Script
	if origin, ok := strings.CutSuffix(name, ", <anonymous>"); ok && strings.HasPrefix(origin, "eval at ") {
		f.EvalAt = evalOrigin(origin, f.Place.Start)
		f.Place.Script = "<anonymous>"
		f.Place.Start += len(origin) + len(", ")
	}
	return f, true
}

// placeOpen returns the index in body of the "(" that opens the frame's place: body ends
// with ")", which it matches, and " " stands before it. It is -1 for a frame without a head.
func placeOpen(body string) int {
	if !strings.HasSuffix(body, ")") {
		return -1
	}
	depth := 0
	for i := len(body) - 1; i >= 0; i-- {
		switch body[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				if i > 0 && body[i-1] == ' ' {
					return i
				}
				return firstOpen(body)
			}
		}
	}
	return firstOpen(body)
}

// firstOpen is placeOpen for a frame whose parentheses do not match: the place starts after
// the first " (".
func firstOpen(body string) int {
	if i := strings.Index(body, " ("); i >= 0 {
		return i + 1
	}
	return -1
}

// evalOrigin reads V8's eval origin s ("eval at f (ORIGIN)", ORIGIN another eval origin, a
// place, or "unknown source"; "eval at f" where V8 knows no script), which starts at offset
// start of the line, and returns the place of its innermost script.
func evalOrigin(s string, start int) Place {
	for {
		rest, ok := strings.CutPrefix(s, "eval at ")
		if !ok {
			if s == "unknown source" {
				return Place{}
			}
			// A script of eval'd code with a sourceURL is named by it, without a position.
			return readPlace(s, start)
		}
		start += len("eval at ")
		open := placeOpen(rest)
		if open < 0 {
			return Place{}
		}
		s, start = rest[open+1:len(rest)-1], start+open+1
	}
}

// ParsePlace reads s, a place as V8 writes one in a frame: "script:line:column",
// "script:line" or "script" (a WebAssembly frame's "url:wasm-function[N]:0xOFFSET" as the
// script alone). Start and End are 0 and len(s). SpiderMonkey and JavaScriptCore write a
// frame's place after "@" so too ("f@http://localhost:5173/:3:9").
func ParsePlace(s string) Place { return readPlace(s, 0) }

// readPlace reads s, "script:line:column", "script:line" or "script", which starts at offset
// start of the line.
func readPlace(s string, start int) Place {
	p := Place{Script: s, Start: start, End: start + len(s)}
	if wasm, ok := wasmScript(s); ok {
		p.Script = wasm
		return p
	}
	rest, n, ok := cutNumber(s)
	if !ok {
		return p
	}
	if rest2, m, ok := cutNumber(rest); ok {
		p.Script, p.Line, p.Column = rest2, m, n
	} else {
		p.Script, p.Line = rest, n
	}
	return p
}

// wasmScript returns the script of a WebAssembly frame's place, "url:wasm-function[N]:0xHEX".
func wasmScript(s string) (string, bool) {
	i := strings.LastIndex(s, ":wasm-function[")
	if i < 0 {
		return "", false
	}
	idx, off, ok := strings.Cut(s[i+len(":wasm-function["):], "]:0x")
	if !ok || !isDigits(idx) || off == "" || strings.Trim(off, "0123456789abcdef") != "" {
		return "", false
	}
	return s[:i], true
}

// cutNumber cuts ":N" off the end of s, N a number as V8 writes a line or column: decimal
// digits, at most 2³¹-1.
func cutNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || !isDigits(s[i+1:]) || len(s)-i-1 > 10 {
		return s, 0, false
	}
	n := 0
	for _, c := range s[i+1:] {
		n = n*10 + int(c-'0')
	}
	if n > 1<<31-1 {
		return s, 0, false
	}
	return s[:i], n, true
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// isIndex reports whether s is "index N", the place V8 writes for Promise.all's element.
func isIndex(s string) bool {
	n, ok := strings.CutPrefix(s, "index ")
	return ok && isDigits(n)
}

func isPromiseCombinator(fn string) bool {
	return fn == "Promise.all" || fn == "Promise.allSettled" || fn == "Promise.any"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
