// Package offline proves that an HTML document loads nothing from outside itself, or says
// where it would.
//
//	findings, err := offline.Check("app.html", src, offline.Options{LinkDomains: []string{"example.com"}})
//	if err != nil { … }            // the checker itself failed
//	for _, f := range findings {    // each place that would load, with file:line:col
//		fmt.Println(f.Message)
//	}
//
// It reads the bytes in every encoding a browser may decode them in (a byte-order mark, a
// declaration the HTML Standard's prescan finds or a <meta> of the tree holds, and what a
// browser may detect in bytes that are not UTF-8 or hold escapes), and each reading through the page model of package markup: the tree the
// HTML Standard's tree construction builds, as the browser builds it. Every element of that
// tree is judged, template contents and detached elements too, with its namespace, its
// attributes as the tree has them (references decoded, the duplicates the tokenizer dropped
// as well, which Chromium loads in SVG) and its text as the tree has it (raw text, RCDATA,
// CDATA, markup in foreign content); where the page holds a <noscript>, the tree built with
// scripting off is judged too. So whatever the tree builder does to markup (self-closing raw
// text elements, breakouts from foreign content, integration points, ignored tags, foster
// parenting, reopened heads and bodies) the checker sees the elements the browser sees, and
// every finding is placed through the tree's source ranges.
//
// It judges every place a browser loads or navigates from: URL attributes on HTML and SVG
// elements, srcset, imagesrcset, ping and attributionsrc lists, <base href>, <meta
// http-equiv=refresh>, SVG animations of href, CSS in <style> and style="" and SVG
// presentation attributes (read with CSS Syntax's tokenizer: url(), @import, and strings
// that reach image-set() or src() through var(), if(), @property or @function), script
// imports (found by esbuild's parser, a classic script read as a script), import maps,
// speculation rules and web bundles, and nested documents: iframe srcdoc and data: URLs read
// as the Fetch Standard reads them, their payload judged by type and decoded as the browser
// decodes it (byte-order mark, charset of the type, charset attribute, @charset, the
// encoding of what loads it): HTML documents, XML documents (SVG, XHTML: elements,
// processing instructions, XSLT refused, DTD subsets refused), stylesheets, modules, CSS
// module scripts, classic scripts. With Options.Policy it also holds every own URL against
// the page's policy.
//
// # Guarantees
//
// A URL is the document's own only when, after entity decoding and the URL parser's cleaning
// (C0 controls and spaces trimmed, tabs and newlines removed), it is empty, a fragment, or a
// data:, blob:, javascript:, mailto:, tel:, about:blank or about:srcdoc URL. Relative URLs
// load (a bundle has no files beside it). Where the checker cannot prove a construct clean (a
// script that does not parse, an XML document with a DTD subset, a tree past the parser's
// copy budget, nesting deeper than eight documents) it refuses it. A document of a type it
// does not read is refused. Check never panics and runs in time and memory linear in the
// input, for any bytes.
package offline

import (
	"fmt"
	"sort"
	"strings"
	"unsafe"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/markup"
)

// Options configures Check. The zero value allows no links.
type Options struct {
	// LinkDomains lists the hosts that <a href> and <area href> may point at with an http: or
	// https: URL. "*.example.com" allows every subdomain of example.com. Nothing else that
	// loads (forms, ping, <base>, refresh) is ever allowed by this list.
	LinkDomains []string
	// Policy, when set, is the Content-Security-Policy the page runs under (the build's
	// own): every data:, blob: or javascript: URL the page holds is then judged against it
	// too, and one the policy would block is reported, since the page would be broken.
	Policy string
	// Emitted holds the import records of scripts a bundler emitted and already knows, keyed
	// by their text: esbuild's metafile lists every import of each output. A script element
	// of the page whose text, as the tree has it, is a key is judged by those records rather
	// than parsed again; every other script (a data: module inside it too) is parsed.
	Emitted map[string][]Import
	// SingleFile words every note for someone who can change only this one file (a model
	// that writes a page no build reads, which a host pins as it is): write the script or
	// stylesheet in the page, an image or a font as a data: URL, open links through the
	// host. It also reports what breaks such a page under the policy the host then gives it
	// (the build's): event-handler attributes, javascript: URLs that run script, and a
	// script's fetch, WebSocket, EventSource, sendBeacon or XMLHttpRequest of a literal URL
	// outside the page whose origin AllowedDomains does not list. Every other finding is
	// the same, at the same place, with the same text.
	SingleFile bool
	// AllowedDomains are the origins (https://api.example.com, https://*.example.com) a
	// SingleFile page may connect to: those its host grants, as a manifest's allowedDomains.
	AllowedDomains []string
	// FileSize, when set, gives the size of the file a relative URL of the page names (the
	// caller knows the files beside it), so that a SingleFile note says what its data: URL
	// adds; false when it does not know.
	FileSize func(url string) (int64, bool)
}

// Finding is one place in a document that would load something from outside it.
type Finding struct {
	diag.Message
	// Place names the construct: "<img src>", "CSS url() in <style>", "import in <script type="module">".
	Place string `json:"place"`
	// URL is the URL as written, after the decoding its language applies.
	URL string `json:"url"`
	// Offset is the byte offset in the document of the place Line and Column name.
	Offset int `json:"offset"`
}

// Findings is the result of Check, in document order. The caller owns it.
type Findings []Finding

// Diagnostics returns the findings as a diag.List, for rendering.
func (fs Findings) Diagnostics() diag.List {
	l := make(diag.List, len(fs))
	for i, f := range fs {
		l[i] = f.Message
	}
	return l
}

// Check checks the document src, named name in the findings, and returns every place that
// would load something from outside it. The error is non-nil only when the checker itself
// failed; a document with findings returns them and a nil error. Check is safe for concurrent
// use. Check does not modify src, and src must not be modified until Check returns.
func Check(name string, src []byte, opts Options) (fs Findings, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("offline check of %s: internal error: %v", name, r)
		}
	}()
	c := &checker{opts: opts, policy: parsePolicy(opts.Policy)}
	fs = Findings{}
	seen := map[string]bool{}
	readings(src, "", func(r reading) *markup.Document {
		// The tree reads the bytes in place: a finding's strings are copied out of them.
		d := markup.ParseString(unsafe.String(unsafe.SliceData(r.text), len(r.text)), markup.Options{})
		fs = c.findings(fs, seen, name, r, d.Src, c.checkTree(d, scope{enc: r.name}))
		return d
	})
	sortFindings(fs)
	return fs, nil
}

// CheckCSS checks a stylesheet, named name in the findings, as Check checks one in a <style>:
// url(), @import, image-set() and the strings custom properties hold. Its findings are
// placed in the stylesheet, so that a build reports them in the file the author wrote.
func CheckCSS(name string, src []byte, opts Options) (fs Findings, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("offline check of %s: internal error: %v", name, r)
		}
	}()
	c := &checker{opts: opts, policy: parsePolicy(opts.Policy)}
	text := string(src)
	fs = c.findings(Findings{}, map[string]bool{}, name, reading{}, text, c.checkCSS(text, scope{}))
	sortFindings(fs)
	return fs, nil
}

func sortFindings(fs Findings) {
	sort.SliceStable(fs, func(i, j int) bool {
		return fs[i].Line < fs[j].Line || fs[i].Line == fs[j].Line && fs[i].Column < fs[j].Column
	})
}

// findings turns the hits of reading r, with offsets into text (the reading as the checker
// read it), into findings placed in that text, appended to fs once each (seen holds what is
// there).
func (c *checker) findings(fs Findings, seen map[string]bool, name string, r reading, text string, hits []hit) Findings {
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].off < hits[j].off })
	var lines *diag.Lines
	if len(hits) > 0 {
		// The text is read as bytes without copying it: nothing writes to it.
		lines = diag.NewLines(unsafe.Slice(unsafe.StringData(text), len(text)))
	}
	for _, h := range hits {
		f := Finding{Place: h.place, URL: strings.Clone(h.url), Offset: max(h.off, 0)}
		f.File = name
		f.Text = h.text
		if f.Text == "" {
			f.Text = fmt.Sprintf("%s loads %q from outside the bundle", h.place, h.url)
		}
		f.Text += h.via
		f.Note = h.note
		if c.opts.SingleFile {
			f.Note = c.pageNote(h, h.note)
		} else if n, ok := URLNote(h.url, h.place); ok && h.text == "" {
			f.Note = n // what the URL serves, from npm
		} else if f.Note == "" {
			f.Note = noteInline
			if isRemote(h.url) {
				f.Note = noteRemote
			}
		}
		if r.name != "" {
			// Another reading's offsets count its decoded text, whose lines are the file's.
			f.Text += viaReading(r, "the page")
			f.Note += noteEncoding
		}
		f.Message.PlaceIn(lines, h.off, h.length)
		// Both readings of a <noscript> page, and an element the tree holds twice, find
		// one place twice: report it once.
		key := fmt.Sprintf("%d:%d:%s:%s:%s", f.Line, f.Column, h.place, h.url, f.Text)
		if seen[key] {
			continue
		}
		seen[key] = true
		fs = append(fs, f)
	}
	return fs
}
