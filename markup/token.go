package markup

import "strings"

// TokenState is a state of the HTML tokenizer (HTML Standard §13.2.5) that decides how text
// is read: markup is recognized only in the data state. The tree builder switches the
// tokenizer into the others after the start tag of an element whose text is not markup.
type TokenState uint8

const (
	DataState      TokenState = iota // markup and character references
	RCDATAState                      // title, textarea: character references, no markup
	RawTextState                     // style, xmp, iframe, noembed, noframes, noscript when scripting
	ScriptState                      // script: no markup, but "<!--" and "<script" change where it ends
	PlaintextState                   // plaintext: everything to the end of the input
	CDATAState                       // a <![CDATA[ section in SVG or MathML
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tText
	tStart
	tEnd
	tComment
	tDoctype
)

// token is one token of the tokenizer, with the bytes it came from.
type token struct {
	kind  tokKind
	r     Range
	data  string     // text: the characters; tags: the lower-case name; comment: its text; doctype: name
	ref   bool       // text: one character reference
	state TokenState // text: the state it was read in
	// start tags
	attr        []Attr
	dropped     []Attr
	selfClosing bool
	a           atom
	doctype     *Doctype
}

// tokenizer reads tokens from src one at a time; the tree builder steers it between tokens
// (state, allowCDATA) as the standard's does.
type tokenizer struct {
	src        string
	pos        int
	state      TokenState
	last       string // the name of the last start tag emitted, for "appropriate end tag"
	allowCDATA bool   // the adjusted current node is not an HTML element
	report     func(code string, at int)
	dropped    func(r Range) // bytes of a tag or doctype cut off by the end of the input

	attrBuf  []Attr
	attrPool []Attr
	poolSize int
	buf      []byte

	// a character reference decoded ahead, so that text before it is emitted first
	refAt, refEnd int
	refVal        string
}

func newTokenizer(src string) *tokenizer {
	return &tokenizer{src: src, refAt: -1, report: func(string, int) {}, dropped: func(Range) {}}
}

// next reads the next token into t.
func (z *tokenizer) next(t *token) {
	for {
		*t = token{}
		if z.pos >= len(z.src) {
			if z.state == CDATAState {
				z.report("eof-in-cdata", len(z.src))
			}
			break
		}
		switch z.state {
		case DataState:
			z.data(t)
		case RCDATAState:
			z.rawText(t, true)
		case RawTextState:
			z.rawText(t, false)
		case ScriptState:
			z.script(t)
		case PlaintextState:
			z.text(t, z.pos, len(z.src), PlaintextState)
			z.pos = len(z.src)
		case CDATAState:
			z.cdata(t, z.pos)
		}
		// tEOF before the end of the input is markup that makes no token ("</>", an
		// empty CDATA section): read on.
		if t.kind != tEOF {
			return
		}
	}
	t.kind, t.r = tEOF, Range{len(z.src), len(z.src)}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isAlnum(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' }

// text makes t a text token of src[start:end], newlines normalized; in the data and CDATA
// states NUL stays (the tree builder decides), elsewhere it becomes U+FFFD.
func (z *tokenizer) text(t *token, start, end int, st TokenState) {
	t.kind, t.r, t.state = tText, Range{start, end}, st
	s := z.src[start:end]
	hasNUL := false
	if i := strings.IndexByte(s, 0); i >= 0 {
		hasNUL = true
		for j := i; j < len(s) && st != CDATAState; j++ {
			if s[j] == 0 {
				z.report("unexpected-null-character", start+j)
			}
		}
	}
	t.data = z.normalize(s, hasNUL && st != DataState && st != CDATAState)
}

// normalize returns s with CR LF and lone CR made LF (HTML Standard §13.2.3.5) and, when
// nul is set, NUL made U+FFFD; s itself when nothing changes.
func (z *tokenizer) normalize(s string, nul bool) string {
	if strings.IndexByte(s, '\r') < 0 && (!nul || strings.IndexByte(s, 0) < 0) {
		return s
	}
	b := z.buf[:0]
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			b = append(b, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 0:
			if nul {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, 0)
			}
		default:
			b = append(b, c)
		}
	}
	z.buf = b
	return string(b)
}

// data reads a token in the data state.
func (z *tokenizer) data(t *token) {
	s := z.src
	start := z.pos
	i := start
	for {
		j := indexMarkup(s[i:])
		if j < 0 {
			i = len(s)
			break
		}
		i += j
		if s[i] == 0 {
			if i > start {
				break
			}
			z.report("unexpected-null-character", i)
			t.kind, t.r, t.data, t.state = tText, Range{i, i + 1}, "\x00", DataState
			z.pos = i + 1
			return
		}
		if s[i] == '&' {
			end, val, ok := z.charRef(i, false)
			if !ok {
				i = end
				continue
			}
			if i > start {
				break // the text before it first
			}
			t.kind, t.r, t.data, t.ref, t.state = tText, Range{i, end}, val, true, DataState
			z.pos = end
			return
		}
		// '<'
		if i+1 >= len(s) {
			z.report("eof-before-tag-name", i+1)
			i++
			continue
		}
		c := s[i+1]
		switch {
		case isAlpha(c), c == '!', c == '?':
		case c == '/':
			if i+2 >= len(s) {
				z.report("eof-before-tag-name", i+2)
				i += 2
				continue
			}
		default:
			z.report("invalid-first-character-of-tag-name", i+1)
			i++
			continue
		}
		if i > start {
			break
		}
		z.markup(t)
		return
	}
	z.text(t, start, i, DataState)
	z.pos = i
}

// indexMarkup returns the index of the first '<', '&' or NUL in s, or -1.
func indexMarkup(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '<' || c == '&' || c == 0 {
			return i
		}
	}
	return -1
}

// markup reads what begins with '<' at z.pos in the data state: a tag, a comment, a doctype
// or a CDATA section. It leaves t as tEOF, with z.pos moved on, for "</>", which is nothing.
func (z *tokenizer) markup(t *token) {
	s, i := z.src, z.pos
	switch c := s[i+1]; {
	case isAlpha(c):
		z.tag(t, i, false)
	case c == '/':
		switch d := s[i+2]; {
		case isAlpha(d):
			z.tag(t, i, true)
		case d == '>':
			z.report("missing-end-tag-name", i+2)
			z.pos = i + 3
		default:
			z.report("invalid-first-character-of-tag-name", i+2)
			z.bogusComment(t, i, i+2)
		}
	case c == '?':
		z.report("unexpected-question-mark-instead-of-tag-name", i+1)
		z.bogusComment(t, i, i+1)
	case c == '!':
		j := i + 2
		switch {
		case strings.HasPrefix(s[j:], "--"):
			z.comment(t, i, j+2)
		case len(s)-j >= 7 && strings.EqualFold(s[j:j+7], "doctype"):
			z.doctype(t, i, j+7)
		case strings.HasPrefix(s[j:], "[CDATA["):
			if z.allowCDATA {
				z.cdata(t, j+7)
				return
			}
			z.report("cdata-in-html-content", j+6)
			z.bogusComment(t, i, j)
		default:
			z.report("incorrectly-opened-comment", j)
			z.bogusComment(t, i, j)
		}
	}
}

// tag reads a start or end tag whose '<' is at start (§13.2.5.6-13, 32-40).
func (z *tokenizer) tag(t *token, start int, end bool) {
	s := z.src
	i := start + 1
	if end {
		i++
		t.kind = tEnd
	} else {
		t.kind = tStart
	}
	ns := i
	for i < len(s) && !isSpace(s[i]) && s[i] != '/' && s[i] != '>' {
		i++
	}
	if i >= len(s) {
		z.eofInTag(t, start)
		return
	}
	t.data = z.name(ns, i)
	attrs := z.attrBuf[:0]
	var dropped []Attr
	var seen map[string]bool
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			z.eofInTag(t, start)
			return
		}
		if s[i] == '>' {
			i++
			break
		}
		if s[i] == '/' {
			i++
			if i >= len(s) {
				z.eofInTag(t, start)
				return
			}
			if s[i] == '>' {
				t.selfClosing = true
				i++
				break
			}
			z.report("unexpected-solidus-in-tag", i)
			continue
		}
		// The attribute name state (§13.2.5.33); its first character may be '='.
		an := i
		if s[i] == '=' {
			z.report("unexpected-equals-sign-before-attribute-name", i)
			i++
		}
		for i < len(s) {
			c := s[i]
			if isSpace(c) || c == '/' || c == '>' || c == '=' {
				break
			}
			if c == '"' || c == '\'' || c == '<' {
				z.report("unexpected-character-in-attribute-name", i)
			}
			i++
		}
		a := Attr{NameRange: Range{an, i}, ValueRange: Range{i, i}}
		a.Name = z.name(an, i)
		dup := false
		if seen != nil {
			dup = seen[a.Name]
			seen[a.Name] = true
		} else {
			for k := range attrs {
				if attrs[k].Name == a.Name {
					dup = true
					break
				}
			}
			if len(attrs) >= 16 {
				seen = make(map[string]bool, 2*len(attrs))
				for k := range attrs {
					seen[attrs[k].Name] = true
				}
				seen[a.Name] = true
			}
		}
		if dup {
			z.report("duplicate-attribute", i)
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			if i >= len(s) {
				z.eofInTag(t, start)
				return
			}
			switch q := s[i]; q {
			case '"', '\'':
				j := strings.IndexByte(s[i+1:], q)
				if j < 0 {
					z.eofInTag(t, start)
					return
				}
				a.Quote, a.ValueRange = q, Range{i + 1, i + 1 + j}
				i += j + 2
				if i < len(s) && !isSpace(s[i]) && s[i] != '/' && s[i] != '>' {
					z.report("missing-whitespace-between-attributes", i)
				}
			case '>':
				z.report("missing-attribute-value", i)
				a.ValueRange = Range{i, i}
			default:
				vs := i
				for i < len(s) && !isSpace(s[i]) && s[i] != '>' {
					switch s[i] {
					case '"', '\'', '<', '=', '`':
						z.report("unexpected-character-in-unquoted-attribute-value", i)
					}
					i++
				}
				if i >= len(s) {
					z.eofInTag(t, start)
					return
				}
				a.ValueRange = Range{vs, i}
			}
			a.Value = z.attrValue(a.ValueRange)
		}
		if dup {
			dropped = append(dropped, a)
		} else {
			attrs = append(attrs, a)
		}
	}
	z.attrBuf = attrs[:0]
	t.r = Range{start, i}
	z.pos = i
	z.state = DataState
	if end {
		if len(attrs) > 0 || len(dropped) > 0 {
			z.report("end-tag-with-attributes", i-1)
		}
		if t.selfClosing {
			z.report("end-tag-with-trailing-solidus", i-1)
		}
		t.a = lookupAtom(t.data)
		return
	}
	if len(attrs) > 0 {
		t.attr = z.keep(attrs)
	}
	t.dropped = dropped
	t.a = lookupAtom(t.data)
	z.last = t.data
}

// keep copies attributes out of the scratch buffer into storage the tree keeps, allocated in
// blocks so that small tags do not each cost an allocation.
func (z *tokenizer) keep(a []Attr) []Attr {
	if len(a) > 64 {
		return append([]Attr(nil), a...)
	}
	if len(z.attrPool) < len(a) {
		z.poolSize = min(max(2*z.poolSize, 16), 256)
		z.attrPool = make([]Attr, max(z.poolSize, len(a)))
	}
	out := z.attrPool[:len(a):len(a)]
	copy(out, a)
	z.attrPool = z.attrPool[len(a):]
	return out
}

func (z *tokenizer) eofInTag(t *token, start int) {
	z.report("eof-in-tag", len(z.src))
	z.dropped(Range{start, len(z.src)})
	t.kind = tEOF
	z.pos = len(z.src)
}

// name returns src[i:j] as a tag or attribute name: ASCII lower case, NUL as U+FFFD.
func (z *tokenizer) name(i, j int) string {
	s := z.src[i:j]
	clean := true
	for k := 0; k < len(s); k++ {
		if c := s[k]; 'A' <= c && c <= 'Z' || c == 0 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := z.buf[:0]
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c == 0:
			z.report("unexpected-null-character", i+k)
			b = append(b, "\uFFFD"...)
		default:
			b = append(b, c)
		}
	}
	z.buf = b
	return string(b)
}

// attrValue decodes an attribute value as written: character references (with the
// attribute rule for a reference without ';'), newlines, NUL as U+FFFD.
func (z *tokenizer) attrValue(r Range) string {
	s := z.src[r.Start:r.End]
	if strings.IndexByte(s, '&') < 0 {
		if strings.IndexByte(s, 0) >= 0 {
			for k := 0; k < len(s); k++ {
				if s[k] == 0 {
					z.report("unexpected-null-character", r.Start+k)
				}
			}
		}
		return z.normalize(s, true)
	}
	var b []byte
	for i := r.Start; i < r.End; {
		c := z.src[i]
		switch c {
		case '&':
			end, val, ok := z.charRefIn(i, r.End, true)
			if ok {
				b = append(b, val...)
			} else {
				b = append(b, z.src[i:end]...)
			}
			i = end
			continue
		case '\r':
			b = append(b, '\n')
			if i+1 < r.End && z.src[i+1] == '\n' {
				i++
			}
		case 0:
			z.report("unexpected-null-character", i)
			b = append(b, "\uFFFD"...)
		default:
			b = append(b, c)
		}
		i++
	}
	return string(b)
}

// rawText reads the text of an RCDATA (refs set) or RAWTEXT element up to its end tag, or
// the end tag itself.
func (z *tokenizer) rawText(t *token, refs bool) {
	s, start := z.src, z.pos
	i := start
	for i < len(s) {
		c := s[i]
		if c == '<' {
			if z.isEndTag(i) {
				break
			}
		} else if c == '&' && refs {
			end, val, ok := z.charRef(i, false)
			if ok {
				if i > start {
					break
				}
				t.kind, t.r, t.data, t.ref, t.state = tText, Range{i, end}, val, true, RCDATAState
				z.pos = end
				return
			}
			i = end
			continue
		}
		i++
		// Skip to the next byte that matters.
		for i < len(s) && s[i] != '<' && (s[i] != '&' || !refs) {
			i++
		}
	}
	if i == start {
		z.tag(t, i, true)
		return
	}
	st := RawTextState
	if refs {
		st = RCDATAState
	}
	z.text(t, start, i, st)
	z.pos = i
}

// isEndTag reports whether an appropriate end tag (§13.2.5.11) begins at i: "</", the name
// of the last start tag in any case, then whitespace, '/' or '>'.
func (z *tokenizer) isEndTag(i int) bool {
	s, n := z.src, len(z.last)
	if n == 0 || i+2+n >= len(s) || s[i+1] != '/' {
		return false
	}
	for k := 0; k < n; k++ {
		c := s[i+2+k]
		if !isAlpha(c) || c|0x20 != z.last[k] {
			return false
		}
	}
	c := s[i+2+n]
	return isSpace(c) || c == '/' || c == '>'
}

// script reads the text of a script element up to its end tag, following the script data
// states (§13.2.5.4, 15-31): "<!--" escapes, and inside an escape "<script" double-escapes,
// so that "</script>" there does not end the script.
func (z *tokenizer) script(t *token) {
	const (
		sData = iota
		sEsc
		sEscDash
		sEscDashDash
		sDbl
		sDblDash
		sDblDashDash
	)
	s, start := z.src, z.pos
	st := sData
	i := start
	for i < len(s) {
		c := s[i]
		switch st {
		case sData:
			j := strings.IndexByte(s[i:], '<')
			if j < 0 {
				i = len(s)
				continue
			}
			i += j
			if z.isEndTag(i) {
				goto done
			}
			if strings.HasPrefix(s[i:], "<!--") {
				st = sEscDashDash
				i += 4
				continue
			}
			i++
		case sEsc, sEscDash, sEscDashDash:
			switch c {
			case '-':
				if st == sEsc {
					st = sEscDash
				} else {
					st = sEscDashDash
				}
				i++
			case '<':
				if z.isEndTag(i) {
					goto done
				}
				st = sEsc
				i++
				if i < len(s) && isAlpha(s[i]) {
					// The script data double escape start state.
					j := i
					for j < len(s) && isAlpha(s[j]) {
						j++
					}
					if j < len(s) && (isSpace(s[j]) || s[j] == '/' || s[j] == '>') {
						if j-i == 6 && strings.EqualFold(s[i:j], "script") {
							st = sDbl
						}
						j++
					}
					i = j
				}
			case '>':
				if st == sEscDashDash {
					st = sData
				} else {
					st = sEsc
				}
				i++
			default:
				st = sEsc
				i++
				for i < len(s) && s[i] != '-' && s[i] != '<' {
					i++
				}
			}
		default: // double escaped
			switch c {
			case '-':
				if st == sDbl {
					st = sDblDash
				} else {
					st = sDblDashDash
				}
				i++
			case '<':
				st = sDbl
				i++
				if i < len(s) && s[i] == '/' {
					j := i + 1
					for j < len(s) && isAlpha(s[j]) {
						j++
					}
					if j < len(s) && (isSpace(s[j]) || s[j] == '/' || s[j] == '>') {
						if j-i-1 == 6 && strings.EqualFold(s[i+1:j], "script") {
							st = sEsc
						}
						j++
					}
					i = j
				}
			case '>':
				if st == sDblDashDash {
					st = sData
				} else {
					st = sDbl
				}
				i++
			default:
				st = sDbl
				i++
				for i < len(s) && s[i] != '-' && s[i] != '<' {
					i++
				}
			}
		}
	}
	if st != sData {
		z.report("eof-in-script-html-comment-like-text", len(s))
	}
done:
	if i == start {
		z.tag(t, i, true)
		return
	}
	z.text(t, start, i, ScriptState)
	z.pos = i
}
