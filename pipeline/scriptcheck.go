package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/diag"
	"github.com/tdewolff/parse/v2/js"
)

// The checks of the app's own scripts, on the same reading as the transforms (a comment or
// a string that holds "eval(" is neither): what fails in the page is said at its place.

// check looks at the significant token i for what the app's script does that fails in the
// page: a literal URL given to fetch, WebSocket or EventSource whose origin the manifest's
// allowedDomains does not list (the page's policy blocks it), a message posted to "*" (any
// page that frames the app reads it), process.env.NAME other than NODE_ENV (a browser has
// no process), fetch of a local file (a bundle is one file), and eval or new Function
// without eval = true (an error: the policy throws at the call).
func (r *rewrite) check(i int) {
	s := r.s
	had := len(r.errs)
	r.checkMarkup(i)
	r.checkAttr(i)
	r.checkNav(i)
	r.checkCompiled(i)
	r.checkPackageMarkup(i)
	r.checkImportedCall(i)
	r.checkInstanceCall(i) // thismethod.go
	r.checkListCall(i)     // appliedlist.go
	r.checkImportedValue(i)
	r.checkParamValue(i)
	if r.seed == nil {
		r.checkGlobalCall(i, []globalScript{{x: s, where: filepath.Base(r.file)}}, false, nil)
		r.checkParamCall(i)
		r.checkUnreadCallee(i)
		if len(r.errs) == had {
			r.checkEscapedArgs(i) // unreadcallee.go
		}
	}
	member := s.is(i-1, ".") || s.is(i-1, "?.")
	switch {
	case !member && s.is(i, "fetch", "("):
		r.checkURL(i, "fetch", i+1)
	case s.is(i, "new", "WebSocket", "("), s.is(i, "new", "EventSource", "("):
		r.checkURL(i, s.text(i+1), i+2)
	case s.is(i, "postMessage", "("):
		args := s.args(i + 1)
		for k, a := range args {
			if k == 0 || a[1] != a[0]+1 {
				continue
			}
			if v, err := s.str(a[0]); err == nil && v == "*" {
				off, _ := s.srcAt(a[0])
				r.warnAt(off, 3, `postMessage(…, "*") sends the message to whatever page frames the app, whichever its origin: a page that is not the host reads it`,
					"talk to the host through the SDK (document.modelContext, @miniapp/sdk), which pins the host's origin, or post to the host's origin")
			}
		}
	case s.is(i, "process", ".", "env", ".") && js.IsIdentifierName(s.tok(i+4).tt):
		name := s.text(i + 4)
		prefix := ""
		if s.is(i-2, "globalThis", ".") || s.is(i-2, "global", ".") || s.is(i-2, "window", ".") || s.is(i-2, "self", ".") {
			prefix = s.text(i-2) + "."
		} else if member {
			return
		}
		if _, defined := r.b.define[prefix+"process.env."+name]; defined {
			return // NODE_ENV, or the manifest's own define
		}
		if _, defined := r.b.define["process.env."+name]; defined && prefix == "" {
			return
		}
		off, _ := s.srcAt(i)
		end, _ := s.srcAt(i + 4)
		r.warnAt(off, end+len(name)-off, fmt.Sprintf("process.env.%s is Node's: a browser has no process, and bundle defines process.env.NODE_ENV alone, so this throws unless guarded", name),
			fmt.Sprintf("write import.meta.env.VITE_%s and set VITE_%s in .env (only names starting VITE_ or MINIAPP_ reach the bundle, as in Vite)", strings.TrimPrefix(name, "VITE_"), strings.TrimPrefix(name, "VITE_")))
	case createElementAt(s, i) != "":
		// A script element the page makes runs its text or its src, neither of which the
		// bundle's policy allows: its text has no hash in it, and its src names no file of
		// the page (tagname.go). (A feature test reads a property of HTMLScriptElement.prototype.)
		prop, _, after, _ := s.memberAt(i)
		args, _ := s.callAt(after)
		if len(args) == 0 {
			return
		}
		at := args[0][0]
		if prop == "createElementNS" && len(args) > 1 {
			at = args[1][0]
		}
		// A name only the run knows is data, as at every sink (values): no message.
		if may, _ := s.createsScript(args, prop == "createElementNS"); may {
			r.errAt(at, "a <script> the page makes cannot run under the bundle's policy: its text has no hash in it, and a src names no file of the one-file page",
				"import the code (import './x.js', or import('./x.js') to load it later), which bundle bundles; to test a feature, read HTMLScriptElement.supports or HTMLScriptElement.prototype")
		}
	}
}

// checkURL warns of the literal URL given to call (fetch, WebSocket, EventSource) whose '('
// is the significant token open.
func (r *rewrite) checkURL(at int, call string, open int) {
	s := r.s
	args := s.args(open)
	if len(args) == 0 {
		return
	}
	a := args[0]
	t := s.tok(a[0])
	var head string
	switch {
	case t.tt == js.StringToken || t.tt == js.TemplateToken:
		v, err := s.str(a[0])
		if err != nil {
			return
		}
		head = v
	case t.tt == js.TemplateStartToken:
		head = string(s.js[t.start+1 : t.end-2])
	default:
		return
	}
	lit, ok := s.srcAt(a[0])
	if !ok {
		return
	}
	lit++ // past the quote
	if origin, ok := urlOrigin(head); ok {
		if r.b.allowed(origin) {
			return
		}
		https := strings.Replace(strings.Replace(origin, "wss://", "https://", 1), "ws://", "http://", 1)
		note := fmt.Sprintf(`add %q to allowedDomains in %s if the app may connect there`, https, filepath.Base(r.b.m.File))
		if strings.HasPrefix(https, "http://") {
			note = "the bundle connects only over HTTPS: use https:// and add the origin to allowedDomains"
		}
		r.warnAt(lit, len(origin), fmt.Sprintf("%s connects to %s, which allowedDomains does not list: the page's policy blocks it", call, origin), note)
		return
	}
	// A bundle is one file: a local URL fetched at run time names nothing beside it.
	if call != "fetch" || t.tt == js.TemplateStartToken || !localFile(head) {
		return
	}
	if _, public := r.b.publicFile(head); public {
		return // inlined (publicRef)
	}
	rel := head // as an import names it: relative, as fetch reads it
	if !strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "/") {
		rel = "./" + rel
	}
	note := fmt.Sprintf("import the file instead (import data from %q for JSON, %q for text), or fetch new URL(%q, import.meta.url), which bundle turns into a data: URL", rel, rel+"?raw", rel)
	if strings.HasPrefix(head, "/") {
		note = fmt.Sprintf("a file of the public folder: import its URL, a data: URL, and fetch that (import url from %q; fetch(url))", head)
	}
	r.warnAt(lit, len(head), fmt.Sprintf("fetch(%q) loads a file at run time, and the bundle is one file with nothing beside it: the request fails", head), note)
}

// urlOrigin returns the origin of an http, https, ws or wss URL.
func urlOrigin(u string) (string, bool) {
	for _, scheme := range []string{"https://", "http://", "wss://", "ws://"} {
		if len(u) > len(scheme) && strings.EqualFold(u[:len(scheme)], scheme) {
			host := u[len(scheme):]
			if i := strings.IndexAny(host, "/?#\\ \t\n"); i >= 0 {
				host = host[:i]
			}
			if host == "" {
				return "", false
			}
			return u[:len(scheme)] + host, true
		}
	}
	return "", false
}

// localFile reports whether a URL given to fetch names a local file: a path, or a file's
// name with an extension.
func localFile(u string) bool {
	if u == "" || strings.ContainsAny(u, " \t\n") || strings.Contains(u, ":") {
		return false
	}
	if strings.HasPrefix(u, "./") || strings.HasPrefix(u, "../") || strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		return true
	}
	last := u[strings.LastIndex(u, "/")+1:]
	dot := strings.LastIndex(last, ".")
	return dot > 0 && dot < len(last)-1 && !strings.ContainsAny(u, "?#")
}

// classicFile is bundler.classic for a classic script file of the app's (rel, relative to
// the app folder), with its checks' messages (classicChecks): the author's code, judged as
// the app's module scripts are.
func (b *bundler) classicFile(code, rel string) (string, diag.List) {
	code, checks := b.classicChecks(filepath.Join(b.root, filepath.FromSlash(rel)), []byte(code), classicFileOf)
	js, l := b.classic(code, rel)
	if l.HasErrors() {
		return js, l
	}
	return js, append(l, checks...)
}

// classicChecks returns the checks' messages for a classic script (written in the page, or a
// file of the app's it names), which is minified, not bundled, and so not transformed but by
// the edits that hold in a classic script (rewrite.classic): its code so edited, its errors
// (what the bundle's policy refuses when it runs) as errors, the rest as warnings.
func (b *bundler) classicChecks(file string, src []byte, kind classicKind) (string, diag.List) {
	_, code, errs, warnings := b.transformed(file, file, string(src), api.LoaderJS, nil, nil, kind)
	if code == "" {
		code = string(src)
	}
	return code, append(b.messages(errs, diag.Error), b.messages(warnings, diag.Warning)...)
}

// allowed reports whether the manifest's allowedDomains admits origin (ws: and wss: as the
// policy matches them, as http: and https:).
func (b *bundler) allowed(origin string) bool {
	o := strings.Replace(strings.Replace(strings.ToLower(origin), "wss://", "https://", 1), "ws://", "http://", 1)
	for _, d := range b.m.AllowedDomains {
		if d == o {
			return true
		}
		if rest, ok := strings.CutPrefix(d, "https://*."); ok {
			host, hasHost := strings.CutPrefix(o, "https://")
			if hasHost && strings.HasSuffix(host, "."+rest) {
				return true
			}
		}
	}
	return false
}

// createElementAt returns createElement or createElementNS where the significant token i
// names one called as a member (document.createElement(…), doc["createElement"](…)), or "".
func createElementAt(s *script, i int) string {
	prop, _, after, ok := s.memberAt(i)
	if !ok || prop != "createElement" && prop != "createElementNS" {
		return ""
	}
	if _, call := s.callAt(after); !call {
		return ""
	}
	return prop
}
