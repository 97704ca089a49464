package pipeline

import (
	"strings"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
	"github.com/tdewolff/parse/v2/js"
)

// Logical assignments. A package compiled for an older target writes a ??= b as
// a ?? (a = b) (TypeScript and Babel lower it so; zod's def.pattern ?? (def.pattern = …),
// fifty times in the MCP Apps examples), and esbuild prints it back as written, where Oxc's
// minifier, and so Vite's build, prints the shorter a ??= b; likewise a || (a = b) and
// a && (a = b). In a package's module (whose target, as every page's, has logical assignment),
// such an expression is given to esbuild as the logical assignment:
//
//	def.pattern ?? (def.pattern = regexes.uuid(v))  →  def.pattern ??= ( regexes.uuid(v))
//
// (the parentheses stay, and esbuild prints the assignment without them).
//
// The two evaluate the same: the left side is read once, and only when the operator does not
// short-circuit is the right side evaluated and the same place written. The place is a
// property, by name, of this or of a binding the module declares and never assigns again (an
// import is a live binding another module may assign), so that whatever the right side runs,
// the object whose property is written is the one that was read (an object that is a global
// could be a getter of the global object, read twice). The expression must be where an assignment may stand (a statement, an
// argument, a comma's operand, parentheses, a branch of ?:, the right side of =, an
// initializer, an element or a property's value), so that the rewritten operator binds as
// the written one did: a || (a = b) || c is (a || (a = b)) || c.

// logicalAssignEdits gives the edits that write m's lowered logical assignments as such;
// none when there are none.
func logicalAssignEdits(m *pkgModule) []edit {
	if !mayLowerLogical(m.src) || m.callsEval() {
		return nil
	}
	ast := m.parse()
	if ast == nil {
		return nil
	}
	f := placeFinder(ast)
	f.m = m
	js.Walk(f, ast)
	return f.edits
}

// placeFinder returns a logicalFinder of ast's writes and imports, for sameObject.
func placeFinder(ast *js.AST) *logicalFinder {
	f := &logicalFinder{written: localnames.WritesOf(ast), imported: map[string]bool{}}
	for _, s := range ast.BlockStmt.List {
		if is, ok := s.(*js.ImportStmt); ok {
			f.imported[string(is.Default)] = true
			for _, a := range is.List {
				f.imported[string(a.Binding)] = true
				if a.Binding == nil {
					f.imported[string(a.Name)] = true // import { name }
				}
			}
		}
	}
	return f
}

// mayLowerLogical reports whether src may hold a lowered logical assignment: a logical
// operator between a name or property chain and an opening parenthesis followed by the same
// chain and a single =. Without one, the module is not walked; the parse decides the rest.
func mayLowerLogical(src string) bool {
	chain := func(c byte) bool {
		return c == '.' || c == '_' || c == '$' || c == '#' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for _, op := range []string{"??", "||", "&&"} {
		for i := 0; ; {
			j := strings.Index(src[i:], op)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(op)
			// The chain before the operator.
			e := at
			for e > 0 && space(src[e-1]) {
				e--
			}
			s := e
			for s > 0 && chain(src[s-1]) {
				s--
			}
			// ( and the chain after it.
			k := i
			for k < len(src) && space(src[k]) {
				k++
			}
			if s == e || k >= len(src) || src[k] != '(' {
				continue
			}
			k++
			for k < len(src) && space(src[k]) {
				k++
			}
			if !strings.HasPrefix(src[k:], src[s:e]) {
				continue
			}
			k += e - s
			if k < len(src) && chain(src[k]) {
				continue
			}
			for k < len(src) && space(src[k]) {
				k++
			}
			if k+1 < len(src) && src[k] == '=' && src[k+1] != '=' && src[k+1] != '>' {
				return true
			}
		}
	}
	return false
}

// logicalOps are the logical operators and their assignments.
var logicalOps = map[js.TokenType]string{js.NullishToken: "??=", js.OrToken: "||=", js.AndToken: "&&="}

// logicalFinder finds the lowered logical assignments, keeping the nodes it is in.
type logicalFinder struct {
	m        *pkgModule
	written  *localnames.Writes
	imported map[string]bool // the names the module's imports bind, live bindings of another module
	stack    []js.INode
	edits    []edit
}

func (f *logicalFinder) Enter(n js.INode) js.IVisitor {
	if b, ok := n.(*js.BinaryExpr); ok {
		if op, ok := logicalOps[b.Op]; ok && len(f.stack) > 0 && assignmentPlace(f.stack[len(f.stack)-1], b) {
			f.lowered(b, op)
		}
	}
	f.stack = append(f.stack, n)
	return f
}

func (f *logicalFinder) Exit(js.INode) { f.stack = f.stack[:len(f.stack)-1] }

// lowered adds the edits for b when it is p OP (p = v).
func (f *logicalFinder) lowered(b *js.BinaryExpr, op string) {
	set := loweredSet(b)
	if set == nil {
		return
	}
	end, ok := f.samePlace(b.X, set.X)
	if !ok {
		return
	}
	// From the end of the left side: OP ( the place =, which become OP= (: the parentheses
	// stay around the right side, and esbuild prints it without them. The tokens are few: a
	// short stretch of the source is lexed, and a place that does not fit in it is left.
	opStart, opEnd, parenEnd, eqEnd := -1, -1, -1, -1
	step := 0
	lexSource(f.m.src[:min(len(f.m.src), end+256)], end, func(tt js.TokenType, s, e int) bool {
		switch step {
		case 0:
			if _, ok := logicalOps[tt]; !ok {
				return false
			}
			opStart, opEnd, step = s, e, 1
			return true
		case 1:
			if tt != js.OpenParenToken {
				return false
			}
			parenEnd, step = e, 2
			return true
		}
		// The place again, to its =.
		if tt == js.EqToken {
			eqEnd = e
			return false
		}
		return tt == js.IdentifierToken || tt == js.ThisToken || tt == js.DotToken || tt == js.PrivateIdentifierToken
	})
	if eqEnd < 0 {
		return
	}
	f.edits = append(f.edits, edit{opStart, opEnd, op}, edit{parenEnd, eqEnd, ""})
}

// loweredSet returns the assignment of b, x OP (y = v): y = v; nil where b is not so.
func loweredSet(b *js.BinaryExpr) *js.BinaryExpr {
	if g, ok := b.Y.(*js.GroupExpr); ok {
		if set, ok := g.X.(*js.BinaryExpr); ok && set.Op == js.EqToken {
			return set
		}
	}
	return nil
}

// samePlace reports whether x and y name the same place that a logical assignment may write,
// and the offset of x's end. A place that is a binding alone is left as written: the parse
// says where a binding is declared, not where each reference to it is.
func (f *logicalFinder) samePlace(x, y js.IExpr) (int, bool) {
	if _, ok := x.(*js.DotExpr); !ok {
		return 0, false
	}
	xn, _, _ := f.sameProperty(x, y)
	if xn == nil {
		return 0, false
	}
	return f.m.offset(xn) + len(xn), true
}

// sameProperty reports whether x and y are the same property of the same object (sameObject):
// o.name, or o[literal] (indexed) of the same literal, whose key is the literal's value; and
// the names or literals of x and y (tokens of the parse), nil where they are not.
func (f *logicalFinder) sameProperty(x, y js.IExpr) (xn, yn []byte, indexed bool) {
	switch x := x.(type) {
	case *js.DotExpr:
		yd, ok := y.(*js.DotExpr)
		if !ok || x.Optional || yd.Optional {
			return nil, nil, false
		}
		xn, yn = propertyName(x.Y), propertyName(yd.Y)
		if xn == nil || string(xn) != string(yn) || !f.sameObject(x.X, yd.X) {
			return nil, nil, false
		}
		return xn, yn, false
	case *js.IndexExpr:
		yi, ok := y.(*js.IndexExpr)
		if !ok || x.Optional || yi.Optional {
			return nil, nil, false
		}
		xl, ok := x.Y.(*js.LiteralExpr)
		yl, ok2 := yi.Y.(*js.LiteralExpr)
		if !ok || !ok2 || xl.TokenType != yl.TokenType || string(xl.Data) != string(yl.Data) || !f.sameObject(x.X, yi.X) {
			return nil, nil, false
		}
		switch xl.TokenType {
		case js.StringToken, js.DecimalToken, js.BinaryToken, js.OctalToken, js.HexadecimalToken, js.IntegerToken:
			return xl.Data, yl.Data, true
		}
	}
	return nil, nil, false
}

// propertyName returns the name a property read (o.name) reads, nil for another kind.
func propertyName(y js.IExpr) []byte {
	switch y := y.(type) {
	case js.LiteralExpr:
		return y.Data
	case *js.LiteralExpr:
		return y.Data
	}
	return nil
}

// sameObject reports whether x and y are both this, or both a binding the module declares and
// never assigns again (not an import: another module may assign it).
func (f *logicalFinder) sameObject(x, y js.IExpr) bool {
	switch x := x.(type) {
	case *js.LiteralExpr:
		yl, ok := y.(*js.LiteralExpr)
		return ok && x.TokenType == js.ThisToken && yl.TokenType == js.ThisToken
	case *js.Var:
		yv, ok := y.(*js.Var)
		v := resolved(x)
		return ok && v == resolved(yv) && v.Decl != js.NoDecl && !f.written.Assigned(v) && !f.imported[string(v.Data)]
	}
	return false
}

// assignmentPlace reports whether child, an operand of parent, stands where an assignment
// expression may.
func assignmentPlace(parent js.INode, child js.IExpr) bool {
	switch p := parent.(type) {
	case *js.ExprStmt, *js.CommaExpr, *js.GroupExpr, *js.Arg, *js.ReturnStmt, *js.ThrowStmt,
		*js.Element, *js.TemplatePart, *js.BindingElement:
		return true
	case *js.Property:
		return p.Value == child
	case *js.CondExpr:
		return p.X == child || p.Y == child
	case *js.BinaryExpr:
		return localnames.AssignOps[p.Op] && p.Y == child
	}
	return false
}
