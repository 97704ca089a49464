package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"sort"
	"strings"

	"github.com/miniapp/bundle/manifest"
	"golang.org/x/net/html"
)

// policy computes the Content-Security-Policy of the final page: every inline script's
// SHA-256 in script-src (no 'unsafe-inline', no 'unsafe-eval'), and no network except the
// manifest's allowedDomains in connect-src. It is computed over the exact script text of the
// final bytes, after minification.
func policy(page []byte, m *manifest.Manifest) string {
	hashes := scriptHashes(page)
	connect := "'none'"
	if len(m.AllowedDomains) > 0 {
		connect = strings.Join(m.AllowedDomains, " ")
	}
	script := "'none'"
	if len(hashes) > 0 {
		script = strings.Join(hashes, " ")
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + script,
		"style-src 'unsafe-inline'",
		"img-src data: blob:",
		"font-src data:",
		"media-src data: blob:",
		"connect-src " + connect,
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	}, "; ")
}

// scriptHashes returns the CSP hash source of every inline script in page, sorted and
// without duplicates.
func scriptHashes(page []byte) []string {
	z := html.NewTokenizer(bytes.NewReader(page))
	seen := map[string]bool{}
	var out []string
	inScript := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			sort.Strings(out)
			return out
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			inScript = string(name) == "script"
			for hasAttr && inScript {
				var k []byte
				k, _, hasAttr = z.TagAttr()
				if string(k) == "src" {
					inScript = false
				}
			}
		case html.TextToken:
			if inScript {
				// The browser hashes the element's text as it is in the document.
				sum := sha256.Sum256(z.Raw())
				h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
				if !seen[h] {
					seen[h] = true
					out = append(out, h)
				}
			}
			inScript = false
		default:
			inScript = false
		}
	}
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
