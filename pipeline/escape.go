package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/markup"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// escapeScript keeps inline JavaScript from ending its element early, changing only what the
// HTML parser would act on, as its tokenizer's script data states say (HTML Standard
// §13.2.5.4 on): a "</script" followed by whitespace, "/" or ">" that would end the element
// there (in the data or escaped states; not in the double-escaped state a "<!--" then a
// "<script" enter, where it does not); and when the text would leave the tokenizer in the
// double-escaped state, where the element's own "</script>" would not end it, a comment
// "/*-->*/" after it, whose "-->" ends that state. Every "<!--" and "<script" stays as written,
// so a template literal holding "<!--<script>" is the same to String.raw and to any tag. Each
// "<" changed is written so that the code means what it did, as the JavaScript tokenizer
// places it (tdewolff/parse's lexer): in a string, a regular expression or a comment \x3C; in
// a template literal's text ${"\x3C"}, so that its value and String.raw's stay the same; as
// the operator <, a space after it. Code the lexer cannot read gets \x3C, as before. (esbuild
// already writes "<\/script" in the strings, templates and regular expressions it prints.)
func escapeScript(code string) string {
	marks, double := scriptBreaks(code)
	if double {
		// "-->" takes the tokenizer back to the script data state, in a comment the code
		// ignores (of a line comment the text ends in, it is part).
		code += "/*-->*/"
	}
	if len(marks) == 0 {
		return code
	}
	ctx := scriptContexts(code, marks)
	var b strings.Builder
	last := 0
	for i, at := range marks {
		b.WriteString(code[last:at])
		switch ctx[i] {
		case inTemplate:
			b.WriteString(`${"\x3C"}`)
		case inCode:
			b.WriteString("< ")
		default:
			b.WriteString(`\x3C`)
		}
		last = at + 1
	}
	b.WriteString(code[last:])
	return b.String()
}

// scriptBreaks returns the offsets of the "<"s of the end tags in the text of a script
// element that would end it early, and whether the text leaves the tokenizer in the
// double-escaped state: see escapeScript.
func scriptBreaks(s string) ([]int, bool) {
	ends, _, double := scriptStates(s, nil)
	return ends, double
}

// scriptStates runs the HTML tokenizer's script data states (§13.2.5.4 to §13.2.5.21) over s,
// each "<" at an offset in taken read as another character. It returns the "<"s of the end
// tags that would end the element, where the last double-escaped run began, and whether s
// ends in it.
func scriptStates(s string, taken map[int]bool) (ends []int, entered int, double bool) {
	const (
		data = iota
		escaped
		escapedDash
		escapedDashDash
		doubleEscaped
		doubleDash
		doubleDashDash
	)
	state := data
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '<' && taken[i] {
			c = 'x'
		}
		switch state {
		case data:
			switch {
			case c == '<' && strings.HasPrefix(s[i:], "<!--"):
				state = escapedDashDash // "<!-->" closes it at once
				i += 3
			case c == '<' && tagFollows(s[i+1:], "/script"):
				ends = append(ends, i)
			}
		case escaped, escapedDash, escapedDashDash:
			switch {
			case c == '<' && tagFollows(s[i+1:], "/script"):
				ends = append(ends, i)
				state = escaped
			case c == '<' && tagFollows(s[i+1:], "script"):
				state, entered = doubleEscaped, i
				i += len("<script") // its terminator is read next, as the double-escaped state's
			case c == '<':
				state = escaped
			case c == '-' && state == escaped:
				state = escapedDash
			case c == '-':
				state = escapedDashDash
			case c == '>' && state == escapedDashDash:
				state = data
			default:
				state = escaped
			}
		default: // the double-escaped states
			switch {
			case c == '<' && tagFollows(s[i+1:], "/script"):
				state = escaped
				i += len("</script")
			case c == '<':
				state = doubleEscaped
			case c == '-' && state == doubleEscaped:
				state = doubleDash
			case c == '-':
				state = doubleDashDash
			case c == '>' && state == doubleDashDash:
				state = data
			default:
				state = doubleEscaped
			}
		}
	}
	return ends, entered, state >= doubleEscaped
}

// tagFollows reports whether s begins with name in any ASCII case followed by what ends a tag
// name in script data (whitespace, "/" or ">").
func tagFollows(s, name string) bool {
	if len(s) <= len(name) || !markup.HasPrefixFold(s, name) {
		return false
	}
	c := s[len(name)]
	return markup.IsSpace(c) || c == '/' || c == '>'
}

// The places a "<" of scriptBreaks can be in JavaScript.
const (
	inLiteral  = iota // a string, a regular expression, a comment (or code the lexer cannot read)
	inTemplate        // a template literal's text
	inCode            // between tokens: the operator <
)

// scriptContexts says, for each offset of marks (in order), where in the code it is.
func scriptContexts(code string, marks []int) []int {
	out := make([]int, len(marks))
	l := js.NewLexer(parse.NewInputString(code))
	off, k := 0, 0
	prev := js.ErrorToken // the last token that is not whitespace or a comment
	for k < len(marks) {
		tt, data := l.Next()
		if (tt == js.DivToken || tt == js.DivEqToken) && regexpFollows(prev) {
			tt, data = l.RegExp()
			if tt == js.ErrorToken {
				break
			}
			data = []byte(code[off : off+len(data)])
		}
		if tt == js.ErrorToken {
			break // the rest keeps \x3C
		}
		start, end := off, off+len(data)
		off = end
		for k < len(marks) && marks[k] < end {
			switch {
			case marks[k] < start:
			case tt == js.TemplateToken || tt == js.TemplateStartToken || tt == js.TemplateMiddleToken || tt == js.TemplateEndToken:
				out[k] = inTemplate
			case tt == js.LtToken || tt == js.LtEqToken || tt == js.LtLtToken || tt == js.LtLtEqToken:
				out[k] = inCode
			}
			k++
		}
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
		default:
			prev = tt
		}
	}
	return out
}

// regexpFollows reports whether a "/" after the token prev begins a regular expression, not a
// division: after an operator, an opening bracket, a comma or a keyword that takes an
// expression; not after a name, a literal or a closing bracket.
func regexpFollows(prev js.TokenType) bool {
	switch {
	case prev == js.ErrorToken:
		return true
	case prev == js.IdentifierToken || prev == js.PrivateIdentifierToken || prev == js.StringToken || prev == js.RegExpToken ||
		prev == js.TemplateToken || prev == js.TemplateEndToken || prev == js.CloseParenToken || prev == js.CloseBracketToken ||
		prev == js.CloseBraceToken || prev == js.ThisToken || prev == js.SuperToken || prev == js.NullToken || prev == js.TrueToken || prev == js.FalseToken ||
		js.IsNumeric(prev) || prev == js.IncrToken || prev == js.DecrToken:
		return false
	}
	return true
}
