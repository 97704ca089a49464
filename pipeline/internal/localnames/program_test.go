package localnames

import (
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2/js"
)

// TestDeclares says whether a program binds a name anywhere: in any scope, by an import, or
// where the parse binds it otherwise than the language (a class expression's own name).
func TestDeclares(t *testing.T) {
	for _, r := range []struct {
		name, src string
		declares  bool
	}{
		{"a global", `throw new Error("x")`, false},
		{"a property", `o.Error = 1; ({ Error: 2 }); new Error()`, false},
		{"the top level", `class Error {} new Error()`, true},
		{"a parameter", `function f(Error) { return new Error() }`, true},
		{"a nested block", `function f() { { let Error = 1 } }`, true},
		{"a catch clause", `try {} catch (Error) {}`, true},
		{"an arrow function's parameter", `x => (Error => new Error())`, true},
		{"an import", `import { E as Error } from "./e.js"; new Error()`, true},
		{"an import by its name", `import { Error } from "./e.js"; new Error()`, true},
		{"a default import", `import Error from "./e.js"; new Error()`, true},
		{"a class expression's name", `let C = class Error { static make() { return new Error() } }`, true},
		{"a block function", `{ function Error() {} } new Error()`, true},
	} {
		t.Run(r.name, func(t *testing.T) {
			p := Parse(r.src)
			if p == nil {
				t.Fatal("does not parse")
			}
			if got := p.Declares("Error"); got != r.declares {
				t.Errorf("Declares(Error) = %v, want %v", got, r.declares)
			}
		})
	}
}

// TestTokens lexes a program as its parse reads it: a regular expression is one token where
// the parse has one, and the offsets are the source's.
func TestTokens(t *testing.T) {
	src := "a = b / 2 / c; /* new */ x = /new Error(/g.test(`${1}`) // tail\nnew Error(1)"
	p := Parse(src)
	var got []string
	if !p.Tokens(func(tt js.TokenType, start int, data []byte) bool {
		if src[start:start+len(data)] != string(data) {
			t.Errorf("the token %q is not at %d", data, start)
		}
		got = append(got, string(data))
		return true
	}) {
		t.Fatal("does not lex")
	}
	want := "a = b / 2 / c ; x = /new Error(/g . test ( `${ 1 }` ) new Error ( 1 )"
	if strings.Join(got, " ") != want {
		t.Errorf("tokens\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestRenameAt finds the place of each assignment's target, one of a scope's references that
// the parse shares one node among, with the local names given or not.
func TestRenameAt(t *testing.T) {
	src := `function f(a){a=a||1;g(a);a=a??2;return a}`
	for _, rename := range []bool{false, true} {
		p := Parse(src)
		var slots []*js.IExpr
		js.Walk(assignTargets{&slots}, p.AST)
		edits, at := p.RenameAt(false, rename, slots)
		want := []int{strings.Index(src, "a=a||"), strings.Index(src, "a=a??")}
		if len(at) != len(want) || at[0] != want[0] || at[1] != want[1] {
			t.Errorf("rename %v: the targets at %v, want %v", rename, at, want)
		}
		if rename && Apply(src, edits) != `function f(n){n=n||1;g(n);n=n??2;return n}` || !rename && edits != nil {
			t.Errorf("rename %v: %s", rename, Apply(src, edits))
		}
	}
}

// assignTargets collects the slots of the names that = assigns.
type assignTargets struct{ slots *[]*js.IExpr }

func (a assignTargets) Enter(n js.INode) js.IVisitor {
	if b, ok := n.(*js.BinaryExpr); ok && b.Op == js.EqToken {
		if _, ok := b.X.(*js.Var); ok {
			*a.slots = append(*a.slots, &b.X)
		}
	}
	return a
}

func (assignTargets) Exit(js.INode) {}
