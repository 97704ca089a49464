package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"sort"
	"strings"

	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/registry"
)

// policy computes the Content-Security-Policy of the final page: every inline script's
// SHA-256 in script-src (no 'unsafe-inline'; 'wasm-unsafe-eval' and 'unsafe-eval' only when
// the manifest opts in), and no network except the manifest's allowedDomains in connect-src.
// fetchable says the app turned files into data: URLs it may fetch (connect-src data:);
// workers, that it starts workers from blob: URLs (worker-src blob:); styleData, that it
// links stylesheets as data: URLs (style-src data:). scripts are the page's scripts
// (scriptTexts), read from the exact bytes of the final page or of the page assemble wrote,
// its texts still placeholders (see assembler.hold).
func policy(scripts []pageScript, m *manifest.Manifest, fetchable, workers, styleData bool) string {
	return policyOf(scripts, m, fetchable, workers, styleData).String()
}

// policyOf is policy in parts, before the page's own policy is merged into it (ownpolicy.go).
func policyOf(scripts []pageScript, m *manifest.Manifest, fetchable, workers, styleData bool) registry.Policy {
	return registry.Policy{ScriptHashes: scriptHashes(scripts), Wasm: m.Wasm, Eval: m.Eval, Connect: m.AllowedDomains,
		ConnectData: fetchable, Workers: workers, StyleData: styleData}
}

// policyContent is the policy as the content attribute of the policy <meta> writes it.
func policyContent(csp string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(csp)
}

// pageScript is a script element of a page: its text as the browser's tree holds it (for an
// HTML script its raw text, for an SVG script its text with character references decoded,
// both with newlines normalized), and whether it has a src (then its text does not run).
type pageScript struct {
	text   string
	hasSrc bool
}

// readBuilt returns the tree of page, a page assemble wrote or the final page, as the
// browser builds it. The 0xFF bytes of placeholders, which no UTF-8 holds, are read as
// U+0001, one byte each, so that every range of the tree indexes page as written.
func readBuilt(page []byte) *markup.Document {
	if bytes.IndexByte(page, 0xff) < 0 {
		return markup.Parse(page, markup.Options{})
	}
	b := bytes.Clone(page)
	for i, c := range b {
		if c == 0xff {
			b[i] = 0x01
		}
	}
	return markup.Parse(b, markup.Options{})
}

// scriptTexts returns every script element of the tree d of page (readBuilt), in tree order,
// template contents included (a script cloned out of a template runs). A script whose text is
// a placeholder in page has the text it stands for, texts[i].
func scriptTexts(d *markup.Document, page []byte, texts []string) []pageScript {
	var out []pageScript
	for n := range d.Root.Descendants() {
		if !n.Is(markup.HTML, "script") && !n.Is(markup.SVG, "script") {
			continue
		}
		_, hasSrc := n.AttrValue("src")
		out = append(out, pageScript{text: childText(n, page, texts), hasSrc: hasSrc})
	}
	return out
}

// styleTexts returns the text of every <style> element (HTML and SVG) of the tree d of page,
// as scriptTexts does for scripts: what a style-src hash is over.
func styleTexts(d *markup.Document, page []byte, texts []string) []string {
	var out []string
	for n := range d.Root.Descendants() {
		if n.Is(markup.HTML, "style") || n.Is(markup.SVG, "style") {
			out = append(out, childText(n, page, texts))
		}
	}
	return out
}

// childText is the text of n's text children, as the browser's tree holds it (what a CSP
// hash is over); a child that is a placeholder in page stands for its text, texts[i].
func childText(n *markup.Node, page []byte, texts []string) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != markup.TextNode {
			continue
		}
		if len(c.Raw) == 1 && c.Raw[0].End <= len(page) {
			if i, ok := placeholderIndex(string(page[c.Raw[0].Start:c.Raw[0].End])); ok && i < len(texts) {
				b.WriteString(texts[i])
				continue
			}
		}
		b.WriteString(c.Data)
	}
	return b.String()
}

// scriptHashes returns the CSP hash source of every inline script of scripts, sorted and
// without duplicates: the hash is over the script element's text as the browser's tree holds
// it.
func scriptHashes(scripts []pageScript) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range scripts {
		if s.hasSrc || s.text == "" {
			continue
		}
		sum := sha256.Sum256([]byte(s.text))
		h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	sort.Strings(out)
	return out
}
