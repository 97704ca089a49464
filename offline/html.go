package offline

import (
	"runtime"

	"github.com/miniapp/bundle/markup"
)

// maxDepth bounds documents nested in documents (srcdoc, data: frames, data: stylesheets and
// modules): deeper nesting is refused rather than followed.
const maxDepth = 8

// hit is one place that loads something, with an offset into the text that was checked
// (a document, a stylesheet, a script, an attribute value); off < 0 means unknown.
type hit struct {
	off, length int
	place       string // where, as a person names it: "<img src>", "CSS url() in <style>"
	url         string // the URL as written, after decoding by its language
	text, note  string // overrides of the default message and note
	via         string // the readings of nested resources that find it, when not UTF-8
	rel         string // a <link>'s rel, for the wording of Options.SingleFile's notes
	// cond marks a string of a custom property, which loads only if the document reads a
	// custom property as a URL somewhere; marker marks such a place (var() inside
	// image-set()). The document resolves both (resolveConditional).
	cond, marker bool
}

// scope is where a text is checked: how deep in nested documents, and the encoding of the
// document or stylesheet that holds it ("" for UTF-8), which what it loads may inherit.
type scope struct {
	depth int
	enc   string
}

func (sc scope) inner() scope { return scope{depth: sc.depth + 1, enc: sc.enc} }

// checker holds the options of one Check call.
type checker struct {
	opts   Options
	policy policy // nil for none
}

// largeText is the size from which a stylesheet or a script is checked on another core while
// the tree is walked.
const largeText = 16 << 10

// checkTree checks the document d, parsed from one reading with scripting on, and returns its
// hits with offsets into d.Src. Every element of the tree is judged where the tree builder
// put it (template contents, elements a <frameset> detached, foreign content and what broke
// out of it), with its text as the tree has it. When the page holds a <noscript>, its tree
// with scripting off is judged too: a frame sandboxed without scripts renders <noscript> as
// markup. Then the page as Chromium's preload scanner reads it (markup's Speculate): the
// elements it sees that no tree holds, or holds with another text, are judged too, since it
// fetches from them.
func (c *checker) checkTree(d *markup.Document, sc scope) []hit {
	w := walker{c: c, sc: sc, d: d}
	w.walk(d.Nodes)
	w.speculated(d.Speculate(markup.Options{}))
	for _, n := range d.Nodes {
		if n.Is(markup.HTML, "noscript") {
			off := markup.ParseString(d.Src, markup.Options{NoScripting: true})
			w.walk(off.Nodes)
			w.speculated(off.Speculate(markup.Options{NoScripting: true}))
			break
		}
	}
	for _, r := range d.Repairs {
		if r.Kind == markup.Limit {
			// Past the budget the tree is not the browser's: what follows cannot be proved.
			w.hits = append(w.hits, hit{off: r.At.Start, length: r.At.Len(), place: "markup",
				text: "the page reopens so many formatting elements that its tree cannot be checked from here on", note: noteLimit})
		}
	}
	for _, p := range w.later {
		w.place(p.at, <-p.hits)
	}
	return resolveConditional(w.hits, hasURLVar(w.hits))
}

// resolveConditional keeps the custom-property strings among hits when their document reads a
// custom property as a URL anywhere (urlVar: custom properties inherit across its stylesheets
// and style attributes), and drops the markers. Hits of nested documents were resolved in
// their own.
func resolveConditional(hits []hit, urlVar bool) []hit {
	kept := hits[:0]
	for _, h := range hits {
		if !h.marker && (!h.cond || urlVar) {
			h.cond = false // resolved: an enclosing document must not drop it again
			kept = append(kept, h)
		}
	}
	return kept
}

// hasURLVar reports whether hits mark a custom property read as a URL.
func hasURLVar(hits []hit) bool {
	for _, h := range hits {
		if h.marker {
			return true
		}
	}
	return false
}

// walker judges the elements of one tree and places their hits in its source.
type walker struct {
	c     *checker
	sc    scope
	d     *markup.Document
	hits  []hit
	later []pending
	e     elem // reused for each element
	n     *markup.Node
	texts []*markup.Node
	// foreign judges every element as foreign content (see checkTree).
	foreign bool
}

// pending are the hits of a text checked on another core.
type pending struct {
	at   placing
	hits chan []hit
}

// walk judges the elements among nodes, all of a tree (or of a reading) of the page w.d
// was parsed from.
func (w *walker) walk(nodes []*markup.Node) {
	for _, n := range nodes {
		// A copy of a formatting element repeats its original's tag and attributes.
		if n.Type != markup.ElementNode || n.Flags&markup.Clone != 0 {
			continue
		}
		w.n = n
		e := &w.e
		*e = elem{name: n.Name, foreign: n.Namespace != markup.HTML || w.foreign, attrs: e.attrs[:0]}
		for k, set := range [2][]markup.Attr{n.Attr, n.Dropped} {
			for i := range set {
				a := &set[i]
				name := a.Name
				switch a.Namespace {
				case markup.XLink:
					name = "xlink:" + name
				case markup.XML:
					name = "xml:" + name
				}
				e.attrs = append(e.attrs, attr{name: name, value: a.Value, dup: k == 1, src: a})
			}
		}
		w.texts = w.texts[:0]
		if needsText(e) {
			for ch := range n.Children() {
				if ch.Type == markup.TextNode {
					w.texts = append(w.texts, ch)
					e.text += ch.Data
				}
			}
			e.hasText = len(w.texts) > 0
		}
		w.c.element(e, w.sc, w)
	}
}

// speculated judges the elements the preload scanner reads that no tree holds as they are:
// as HTML, and as foreign content too. Chromium's scanner fetches what an SVG element names
// where the tree holds no SVG (it fetched the href of <svg><image href> and <svg><script href>
// written after a <frameset>, which the tree builder ignores); a reader that does not know
// which way the scanner took them judges both.
func (w *walker) speculated(nodes []*markup.Node) {
	w.walk(nodes)
	w.foreign = true
	w.walk(nodes)
	w.foreign = false
}

// add places hits of the current element's target.
func (w *walker) add(target int, hits []hit) {
	if len(hits) == 0 {
		return
	}
	t := w.target(target)
	w.place(t, hits)
}

// addLater checks a large text on another core, when the document is the page itself and
// there is a core to spare.
func (w *walker) addLater(target, size int, check func() []hit) {
	if size < largeText || w.sc.depth > 0 || runtime.GOMAXPROCS(0) < 2 {
		w.add(target, check())
		return
	}
	ch := make(chan []hit, 1)
	go func() { ch <- check() }()
	w.later = append(w.later, pending{w.target(target), ch})
}

// placing is where a target's hits go: its source range, and the text nodes or attribute
// whose decoded text the hits' offsets index.
type placing struct {
	whole markup.Range
	texts []*markup.Node
	attr  *markup.Attr
}

// target returns where the hits of a target go.
func (w *walker) target(target int) placing {
	if target == textTarget {
		if len(w.texts) == 0 {
			return placing{whole: w.n.Tag}
		}
		first, last := w.texts[0].Source(), w.texts[len(w.texts)-1].Source()
		return placing{whole: markup.Range{Start: first.Start, End: last.End}, texts: append([]*markup.Node(nil), w.texts...)}
	}
	a := w.e.attrs[target].src
	if a.ValueRange.IsEmpty() {
		return placing{whole: a.NameRange}
	}
	return placing{whole: a.ValueRange, attr: a}
}

// place appends hits whose offsets are into a target's decoded text, placed in the source
// (the map is made only here, when there are hits); a hit with no offset of its own gets the
// target's whole range.
func (w *walker) place(t placing, hits []hit) {
	var o *markup.Offsets
	for _, h := range hits {
		if h.off >= 0 && o == nil {
			switch {
			case t.attr != nil:
				o = w.d.ValueOffsets(t.attr)
			case len(t.texts) > 0:
				o = w.d.TextOffsets(t.texts...)
			}
		}
		if h.off >= 0 && o != nil {
			r := o.Span(h.off, h.length)
			h.off, h.length = r.Start, r.Len()
		} else {
			h.off, h.length = t.whole.Start, t.whole.Len()
		}
		w.hits = append(w.hits, h)
	}
}
