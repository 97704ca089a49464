package pipeline

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/jsstring"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// A package in the page that evaluates strings (a development build, as webpack writes one
// with devtool "eval": every module's code is a string given to eval when the package is
// imported) throws under the page's policy, which has no 'unsafe-eval' unless the manifest
// says eval = true, and the page stays blank. The app's own code is refused at each call
// (evalErrors); a package's is warned of once, naming the package and the opt-in, since a
// library may hold a call on a path it never takes.

// mayCallEval reports whether src holds the text of a call of eval or Function (the name
// after no letter, digit or _, then white space and "("), before a parse says what it is.
// It is the regular expression \b(?:eval|Function)\s*\( written as a search for each name,
// which on a megabyte of packages takes a tenth of its time.
func mayCallEval(src []byte) bool {
	for _, name := range []string{"eval", "Function"} {
		for rest, off := src, 0; ; {
			i := bytes.Index(rest, []byte(name))
			if i < 0 {
				break
			}
			at := off + i
			if at == 0 || !isWordByte(src[at-1]) {
				j := at + len(name)
				for j < len(src) && strings.IndexByte("\t\n\f\r ", src[j]) >= 0 {
					j++
				}
				if j < len(src) && src[j] == '(' {
					return true
				}
			}
			rest, off = src[at+1:], at+1
		}
	}
	return false
}

// isWordByte is \w of Go's regular expressions: an ASCII letter, digit or _.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// evalScan is what evalInPackages found in a module, kept by the bundler with the SHA-256 of
// the text it read, so that a rebuild of bundle dev parses again only a module that changed.
type evalScan struct {
	sum  [32]byte
	off  int
	call string
	ok   bool
}

// evalInPackages warns of each package in the page whose code calls eval or new Function
// where a page would run them: not inside a try block (a probe that catches the refusal, as
// zod 4's), not new Function("return this") (the global object, found first by other means
// in a browser). It reads only the packages' modules that the page holds.
func (b *bundler) evalInPackages() diag.List {
	if b.m.Eval {
		return nil
	}
	files := make([]string, 0, len(b.inputs))
	for f, n := range b.inputs {
		if n > 0 && strings.Contains("/"+f, "/node_modules/") && scriptFile.MatchString(strings.ToLower(f)) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	var out diag.List
	seen := map[string]bool{}
	for _, f := range files {
		pkg := packageOf(f)
		if seen[pkg] {
			continue
		}
		src, err := os.ReadFile(filepath.Join(b.root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		sum := sha256.Sum256(src)
		scan, kept := b.evalScans[f]
		if !kept || scan.sum != sum {
			scan = evalScan{sum: sum}
			if mayCallEval(src) { // no parse for the modules that cannot call them
				scan.off, scan.call, scan.ok = evalCallIn(src)
			}
			if b.evalScans == nil {
				b.evalScans = map[string]evalScan{}
			}
			b.evalScans[f] = scan
		}
		off, call, ok := scan.off, scan.call, scan.ok
		if !ok {
			continue
		}
		seen[pkg] = true
		msg := b.m.Message(diag.Warning, "", fmt.Sprintf("the package %s calls %s when the page runs it (a development build evaluates its modules so), which the page's policy refuses: the page would throw where it imports %s", pkg, call, pkg),
			fmt.Sprintf("import a production build of %s if it has one, or set %s in %s: the policy then allows 'unsafe-eval', and hosts see it in the registry entry", pkg, b.m.Setting("eval", true), filepath.Base(b.m.File)))
		msg.Path = ""
		msg.File = b.display(f)
		msg.PlaceIn(diag.NewLines(src), off, len(call))
		out = append(out, msg)
	}
	return out
}

// packageOf names the npm package of a module's path (relative, slash-separated): the name
// after its last node_modules/ (pnpm's .pnpm/<name>@<version>/node_modules/<name> too).
func packageOf(f string) string {
	f = "/" + f
	i := strings.LastIndex(f, "/node_modules/")
	return packageName(path.Clean(f[i+len("/node_modules/"):]))
}

// evalCallIn finds, on a parse of src, the first call of eval (the global one, called directly
// or as window.eval, globalThis.eval, self.eval) or of Function (new Function(…) or
// Function(…)) outside any try block, but for Function("return this"); it returns its offset
// and the name called. Code that does not parse is not searched.
func evalCallIn(src []byte) (int, string, bool) {
	ast, err := js.Parse(parse.NewInputBytes(src), js.Options{})
	if err != nil {
		return 0, "", false
	}
	v := &evalVisitor{src: src, off: -1, seen: map[string]int{}}
	js.Walk(v, ast)
	return v.off, v.call, v.off >= 0
}

type evalVisitor struct {
	src  []byte
	off  int
	call string
	try  int            // try blocks the walk is in
	seen map[string]int // the calls of eval and Function met so far
}

func (v *evalVisitor) Enter(n js.INode) js.IVisitor {
	if v.off >= 0 {
		return nil
	}
	switch n := n.(type) {
	case *js.TryStmt:
		// The try block's calls are caught; its catch and finally blocks run as any code.
		v.try++
		js.Walk(v, n.Body)
		v.try--
		if n.Catch != nil {
			js.Walk(v, n.Catch)
		}
		if n.Finally != nil {
			js.Walk(v, n.Finally)
		}
		return nil
	case *js.CallExpr:
		if name, ok := evalCallee(n.X); ok {
			if v.try == 0 && !returnsThis(name, n.Args) {
				v.found(name)
			}
			v.seen[name]++
		}
	case *js.NewExpr:
		if name, ok := evalCallee(n.X); ok && name == "Function" {
			if v.try == 0 && (n.Args == nil || !returnsThis(name, *n.Args)) {
				v.found("new Function")
			}
			v.seen[name]++
		}
	}
	return v
}

func (v *evalVisitor) Exit(js.INode) {}

// found records the call of name, the v.seen[name]-th of its calls in the walk's (the
// source's) order.
func (v *evalVisitor) found(name string) {
	v.call = name
	v.off = nthCall(v.src, strings.TrimPrefix(name, "new "), v.seen[strings.TrimPrefix(name, "new ")])
}

// nthCall returns the offset of the n-th (0-based) identifier word in src that is followed by
// "(", as the lexer reads src (strings and comments are tokens of their own); 0 when there
// are fewer.
func nthCall(src []byte, word string, n int) int {
	l := js.NewLexer(parse.NewInputBytes(src))
	off, pending := 0, -1
	prev := js.ErrorToken // the last significant token
	for {
		tt, data := l.Next()
		if (tt == js.DivToken || tt == js.DivEqToken) && slashStartsRegExp(prev, data) {
			tt, data = l.RegExp()
		}
		if tt != js.WhitespaceToken && tt != js.LineTerminatorToken && tt != js.CommentToken && tt != js.CommentLineTerminatorToken {
			prev = tt
		}
		switch {
		case tt == js.ErrorToken:
			return 0
		case tt == js.WhitespaceToken || tt == js.LineTerminatorToken || tt == js.CommentToken || tt == js.CommentLineTerminatorToken:
		case pending >= 0 && tt == js.OpenParenToken:
			if n == 0 {
				return pending
			}
			n--
			pending = -1
		case tt == js.IdentifierToken && string(data) == word:
			pending = off
		default:
			pending = -1
		}
		off += len(data)
	}
}

// evalCallee reports whether x names the global eval or Function: the unbound identifier, or
// a property of window, globalThis or self.
func evalCallee(x js.IExpr) (string, bool) {
	switch x := x.(type) {
	case *js.Var:
		name := string(x.Data)
		return name, (name == "eval" || name == "Function") && x.Decl == js.NoDecl
	case *js.DotExpr:
		obj, ok := x.X.(*js.Var)
		if !ok || obj.Decl != js.NoDecl {
			return "", false
		}
		switch string(obj.Data) {
		case "window", "globalThis", "self":
		default:
			return "", false
		}
		var prop []byte
		switch y := x.Y.(type) {
		case js.LiteralExpr:
			prop = y.Data
		case *js.LiteralExpr:
			prop = y.Data
		}
		name := string(prop)
		return name, name == "eval" || name == "Function"
	}
	return "", false
}

// returnsThis reports whether a call of Function takes the one argument "return this": the
// global object, which a browser gives by globalThis before such code falls back to it.
func returnsThis(name string, args js.Args) bool {
	if name != "Function" || len(args.List) != 1 {
		return false
	}
	lit, ok := args.List[0].Value.(*js.LiteralExpr)
	if !ok || lit.TokenType != js.StringToken || len(lit.Data) < 2 {
		return false
	}
	code, ok := jsstring.Decode(string(lit.Data))
	return ok && bodyReturnsThis(code)
}

// slashStartsRegExp reports whether a '/' after the token prev starts a regular expression
// rather than a division: at the start, after an operator or an opening bracket, or after a
// keyword that takes an expression; not after a name, a literal or a closing bracket.
func slashStartsRegExp(prev js.TokenType, _ []byte) bool {
	switch {
	case prev == js.ErrorToken:
		return true
	case prev == js.IdentifierToken, prev == js.PrivateIdentifierToken, prev == js.NumericToken, prev == js.StringToken,
		prev == js.RegExpToken, prev == js.TemplateToken, prev == js.TemplateEndToken,
		prev == js.CloseParenToken, prev == js.CloseBracketToken, prev == js.CloseBraceToken,
		prev == js.ThisToken, prev == js.SuperToken, prev == js.TrueToken, prev == js.FalseToken, prev == js.NullToken,
		prev == js.IncrToken, prev == js.DecrToken:
		return false
	}
	return true
}
