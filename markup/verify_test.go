package markup

import (
	"fmt"
	"slices"
	"testing"
)

// verifyIndexes checks the stack's and the list's indexes against what the standard's walks
// would find, after every token: the nearest member of each class below each entry, the
// topmost element of each name, the chains' order, the formatting list's heads and
// segments. It panics at the first difference.
func verifyIndexes(p *parser) {
	var es []*entry
	for e := p.st.root; e != nil; e = e.next {
		if e.dead {
			panic("dead entry on the stack")
		}
		if e.next != nil && e.next.prev != e {
			panic("broken links")
		}
		if e.n.open != e {
			panic(fmt.Sprintf("%s: open does not point at its entry", e.n.Name))
		}
		if e.mask != classesOf(e.n) || e.key != p.keyOf(e.n) {
			panic("mask or key")
		}
		es = append(es, e)
	}
	if len(es) != p.st.depth {
		panic(fmt.Sprintf("depth %d, %d entries", p.st.depth, len(es)))
	}
	if len(es) > 0 && es[len(es)-1] != p.st.top {
		panic("top")
	}
	templates := 0
	var nearest [numClasses]*entry
	chains := map[int32][]*entry{}
	for i, e := range es {
		if isHTML(e.n, aTemplate) {
			templates++
		}
		for c := 0; c < numClasses; c++ {
			if e.mask&(1<<c) != 0 {
				nearest[c] = e
			}
			if got := p.st.resolve(e, c); got != nearest[c] {
				panic(fmt.Sprintf("class %d below %s (#%d): got %v want %v", c, e.n.Name, i, name(got), name(nearest[c])))
			}
		}
		chains[e.key] = append(chains[e.key], e)
	}
	if templates != p.st.templates {
		panic("template count")
	}
	for k := range p.st.heads {
		chain := chains[int32(k)]
		x := p.st.heads[k]
		for i := len(chain) - 1; i >= 0; i-- {
			if x != chain[i] {
				panic(fmt.Sprintf("chain of key %d at %d: got %v want %v", k, i, name(x), chain[i].n.Name))
			}
			if x.below != nil && x.below.above != x {
				panic("chain links")
			}
			x = x.below
		}
		if x != nil {
			panic(fmt.Sprintf("chain of key %d too long", k))
		}
	}
	// The list of active formatting elements.
	var fs []*fmtEntry
	for e := p.fl.last; e != nil; e = e.prev {
		if e.prev != nil && e.prev.next != e {
			panic("list links")
		}
		fs = append(fs, e)
	}
	slices.Reverse(fs)
	if len(fs) > 0 && p.fl.first != fs[0] || len(fs) == 0 && p.fl.first != nil {
		panic("list first")
	}
	seg := int32(0)
	last := map[int32]*fmtEntry{}
	for _, e := range fs {
		if e.n == nil {
			seg = e.seg
			continue
		}
		if e.seg != seg {
			panic("segment")
		}
		if e.n.fmt != e {
			panic("fmt pointer")
		}
		last[e.key] = e
	}
	if seg != p.fl.seg {
		panic("current segment")
	}
	for k, h := range p.fl.heads {
		if h != last[k] {
			panic(fmt.Sprintf("list head of key %d", k))
		}
	}
	for k, e := range last {
		if p.fl.heads[k] != e {
			panic("list head missing")
		}
	}
}

func name(e *entry) string {
	if e == nil {
		return "nil"
	}
	return e.n.Name
}

// TestIndexes builds every tree of the html5lib suite checking the indexes after each token.
func TestIndexes(t *testing.T) { treeConstruction(t, true) }
