package markup

import "strings"

// comment reads a comment whose "<!--" begins at start and whose text begins at i
// (§13.2.5.43-52).
func (z *tokenizer) comment(t *token, start, i int) {
	const (
		cStart = iota
		cStartDash
		cText
		cLt
		cLtBang
		cLtBangDash
		cLtBangDashDash
		cEndDash
		cEnd
		cEndBang
	)
	s := z.src
	text := i
	st := cStart
	// The comment's text is s[text:mark]: every state appends the characters it reads, as
	// read, except the dashes (and "!") of what may be the comment's end, which stay
	// pending after mark until the comment goes on.
	mark := i
	for ; i < len(s); i++ {
		c := s[i]
		switch st {
		case cStart, cStartDash:
			switch c {
			case '-':
				if st == cStart {
					st = cStartDash
				} else {
					st = cEnd
				}
				continue
			case '>':
				z.report("abrupt-closing-of-empty-comment", i)
				z.emitComment(t, start, text, text, i+1)
				return
			}
			mark = i
			st = cText
			i--
		case cText:
			switch c {
			case '<':
				st = cLt
				mark = i + 1
			case '-':
				st = cEndDash
				mark = i
			default:
				j := strings.IndexAny(s[i:], "<-")
				if j < 0 {
					j = len(s) - i
				}
				i += j - 1
				mark = i + 1
			}
		case cLt:
			switch c {
			case '!':
				st = cLtBang
				mark = i + 1
			case '<':
				mark = i + 1
			default:
				st = cText
				i--
			}
		case cLtBang:
			if c == '-' {
				st = cLtBangDash
				continue
			}
			st = cText
			i--
		case cLtBangDash:
			if c == '-' {
				st = cLtBangDashDash
				continue
			}
			st = cEndDash
			i--
		case cLtBangDashDash:
			if c != '>' {
				z.report("nested-comment", i)
			}
			st = cEnd
			i--
		case cEndDash:
			if c == '-' {
				st = cEnd
				continue
			}
			mark = i
			st = cText
			i--
		case cEnd:
			switch c {
			case '>':
				z.emitComment(t, start, text, mark, i+1)
				return
			case '!':
				st = cEndBang
			case '-':
				mark++
			default:
				mark = i
				st = cText
				i--
			}
		case cEndBang:
			switch c {
			case '-':
				mark = i
				st = cEndDash
			case '>':
				z.report("incorrectly-closed-comment", i)
				z.emitComment(t, start, text, mark, i+1)
				return
			default:
				mark = i
				st = cText
				i--
			}
		}
	}
	z.report("eof-in-comment", len(s))
	z.emitComment(t, start, text, mark, len(s))
}

func (z *tokenizer) emitComment(t *token, start, text, textEnd, end int) {
	s := z.src[text:textEnd]
	for k := 0; k < len(s); k++ {
		if s[k] == 0 {
			z.report("unexpected-null-character", text+k)
		}
	}
	t.kind, t.r, t.data = tComment, Range{start, end}, z.normalize(s, true)
	z.pos = end
}

// bogusComment reads a bogus comment (§13.2.5.41) whose text begins at i, to the next '>'.
func (z *tokenizer) bogusComment(t *token, start, i int) {
	j := strings.IndexByte(z.src[i:], '>')
	if j < 0 {
		z.emitComment(t, start, i, len(z.src), len(z.src))
		return
	}
	z.emitComment(t, start, i, i+j, i+j+1)
}

// cdata reads a CDATA section whose text begins at i (§13.2.5.69-71) as a text token; its
// range covers "<![CDATA[" and "]]>" too.
func (z *tokenizer) cdata(t *token, i int) {
	s := z.src
	open := i - len("<![CDATA[")
	if z.state == CDATAState {
		open = i // started inside the section (a tokenizer test)
	}
	j := strings.Index(s[i:], "]]>")
	end, textEnd := i+j+3, i+j
	if j < 0 {
		end, textEnd = len(s), len(s)
		z.report("eof-in-cdata", len(s))
	}
	z.state = DataState
	z.pos = end
	if textEnd == i {
		return // an empty section: no characters
	}
	z.text(t, i, textEnd, CDATAState)
	t.r = Range{open, end}
}

// doctype reads a DOCTYPE token whose "<!" is at start and whose keyword ends at i
// (§13.2.5.53-68).
func (z *tokenizer) doctype(t *token, start, i int) {
	s := z.src
	d := &Doctype{}
	t.kind, t.doctype = tDoctype, d
	finish := func(end int, eof bool) {
		if eof {
			z.report("eof-in-doctype", len(s))
			d.ForceQuirks = true
		}
		t.r = Range{start, end}
		z.pos = end
	}
	// DOCTYPE state.
	if i >= len(s) {
		finish(len(s), true)
		return
	}
	if isSpace(s[i]) {
		i++
	} else if s[i] != '>' {
		z.report("missing-whitespace-before-doctype-name", i)
	}
	// Before DOCTYPE name.
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) {
		finish(len(s), true)
		return
	}
	if s[i] == '>' {
		z.report("missing-doctype-name", i)
		d.ForceQuirks = true
		finish(i+1, false)
		return
	}
	ns := i
	for i < len(s) && !isSpace(s[i]) && s[i] != '>' {
		i++
	}
	t.data = z.name(ns, i)
	// After DOCTYPE name.
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) {
		finish(len(s), true)
		return
	}
	if s[i] == '>' {
		finish(i+1, false)
		return
	}
	public := len(s)-i >= 6 && strings.EqualFold(s[i:i+6], "public")
	if !public && !(len(s)-i >= 6 && strings.EqualFold(s[i:i+6], "system")) {
		z.report("invalid-character-sequence-after-doctype-name", i)
		d.ForceQuirks = true
		z.bogusDoctype(t, i, finish)
		return
	}
	i += 6
	for pass := 0; pass < 2; pass++ {
		kw := "public"
		if !public {
			kw = "system"
		}
		// After the keyword, and before the identifier (the system identifier after a public
		// one has had its whitespace read already).
		if i >= len(s) {
			finish(len(s), true)
			return
		}
		switch {
		case pass == 1:
		case isSpace(s[i]):
			for i < len(s) && isSpace(s[i]) {
				i++
			}
		case s[i] == '"' || s[i] == '\'':
			z.report("missing-whitespace-after-doctype-"+kw+"-keyword", i)
		}
		if i >= len(s) {
			finish(len(s), true)
			return
		}
		switch q := s[i]; q {
		case '"', '\'':
			j := i + 1
			for j < len(s) && s[j] != q && s[j] != '>' {
				j++
			}
			id := z.src[i+1 : j]
			for k := 0; k < len(id); k++ {
				if id[k] == 0 {
					z.report("unexpected-null-character", i+1+k)
				}
			}
			id = z.normalize(id, true)
			if public {
				d.PublicID, d.HasPublicID = id, true
			} else {
				d.SystemID, d.HasSystemID = id, true
			}
			if j >= len(s) {
				finish(len(s), true)
				return
			}
			if s[j] == '>' {
				z.report("abrupt-doctype-"+kw+"-identifier", j)
				d.ForceQuirks = true
				finish(j+1, false)
				return
			}
			i = j + 1
		case '>':
			z.report("missing-doctype-"+kw+"-identifier", i)
			d.ForceQuirks = true
			finish(i+1, false)
			return
		default:
			z.report("missing-quote-before-doctype-"+kw+"-identifier", i)
			d.ForceQuirks = true
			z.bogusDoctype(t, i, finish)
			return
		}
		if !public {
			break
		}
		// After the public identifier: maybe a system identifier.
		if i >= len(s) {
			finish(len(s), true)
			return
		}
		ws := isSpace(s[i])
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			finish(len(s), true)
			return
		}
		switch s[i] {
		case '>':
			finish(i+1, false)
			return
		case '"', '\'':
			if !ws {
				z.report("missing-whitespace-between-doctype-public-and-system-identifiers", i)
			}
			public = false
			continue
		default:
			z.report("missing-quote-before-doctype-system-identifier", i)
			d.ForceQuirks = true
			z.bogusDoctype(t, i, finish)
			return
		}
	}
	// After the system identifier.
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i >= len(s) {
		finish(len(s), true)
		return
	}
	if s[i] == '>' {
		finish(i+1, false)
		return
	}
	z.report("unexpected-character-after-doctype-system-identifier", i)
	z.bogusDoctype(t, i, finish)
}

// bogusDoctype skips to the '>' that ends a doctype (§13.2.5.68).
func (z *tokenizer) bogusDoctype(t *token, i int, finish func(int, bool)) {
	s := z.src
	j := strings.IndexByte(s[i:], '>')
	for k := i; k < len(s) && (j < 0 || k < i+j); k++ {
		if s[k] == 0 {
			z.report("unexpected-null-character", k)
		}
	}
	if j < 0 {
		finish(len(s), false)
		return
	}
	finish(i+j+1, false)
}
