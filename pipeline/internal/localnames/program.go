package localnames

import (
	"io"
	"slices"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Program is one parse of a program and one walk of its scopes, which Substitute, Rename and
// the caller's own walks of AST all read: the passes over a page's module share one parse,
// where each parsing the module again cost as much as the pass (order-book's module: a parse
// 50 ms, a Resolve 110 ms).
//
//	p := localnames.Parse(code)
//	edits := p.Rename(true)
//
// AST is the parse; a caller may walk it and read it, and must leave it as it found it. Its
// names are slices of Program's copy of the source: Offset gives their places.
type Program struct {
	AST *js.AST
	r   *renamer // walked: its scopes, kept names, shorthands and regexps; no binding picked
}

// Parse parses src once for the passes that read it; nil when src does not parse.
func Parse(src string) *Program {
	r, ast := parseNames(src)
	if r == nil {
		return nil
	}
	r.kept = map[*js.Scope]map[string]bool{}
	js.Walk(r, ast)
	return &Program{AST: ast, r: r}
}

// Offset returns the offset in the source of a name or a literal of AST (a token of the
// parse: its Data).
func (p *Program) Offset(data []byte) int { return p.r.offset(data) }

// Known reports whether every reference of the program is known from the parse: it calls
// no eval directly and has no with statement.
func (p *Program) Known() bool { return !p.r.bad }

// Declares reports whether the program binds name anywhere: a declaration of any of its
// scopes, an import, or a name the parse binds in another scope than the language (a class
// expression's name, which the parse binds in no scope, a block function, a static block's
// var: see keep). Where it does not, and the program's references are known (Known), every
// reference of name reads the global of that name.
func (p *Program) Declares(name string) bool {
	declares := func(s *js.Scope) bool {
		for _, v := range s.Declared {
			if string(v.Data) == name {
				return true
			}
		}
		return false
	}
	if declares(&p.AST.BlockStmt.Scope) || slices.ContainsFunc(p.r.scopes, declares) {
		return true
	}
	for _, s := range p.AST.BlockStmt.List {
		if im, ok := s.(*js.ImportStmt); ok {
			if string(im.Default) == name {
				return true
			}
			for _, a := range im.List {
				if string(a.Binding) == name || a.Binding == nil && string(a.Name) == name {
					return true
				}
			}
		}
	}
	return p.Kept(name)
}

// Kept reports whether the parse binds name otherwise than the language somewhere in the
// program (a class expression's name, a block function, a static block's var: see keep): a
// reference of that name may read another binding than the parse says.
func (p *Program) Kept(name string) bool {
	for _, kept := range p.r.kept {
		if kept[name] {
			return true
		}
	}
	return false
}

// Tokens calls f with each token of the source in order but whitespace and comments, at its
// offset, a regular expression as one token (the parse says which / starts one), until f
// returns false; false when the source does not lex so.
func (p *Program) Tokens(f func(tt js.TokenType, start int, data []byte) bool) bool {
	return p.r.tokens(f)
}

// Closing returns the offset of the parenthesis that closes the one at open, an opening
// parenthesis of the source (a token), -1 where there is none there or the source does not
// lex so. Only the tokens from open to it are lexed.
func (p *Program) Closing(open int) int {
	if open < 0 || open >= len(p.r.buf) || p.r.buf[open] != '(' {
		return -1
	}
	depth, closing := 0, -1
	p.r.tokensFrom(open, func(tt js.TokenType, start int, _ []byte) bool {
		switch tt {
		case js.OpenParenToken:
			depth++
		case js.CloseParenToken:
			if depth--; depth == 0 {
				closing = start
				return false
			}
		}
		return true
	})
	return closing
}

// tokens is Program.Tokens over r's source.
func (r *renamer) tokens(f func(tt js.TokenType, start int, data []byte) bool) bool {
	return r.tokensFrom(0, f)
}

// tokensFrom is tokens from from, the offset of a token that no template's text holds.
func (r *renamer) tokensFrom(from int, f func(tt js.TokenType, start int, data []byte) bool) bool {
	if r.regexpAt == nil {
		r.regexpAt = make(map[int]bool, len(r.regexps))
		for _, e := range r.regexps {
			r.regexpAt[r.offset(e.Data)] = true
		}
	}
	regexpAt := r.regexpAt
	l := js.NewLexer(parse.NewInputBytes(r.buf[from:]))
	for {
		tt, data := l.Next()
		switch tt {
		case js.ErrorToken:
			return l.Err() == nil || l.Err() == io.EOF
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		}
		start := r.offset(data)
		if (tt == js.DivToken || tt == js.DivEqToken) && regexpAt[start] {
			if tt, data = l.RegExp(); tt == js.ErrorToken {
				return false
			}
		}
		if !f(tt, start, data) {
			return true
		}
	}
}

// fresh returns a renamer of p's walk with no binding picked yet, for one pass.
func (p *Program) fresh() *renamer {
	r := *p.r
	r.vars, r.decls, r.index = nil, nil, map[*js.Var]int{}
	return &r
}
