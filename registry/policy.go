package registry

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
)

// Policy is a bundle's Content-Security-Policy in parts: bundle build writes String() into the
// page's <meta>, and a host sends it as a header with FrameAncestors (browsers ignore
// frame-ancestors in a <meta>). Hosts get it from Entry.Policy, which computes it from the
// entry's fields, never from the entry's csp as text. The zero value is the policy of a page
// with no script and no network.
type Policy struct {
	// ScriptHashes are the hash sources of the page's inline scripts ('sha256-…'), sorted.
	ScriptHashes []string
	// Wasm and Eval add 'wasm-unsafe-eval' and 'unsafe-eval' to script-src.
	Wasm, Eval bool
	// Connect are the origins the page may connect to: the manifest's allowedDomains.
	Connect []string
	// ConnectData lets the page fetch data: URLs (files the build turned into URLs).
	ConnectData bool
	// Workers lets the page start workers from blob: URLs (worker-src blob:).
	Workers bool
	// StyleData lets the page link stylesheets held in data: URLs (style-src data:).
	StyleData bool
	// FrameAncestors are the origins that may frame the page: the manifest's hosts. None
	// leaves the directive out (any page may frame it).
	FrameAncestors []string

	// The parts the page's own policy <meta> adds, where it is stricter than the build's
	// (bundle build merges it; each can only take away): Narrow keeps, for a directive whose
	// sources are fixed (img-src, font-src, media-src, worker-src), only those sources of
	// it, in their order ('none' when none is kept); InlineStyleOff replaces style-src's
	// 'unsafe-inline' by StyleHashes, the hashes of the page's <style> texts; Extra are
	// directives that only restrict (Restricting), as the page wrote them, after the others.
	Narrow         map[string][]string
	InlineStyleOff bool
	StyleHashes    []string
	Extra          []string
}

// Restricting are the directives a page's own policy may add to the build's (Policy.Extra):
// each only takes away what a page may do.
var Restricting = []string{"require-trusted-types-for", "trusted-types", "upgrade-insecure-requests", "block-all-mixed-content"}

// fixedSources are the sources the build writes for the directives that hold no more than
// what the page needs; Narrow may keep fewer.
var fixedSources = map[string][]string{"img-src": {"data:", "blob:"}, "font-src": {"data:"}, "media-src": {"data:", "blob:"}, "worker-src": {"blob:"}}

// sources returns the sources of the fixed directive name, narrowed as p says.
func (p Policy) sources(name string) string {
	srcs := fixedSources[name]
	if keep, ok := p.Narrow[name]; ok {
		srcs = slices.DeleteFunc(slices.Clone(srcs), func(s string) bool { return !slices.Contains(keep, s) })
	}
	if len(srcs) == 0 {
		return "'none'"
	}
	return strings.Join(srcs, " ")
}

// String renders the policy: its directives in the order bundle build writes them, each
// source as the policy holds it (Check says whether they are sources at all).
func (p Policy) String() string {
	script := slices.Clone(p.ScriptHashes)
	if p.Wasm {
		script = append(script, "'wasm-unsafe-eval'")
	}
	if p.Eval {
		script = append(script, "'unsafe-eval'")
	}
	if len(script) == 0 {
		script = []string{"'none'"}
	}
	var connect []string
	if p.ConnectData {
		connect = append(connect, "data:")
	}
	connect = append(connect, p.Connect...)
	if len(connect) == 0 {
		connect = []string{"'none'"}
	}
	style := []string{"'unsafe-inline'"}
	if p.InlineStyleOff {
		style = slices.Clone(p.StyleHashes)
	}
	if p.StyleData {
		style = append(style, "data:")
	}
	if len(style) == 0 {
		style = []string{"'none'"}
	}
	d := []string{
		"default-src 'none'",
		"script-src " + strings.Join(script, " "),
		"style-src " + strings.Join(style, " "),
		"img-src " + p.sources("img-src"),
		"font-src " + p.sources("font-src"),
		"media-src " + p.sources("media-src"),
		"connect-src " + strings.Join(connect, " "),
	}
	if p.Workers {
		d = append(d, "worker-src "+p.sources("worker-src"))
	}
	d = append(d, "object-src 'none'", "base-uri 'none'", "form-action 'none'")
	d = append(d, p.Extra...)
	if len(p.FrameAncestors) > 0 {
		d = append(d, "frame-ancestors "+strings.Join(p.FrameAncestors, " "))
	}
	return strings.Join(d, "; ")
}

// Check reports the first part of the policy that is not a source expression of its kind
// (CSP Level 3's grammar): a hash that is not 'sha256-' and 32 bytes of base64, an origin that
// is not scheme://host[:port] with an http(s) scheme. A policy that passes renders as one
// directive per part, with nothing an attacker's text could add to it.
func (p Policy) Check() error {
	for _, h := range p.ScriptHashes {
		if !isHashSource(h) {
			return fmt.Errorf("script-src %q is not a hash source ('sha256-' and the base64 of 32 bytes, quoted)", h)
		}
	}
	for _, o := range p.Connect {
		if !isOriginSource(o) {
			return fmt.Errorf("connect-src %q is not an origin (https://host or https://*.host, with an optional port)", o)
		}
	}
	for _, h := range p.StyleHashes {
		if !isHashSource(h) {
			return fmt.Errorf("style-src %q is not a hash source ('sha256-' and the base64 of 32 bytes, quoted)", h)
		}
	}
	for name, keep := range p.Narrow {
		for _, s := range keep {
			if !slices.Contains(fixedSources[name], s) {
				return fmt.Errorf("%s may keep only some of %q, not %q", name, fixedSources[name], s)
			}
		}
	}
	for _, x := range p.Extra {
		f := strings.Fields(x)
		if len(f) == 0 || !slices.Contains(Restricting, strings.ToLower(f[0])) || strings.ContainsAny(x, ";,") {
			return fmt.Errorf("%q is not a directive a page's policy may add (%s)", x, strings.Join(Restricting, ", "))
		}
	}
	for _, o := range p.FrameAncestors {
		if !isOriginSource(o) {
			return fmt.Errorf("frame-ancestors %q is not an origin (https://host or https://*.host, with an optional port)", o)
		}
	}
	return nil
}

// isHashSource reports whether s is 'sha256-<base64 of 32 bytes>'.
func isHashSource(s string) bool {
	b64, ok := strings.CutPrefix(s, "'sha256-")
	if !ok || !strings.HasSuffix(b64, "'") {
		return false
	}
	sum, err := base64.StdEncoding.Strict().DecodeString(strings.TrimSuffix(b64, "'"))
	return err == nil && len(sum) == 32
}

// isOriginSource reports whether s is a host-source that names an origin: http: or https:,
// then a host of dot-separated labels of letters, digits and '-' (the first may be "*"), then
// an optional port of digits; no path, no other character.
func isOriginSource(s string) bool {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "http://"); !ok {
			return false
		}
	}
	host, port, hasPort := strings.Cut(rest, ":")
	if hasPort && (port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "") {
		return false
	}
	labels := strings.Split(host, ".")
	for i, l := range labels {
		if l == "*" && i == 0 && len(labels) > 1 {
			continue
		}
		if l == "" || len(l) > 63 || strings.Trim(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != "" {
			return false
		}
	}
	return true
}

// ParsePolicy reads a policy written as bundle build writes it (String), the page's own
// policy merged into it or not. Anything else is an error naming the part: a directive the
// build does not write (frame-ancestors, report-uri, sandbox, …), a source it does not write
// in that directive, a directive out of its order.
func ParsePolicy(csp string) (Policy, error) {
	var p Policy
	seen := map[string]bool{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			continue
		}
		name, srcs := f[0], f[1:]
		if seen[name] {
			return Policy{}, fmt.Errorf("%s is given twice (a browser takes the first)", name)
		}
		seen[name] = true
		fixed := map[string]string{"default-src": "'none'", "object-src": "'none'", "base-uri": "'none'", "form-action": "'none'"}
		if slices.Contains(Restricting, name) {
			p.Extra = append(p.Extra, strings.Join(f, " "))
			continue
		}
		switch name {
		case "script-src":
			for _, s := range srcs {
				switch {
				case s == "'wasm-unsafe-eval'":
					p.Wasm = true
				case s == "'unsafe-eval'":
					p.Eval = true
				case s == "'none'" && len(srcs) == 1:
				case isHashSource(s):
					p.ScriptHashes = append(p.ScriptHashes, s)
				default:
					return Policy{}, fmt.Errorf("script-src has %s, which bundle build never writes (it writes the hashes of the page's scripts, 'wasm-unsafe-eval' and 'unsafe-eval')", s)
				}
			}
		case "style-src":
			p.InlineStyleOff = !slices.Contains(srcs, "'unsafe-inline'")
			for _, s := range srcs {
				switch {
				case s == "'unsafe-inline'":
				case s == "data:":
					p.StyleData = true
				case s == "'none'" && len(srcs) == 1:
				case isHashSource(s) && p.InlineStyleOff:
					p.StyleHashes = append(p.StyleHashes, s)
				default:
					return Policy{}, fmt.Errorf("style-src has %s, which bundle build never writes", s)
				}
			}
		case "img-src", "font-src", "media-src", "worker-src":
			p.Workers = p.Workers || name == "worker-src"
			if strings.Join(srcs, " ") == strings.Join(fixedSources[name], " ") {
				continue
			}
			if p.Narrow == nil {
				p.Narrow = map[string][]string{}
			}
			p.Narrow[name] = []string{}
			if len(srcs) == 1 && srcs[0] == "'none'" {
				continue
			}
			for _, s := range srcs {
				if !slices.Contains(fixedSources[name], s) {
					return Policy{}, fmt.Errorf("%s has %s, which bundle build never writes", name, s)
				}
				p.Narrow[name] = append(p.Narrow[name], s)
			}
		case "connect-src":
			for _, s := range srcs {
				switch {
				case s == "data:":
					p.ConnectData = true
				case s == "'none'" && len(srcs) == 1:
				case isOriginSource(s):
					p.Connect = append(p.Connect, s)
				default:
					return Policy{}, fmt.Errorf("connect-src has %s, which is not an origin allowedDomains can hold", s)
				}
			}
		default:
			want, known := fixed[name]
			if !known {
				return Policy{}, fmt.Errorf("it has the directive %s, which bundle build never writes", name)
			}
			if got := strings.Join(srcs, " "); got != want {
				return Policy{}, fmt.Errorf("%s is %q, bundle build writes %q", name, got, want)
			}
		}
	}
	if got := p.String(); got != csp {
		return Policy{}, fmt.Errorf("it is not written as bundle build writes it: %q", got)
	}
	return p, nil
}

// Policy returns the policy a host serves the bundle with, computed from the entry's fields:
// wasm and eval (script-src), allowedDomains (connect-src) and hosts (frame-ancestors). The
// parts no field holds (the hashes of the page's scripts, and whether it uses data: and blob:
// URLs, and what the page's own policy took away) come from csp. It fails when csp is not the policy those fields give, such as one
// that ends in frame-ancestors * (which a host would send first, and browsers obey the
// first), or when a field holds what is not an origin.
func (e Entry) Policy() (Policy, error) {
	got, err := ParsePolicy(e.CSP)
	if err != nil {
		return Policy{}, fmt.Errorf("csp: %v", err)
	}
	want := got
	want.Wasm, want.Eval, want.Connect = e.Wasm, e.Eval, slices.Clone(e.AllowedDomains)
	switch {
	case got.Wasm != want.Wasm:
		return Policy{}, fmt.Errorf("csp: script-src and wasm = %v disagree about 'wasm-unsafe-eval'", e.Wasm)
	case got.Eval != want.Eval:
		return Policy{}, fmt.Errorf("csp: script-src and eval = %v disagree about 'unsafe-eval'", e.Eval)
	case !slices.Equal(got.Connect, want.Connect):
		return Policy{}, fmt.Errorf("csp: connect-src names %q, allowedDomains %q", got.Connect, e.AllowedDomains)
	}
	want.FrameAncestors = slices.Clone(e.Hosts)
	if err := want.Check(); err != nil {
		return Policy{}, err
	}
	return want, nil
}

// Connects reports whether the entry's allowedDomains let the page connect to origin
// (scheme://host[:port], as a request's URL gives it), as the policy's connect-src matches a
// host-source: the origin itself, or for https://*.example.com any subdomain of example.com
// (not example.com); ws: and wss: match as http: and https:.
func (e Entry) Connects(origin string) bool {
	o := strings.ToLower(origin)
	if rest, ok := strings.CutPrefix(o, "wss://"); ok {
		o = "https://" + rest
	} else if rest, ok := strings.CutPrefix(o, "ws://"); ok {
		o = "http://" + rest
	}
	o = strings.TrimSuffix(strings.TrimSuffix(o, ":443"), "/")
	for _, d := range e.AllowedDomains {
		d = strings.ToLower(d)
		if d == o {
			return true
		}
		if rest, ok := strings.CutPrefix(d, "https://*."); ok {
			if host, ok := strings.CutPrefix(o, "https://"); ok && strings.HasSuffix(host, "."+rest) {
				return true
			}
		}
	}
	return false
}
