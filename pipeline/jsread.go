package pipeline

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// script is an app script as the source transforms read it: esbuild's parse of it (the one
// the bundle makes: TypeScript, JSX, the build's loader), printed as JavaScript, then read by
// tdewolff's JavaScript parser and lexer into tokens. Comments, strings, template literals,
// regular expressions and JSX text are tokens of their own, so that nothing in them is taken
// for code, and the layout of the source (line breaks, trailing commas, comments between
// arguments) is gone. esbuild's source map gives each token's place in the source as written,
// which is where the transforms edit and where their messages point.
type script struct {
	src  string // the source as written
	js   []byte // esbuild's JavaScript of it
	toks []token
	// sig indexes the significant tokens of toks: not whitespace, line breaks or comments.
	sig []int
	// pair gives, for an opening bracket's index in sig ((, [, {, a template's head or middle),
	// the index in sig of the token that closes it; -1 when none does.
	pair []int
	// toSrc maps an offset in js where esbuild's source map starts a segment to the offset
	// in src it names.
	toSrc map[int]int
	// segs are the offsets in js of toSrc's keys, sorted.
	segs []int
	// bindings are what each name of js resolves to (receivers.go: binding), read when a
	// check first needs them; bindingsKnown is false where the scopes are not known.
	resolved, bindingsKnown bool
	bindings                map[int]localnames.Name
	consts                  map[string]bool // the names a const may bind (constNamed)
	bound                   int8            // 1: no .bind( in the script, 2: one (boundCall)
	// withs are the script's with statements: the '(' of the object's expression, and the
	// first and last tokens of the body (withObject).
	withs [][3]int
	// asData makes names read a part only the run knows as data (tagname.go: values), and
	// readData says it did.
	asData, readData bool
	// params holds what the parameters of the app's functions are given at one chain of call
	// sites, where names reads a sink's value through them (markupparam.go).
	params *paramEnv
	// refs are the significant tokens of each binding's names, in order, paramFns and callsOf
	// the functions and calls markupparam.go read, each read once.
	refs     map[int][]int
	paramFns map[int]paramFn
	callsOf  map[callsKey][][][2]int
	// passing counts the functions passedCalls follows a function given as an argument into.
	passing int
	// applied marks the first token of each list apply is given that a chain of call sites
	// gives (appliedlist.go): an argument that spreads it.
	applied map[int]bool
	// assigns are the assignments of global paths the script makes, by its reading as a
	// classic script or not (globalfns.go), read once each.
	assigns  [2][]globalAssign
	assigned [2]bool
}

// token is one token of script.js.
type token struct {
	tt         js.TokenType
	start, end int // offsets in script.js
}

// lowered are the features esbuild rewrites before the JavaScript parser reads its output:
// syntax that tdewolff's parser does not read (decorators, using declarations, import
// attributes). The transforms do not touch them, and the bundle is made from the source.
var lowered = map[string]bool{"decorators": false, "using": false, "import-attributes": false}

// readScript parses src, the app script file (loaded with loader), as the transforms read it.
// It returns nil, and no error, when esbuild cannot parse src: the bundle's own parse then
// reports the syntax error at its place.
func readScript(file, src string, loader api.Loader) (*script, error) {
	res := api.Transform(src, api.TransformOptions{
		Loader: loader, Sourcefile: file, Sourcemap: api.SourceMapExternal, SourcesContent: api.SourcesContentExclude,
		JSX: api.JSXAutomatic, Target: api.ESNext, Supported: lowered, Charset: api.CharsetUTF8,
		LegalComments: api.LegalCommentsInline, LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return nil, nil
	}
	s := &script{src: src, js: res.Code}
	if err := s.tokenize(); err != nil {
		return nil, err
	}
	if err := s.readMap(res.Map); err != nil {
		return nil, fmt.Errorf("read esbuild's source map of %s: %w", file, err)
	}
	return s, nil
}

// tokenize lexes s.js into s.toks. A '/' starts a regular expression where the parser read
// one (the lexer alone cannot tell one from a division); where the parser fails, on syntax
// it does not know, by the tokens before it.
func (s *script) tokenize() error {
	n := len(s.js)
	buf := make([]byte, n, n+1)
	copy(buf, s.js)
	// Tokens and literals are slices of buf (the parser and lexer do not copy): a token's
	// offset is its distance from buf's start.
	base := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	offset := func(data []byte) int {
		if len(data) == 0 {
			return -1
		}
		return int(uintptr(unsafe.Pointer(unsafe.SliceData(data))) - base)
	}
	regexps := map[int]bool{}
	ast, err := js.Parse(parse.NewInputBytes(buf), js.Options{})
	parsed := err == nil
	if parsed {
		js.Walk(regexpFinder{func(data []byte) { regexps[offset(data)] = true }}, ast)
	}
	in := parse.NewInputBytes(buf)
	l := js.NewLexer(in)
	prev := js.ErrorToken // the last significant token
	// For the lexical rule: the indexes in toks of the open parentheses, and of the one that
	// the last ')' closed.
	var parens []int
	closed := -1
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken {
			if e := l.Err(); e != nil && e.Error() != "EOF" {
				return fmt.Errorf("read esbuild's JavaScript: %w", e)
			}
			break
		}
		start := offset(data)
		if tt == js.DivToken || tt == js.DivEqToken {
			if parsed && regexps[start] || !parsed && s.regexpAfter(prev, closed) {
				tt, data = l.RegExp()
				if tt == js.ErrorToken {
					return fmt.Errorf("read esbuild's JavaScript: %w", l.Err())
				}
				start = offset(data)
			}
		}
		s.toks = append(s.toks, token{tt, start, start + len(data)})
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		case js.OpenParenToken:
			parens = append(parens, len(s.toks)-1)
		case js.CloseParenToken:
			closed = -1
			if len(parens) > 0 {
				closed, parens = parens[len(parens)-1], parens[:len(parens)-1]
			}
		}
		prev = tt
		s.sig = append(s.sig, len(s.toks)-1)
	}
	s.pairUp()
	return nil
}

// regexpAfter is the lexical rule for a '/' after the token prev, used only where the parser
// could not read the code: a regular expression follows an operator, a keyword that takes an
// expression, or the ')' of an if, while, for or with; a division follows what ends an
// expression.
func (s *script) regexpAfter(prev js.TokenType, closed int) bool {
	switch {
	case prev == js.ErrorToken:
		return true
	case prev == js.CloseParenToken:
		// The ')' closes the condition of a statement, or an expression.
		for k := closed - 1; k >= 0; k-- {
			switch s.toks[k].tt {
			case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
				continue
			case js.IfToken, js.WhileToken, js.ForToken, js.WithToken:
				return true
			}
			return false
		}
		return false
	}
	return regexpAfterToken(prev)
}

// regexpFinder walks a tdewolff AST and calls found with each regular expression literal.
type regexpFinder struct{ found func([]byte) }

func (f regexpFinder) Enter(n js.INode) js.IVisitor {
	if l, ok := n.(*js.LiteralExpr); ok && l.TokenType == js.RegExpToken {
		f.found(l.Data)
	}
	return f
}

func (regexpFinder) Exit(js.INode) {}

// pairUp fills s.pair.
func (s *script) pairUp() {
	s.pair = make([]int, len(s.sig))
	var open []int
	for i, ti := range s.sig {
		s.pair[i] = -1
		switch s.toks[ti].tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.TemplateStartToken:
			open = append(open, i)
		case js.TemplateMiddleToken:
			if len(open) > 0 {
				s.pair[open[len(open)-1]] = i
				open[len(open)-1] = i
			}
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.TemplateEndToken:
			if len(open) > 0 {
				s.pair[open[len(open)-1]] = i
				open = open[:len(open)-1]
			}
		}
	}
}

// tok returns the i-th significant token, or a zero token past the end.
func (s *script) tok(i int) token {
	if i < 0 || i >= len(s.sig) {
		return token{tt: js.ErrorToken, start: len(s.js), end: len(s.js)}
	}
	return s.toks[s.sig[i]]
}

// text returns the text of the i-th significant token.
func (s *script) text(i int) string {
	t := s.tok(i)
	return string(s.js[t.start:t.end])
}

// is reports whether the significant tokens from i on read words, each a token's text.
func (s *script) is(i int, words ...string) bool {
	for k, w := range words {
		if s.text(i+k) != w {
			return false
		}
	}
	return true
}

// comments returns the text of the comments between the significant tokens i and j.
func (s *script) comments(i, j int) string {
	var b strings.Builder
	if i < 0 || j >= len(s.sig) || i >= j {
		return ""
	}
	for k := s.sig[i] + 1; k < s.sig[j]; k++ {
		if t := s.toks[k]; t.tt == js.CommentToken || t.tt == js.CommentLineTerminatorToken {
			b.Write(s.js[t.start:t.end])
		}
	}
	return b.String()
}

// srcAt returns the offset in the source of the significant token i: where esbuild's map
// puts it, or, for a token that starts no segment, the segment before it on its line plus
// the distance. ok is false when the map says nothing of the token's line.
func (s *script) srcAt(i int) (int, bool) {
	return s.srcOffset(s.tok(i).start)
}

func (s *script) srcOffset(off int) (int, bool) {
	if o, ok := s.toSrc[off]; ok {
		return o, true
	}
	k := sort.SearchInts(s.segs, off) - 1
	if k < 0 {
		return 0, false
	}
	seg := s.segs[k]
	if strings.Contains(string(s.js[seg:off]), "\n") {
		return 0, false
	}
	return min(s.toSrc[seg]+off-seg, len(s.src)), true
}

// exact reports the offset in the source of the significant token i, only where esbuild's
// map starts a segment at it: the start of an expression, a call's closing parenthesis.
func (s *script) exact(i int) (int, bool) {
	o, ok := s.toSrc[s.tok(i).start]
	return o, ok
}

// readMap decodes esbuild's source map of s.js (mappings in Base64 VLQ, columns in UTF-16
// code units) into s.toSrc.
func (s *script) readMap(m []byte) error {
	var sm struct {
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(m, &sm); err != nil {
		return err
	}
	gen := newColumns(string(s.js))
	src := newColumns(s.src)
	s.toSrc = map[int]int{}
	line, genCol, srcLine, srcCol := 0, 0, 0, 0
	var fields [5]int
	for i := 0; i < len(sm.Mappings); {
		switch sm.Mappings[i] {
		case ';':
			line, genCol = line+1, 0
			i++
			continue
		case ',':
			i++
			continue
		}
		n := 0
		for i < len(sm.Mappings) && sm.Mappings[i] != ',' && sm.Mappings[i] != ';' {
			v, next, err := vlq(sm.Mappings, i)
			if err != nil {
				return err
			}
			if n < len(fields) {
				fields[n] = v
			}
			n, i = n+1, next
		}
		genCol += fields[0]
		if n < 4 {
			continue
		}
		prevLine, prevCol := srcLine, srcCol
		srcLine += fields[2]
		srcCol += fields[3]
		col := genCol
		if genCol == 0 {
			// esbuild starts a line that has no mapping of its own with the one before
			// (coverLinesWithoutMappings): not a token's. And it maps a statement before
			// its indentation: the mapping is the first token's.
			if srcLine == prevLine && srcCol == prevCol && len(s.toSrc) > 0 {
				continue
			}
			if off, ok := gen.offset(line, 0); ok {
				for off < len(s.js) && (s.js[off] == ' ' || s.js[off] == '\t') {
					off, col = off+1, col+1
				}
			}
		}
		g, ok1 := gen.offset(line, col)
		o, ok2 := src.offset(srcLine, srcCol)
		if _, seen := s.toSrc[g]; ok1 && ok2 && !seen {
			s.segs = append(s.segs, g)
			s.toSrc[g] = o
		}
	}
	sort.Ints(s.segs)
	return nil
}

const vlqChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlq decodes the Base64 VLQ number at m[i:].
func vlq(m string, i int) (v, next int, err error) {
	shift := 0
	for {
		if i >= len(m) {
			return 0, i, fmt.Errorf("a mapping ends in the middle of a number")
		}
		d := strings.IndexByte(vlqChars, m[i])
		if d < 0 {
			return 0, i, fmt.Errorf("%q is not Base64", m[i])
		}
		i++
		v += (d & 31) << shift
		shift += 5
		if d&32 == 0 {
			break
		}
	}
	if v&1 != 0 {
		return -(v >> 1), i, nil
	}
	return v >> 1, i, nil
}

// columns turns a source map's (line, UTF-16 column) into byte offsets of a text.
type columns struct {
	text  string
	lines []int // offset of each line's start
}

func newColumns(text string) columns {
	c := columns{text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			c.lines = append(c.lines, i+1)
		}
	}
	return c
}

func (c columns) offset(line, col int) (int, bool) {
	if line < 0 || line >= len(c.lines) || col < 0 {
		return 0, false
	}
	off := c.lines[line]
	for u := 0; u < col; {
		if off >= len(c.text) || c.text[off] == '\n' {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(c.text[off:])
		u += utf16.RuneLen(r)
		off += size
	}
	return off, true
}

// jsValue is the value of a literal in the JavaScript: a string, float64, bool, nil (null or
// undefined), []jsValue or *jsObject.
type jsValue = any

// jsObject is an object literal's properties, in order.
type jsObject struct {
	keys   []string
	values map[string]jsValue
	at     map[string]int // the significant token of each property's value
}

// staticError says where a value is not a literal: the significant token.
type staticError struct{ at int }

func (e *staticError) Error() string { return "not a literal" }

// value reads the literal made of the significant tokens [i, j): a string, a template with
// no substitution, a number, true, false, null, undefined, an array or object literal of
// those. Anything else is a *staticError at its token.
func (s *script) value(i, j int) (jsValue, error) {
	if i >= j {
		return nil, &staticError{i}
	}
	t := s.tok(i)
	if j == i+2 && t.tt == js.SubToken && js.IsNumeric(s.tok(i+1).tt) {
		f, ok := number(s.text(i + 1))
		if !ok {
			return nil, &staticError{i}
		}
		return -f, nil
	}
	if js.IsNumeric(t.tt) {
		if j != i+1 {
			return nil, &staticError{i + 1}
		}
		f, ok := number(s.text(i))
		if !ok {
			return nil, &staticError{i}
		}
		return f, nil
	}
	switch t.tt {
	case js.StringToken, js.TemplateToken:
		if j != i+1 {
			return nil, &staticError{i + 1}
		}
		return s.str(i)
	case js.TrueToken, js.FalseToken, js.NullToken:
		if j != i+1 {
			return nil, &staticError{i + 1}
		}
		return map[js.TokenType]jsValue{js.TrueToken: true, js.FalseToken: false, js.NullToken: nil}[t.tt], nil
	case js.OpenBracketToken:
		if s.pair[i] != j-1 {
			return nil, &staticError{i}
		}
		var out []jsValue
		for _, a := range s.split(i+1, j-1) {
			v, err := s.value(a[0], a[1])
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case js.OpenBraceToken:
		if s.pair[i] != j-1 {
			return nil, &staticError{i}
		}
		o := &jsObject{values: map[string]jsValue{}, at: map[string]int{}}
		for _, p := range s.split(i+1, j-1) {
			if p[1]-p[0] < 3 || s.tok(p[0]+1).tt != js.ColonToken {
				return nil, &staticError{p[0]}
			}
			var key string
			switch k := s.tok(p[0]); {
			case k.tt == js.StringToken:
				v, err := s.str(p[0])
				if err != nil {
					return nil, err
				}
				key = v
			case js.IsNumeric(k.tt) || js.IsIdentifierName(k.tt):
				key = s.text(p[0])
			default:
				return nil, &staticError{p[0]}
			}
			v, err := s.value(p[0]+2, p[1])
			if err != nil {
				return nil, err
			}
			if _, dup := o.values[key]; !dup {
				o.keys = append(o.keys, key)
			}
			o.values[key], o.at[key] = v, p[0]+2
		}
		return o, nil
	}
	if s.text(i) == "undefined" && j == i+1 {
		return nil, nil
	}
	return nil, &staticError{i}
}

// number reads a numeric literal (not a BigInt).
func number(text string) (float64, bool) {
	text = strings.ReplaceAll(text, "_", "")
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return f, true
	}
	i, err := strconv.ParseInt(text, 0, 64)
	return float64(i), err == nil
}

// split cuts the significant tokens [i, j) at their top-level commas, into [start, end)
// pairs; a trailing comma makes no empty last part.
func (s *script) split(i, j int) [][2]int {
	var out [][2]int
	start := i
	for k := i; k < j; k++ {
		t := s.tok(k)
		if p := s.pair[k]; p > k {
			k = p
			continue
		}
		if t.tt == js.CommaToken {
			out = append(out, [2]int{start, k})
			start = k + 1
		}
	}
	if start < j {
		out = append(out, [2]int{start, j})
	}
	return out
}

// args returns the arguments of the call whose '(' is the significant token open.
func (s *script) args(open int) [][2]int {
	if s.pair[open] < 0 {
		return nil
	}
	return s.split(open+1, s.pair[open])
}

// str decodes the string literal, or template literal with no substitution, at the
// significant token i.
func (s *script) str(i int) (string, error) {
	v, ok := jsstring.Decode(s.text(i))
	if !ok {
		return "", &staticError{i}
	}
	return v, nil
}

// lexSource lexes src from off, calling fn with each significant token's type and source
// span until fn returns false. It is for short stretches of the source whose start esbuild's
// map gives and whose end it does not: a '/' is a regular expression where the lexical rule
// says (after an operator, a keyword, or the condition of an if, while, for or with).
func lexSource(src string, off int, fn func(tt js.TokenType, start, end int) bool) {
	n := len(src) - off
	buf := make([]byte, n, n+1)
	copy(buf, src[off:])
	base := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	l := js.NewLexer(parse.NewInputBytes(buf))
	prev := js.ErrorToken // the last significant token
	var conds []bool      // for each open '(', whether it follows if, while, for or with
	afterCond := false    // the last ')' closed such a condition
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken || len(data) == 0 {
			return
		}
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		case js.DivToken, js.DivEqToken:
			if regexpAfterToken(prev) || prev == js.CloseParenToken && afterCond {
				if tt, data = l.RegExp(); tt == js.ErrorToken {
					return
				}
			}
		case js.OpenParenToken:
			conds = append(conds, prev == js.IfToken || prev == js.WhileToken || prev == js.ForToken || prev == js.WithToken)
		case js.CloseParenToken:
			afterCond = false
			if len(conds) > 0 {
				afterCond, conds = conds[len(conds)-1], conds[:len(conds)-1]
			}
		}
		start := int(uintptr(unsafe.Pointer(unsafe.SliceData(data)))-base) + off
		if !fn(tt, start, start+len(data)) {
			return
		}
		prev = tt
	}
}

// regexpAfterToken reports whether a '/' after the token prev starts a regular expression,
// by the lexical rule (a ')' is the caller's to judge).
func regexpAfterToken(prev js.TokenType) bool {
	switch {
	case prev == js.CloseParenToken, prev == js.CloseBracketToken, prev == js.CloseBraceToken, prev == js.TemplateToken, prev == js.TemplateEndToken,
		prev == js.StringToken, prev == js.RegExpToken, prev == js.PrivateIdentifierToken, js.IsNumeric(prev),
		prev == js.IncrToken, prev == js.DecrToken,
		js.IsIdentifier(prev), prev == js.ThisToken, prev == js.SuperToken, prev == js.TrueToken, prev == js.FalseToken, prev == js.NullToken:
		return false
	}
	return true
}
