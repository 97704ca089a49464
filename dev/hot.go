package dev

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/v8stack"
	"github.com/miniapp/bundle/markup"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/sourcemap"
)

// StyleEdit is one stylesheet of the page that a rebuild changed: the text of a <style>
// element as the frame's document has it (From), and its new text (To).
type StyleEdit struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// styleEdits returns, when page b differs from page a only in the text of HTML <style>
// elements (as many, in the same places), the texts that changed, each once; ok is false
// when anything else differs (a script, the markup, the policy): the frame must reload. Both
// pages are read by the HTML Standard's tree construction, as the browser reads them, so a
// <style> in SVG or in raw text is not taken for one.
//
// With scriptsRenamed, the texts of scripts and the policy may differ too: the caller knows
// that only stylesheets changed, which add no code, and that the scripts differ only in
// esbuild's choice of short names (its minifier counts the characters of every file of a
// script's graph, the stylesheets it imports too, and gives the commonest names first).
func styleEdits(a, b []byte, scriptsRenamed bool) (edits []StyleEdit, ok bool) {
	return editsBetween(cutOf(a, scriptsRenamed), cutOf(b, scriptsRenamed))
}

// pageCut is a page as styleEdits compares it: withoutStyles's results. bundle dev keeps the
// served page's, so that a rebuild reads only the new page's tree.
type pageCut struct {
	rest  string
	texts []string
	ok    bool
}

func cutOf(page []byte, scripts bool) *pageCut {
	rest, texts, ok := withoutStyles(page, scripts)
	return &pageCut{rest, texts, ok}
}

// editsBetween is styleEdits on the pages cut as a and b.
func editsBetween(a, b *pageCut) (edits []StyleEdit, ok bool) {
	restA, textsA, restB, textsB := a.rest, a.texts, b.rest, b.texts
	if !a.ok || !b.ok || len(textsA) != len(textsB) || restA != restB {
		return nil, false
	}
	seen := map[string]string{}
	for i, from := range textsA {
		to := textsB[i]
		if from == to {
			continue
		}
		// The frame finds a stylesheet by its text: two with the same text that change
		// differently cannot be told apart.
		if prev, dup := seen[from]; dup {
			if prev != to {
				return nil, false
			}
			continue
		}
		seen[from] = to
		edits = append(edits, StyleEdit{From: from, To: to})
	}
	for i, from := range textsA {
		if to, changed := seen[from]; changed && textsB[i] != to {
			return nil, false // the same text, left alone in one place and changed in another
		}
	}
	return edits, true
}

// withoutStyles returns the page with the text of each HTML <style> element cut out, and
// those texts (as the DOM has them) in document order; with scripts, the texts of scripts
// and the policy's <meta> are cut out too. ok is false when a <style> has anything but one
// text node (or none).
func withoutStyles(page []byte, scripts bool) (rest string, texts []string, ok bool) {
	doc := markup.Parse(page, markup.Options{})
	var cut []markup.Range
	for _, n := range doc.Nodes {
		if n.Type != markup.ElementNode {
			continue
		}
		switch {
		case n.Is(markup.HTML, "style"):
			text := ""
			for c := range n.Children() {
				if c.Type != markup.TextNode || len(c.Raw) != 1 || text != "" {
					return "", nil, false
				}
				text = c.Data
				cut = append(cut, c.Raw[0])
			}
			texts = append(texts, text)
		case scripts && n.Is(markup.HTML, "script"):
			for c := range n.Children() {
				cut = append(cut, c.Raw...)
			}
		case scripts && n.Is(markup.HTML, "meta"):
			if v, _ := n.AttrValue("http-equiv"); strings.EqualFold(v, "content-security-policy") {
				cut = append(cut, n.Tag)
			}
		}
	}
	slices.SortFunc(cut, func(x, y markup.Range) int { return x.Start - y.Start })
	var b []byte
	last := 0
	for _, r := range cut {
		b = append(append(b, doc.Src[last:r.Start]...), 0) // NUL: a page's text cannot hold it raw
		last = r.End
	}
	return string(append(b, doc.Src[last:]...)), texts, true
}

// onlyStylesheets reports whether every file in changed (absolute paths) is a stylesheet of
// the page res built from the app in dir, and none gives its scripts code.
func onlyStylesheets(dir string, changed map[string]bool, res *pipeline.Result) bool {
	if len(changed) == 0 {
		return false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for p := range changed {
		if p, err = filepath.Abs(p); err != nil {
			return false
		}
		rel, err := filepath.Rel(abs, p)
		if err != nil {
			return false
		}
		rel = filepath.ToSlash(rel)
		if _, found := slices.BinarySearch(res.StyleInputs, rel); !found {
			return false
		}
		if _, found := slices.BinarySearch(res.CodeInputs, rel); found {
			return false
		}
	}
	return true
}

// clientScript is bundle dev's client, a classic script the dev build runs first, before the
// SDK (a build for hosts never has it): it takes a style update from the harness's window and
// origin only, keeps it from the SDK's listener (which would take it for a notification of
// the bridge), puts each new text in the <style> element that holds the old one, and says so
// to the harness. ORIGIN is the harness's origin, a JSON string.
const clientScript = `(()=>{const o=ORIGIN;addEventListener("message",e=>{const m=e.data;if(!e.isTrusted||e.source!==parent||e.origin!==o||!m||m.jsonrpc!=="2.0"||m.method!=="bundle/dev/styles"||!m.params||!Array.isArray(m.params.edits))return;e.stopImmediatePropagation();let n=0;for(const s of document.querySelectorAll("style"))for(const d of m.params.edits)if(d&&typeof d.from==="string"&&typeof d.to==="string"&&s.textContent===d.from){s.textContent=d.to;n++;break}parent.postMessage({jsonrpc:"2.0",method:"bundle/dev/styled",params:{version:m.params.version,applied:n}},o)},!0)})()`

// client returns the client script for the harness at origin.
func client(origin string) string {
	o, _ := json.Marshal(origin) // a string always marshals
	return strings.Replace(clientScript, "ORIGIN", string(o), 1)
}

// stack answers the harness's POST of an error the app reported (ui/notifications/error:
// {version, stack}, the version of the page the frame shows): the stack with each place in
// the page (the app's URL, line and column, as V8 writes a frame) given in the author's file
// through the build's source map, and the first such place with its source line. A stack of
// another version than the page served is given back as it is.
func (s *server) stack(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "POST JSON", http.StatusMethodNotAllowed) // and no form a page on another site can send
		return
	}
	var req struct {
		Version int    `json:"version"`
		Message string `json:"message"`
		Stack   string `json:"stack"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	smap, version := s.sourceMap(r.Context(), req.Version)
	var out struct {
		// Text is what the overlay shows: the first place in the author's file as bundle's
		// diagnostics show it (file:line:col, the source line, a caret), then the stack.
		Text  string              `json:"text"`
		First *sourcemap.Position `json:"first,omitempty"`
	}
	stack := req.Stack
	if smap != nil && version == req.Version {
		stack, out.First = mapStack(req.Stack, s.appOrigin+"/", smap)
	}
	if f := out.First; f != nil {
		out.Text = diag.FormatText(diag.List{{File: f.File, Line: f.Line, Column: f.Column, LineText: f.LineText, Text: req.Message}}, false) + "\n"
	} else {
		out.Text = "error: " + req.Message + "\n\n"
	}
	out.Text += stack
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(out)
}

// sourceMap returns the source map of the page of version, and the version served. The map is
// made when first asked for, by a build that keeps it (the same bytes, as pipeline
// guarantees, checked here): a rebuild of bundle dev makes none, since a map costs a third
// of a rebuild of a large app and an error is rare.
func (s *server) sourceMap(ctx context.Context, version int) (*sourcemap.Page, int) {
	s.mapMu.Lock()
	defer s.mapMu.Unlock()
	s.mu.Lock()
	page, served, smap := s.page, s.pageVersion, s.smap
	s.mu.Unlock()
	if smap != nil || version != served || page == nil {
		return smap, served
	}
	if s.mapSession == nil {
		s.mapSession = pipeline.NewSession()
	}
	res, err := pipeline.Build(ctx, s.dir, pipeline.Options{NoWrite: true, NoGzip: true, Session: s.mapSession, DevHosts: []string{s.harnessOrigin},
		DevScript: client(s.harnessOrigin), KeepSourceMap: true})
	if err != nil || !bytes.Equal(res.HTML, page) {
		return nil, served // the sources changed since: the next build will show it
	}
	s.mu.Lock()
	if s.pageVersion == served {
		s.smap = res.SourceMap
	}
	s.mu.Unlock()
	return res.SourceMap, served
}

// mapStack replaces each place in stack that is the page at prefix (prefix, then the
// harness's query, as the browser names the page's script) by the author's place where the
// source map has one, and returns the first place it gives too. The harness may run in any
// browser: a stack of V8's (Chromium's; its message, then a line "at …" a frame, read by
// v8stack) has its frames' places mapped, an eval origin's too, and its message left as it
// is; one of SpiderMonkey's or JavaScriptCore's (Firefox's, Safari's: a frame a line, with
// no message) has each line's place after its last "@" mapped ("f@http://localhost:5173/?v=3:1:23").
func mapStack(stack, prefix string, smap *sourcemap.Page) (string, *sourcemap.Position) {
	lines := strings.SplitAfter(stack, "\n")
	frames := make([][]v8stack.Place, len(lines))
	v8 := false
	for i, l := range lines {
		if f, ok := v8stack.ParseFrame(l); ok {
			frames[i], v8 = []v8stack.Place{f.EvalAt, f.Place}, true // in the line's order
		}
	}
	if !v8 {
		for i, l := range lines {
			if at := strings.LastIndexByte(l, '@'); at >= 0 {
				p := v8stack.ParsePlace(strings.TrimRight(l[at+1:], "\r\n"))
				p.Start, p.End = p.Start+at+1, p.End+at+1
				frames[i] = []v8stack.Place{p}
			}
		}
	}
	var b strings.Builder
	var first *sourcemap.Position
	for i, l := range lines {
		done := 0
		for _, p := range frames[i] {
			if p.Line == 0 || !isPage(p.Script, prefix) {
				continue
			}
			if pos, ok := smap.Locate(p.Line, p.Column); ok {
				if first == nil {
					first = &pos
				}
				b.WriteString(l[done:p.Start])
				b.WriteString(pos.String())
				done = p.End
			}
		}
		b.WriteString(l[done:])
	}
	return b.String(), first
}

// isPage reports whether script, a script's name in a stack, is the page at prefix: prefix,
// or prefix with a query or a fragment. A URL as a browser serializes it holds no space;
// SpiderMonkey names code that the page eval'd "URL line 8 > eval".
func isPage(script, prefix string) bool {
	rest, ok := strings.CutPrefix(script, prefix)
	return ok && (rest == "" || rest[0] == '?' || rest[0] == '#') && !strings.ContainsAny(rest, " \t")
}
