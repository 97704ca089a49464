package pipeline

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// A package in the page that evaluates strings (a development build, as webpack writes one
// with devtool "eval": every module's code is a string given to eval when the package is
// imported) throws under the page's policy, which has no 'unsafe-eval' unless the manifest
// says eval = true, and the page stays blank. The app's own code is refused at each call
// (evalErrors); a package's is warned of once, naming the package and the opt-in, since a
// library may hold a call on a path it never takes.

// mayCallEval finds the text of a call of eval or Function, before a parse says what it is.
var mayCallEval = regexp.MustCompile(`\b(?:eval|Function)\s*\(`)

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
		if err != nil || !mayCallEval.Match(src) {
			continue // no parse for the modules that cannot call them
		}
		off, call, ok := evalCallIn(src)
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
	return strings.TrimSpace(strings.TrimSuffix(string(lit.Data[1:len(lit.Data)-1]), ";")) == "return this"
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
