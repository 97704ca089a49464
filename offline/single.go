package offline

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/miniapp/bundle/registry"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// What Options.SingleFile adds to the check: the places where a page that a host pins as it
// is (bundle pin) breaks under the policy it then runs under, the build's: an event-handler
// attribute and a javascript: URL do not run (the policy hashes the page's scripts and has no
// 'unsafe-inline'), and a script's request to an origin the host has not granted
// (Options.AllowedDomains) is blocked (connect-src). bundle build refuses the first two in
// the source and warns of the third; a page no build reads learns of them here.

// handlerHits reports the event-handler attributes of an element (any attribute whose name
// starts with "on", as the build refuses them: the HTML Standard's list grows, and a name
// that is not a handler today runs nothing either way).
func (c *checker) handlerHits(e *elem, sc scope, s sink) {
	if !c.opts.SingleFile || sc.depth > 0 {
		return
	}
	for i, a := range e.attrs {
		if a.dup || len(a.name) <= 2 || !strings.HasPrefix(strings.ToLower(a.name), "on") {
			continue
		}
		event := strings.ToLower(a.name[2:])
		s.add(i, []hit{{off: -1, place: fmt.Sprintf("<%s %s>", e.name, a.name),
			text: fmt.Sprintf("inline event handler %s=%q does not run under the policy a host gives the page (it runs only the page's own <script> elements, by their hashes)", a.name, a.value),
			note: noteHandler(e.name, event)}})
	}
}

// javascriptHit reports a javascript: URL that would run script (a link's href, a form's
// action), which the policy blocks.
func (c *checker) javascriptHit(place, v string, sc scope) []hit {
	if !c.opts.SingleFile || sc.depth > 0 {
		return nil
	}
	return []hit{{off: -1, place: place, url: v,
		text: fmt.Sprintf("%s runs a javascript: URL, which does not run under the policy a host gives the page", place),
		note: noteJavascriptURL}}
}

// connectHits reports the requests a script makes at run time to a literal URL outside the
// page: fetch(url), new WebSocket(url), new EventSource(url), navigator.sendBeacon(url) and
// XMLHttpRequest's open(method, url), read by tdewolff's JavaScript parser (a string or a
// comment that says fetch( is neither). An origin Options.AllowedDomains lists is allowed; a
// URL the script computes is not seen (the policy's connect-src still blocks it).
func (c *checker) connectHits(src string, module bool, place string, sc scope) []hit {
	if !c.opts.SingleFile || sc.depth > 0 {
		return nil
	}
	// A name may be written with escapes (f\u0065tch is fetch): only a script without any
	// is passed over by its words.
	if !strings.Contains(src, `\u`) && !hasWord(src, "fetch") && !hasWord(src, "WebSocket") && !hasWord(src, "EventSource") &&
		!hasWord(src, "sendBeacon") && !hasWord(src, "open") {
		return nil
	}
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	if err != nil {
		return nil // esbuild's parse of the same text reports it (checkScript)
	}
	f := &connectFinder{c: c, buf: buf, place: place}
	js.Walk(f, ast)
	return f.hits
}

type connectFinder struct {
	c     *checker
	buf   []byte
	place string
	hits  []hit
}

func (f *connectFinder) Exit(js.INode) {}

func (f *connectFinder) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.CallExpr:
		switch name := calleeName(n.X); {
		case name == "fetch" || name == "sendBeacon":
			f.arg(name+"()", n.Args.List, 0)
		case name == "open" && len(n.Args.List) >= 2:
			// XMLHttpRequest's open(method, url): window.open(url) has one URL first.
			if m, ok := n.Args.List[0].Value.(*js.LiteralExpr); ok && m.TokenType == js.StringToken {
				f.arg("XMLHttpRequest open()", n.Args.List, 1)
			}
		}
	case *js.NewExpr:
		if name := calleeName(n.X); (name == "WebSocket" || name == "EventSource") && n.Args != nil {
			f.arg("new "+name+"()", n.Args.List, 0)
		}
	}
	return f
}

// calleeName is the name a call is made by: fetch, window.fetch, navigator.sendBeacon, as the
// language reads the names (f\u0065tch is fetch), parentheses around the callee dropped.
func calleeName(x js.IExpr) string {
	name := func(raw []byte) string {
		n, _ := jsstring.Identifier(string(raw))
		return n
	}
	switch x := x.(type) {
	case *js.GroupExpr:
		return calleeName(x.X)
	case *js.Var:
		return name(x.Data)
	case *js.DotExpr:
		switch y := x.Y.(type) {
		case js.LiteralExpr:
			return name(y.Data)
		case *js.LiteralExpr:
			return name(y.Data)
		case *js.Var:
			return name(y.Data)
		}
	}
	return ""
}

// isStringRaw reports whether the tag of a template is String.raw, names as the language reads
// them.
func isStringRaw(tag js.IExpr) bool {
	for {
		g, ok := tag.(*js.GroupExpr)
		if !ok {
			break
		}
		tag = g.X
	}
	d, ok := tag.(*js.DotExpr)
	if !ok || calleeName(d) != "raw" {
		return false
	}
	return calleeName(d.X) == "String"
}

// arg judges the URL argument i of a call.
func (f *connectFinder) arg(call string, args []js.Arg, i int) {
	if i >= len(args) || args[i].Rest {
		return
	}
	var raw []byte // the literal as written, quotes included
	var u string
	value := args[i].Value
	for {
		// A parenthesized literal is the literal.
		g, ok := value.(*js.GroupExpr)
		if !ok {
			break
		}
		value = g.X
	}
	switch v := value.(type) {
	case *js.LiteralExpr:
		if v.TokenType != js.StringToken {
			return
		}
		raw, u = v.Data, jsString(v.Data)
	case *js.TemplateExpr:
		// String.raw gives the template's text as written; another tag's value is its own.
		stringRaw := v.Tag != nil && isStringRaw(v.Tag)
		if v.Tag != nil && !stringRaw {
			return
		}
		raw = v.Tail
		text := string(v.Tail)
		if len(v.List) > 0 {
			// A template with substitutions: its head names the origin, read as a
			// template of its own.
			raw = v.List[0].Value
			text = strings.TrimSuffix(string(raw), "${") + "`"
		}
		u = jsString([]byte(text))
		if r, ok := jsstring.Raw(text); ok && stringRaw {
			u = r
		}
	default:
		return
	}
	if isOwn(u) {
		return
	}
	if origin, ok := connectOrigin(u); ok && (registry.Entry{AllowedDomains: f.c.opts.AllowedDomains}).Connects(origin) {
		return
	}
	off := -1
	if len(raw) > 0 {
		d := uintptr(unsafe.Pointer(unsafe.SliceData(raw))) - uintptr(unsafe.Pointer(unsafe.SliceData(f.buf)))
		if d < uintptr(len(f.buf)) {
			off = int(d)
		}
	}
	h := hit{off: off, length: len(raw), place: call + " in " + f.place, url: u, note: noteConnect}
	if off < 0 {
		h.length = 0
	}
	if origin, ok := connectOrigin(u); ok {
		h.text = fmt.Sprintf("%s connects to %s at run time, which the host has not granted (allowedDomains): the request is blocked", call, origin)
	} else {
		h.text = fmt.Sprintf("%s requests %q at run time, and a page has nothing beside it: the request fails", call, u)
		h.note = noteConnectLocal
	}
	f.hits = append(f.hits, h)
}

// connectOrigin returns the origin of an http:, https:, ws: or wss: URL (a scheme-relative
// one is https:, as the page's host serves it).
func connectOrigin(u string) (string, bool) {
	c := strings.ReplaceAll(cleanURL(u), "\\", "/")
	if strings.HasPrefix(c, "//") {
		c = "https:" + c
	}
	sch, rest := scheme(c)
	switch sch {
	case "http", "https", "ws", "wss":
	default:
		return "", false
	}
	rest = strings.TrimLeft(rest, "/")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if j := strings.LastIndexByte(rest, '@'); j >= 0 {
		rest = rest[j+1:]
	}
	if rest == "" {
		return "", false
	}
	return sch + "://" + strings.ToLower(rest), true
}

// jsString decodes a JavaScript string literal or template (quotes included) as the language
// reads it; one that does not decode (a syntax error: the script does not run) is kept as
// written, without its quotes.
func jsString(lit []byte) string {
	if v, ok := jsstring.Decode(string(lit)); ok {
		return v
	}
	if len(lit) < 2 {
		return string(lit)
	}
	return string(lit[1 : len(lit)-1])
}
