package pipeline

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"hash"
	"net/url"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/registry"
)

// The page's own Content-Security-Policy <meta>. A browser enforces every policy a page has,
// each on its own (CSP Level 3: a request must pass all of them), so a page's own policy kept
// beside the build's blocked what the build inlined (script-src 'self' has no hash for the
// bundle, nor for the SDK) and bundle verify refused the page. The build instead merges each
// policy the browser would enforce (a child of <head>, not in a template, with a content)
// into its own and leaves the page's <meta> out: one policy, never weaker than either.
//
// Merged, a directive keeps only what the page's policy allows too, read as the page meant it
// before the build: what the build inlined (scripts, stylesheets, images, fonts, workers, the
// files the app fetches) the page loaded from its own origin, so a data: or blob: URL that
// stands for an app file is allowed where the page's policy allowed its own origin ('self',
// '*', http: or https:); a script is allowed as the source page's policy allowed it (a file
// by its origin, unless 'strict-dynamic'; inline code by its hash, its nonce or
// 'unsafe-inline'), which the build's hash then stands for. What the page's policy took away
// goes into registry.Policy's Narrow, InlineStyleOff (the <style>s then by their hashes) and
// Extra (require-trusted-types-for, trusted-types, upgrade-insecure-requests). Where the page's
// policy is stricter in a way the merged policy cannot be without breaking what the source
// page did (a script its policy blocks, which the build would run; eval = true in the
// manifest and no 'unsafe-eval'; an allowedDomains origin its connect-src does not allow),
// the build is refused at the place, with the fix. The SDK's script, the build's own, is
// allowed by its hash whatever the page's policy says.

// ownPolicy is one policy <meta> of the page that the browser enforces.
type ownPolicy struct {
	d       map[string][]string // offline.ParseDirectives of its content
	tag     int                 // the offset of its start tag in the page
	content attr                // its content attribute, where messages go
}

// ownPolicies returns the page's policy <meta>s the browser enforces, in source order, read
// once from the page's tree (offline.PolicyMetaTags, as bundle verify finds them).
func (a *assembler) ownPolicies() []ownPolicy {
	if a.own != nil || !a.wellFormed() {
		return a.own
	}
	a.own = []ownPolicy{}
	at := map[int]bool{}
	for _, m := range offline.PolicyMetaTags(a.page()) {
		if m.Ignored == "" {
			at[m.Tag.Start] = true
		}
	}
	for _, e := range a.elements() {
		if e.inert || !e.n.Is(markup.HTML, "meta") {
			continue
		}
		if t := e.tag(); at[t.off] {
			c, _ := t.get("content")
			a.own = append(a.own, ownPolicy{d: offline.ParseDirectives(c.val), tag: t.off, content: c})
		}
	}
	return a.own
}

// isOwnPolicy reports whether the <meta> whose start tag is at off is one of the page's
// policies the build merges: the walk leaves it out of the page.
func (a *assembler) isOwnPolicy(off int) bool {
	return slices.ContainsFunc(a.ownPolicies(), func(p ownPolicy) bool { return p.tag == off })
}

// mergeOwn merges the page's own policies into p, the build's, and reports at its place what
// cannot be merged. styles are the texts of the built page's <style> elements, hashed when
// the page's policy allows no inline style; lazy are the stylesheets the page's scripts add
// when a dynamic import loads them (lazycss.go), which Vite links from the page's origin.
func (a *assembler) mergeOwn(p registry.Policy, styles []string, lazy []lazyStyle) registry.Policy {
	for _, own := range a.ownPolicies() {
		p = a.mergeOne(p, own, styles, lazy)
	}
	return p
}

func (a *assembler) mergeOne(p registry.Policy, own ownPolicy, styles []string, lazy []lazyStyle) registry.Policy {
	c := own.content
	refuse := func(text, note string) {
		a.errAt(c.off, max(c.n, 1), "the page's own Content-Security-Policy "+text, note)
	}
	sources := func(directive string) ([]string, string, bool) { return offline.Sources(own.d, directive) }

	// Scripts: each the source page runs must be one its policy allows.
	srcs, name, ok := sources("script-src-elem")
	if ok {
		for _, s := range a.sourceScripts() {
			if s.allowedBy(srcs) || !own.governs(s) {
				continue
			}
			what, fix := "this inline script", fmt.Sprintf("add %s to %s, or remove the script", hashOf(s.text), name)
			if s.file {
				what, fix = "this script file", fmt.Sprintf("add 'self' to %s (without 'strict-dynamic'), or remove the script", name)
			}
			a.errAt(s.off, s.n, fmt.Sprintf("the page's own Content-Security-Policy (%s %s) blocks %s, which the built page would run inline", name, strings.Join(srcs, " "), what), fix)
		}
	}
	if srcs, name, ok := sources("script-src"); ok {
		if p.Eval && !hasSource(srcs, "'unsafe-eval'") {
			refuse(fmt.Sprintf("(%s %s) has no 'unsafe-eval', and miniapp.toml sets eval = true", name, strings.Join(srcs, " ")),
				"set eval = false in miniapp.toml, or add 'unsafe-eval' to "+name)
		}
		if p.Wasm && !hasSource(srcs, "'unsafe-eval'") && !hasSource(srcs, "'wasm-unsafe-eval'") {
			refuse(fmt.Sprintf("(%s %s) has no 'wasm-unsafe-eval', and miniapp.toml sets wasm = true", name, strings.Join(srcs, " ")),
				"set wasm = false in miniapp.toml, or add 'wasm-unsafe-eval' to "+name)
		}
	}

	// Styles: inline as the page's policy allows them, else by their hashes.
	elem, elemName, elemOK := sources("style-src-elem")
	attrSrcs, attrName, attrOK := sources("style-src-attr")
	elemInline, attrInline := !elemOK || allowsInline(elem), !attrOK || allowsInline(attrSrcs)
	switch {
	case elemInline && attrInline:
	case elemInline != attrInline:
		refuse(fmt.Sprintf("allows inline styles in %s and not in %s (%s %s; %s %s), which the build's one style-src cannot say",
			map[bool]string{true: "elements", false: "attributes"}[elemInline], map[bool]string{true: "attributes", false: "elements"}[elemInline],
			elemName, strings.Join(elem, " "), attrName, strings.Join(attrSrcs, " ")),
			"give style-src-elem and style-src-attr the same 'unsafe-inline', or write one style-src")
	default:
		for _, s := range a.sourceStyles() {
			if !s.allowedBy(elem) && own.governs(s) {
				what, fix := "this <style>", fmt.Sprintf("add %s to %s, or remove it", hashOf(s.text), elemName)
				if s.file {
					what, fix = "this stylesheet file", fmt.Sprintf("add 'self' to %s, or remove the link", elemName)
				}
				a.errAt(s.off, s.n, fmt.Sprintf("the page's own Content-Security-Policy (%s %s) blocks %s, which the built page would apply inline", elemName, strings.Join(elem, " "), what), fix)
			}
		}
		if len(lazy) > 0 && !allowsOwn(elem) {
			refuse(fmt.Sprintf("(%s %s) blocks the stylesheets import() loads (%s), which Vite links from the page's origin and the built page adds as <style>s",
				elemName, strings.Join(elem, " "), strings.Join(lazyFiles(lazy), ", ")), "add 'self' to "+elemName)
		}
		p.InlineStyleOff = true
		p.StyleHashes = styleHashes(append(slices.Clone(styles), lazyCSS(lazy)...))
	}
	if p.StyleData && elemOK && !allowsOwn(elem) && !hasSource(elem, "data:") {
		refuse(fmt.Sprintf("(%s %s) blocks the page's own stylesheets, which the build links as data: URLs (alternate or disabled ones)", elemName, strings.Join(elem, " ")),
			"add 'self' to "+elemName)
	}

	// The files the build inlined, and blob: URLs the app makes.
	for _, d := range []string{"img-src", "font-src", "media-src", "worker-src"} {
		srcs, _, ok := sources(d)
		if !ok {
			continue
		}
		keep := []string{}
		if allowsOwn(srcs) || hasSource(srcs, "data:") {
			keep = append(keep, "data:")
		}
		if hasSource(srcs, "blob:") || d == "worker-src" && allowsOwn(srcs) {
			keep = append(keep, "blob:")
		}
		if p.Narrow == nil {
			p.Narrow = map[string][]string{}
		}
		if prev, ok := p.Narrow[d]; ok {
			keep = slices.DeleteFunc(keep, func(s string) bool { return !slices.Contains(prev, s) })
		}
		p.Narrow[d] = keep
	}
	if srcs, name, ok := sources("connect-src"); ok {
		p.ConnectData = p.ConnectData && (allowsOwn(srcs) || hasSource(srcs, "data:"))
		for _, o := range p.Connect {
			if !allowsOrigin(srcs, o) {
				refuse(fmt.Sprintf("(%s %s) does not allow %s, which miniapp.toml's allowedDomains lists", name, strings.Join(srcs, " "), o),
					fmt.Sprintf("remove %s from allowedDomains, or add it to %s", o, name))
			}
		}
	}

	// Directives that only restrict are kept; those a <meta> cannot hold are said.
	names := make([]string, 0, len(own.d))
	for n := range own.d {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		switch {
		case slices.Contains(registry.Restricting, n):
			if slices.ContainsFunc(p.Extra, func(x string) bool { return strings.Fields(x)[0] == n }) {
				refuse(n+" is set by two of the page's policies, which the build's one policy cannot both hold", "set it in one policy <meta>")
				continue
			}
			vals := own.d[n]
			if n == "trusted-types" && a.graphTrusts() && (slices.Contains(vals, "'allow-duplicates'") || slices.Contains(vals, classicPolicy)) {
				// The build makes its policy before the page's scripts run (trustedRunner), so
				// that no script of the page can; a second one of the name, or the page's own,
				// would be one the page as written does not allow, or one it cannot make.
				refuse(fmt.Sprintf("(%s %s) lets the page's scripts make the build's Trusted Types policy, %s, by which the built page runs its deferred classic scripts (%s)",
					n, strings.Join(vals, " "), classicPolicy, strings.Join(a.deferredFiles(), ", ")),
					fmt.Sprintf("remove %s from trusted-types, or load the scripts without defer (at the end of <body>, where they then run)",
						strings.Join(slices.DeleteFunc(slices.Clone(vals), func(v string) bool { return v != "'allow-duplicates'" && v != classicPolicy }), " and ")))
				continue
			}
			if n == "trusted-types" && a.graphTrusts() {
				// The policy by which the graph runs the deferred classic scripts (classicJS),
				// which 'none' alone would forbid; the page's own stay as it named them.
				vals = append(slices.DeleteFunc(slices.Clone(vals), func(v string) bool { return v == "'none'" }), classicPolicy)
			}
			p.Extra = append(p.Extra, strings.Join(append([]string{n}, vals...), " "))
		case n == "frame-ancestors" || n == "report-uri" || n == "report-to" || n == "sandbox":
			d := diag.Message{File: a.b.display(a.file), Severity: diag.Warning,
				Text: fmt.Sprintf("the page's own Content-Security-Policy has %s, which a browser ignores in a <meta>: it is left out", n),
				Note: "frame-ancestors comes from the manifest's hosts, in the header a host sends; remove it from the <meta>"}
			d.PlaceIn(a.lines, written(a.edits, c.off), max(c.n, 1))
			a.list = append(a.list, d)
		}
	}
	return p
}

// sourceThing is a script or stylesheet of the source page, as its policy judges it: code
// written in the page (text) or a file of the app (file), with its nonce, at [off, off+n);
// inert when in a template's contents.
type sourceThing struct {
	text   string
	file   bool
	nonce  string
	off, n int
	script bool
	inert  bool
}

// governs reports whether the policy p judges s. A <meta>'s policy applies from its insertion
// on (HTML: a policy <meta> adds its policy to the document's list when inserted), and the
// browser judges a script when the parser prepares it, a <style> when its end tag is parsed
// and a linked stylesheet when its fetch starts, each at its place: an element the parser
// meets before the <meta> ran or applied unjudged. One in a template's contents is judged
// when a clone is inserted, after the page was parsed.
func (p ownPolicy) governs(s sourceThing) bool {
	return s.inert || s.off > p.tag
}

// sourceScripts returns the scripts the source page runs: HTML and SVG scripts, live or in a
// template (a script cloned from one runs), classic (without nomodule) or module scripts by
// offline.KindOfScript; their files local (remote ones the offline check refuses).
func (a *assembler) sourceScripts() []sourceThing {
	var out []sourceThing
	for _, e := range a.elements() {
		if e.noscript || !e.n.Is(markup.HTML, "script") && !e.n.Is(markup.SVG, "script") {
			continue
		}
		t := e.tag()
		// nomodule is a classic script's attribute: a module script runs whatever it says.
		if k := scriptKind(t); k == offline.ScriptClassic && t.has("nomodule") || k != offline.ScriptClassic && k != offline.ScriptModule {
			continue
		}
		nonce, _ := t.get("nonce")
		if src, ok := t.get("src"); ok {
			out = append(out, sourceThing{file: true, nonce: nonce.val, off: src.off, n: src.n, script: true, inert: e.inert})
			continue
		}
		if text := childText(e.n, nil, nil); strings.TrimSpace(text) != "" {
			out = append(out, sourceThing{text: text, nonce: nonce.val, off: t.off, n: len(t.raw), script: true, inert: e.inert})
		}
	}
	return out
}

// sourceStyles returns the source page's <style> elements and the stylesheet files it links.
func (a *assembler) sourceStyles() []sourceThing {
	var out []sourceThing
	for _, e := range a.elements() {
		if e.noscript || foreignText(e) {
			continue
		}
		t := e.tag()
		nonce, _ := t.get("nonce")
		switch t.name {
		case "style":
			if text := childText(e.n, nil, nil); strings.TrimSpace(text) != "" && styleSheetElement(t) {
				out = append(out, sourceThing{text: text, nonce: nonce.val, off: t.off, n: len(t.raw), inert: e.inert})
			}
		case "link":
			if _, href, ok := bundledStylesheet(t); ok {
				out = append(out, sourceThing{file: true, nonce: nonce.val, off: href.off, n: href.n, inert: e.inert})
			}
		}
	}
	return out
}

// allowedBy reports whether srcs, a source list, allows s as CSP Level 3 does for an element:
// its nonce; for inline code its hash or 'unsafe-inline' (ignored beside a hash or nonce, and
// for scripts beside 'strict-dynamic'); for a file of the page's origin 'self', '*' or its
// scheme (ignored for scripts beside 'strict-dynamic').
func (s sourceThing) allowedBy(srcs []string) bool {
	strict := s.script && hasSource(srcs, "'strict-dynamic'")
	if s.nonce != "" && hasSource(srcs, "'nonce-"+s.nonce+"'") {
		return true
	}
	if s.file {
		return !strict && allowsOwn(srcs)
	}
	for _, h := range srcs {
		if matchesHash(h, s.text) {
			return true
		}
	}
	return !strict && allowsInline(srcs)
}

// allowsInline reports whether srcs allows inline code by 'unsafe-inline': present, and
// neither a hash nor a nonce beside it.
func allowsInline(srcs []string) bool {
	if !hasSource(srcs, "'unsafe-inline'") {
		return false
	}
	return !slices.ContainsFunc(srcs, func(s string) bool {
		l := strings.ToLower(s)
		return strings.HasPrefix(l, "'nonce-") || strings.HasPrefix(l, "'sha256-") || strings.HasPrefix(l, "'sha384-") || strings.HasPrefix(l, "'sha512-")
	})
}

// allowsOwn reports whether srcs allows a URL of the page's own origin, served over http(s):
// 'self', '*' or the scheme.
func allowsOwn(srcs []string) bool {
	return hasSource(srcs, "'self'") || hasSource(srcs, "*") || hasSource(srcs, "https:") || hasSource(srcs, "http:")
}

// allowsOrigin reports whether srcs allows a request to origin (scheme://host[:port], as
// allowedDomains holds it, https://*.host for its subdomains): '*', its scheme, or a
// host-source that names it or a wildcard over it, with no path (a path narrows the origin).
func allowsOrigin(srcs []string, origin string) bool {
	o, err := url.Parse(origin)
	if err != nil {
		return false
	}
	for _, s := range srcs {
		s = strings.ToLower(s)
		if s == "*" || s == o.Scheme+":" || o.Scheme == "http" && s == "https:" {
			return true
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") {
			continue
		}
		if u.Scheme != o.Scheme && !(u.Scheme == "http" && o.Scheme == "https") {
			continue
		}
		host, want := u.Hostname(), o.Hostname()
		if p := u.Port(); p != "*" && p != o.Port() {
			continue
		}
		if host == want || strings.HasPrefix(host, "*.") && strings.HasSuffix(want, host[1:]) {
			return true
		}
	}
	return false
}

// hasSource reports whether srcs holds src, keywords and schemes compared in ASCII case.
func hasSource(srcs []string, src string) bool {
	return slices.ContainsFunc(srcs, func(s string) bool { return asciiFold(s, src) })
}

// matchesHash reports whether the hash source h ('sha256-…', 'sha384-…', 'sha512-…') is of
// text, as the browser hashes an element's text (UTF-8).
func matchesHash(h, text string) bool {
	l := strings.ToLower(h)
	var fn func() hash.Hash
	switch {
	case strings.HasPrefix(l, "'sha256-"):
		fn = sha256.New
	case strings.HasPrefix(l, "'sha384-"):
		fn = sha512.New384
	case strings.HasPrefix(l, "'sha512-"):
		fn = sha512.New
	default:
		return false
	}
	d := fn()
	d.Write([]byte(text))
	sum := d.Sum(nil)
	b64 := strings.TrimSuffix(h[len("'sha256-"):], "'")
	// Both base64 alphabets, as CSP accepts them.
	return b64 == base64.StdEncoding.EncodeToString(sum) || b64 == base64.RawURLEncoding.EncodeToString(sum) || b64 == base64.URLEncoding.EncodeToString(sum)
}

// hashOf is the 'sha256-…' source of text.
func hashOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// styleHashes returns the hash sources of the built page's <style> texts, sorted, once each.
func styleHashes(styles []string) []string {
	var out []string
	for _, s := range styles {
		if h := hashOf(s); s != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}
