// Package host is what a host needs to serve bundles safely: Verify tells whether a file is
// the one its registry entry pins (hash, size, policy, offline check), Headers gives the
// response headers that make embedding it safe, and Server serves a folder of built bundles
// and their registry.json, verified at start and held in memory so that what is served is
// what was verified. A Go host mounts Server as an http.Handler; bundle verify and bundle
// serve are thin clients of this package.
package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/offline"
	"github.com/miniapp/bundle/registry"
)

// Mismatch is one way a file differs from what it should be.
type Mismatch struct {
	// Field names what differs: "sha256", "bytes", "integrity", "file", "csp", "entry" (a
	// field a host writes into a header that breaks the manifest's rule), "encoding" (a page
	// a browser may decode as other than UTF-8), "offline".
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
// SHA-256 and size, an entry whose integrity is that hash, a page a browser reads as UTF-8
// only, one policy <meta> that the browser enforces (found in the page's tree) equal to the
// entry's csp and first in the head, and a page that passes the offline check under that
// policy and the entry's linkDomains. It returns a *VerifyError naming everything that
// differs, or nil.
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

// finish checks the page's encoding and its policy <meta> against csp ("" for whichever one
// the page has), found in the page's tree as the browser finds it, and runs the offline check
// under that policy; it returns ve when anything differs, else nil.
func (ve *VerifyError) finish(page []byte, csp string, linkDomains []string) error {
	lines := diag.NewLines(page)
	at := func(off int) string {
		var m diag.Message
		m.PlaceIn(lines, off, 0)
		return fmt.Sprintf("%d:%d", m.Line, m.Column)
	}
	checkEncoding(ve, page, at)
	d := markup.Parse(page, markup.Options{})
	enforced := checkPolicy(ve, d, csp, at)
	if csp == "" && enforced != nil {
		csp = enforced.Content
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

// checkEncoding refuses a page a browser may decode as other than UTF-8: the policy <meta>
// and everything the check read are UTF-8's reading, and another one can hide or show other
// markup. A UTF-8 byte-order mark is fine; a UTF-16 one, bytes that are not UTF-8, a
// declaration of another encoding, or an escape byte (ISO-2022-JP, which a browser may
// detect, hides markup behind it) is not.
func checkEncoding(ve *VerifyError, page []byte, at func(int) string) {
	const fix = "a bundle is UTF-8: rebuild it with bundle build"
	name, off := offline.Encoding(page)
	detected := off < len(page) && page[off] == 0x1B // an escape, said below
	switch {
	case strings.HasPrefix(name, "UTF-16"):
		ve.add("encoding", "it begins with a UTF-16 byte-order mark; %s", fix)
		return
	case name != "" && !detected:
		ve.add("encoding", "it declares the encoding %s at %s; %s", name, at(off), fix)
	}
	if !utf8.Valid(page) {
		off := 0
		for off < len(page) {
			r, n := utf8.DecodeRune(page[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		ve.add("encoding", "it is not UTF-8 (the byte at %s); %s", at(off), fix)
	}
	if i := bytes.IndexByte(page, 0x1B); i >= 0 {
		ve.add("encoding", "it holds an escape byte (0x1B) at %s, with which a browser may read it as ISO-2022-JP; %s", at(i), fix)
	}
}

// checkPolicy finds the page's policy <meta> in its tree as the browser does
// (offline.PolicyMetaTags: a child of the head, not in a template, http-equiv compared in
// ASCII case only and not trimmed) and checks there is one, that it is csp (when csp is not
// ""), and that nothing the browser reads before it runs or loads. It returns the one.
func checkPolicy(ve *VerifyError, d *markup.Document, csp string, at func(int) string) *offline.PolicyMeta {
	var enforced []offline.PolicyMeta
	var ignored *offline.PolicyMeta
	for _, m := range offline.PolicyMetaTags(d) {
		if m.Ignored == "" {
			enforced = append(enforced, m)
		} else if ignored == nil {
			ignored = &m
		}
	}
	switch {
	case len(enforced) == 0 && ignored != nil:
		ve.add("csp", "its policy <meta> at %s is not enforced: %s; a bundle carries its policy in a <meta> that is a child of <head>, before anything else", at(ignored.Tag.Start), ignored.Ignored)
		return nil
	case len(enforced) == 0:
		ve.add("csp", "it has no policy <meta> in its head; a bundle carries its policy in a <meta> that is a child of <head>, before anything else")
		return nil
	case len(enforced) > 1:
		ve.add("csp", "it has %d policy <meta> tags in its head (at %s and %s); a bundle has one", len(enforced), at(enforced[0].Tag.Start), at(enforced[1].Tag.Start))
	case csp != "" && enforced[0].Content != csp:
		ve.add("csp", "its policy <meta> is %q, the entry's csp is %q", enforced[0].Content, csp)
	}
	m := enforced[0]
	// A policy governs what comes after it: an element before it in the head (a script, a
	// stylesheet, a base) runs or loads without it.
	for _, n := range d.Nodes {
		if n.Tag == m.Tag {
			for p := n.PrevSibling; p != nil; p = p.PrevSibling {
				if p.Type == markup.ElementNode && !p.Is(markup.HTML, "meta") && !p.Is(markup.HTML, "title") {
					ve.add("csp", "its policy <meta> at %s comes after <%s> at %s, which the browser reads before the policy applies; a bundle's policy comes first in <head>", at(m.Tag.Start), p.Name, at(p.Tag.Start))
					break
				}
			}
			break
		}
	}
	return &m
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
