package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"sort"
	"strings"

	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/registry"
	"golang.org/x/net/html"
)

// policy computes the Content-Security-Policy of the final page: every inline script's
// SHA-256 in script-src (no 'unsafe-inline'; 'wasm-unsafe-eval' and 'unsafe-eval' only when
// the manifest opts in), and no network except the manifest's allowedDomains in connect-src.
// fetchable says the app turned files into data: URLs it may fetch (connect-src data:);
// workers, that it starts workers from blob: URLs (worker-src blob:); styleData, that it
// links stylesheets as data: URLs (style-src data:). It is computed over the
// exact script text of the final bytes: page, or the skeleton of the final page with
// placeholders for texts (see assembler.hold).
func policy(page []byte, texts []string, m *manifest.Manifest, fetchable, workers, styleData bool) string {
	return registry.Policy{ScriptHashes: scriptHashes(page, texts), Wasm: m.Wasm, Eval: m.Eval, Connect: m.AllowedDomains,
		ConnectData: fetchable, Workers: workers, StyleData: styleData}.String()
}

// scriptHashes returns the CSP hash source of every inline script in page, sorted and
// without duplicates. It reads the page as the browser builds it: the hash is over the
// script element's text, which for an HTML script is the raw text and for an SVG script is
// the text with its character references decoded.
func scriptHashes(page []byte, texts []string) []string {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Data != "script" || (n.Namespace != "" && n.Namespace != "svg") {
			continue
		}
		if slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "src" && a.Namespace == "" }) {
			continue
		}
		var text strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				text.WriteString(c.Data)
			}
		}
		if text.Len() == 0 {
			continue
		}
		src := text.String()
		if i, ok := placeholderIndex(src); ok && i < len(texts) {
			src = texts[i]
		}
		sum := sha256.Sum256([]byte(src))
		h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	sort.Strings(out)
	return out
}

// insertPolicy puts the policy in a <meta http-equiv> right after <meta charset>, so that it
// governs every script, the SDK's first.
func insertPolicy(page []byte, csp string) []byte {
	meta := `<meta http-equiv="Content-Security-Policy" content="` + strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(csp) + `">`
	z := html.NewTokenizer(bytes.NewReader(page))
	off := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		off += len(z.Raw())
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			name, hasAttr := z.TagName()
			if string(name) != "meta" {
				continue
			}
			for hasAttr {
				var k []byte
				k, _, hasAttr = z.TagAttr()
				if string(k) == "charset" {
					return append(page[:off:off], append([]byte(meta), page[off:]...)...)
				}
			}
		}
	}
	return append([]byte(meta), page...)
}
