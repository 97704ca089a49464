package offline

import (
	"fmt"
	"strings"

	"github.com/miniapp/bundle/markup"
)

// policy is a parsed Content-Security-Policy, judged as CSP Level 3 does for the URLs a
// document holds: a directive, else the first of its fallbacks that the policy has.
type policy map[string][]string

func parsePolicy(s string) policy { return ParseDirectives(s) }

// ParseDirectives parses a serialized Content-Security-Policy as CSP Level 3 does ("parse a
// serialized CSP"): directives split at ";", each name lower-cased, its sources split at
// ASCII whitespace, the first of a repeated directive kept. nil for an empty policy.
func ParseDirectives(s string) map[string][]string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	p := map[string][]string{}
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
	"style-src-attr":  {"style-src-attr", "style-src", "default-src"},
	"script-src":      {"script-src", "default-src"},
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

// Sources returns the sources that govern a request of kind directive under the parsed policy
// p (ParseDirectives): those of the directive, else of the first of its fallbacks p has, with
// that directive's name; ok is false when none applies (the policy does not restrict it).
func Sources(p map[string][]string, directive string) (srcs []string, name string, ok bool) {
	for _, n := range fallbacks[directive] {
		if srcs, ok := p[n]; ok {
			return srcs, n, true
		}
	}
	return nil, "", false
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
		text: fmt.Sprintf("%s uses a %s: URL that the page's Content-Security-Policy blocks (%s): the page would be broken", place, sch, d),
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

// PolicyMeta is a <meta http-equiv="Content-Security-Policy"> of a page's tree.
type PolicyMeta struct {
	// Content is the content attribute's value as the tree has it (references decoded, not
	// trimmed): the policy the browser parses.
	Content string
	// Tag is the element's start tag in the tree's Src.
	Tag markup.Range
	// Ignored says why the browser does not enforce it, "" when it does: it is in a
	// template's contents, or not a child of the head, or has no content.
	Ignored string
}

// PolicyMetaTags returns the policy <meta> elements of a page's tree in source order, each
// with whether the browser enforces it, as the HTML Standard says (§4.2.5.3, "Content
// security policy state"): the http-equiv value is compared in ASCII case only and not
// trimmed (" Content-Security-Policy" and Content-ſecurity-Policy are no policy), and only
// a meta that is a child of the head element, inserted into the document (not template
// contents), with a content that is not empty, is enforced.
func PolicyMetaTags(d *markup.Document) []PolicyMeta {
	var out []PolicyMeta
	head := d.Head()
	for _, n := range d.Nodes {
		if !n.Is(markup.HTML, "meta") || n.Flags&markup.Clone != 0 {
			continue
		}
		equiv, _ := n.AttrValue("http-equiv")
		if !asciiEqualFold(equiv, "content-security-policy") {
			continue
		}
		content, _ := n.AttrValue("content")
		m := PolicyMeta{Content: content, Tag: n.Tag}
		switch {
		case n.Flags&markup.InTemplate != 0:
			m.Ignored = "it is inside a <template>, whose contents are inert"
		case n.Inert():
			m.Ignored = "it is not in the document"
		case head == nil || n.Parent != head:
			m.Ignored = "it is not a child of <head>"
		case content == "":
			m.Ignored = "its content is empty"
		}
		out = append(out, m)
	}
	return out
}

// PolicyMetas returns the content of every policy <meta> that a browser enforces in page
// (PolicyMetaTags), in source order.
func PolicyMetas(page []byte) []string {
	var out []string
	for _, m := range PolicyMetaTags(markup.Parse(page, markup.Options{})) {
		if m.Ignored == "" {
			out = append(out, m.Content)
		}
	}
	return out
}
