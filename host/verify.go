// Package host is what a host needs to serve bundles safely: Verify tells whether a file is
// the one its registry entry pins (hash, size, policy, offline check), Headers gives the
// response headers that make embedding it safe, and Server serves a folder of built bundles
// and their registry.json, verified at start and held in memory so that what is served is
// what was verified. A Go host mounts Server as an http.Handler; bundle verify and bundle
// serve are thin clients of this package.
package host

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/registry"
)

// Mismatch is one way a file differs from what it should be.
type Mismatch struct {
	// Field names what differs: "sha256", "bytes", "integrity", "file", "csp", "entry" (a
	// field a host writes into a header that breaks the manifest's rule), "offline".
	Field string `json:"field"`
	Text  string `json:"text"`
}

// VerifyError lists every way a file is not the bundle its entry pins, and what the offline
// check found in it.
type VerifyError struct {
	File       string           `json:"file"`
	Mismatches []Mismatch       `json:"mismatches"`
	Findings   offline.Findings `json:"findings"`
}

func (e *VerifyError) Error() string {
	var parts []string
	for _, m := range e.Mismatches {
		parts = append(parts, m.Text)
	}
	if n := len(e.Findings); n > 0 {
		parts = append(parts, fmt.Sprintf("the offline check finds %d %s it would load from outside itself", n, plural(n, "place", "places")))
	}
	return e.File + ": " + strings.Join(parts, "; ")
}

// Verify checks that page, read from the file name, is the bundle the entry pins: the same
// SHA-256 and size, an entry whose integrity is that hash, a policy <meta> equal to the
// entry's csp, and a page that passes the offline check under that policy and the entry's
// linkDomains. It returns a *VerifyError naming everything that differs, or nil.
func Verify(name string, page []byte, e registry.Entry) error {
	ve := &VerifyError{File: name}
	add := ve.add
	sum := sha256.Sum256(page)
	got := hex.EncodeToString(sum[:])
	if got != e.SHA256 {
		add("sha256", "its SHA-256 is %s, the entry pins %s", got, e.SHA256)
		if base := filepath.Base(name); base != e.File {
			add("file", "the entry is for %s, not %s", e.File, base)
		}
	}
	if len(page) != e.Bytes {
		how := ""
		if len(page) < e.Bytes {
			how = " (truncated?)"
		}
		add("bytes", "it is %d bytes, the entry says %d%s", len(page), e.Bytes, how)
	}
	if want, err := hex.DecodeString(e.SHA256); err == nil && e.Integrity != "sha256-"+base64.StdEncoding.EncodeToString(want) {
		add("integrity", "the entry's integrity %q is not its sha256", e.Integrity)
	}
	checkFields(ve, e)
	return ve.finish(page, e.CSP, e.LinkDomains)
}

// checkFields compares the entry with itself: the fields a host writes into URLs and headers
// must keep the manifest's rules (CheckEntry), and its csp must be the policy its fields give
// (registry.Entry.Policy), since a host serves that policy and not the csp's text: a csp that
// says more (frame-ancestors *, a connect-src beyond allowedDomains) is refused here, not
// sent.
func checkFields(ve *VerifyError, e registry.Entry) {
	if err := CheckEntry(e); err != nil {
		ve.add("entry", "%v", err)
	}
	e.Hosts = nil // judged above; here, the csp against wasm, eval and allowedDomains
	if _, err := e.Policy(); err != nil {
		ve.add("csp", "the entry's csp is not the policy its fields give: %v", err)
	}
}

// VerifySHA256 checks that page has the SHA-256 sum (64 hex digits), carries one policy
// <meta>, and passes the offline check under that policy, with links allowed to linkDomains.
func VerifySHA256(name string, page []byte, sum string, linkDomains []string) error {
	ve := &VerifyError{File: name}
	s := sha256.Sum256(page)
	if got := hex.EncodeToString(s[:]); got != strings.ToLower(sum) {
		ve.add("sha256", "its SHA-256 is %s, not %s", got, strings.ToLower(sum))
	}
	return ve.finish(page, "", linkDomains)
}

func (ve *VerifyError) add(field, format string, args ...any) {
	ve.Mismatches = append(ve.Mismatches, Mismatch{field, fmt.Sprintf(format, args...)})
}

// finish checks the page's policy <meta> against csp ("" for whichever one the page has)
// and runs the offline check under that policy; it returns ve when anything differs, else nil.
func (ve *VerifyError) finish(page []byte, csp string, linkDomains []string) error {
	metas := offline.PolicyMetas(page)
	checkPolicy(ve, metas, csp)
	if csp == "" && len(metas) == 1 {
		csp = metas[0]
	}
	fs, err := offline.Check(ve.File, page, offline.Options{Policy: csp, LinkDomains: linkDomains})
	if err != nil {
		return err
	}
	ve.Findings = fs
	if len(ve.Mismatches) > 0 || len(ve.Findings) > 0 {
		return ve
	}
	return nil
}

func checkPolicy(ve *VerifyError, metas []string, csp string) {
	add := ve.add
	switch {
	case len(metas) == 0:
		add("csp", "it has no policy <meta> in its head; a bundle carries its policy as its first <meta> after the charset")
	case len(metas) > 1:
		add("csp", "it has %d policy <meta> tags; a bundle has one", len(metas))
	case csp == "":
	case metas[0] != csp:
		add("csp", "its policy <meta> is %q, the entry's csp is %q", metas[0], csp)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
