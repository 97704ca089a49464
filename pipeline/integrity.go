package pipeline

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
)

// Subresource Integrity. A <script src> or <link rel=stylesheet> with an integrity attribute
// runs or applies only when the file's bytes match it (SRI, "do bytes match metadataList"):
// one whose hash does not match the file is blocked as written. The build drops the attribute
// (nothing is fetched once the file is inline), so the built page ran the script and applied
// the stylesheet the page as written blocked. The build checks the file against the
// attribute as the browser does and refuses a mismatch at the attribute, with the hash that
// matches.

// integrityAlgs are the hash algorithms SRI knows, weakest first, by their prefix as Chromium
// reads it (sha256, sha384, sha512, and sha-256, sha-384, sha-512 too; in lower case only).
var integrityAlgs = []struct {
	names []string
	sum   func([]byte) []byte
}{
	{[]string{"sha256", "sha-256"}, func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }},
	{[]string{"sha384", "sha-384"}, func(b []byte) []byte { s := sha512.Sum384(b); return s[:] }},
	{[]string{"sha512", "sha-512"}, func(b []byte) []byte { s := sha512.Sum512(b); return s[:] }},
}

// integrityMatches reports whether data matches the integrity metadata, as SRI reads it:
// tokens split on ASCII whitespace, each alg-value with options after a '?'; tokens of no
// known algorithm ignored (md5-…, SHA512-…); no token left, a match; else only the strongest algorithm's
// tokens count, and one of them must be the digest, in base64 or base64url, padded or not.
// It also returns the strongest algorithm's token for data, for the fix.
func integrityMatches(metadata string, data []byte) (bool, string) {
	strongest := -1
	var values []string
	for _, tok := range strings.FieldsFunc(metadata, func(r rune) bool { return strings.ContainsRune("\t\n\f\r ", r) }) {
		tok, _, _ = strings.Cut(tok, "?")
		alg, val, ok := strings.Cut(tok, "-")
		if alg == "sha" { // sha-256-…
			if n, v, ok2 := strings.Cut(val, "-"); ok2 {
				alg, val, ok = "sha-"+n, v, true
			}
		}
		if !ok {
			continue
		}
		for i, a := range integrityAlgs {
			for _, n := range a.names {
				if alg == n { // in lower case: Chromium ignores SHA512-…
					if i > strongest {
						strongest, values = i, nil
					}
					if i == strongest {
						values = append(values, val)
					}
				}
			}
		}
	}
	if strongest < 0 {
		return true, ""
	}
	norm := func(v string) string {
		return strings.TrimRight(strings.NewReplacer("-", "+", "_", "/").Replace(v), "=")
	}
	sum := base64.StdEncoding.EncodeToString(integrityAlgs[strongest].sum(data))
	for _, v := range values {
		if norm(v) == norm(sum) {
			return true, ""
		}
	}
	return false, integrityAlgs[strongest].names[0] + "-" + sum
}

// checkIntegrity refuses, at its integrity attribute, a <script src> or stylesheet <link>
// (t) of a local file whose bytes its integrity metadata does not match: the browser would
// not run or apply it, and the built page, where it is inline, would.
func (a *assembler) checkIntegrity(t *tag, url attr) {
	integ, ok := t.get("integrity")
	if !ok {
		return
	}
	u, _, isLocal := local(url.val)
	if !isLocal {
		return
	}
	rel, _, err := a.locate(u)
	if err != nil {
		return // reported where the file is bundled
	}
	p, err := a.m.Resolve(rel)
	if err != nil {
		return
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	if match, want := integrityMatches(integ.val, data); !match {
		what := "run the script"
		if t.name == "link" {
			what = "apply the stylesheet"
		}
		a.errAt(integ.off, max(integ.n, 1), fmt.Sprintf("the integrity attribute does not match %s (its digest is %s): the browser would not %s, and the built page, where it is inline, would", rel, want, what),
			fmt.Sprintf("write integrity=%q, or remove the attribute", want))
	}
}
