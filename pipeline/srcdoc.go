package pipeline

import (
	"fmt"
	"strings"

	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
)

// Scripts in <iframe srcdoc>. A srcdoc document runs under the policy of the page that holds
// it (it inherits the page's policy container), so its inline scripts need their hashes in the
// page's script-src, or they are blocked without a word: srcdocScripts gives them, read from
// the attribute's value as the browser builds that document (markup's tree construction),
// through srcdocs nested in srcdocs. What the policy cannot allow by a hash (an event handler
// attribute, a javascript: URL) is refused at the srcdoc attribute; files a srcdoc names are
// the offline check's to refuse (the build inlines nothing there).

// maxSrcdocDepth bounds srcdoc documents nested in srcdoc documents, as the offline check does.
const maxSrcdocDepth = 8

// srcdocScripts returns the scripts of every <iframe srcdoc> of the page (live or in a
// template: a cloned one runs), and refuses what in them the policy cannot allow.
func (a *assembler) srcdocScripts() []pageScript {
	var out []pageScript
	for _, e := range a.elements() {
		if e.noscript || !e.n.Is(markup.HTML, "iframe") {
			continue
		}
		if at, ok := e.tag().get("srcdoc"); ok {
			v, _ := e.n.AttrValue("srcdoc")
			out = append(out, a.srcdoc(v, at, 1)...)
		}
	}
	return out
}

// srcdoc returns the scripts of the srcdoc document doc, whose outermost attribute is at.
func (a *assembler) srcdoc(doc string, at attr, depth int) []pageScript {
	if depth > maxSrcdocDepth {
		a.errAt(at.off, at.n, fmt.Sprintf("srcdoc documents are nested more than %d deep", maxSrcdocDepth), "nest fewer frames")
		return nil
	}
	d := markup.Parse([]byte(doc), markup.Options{})
	out := scriptTexts(d, nil, nil)
	for n := range d.Root.Descendants() {
		if n.Type != markup.ElementNode {
			continue
		}
		for _, x := range n.Attr {
			switch {
			case len(x.Name) > 2 && strings.HasPrefix(x.Name, "on") && n.Namespace != markup.MathML:
				a.errAt(at.off, at.n, fmt.Sprintf("the event handler %s=%q in this srcdoc cannot run under the bundle's Content-Security-Policy, which the frame's document inherits", x.Name, x.Value),
					fmt.Sprintf("attach it in a script of the srcdoc instead: element.addEventListener(%q, …)", strings.TrimPrefix(x.Name, "on")))
			case (x.Name == "href" || x.Name == "src" || x.Name == "action" || x.Name == "formaction") &&
				offline.Scheme(x.Value) == "javascript":
				a.errAt(at.off, at.n, fmt.Sprintf("a javascript: URL (%s=%q) in this srcdoc cannot run under the bundle's Content-Security-Policy, which the frame's document inherits", x.Name, x.Value),
					"attach the behaviour in a script of the srcdoc instead")
			}
		}
		if n.Is(markup.HTML, "iframe") {
			if v, ok := n.AttrValue("srcdoc"); ok {
				out = append(out, a.srcdoc(v, at, depth+1)...)
			}
		}
	}
	return out
}
