package offline

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
)

// policy is a parsed Content-Security-Policy, judged as CSP Level 3 does for the URLs a
// document holds: a directive, else the first of its fallbacks that the policy has.
type policy map[string][]string

func parsePolicy(s string) policy {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	p := policy{}
	for _, d := range strings.Split(s, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			continue
		}
		name := strings.ToLower(f[0])
		if _, dup := p[name]; !dup { // the first of a repeated directive counts
			p[name] = f[1:]
		}
	}
	return p
}

// fallbacks are the directives a request's own directive falls back to, in order (CSP Level 3,
// "directive fallback list").
var fallbacks = map[string][]string{
	"script-src-elem": {"script-src-elem", "script-src", "default-src"},
	"script-src-attr": {"script-src-attr", "script-src", "default-src"},
	"style-src-elem":  {"style-src-elem", "style-src", "default-src"},
	"worker-src":      {"worker-src", "child-src", "script-src", "default-src"},
	"frame-src":       {"frame-src", "child-src", "default-src"},
	"img-src":         {"img-src", "default-src"},
	"font-src":        {"font-src", "default-src"},
	"media-src":       {"media-src", "default-src"},
	"object-src":      {"object-src", "default-src"},
	"connect-src":     {"connect-src", "default-src"},
	"manifest-src":    {"manifest-src", "default-src"},
	"form-action":     {"form-action"},
	"base-uri":        {"base-uri"},
}

// blocks returns the directive and its sources when the policy blocks u (an own URL: data:,
// blob:, javascript:) for a request of kind directive, or "" when it allows it.
func (p policy) blocks(directive, u string) string {
	if p == nil {
		return ""
	}
	sch, _ := scheme(cleanURL(u))
	if sch == "" || sch == "about" || sch == "mailto" || sch == "tel" {
		return "" // empty, fragment, about:blank and the like request nothing
	}
	for _, name := range fallbacks[directive] {
		srcs, ok := p[name]
		if !ok {
			continue
		}
		for _, s := range srcs {
			s = strings.ToLower(s)
			if s == sch+":" || (sch == "javascript" && s == "'unsafe-inline'") {
				return ""
			}
		}
		return fmt.Sprintf("%s %s", name, strings.Join(srcs, " "))
	}
	return "" // no directive applies: allowed
}

// policyHit reports an own URL that the document's own policy would block, so that a page
// is not shipped broken.
func (c *checker) policyHit(directive string, off, n int, place, u string) []hit {
	d := c.policy.blocks(directive, u)
	if d == "" {
		return nil
	}
	sch, _ := scheme(cleanURL(u))
	return []hit{{off: off, length: n, place: place, url: u,
		text: fmt.Sprintf("%s uses a %s: URL that the page's own policy blocks (%s): the page would be broken", place, sch, d),
		note: "inline it as the page's own element (a <style>, a <script>, markup in the page or in srcdoc) instead of a URL"}}
}

// directiveOf is the directive that governs an element's URL attribute.
func directiveOf(tag, name, rel string) string {
	switch {
	case tag == "script":
		return "script-src-elem"
	case tag == "iframe" || tag == "frame":
		return "frame-src"
	case tag == "object" || tag == "embed":
		return "object-src"
	case tag == "video" || tag == "audio" || tag == "source" && name == "src" || tag == "track":
		if name == "poster" {
			return "img-src"
		}
		return "media-src"
	case name == "action" || name == "formaction":
		return "form-action"
	case tag == "base":
		return "base-uri"
	case tag == "a" || tag == "area":
		return "script-src-elem" // only a javascript: link is judged: it runs script
	case tag == "link":
		switch {
		case strings.Contains(rel, "stylesheet"):
			return "style-src-elem"
		case strings.Contains(rel, "modulepreload"):
			return "script-src-elem"
		case strings.Contains(rel, "manifest"):
			return "manifest-src"
		}
	}
	return "img-src"
}

// PolicyMetas returns the content of every <meta http-equiv="Content-Security-Policy"> that
// a browser enforces in page: those in its head, which ends, as the parser ends it, at the
// first text or element that cannot be in a head. A policy met later is ignored by the
// browser, and so here.
func PolicyMetas(page []byte) []string {
	z := html.NewTokenizer(bytes.NewReader(page))
	var out []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.TextToken:
			if len(bytes.Trim(z.Text(), " \t\n\f\r")) > 0 {
				return out
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			switch string(name) {
			case "html", "head", "title", "style", "script", "noscript", "base", "link", "template":
				continue
			case "meta":
			default:
				return out
			}
			// The first of duplicate attributes counts, as in the browser.
			var content, equiv *string
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				s := string(v)
				switch string(k) {
				case "http-equiv":
					if equiv == nil {
						equiv = &s
					}
				case "content":
					if content == nil {
						content = &s
					}
				}
			}
			csp := equiv != nil && content != nil && strings.EqualFold(strings.TrimSpace(*equiv), "content-security-policy")
			if csp {
				out = append(out, *content)
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return out
			}
		}
	}
}
