package localnames

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// generator writes random programs of nested functions, blocks, loops, catch clauses,
// closures, patterns, shorthand properties and class expressions, whose names come from a
// few short words (so that they shadow each other and are the names a renamer would pick),
// and which print what they compute. Every name read is declared before it, so that no
// program fails by the temporal dead zone.
type generator struct {
	r   *rand.Rand
	b   strings.Builder
	n   int // statements written, to bound the program
	fns int
}

// words are the names the programs declare: one letter ones as esbuild and the renamer give.
var words = []string{"t", "n", "e", "r", "a", "o", "i", "s", "value", "item"}

// binding is a name a statement may read: a number or a function of arity parameters.
type binding struct {
	name  string
	arity int // -1: a number
}

func generate(seed uint64) string {
	g := &generator{r: rand.New(rand.NewPCG(seed, 1))}
	// What a program prints shows no function's text (which has the names in it) and no
	// string made from one: where the generator's view of which name is visible is not the
	// language's (a function declaration hoisted out of a later block), the value read is.
	g.b.WriteString("const out = [];\nconst show = (v) => typeof v === \"function\" ? \"fn\" : typeof v === \"string\" ? \"str\" : v;\n")
	g.block(nil, 0, true, nil)
	g.b.WriteString("console.log(out.join(\"|\"));\n")
	return g.b.String()
}

func (g *generator) word() string { return words[g.r.IntN(len(words))] }

// expr writes an expression that reads only visible names and gives a number.
func (g *generator) expr(vis []binding, depth int) string {
	if depth > 2 || len(vis) == 0 || g.r.IntN(3) == 0 {
		return fmt.Sprint(g.r.IntN(10))
	}
	v := vis[g.r.IntN(len(vis))]
	if v.arity < 0 {
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("(%s + %s) %% 97", v.name, g.expr(vis, depth+1))
		}
		return v.name
	}
	args := make([]string, v.arity)
	for i := range args {
		args[i] = g.expr(vis, depth+1)
	}
	return fmt.Sprintf("%s(%s)", v.name, strings.Join(args, ", "))
}

// without returns vis without the bindings named names (shadowed from here on).
func without(vis []binding, names ...string) []binding {
	var out []binding
	for _, v := range vis {
		keep := true
		for _, n := range names {
			keep = keep && v.name != n
		}
		if keep {
			out = append(out, v)
		}
	}
	return out
}

// block writes declarations, then statements; vis are the names visible around it. A var
// is declared only in a function's body (fn), where no block between could declare its
// name with let; a block declares none of the names in exclude (its function's parameters,
// its catch clause's), which let and const may not declare again.
func (g *generator) block(vis []binding, depth int, fn bool, exclude []string) {
	var names []string
	for range 1 + g.r.IntN(3) {
		if w := g.word(); !contains(names, w) && !contains(exclude, w) {
			names = append(names, w)
		}
	}
	outer := without(vis, names...)
	vis = outer
	for _, name := range names {
		switch k := g.r.IntN(6); {
		case k == 0 && depth < 3 && fn: // in a block, esbuild may write two declarations of one name (Annex B)
			params := g.params()
			fmt.Fprintf(&g.b, "function %s(%s) {\n", name, strings.Join(params, ", "))
			inner := vis
			for _, p := range params {
				inner = append(without(inner, p), binding{p, -1})
			}
			g.block(inner, depth+1, true, params)
			fmt.Fprintf(&g.b, "return %s;\n}\n", g.expr(inner, 0))
			vis = append(vis, binding{name, len(params)})
		case k == 1 && depth < 3:
			params := g.params()
			inner := vis
			for _, p := range params {
				inner = append(without(inner, p), binding{p, -1})
			}
			fmt.Fprintf(&g.b, "const %s = (%s) => %s;\n", name, strings.Join(params, ", "), g.expr(inner, 0))
			vis = append(vis, binding{name, len(params)})
		case k == 2:
			other := g.word()
			if other == name {
				fmt.Fprintf(&g.b, "let { %s } = { %s: %s };\n", name, name, g.expr(vis, 0))
			} else {
				fmt.Fprintf(&g.b, "let { %s: %s = %s } = {};\n", other, name, g.expr(vis, 0))
			}
			vis = append(vis, binding{name, -1})
		default:
			kw := []string{"let", "const", "var"}[g.r.IntN(3)]
			if kw == "var" && !fn {
				kw = "let"
			}
			fmt.Fprintf(&g.b, "%s %s = %s;\n", kw, name, g.expr(vis, 0))
			vis = append(vis, binding{name, -1})
		}
	}
	for range 1 + g.r.IntN(4) {
		g.n++
		if g.n > 60 {
			break
		}
		switch g.r.IntN(8) {
		case 0:
			if depth < 4 {
				g.b.WriteString("{\n")
				g.block(vis, depth+1, false, nil)
				g.b.WriteString("}\n")
			}
		case 1:
			if depth < 4 {
				i := g.word()
				fmt.Fprintf(&g.b, "for (let %s = 0; %s < 2; %s++) {\n", i, i, i)
				g.block(append(without(vis, i), binding{i, -1}), depth+1, false, nil)
				g.b.WriteString("}\n")
			}
		case 2:
			if depth < 4 {
				e := g.word()
				fmt.Fprintf(&g.b, "try { throw %s } catch (%s) {\n", g.expr(vis, 0), e)
				g.block(append(without(vis, e), binding{e, -1}), depth+1, false, []string{e})
				g.b.WriteString("}\n")
			}
		case 3:
			if len(vis) > 0 {
				v := vis[g.r.IntN(len(vis))]
				if v.arity < 0 {
					fmt.Fprintf(&g.b, "out.push(JSON.stringify({ %s }));\n", v.name)
					break
				}
			}
			fallthrough
		case 4:
			c, m := g.word(), g.word()
			fmt.Fprintf(&g.b, "out.push(new (class %s { %s() { return [typeof %s, show(%s)] } })().%s().join());\n", c, m, c, g.expr(without(vis, c), 0), m)
		case 5:
			f := g.word()
			fmt.Fprintf(&g.b, "out.push((function %s(k) { return k > 0 ? %s(k - 1) + 1 : show(%s) })(2));\n", f, f, g.expr(without(vis, f, "k"), 0))
		default:
			fmt.Fprintf(&g.b, "out.push(show(%s));\n", g.expr(vis, 0))
		}
	}
}

func (g *generator) params() []string {
	var ps []string
	for range g.r.IntN(3) {
		if w := g.word(); !contains(ps, w) {
			ps = append(ps, w)
		}
	}
	return ps
}

func contains(s []string, w string) bool {
	for _, x := range s {
		if x == w {
			return true
		}
	}
	return false
}
