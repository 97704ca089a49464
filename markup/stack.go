package markup

import (
	"slices"
	"strings"
)

// The stack of open elements (HTML Standard §13.2.4.2), indexed so that no question the tree
// builder asks of it walks the stack.
//
// The standard's questions walk down from the current node: "has a p element in button
// scope" stops at the first p or the first element of the scope's boundary set; "any other
// end tag" stops at the first element of that name or the first special element; resetting
// the insertion mode stops at the first element that decides a mode. Walked literally, 200,000
// nested <div> and as many </p> cost 4·10^10 steps. Here each entry knows, for each class of
// elements the walks stop at (cScope...cTableTemplate), the nearest entry of that class at or
// below it, and each name has a chain of its open elements, topmost first. Then "is the
// topmost p in button scope" is "do the topmost p and the current node have the same nearest
// boundary": two lookups.
//
// Entries leave the middle of the stack (the adoption agency, </form>) and enter it (the
// adoption agency). An entry that leaves keeps pointing at what was below it, so entries
// above that pointed at it are sent on (union-find with path compression); one that enters
// is never a member of a class other than cHTML (it is a formatting element), and the
// entries above it that must now see it are the SVG and MathML ones up to the next HTML
// element, which the adoption agency consumes in its next step.

// entry is one element's place in the stack of open elements.
type entry struct {
	n          *Node
	key        int32
	mask       uint16 // the classes n belongs to
	dead       bool   // removed from the middle of the stack
	stamp      uint32 // adoption agency bookkeeping
	prev, next *entry // toward the root; toward the current node
	below      *entry // the next entry down with the same key
	above      *entry // the next entry up with the same key
	near       [numClasses]*entry
}

// stack is the stack of open elements.
type stack struct {
	root, top *entry
	depth     int
	heads     []*entry // the topmost entry of each key
	free      *entry
	templates int // HTML template elements on the stack
	work      *int
	block     []entry
	blockSize int
}

// keyOf returns the key of n's chain: HTML elements by name, SVG and MathML elements
// together by lower-case name (the foreign "any other end tag" compares lower-case names).
func (p *parser) keyOf(n *Node) int32 {
	if n.Namespace == HTML {
		if n.atom != aNone {
			return int32(n.atom)
		}
		return p.intern(n.Name, false)
	}
	return p.intern(n.lowerName(), true)
}

// lowerName is a foreign element's name as its token had it.
func (n *Node) lowerName() string {
	if n.atom != aNone {
		return atomNames[n.atom]
	}
	return ASCIILower(n.Name)
}

func (p *parser) intern(name string, foreign bool) int32 {
	m := p.htmlKeys
	if foreign {
		m = p.foreignKeys
	}
	if k, ok := m[name]; ok {
		return k
	}
	k := int32(len(p.st.heads))
	p.st.heads = append(p.st.heads, nil)
	m[name] = k
	return k
}

// lookupKey returns the key of an HTML (or, with foreign, SVG/MathML) element name, or -1
// when no element of that name has ever been open.
func (p *parser) lookupKey(name string, a atom, foreign bool) int32 {
	if !foreign && a != aNone {
		return int32(a)
	}
	m := p.htmlKeys
	if foreign {
		m = p.foreignKeys
	}
	if k, ok := m[name]; ok {
		return k
	}
	return -1
}

// push puts n on top of the stack.
func (p *parser) push(n *Node) {
	st := &p.st
	e := st.free
	if e != nil {
		st.free = e.next
		*e = entry{}
	} else {
		e = st.alloc()
	}
	e.n, e.key, e.mask = n, p.keyOf(n), classesOf(n)
	n.open = e
	e.prev = st.top
	if st.top != nil {
		st.top.next = e
	} else {
		st.root = e
	}
	for c := 0; c < numClasses; c++ {
		if e.mask&(1<<c) != 0 {
			e.near[c] = e
		} else if st.top != nil {
			e.near[c] = st.resolve(st.top, c)
		}
	}
	st.top = e
	p.chainIn(e, st.heads[e.key], nil)
	st.depth++
	*st.work++
	if isHTML(n, aTemplate) {
		st.templates++
	}
}

// alloc returns a new entry, from blocks that grow with the stack.
func (st *stack) alloc() *entry {
	if len(st.block) == 0 {
		st.blockSize = min(max(2*st.blockSize, 16), 256)
		st.block = make([]entry, st.blockSize)
	}
	e := &st.block[0]
	st.block = st.block[1:]
	return e
}

// chainIn links e into its key's chain between lower and upper (either may be nil).
func (p *parser) chainIn(e, lower, upper *entry) {
	e.below, e.above = lower, upper
	if lower != nil {
		lower.above = e
	}
	if upper != nil {
		upper.below = e
	} else {
		p.st.heads[e.key] = e
	}
}

func (p *parser) chainOut(e *entry) {
	if e.below != nil {
		e.below.above = e.above
	}
	if e.above != nil {
		e.above.below = e.below
	} else {
		p.st.heads[e.key] = e.below
	}
	e.below, e.above = nil, nil
}

// pop removes the current node and returns it.
func (p *parser) pop() *Node {
	st := &p.st
	e := st.top
	if e == nil {
		return nil
	}
	n := e.n
	*st.work++
	p.chainOut(e)
	st.top = e.prev
	if st.top != nil {
		st.top.next = nil
	} else {
		st.root = nil
	}
	st.depth--
	n.open = nil
	if isHTML(n, aTemplate) {
		st.templates--
	}
	// Nothing above e remains to point at it: it can be reused.
	e.n = nil
	e.next = st.free
	st.free = e
	p.popped(n)
	return n
}

// remove takes n out of the stack wherever it is.
func (p *parser) remove(n *Node) {
	st := &p.st
	e := n.open
	if e == nil {
		return
	}
	if e == st.top {
		p.pop()
		return
	}
	p.chainOut(e)
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		st.root = e.next
	}
	e.next.prev = e.prev
	for c := 0; c < numClasses; c++ {
		if e.mask&(1<<c) != 0 {
			e.near[c] = nil
			if e.prev != nil {
				e.near[c] = st.resolve(e.prev, c)
			}
		}
	}
	e.dead = true
	st.depth--
	n.open = nil
	if isHTML(n, aTemplate) {
		st.templates--
	}
	p.popped(n)
}

// insertAbove puts n on the stack immediately above the entry of at (the adoption agency),
// linking it into its chain between lower and upper.
func (p *parser) insertAbove(at *entry, n *Node, lower, upper *entry) {
	st := &p.st
	e := st.alloc()
	e.n, e.key, e.mask = n, p.keyOf(n), classesOf(n)
	n.open = e
	e.prev, e.next = at, at.next
	at.next = e
	if e.next != nil {
		e.next.prev = e
	} else {
		st.top = e
	}
	for c := 0; c < numClasses; c++ {
		if e.mask&(1<<c) == 0 {
			e.near[c] = st.resolve(at, c)
			continue
		}
		e.near[c] = e
		for x := e.next; x != nil && x.mask&(1<<c) == 0; x = x.next {
			*st.work++
			x.near[c] = e
		}
	}
	p.chainIn(e, lower, upper)
	st.depth++
}

// replace puts n in the place of the element of e (same key, same classes).
func (p *parser) replace(e *entry, n *Node) {
	e.n.open = nil
	e.n = n
	n.open = e
}

// resolve returns the nearest live entry of class c at or below e.
func (st *stack) resolve(e *entry, c int) *entry {
	r := e.near[c]
	if r == nil || !r.dead {
		return r
	}
	root := r
	for root != nil && root.dead {
		*st.work++
		root = root.near[c]
	}
	for x := r; x != nil && x.dead; {
		next := x.near[c]
		x.near[c] = root
		x = next
	}
	e.near[c] = root
	return root
}

// nearest returns the topmost element of class c on the stack, or nil.
func (p *parser) nearest(c int) *Node {
	if p.st.top == nil {
		return nil
	}
	if e := p.st.resolve(p.st.top, c); e != nil {
		return e.n
	}
	return nil
}

// topmost returns the topmost open element with key k, or nil.
func (p *parser) topmost(k int32) *entry {
	if k < 0 || int(k) >= len(p.st.heads) {
		return nil
	}
	return p.st.heads[k]
}

// clear reports whether no element of class c is above e on the stack (e itself may be one).
func (p *parser) clear(e *entry, c int) bool {
	return p.st.resolve(e, c) == p.st.resolve(p.st.top, c)
}

// inScope reports whether the stack has the HTML element a in the scope whose boundaries
// are class c (§13.2.4.2): its topmost one has no boundary above it.
func (p *parser) inScope(a atom, c int) bool {
	e := p.topmost(int32(a))
	return e != nil && p.clear(e, c)
}

// nodeInScope reports whether n is on the stack with no boundary of class c above it.
func (p *parser) nodeInScope(n *Node, c int) bool {
	return n.open != nil && p.clear(n.open, c)
}

// current returns the current node.
func (p *parser) current() *Node {
	if p.st.top == nil {
		return nil
	}
	return p.st.top.n
}

// popUntil pops elements until n has been popped.
func (p *parser) popUntil(n *Node) {
	for p.st.top != nil {
		if p.pop() == n {
			return
		}
	}
}

// popUntilAtom pops elements until an HTML element a has been popped, and returns it.
func (p *parser) popUntilAtom(as ...atom) *Node {
	for p.st.top != nil {
		n := p.pop()
		if n.Namespace == HTML {
			for _, a := range as {
				if n.atom == a {
					return n
				}
			}
		}
	}
	return nil
}

// The list of active formatting elements (§13.2.4.3): a linked list, each entry in a chain
// of the entries with its name, each marker opening a segment that has its own groups of
// identical elements for the Noah's Ark clause.

type fmtEntry struct {
	n            *Node // nil for a marker
	key          int32
	seg          int32 // the segment: the marker that opened it
	prev, next   *fmtEntry
	below, above *fmtEntry
	sig          string // name and sorted attributes, for the Noah's Ark clause
	prevSeg      int32  // a marker: the segment before it
}

type noahKey struct {
	seg int32
	sig string
}

type fmtList struct {
	first  *fmtEntry
	last   *fmtEntry
	heads  map[int32]*fmtEntry
	seg    int32
	segs   int32
	groups map[noahKey][]*fmtEntry
}

// pushMarker inserts a marker at the end of the list.
func (p *parser) pushMarker() {
	l := &p.fl
	l.segs++
	m := &fmtEntry{seg: l.segs, prevSeg: l.seg, prev: l.last}
	if l.last != nil {
		l.last.next = m
	} else {
		l.first = m
	}
	l.last = m
	l.seg = m.seg
}

// clearToMarker removes entries from the end of the list up to and including the last marker.
func (p *parser) clearToMarker() {
	l := &p.fl
	for l.last != nil {
		e := l.last
		p.fmtOut(e)
		if e.n == nil {
			l.seg = e.prevSeg
			return
		}
	}
}

// lastFormatting returns the last element with HTML name key k after the last marker.
func (p *parser) lastFormatting(k int32) *fmtEntry {
	e := p.fl.heads[k]
	if e != nil && e.seg == p.fl.seg {
		return e
	}
	return nil
}

// pushFormatting adds n, just inserted for a formatting start tag t, to the end of the list,
// first removing the earliest of three identical elements after the last marker.
func (p *parser) pushFormatting(n *Node, t *token) {
	l := &p.fl
	sig := signature(t)
	g := l.groups[noahKey{l.seg, sig}]
	if len(g) >= 3 {
		p.fmtOut(g[0])
	}
	e := &fmtEntry{n: n, key: p.keyOf(n), seg: l.seg, sig: sig}
	p.fmtAfter(e, l.last)
}

// fmtAfter links e into the list after at (nil: at the start).
func (p *parser) fmtAfter(e, at *fmtEntry) {
	l := &p.fl
	e.prev = at
	if at != nil {
		e.next = at.next
		at.next = e
	} else {
		e.next = l.first
		l.first = e
	}
	if e.next != nil {
		e.next.prev = e
	} else {
		l.last = e
	}
	// The new entry is the last of its name: formatting elements enter the list at its end,
	// or (the adoption agency) after the entry for which it stands, which was the last.
	if h := l.heads[e.key]; h != nil {
		h.above = e
		e.below = h
	}
	l.heads[e.key] = e
	k := noahKey{e.seg, e.sig}
	l.groups[k] = append(l.groups[k], e)
	e.n.fmt = e
}

// fmtOut unlinks e from the list.
func (p *parser) fmtOut(e *fmtEntry) {
	l := &p.fl
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		l.first = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		l.last = e.prev
	}
	e.prev, e.next = nil, nil
	if e.n == nil {
		return
	}
	if e.below != nil {
		e.below.above = e.above
	}
	if e.above != nil {
		e.above.below = e.below
	} else if l.heads[e.key] == e {
		l.heads[e.key] = e.below
	}
	e.below, e.above = nil, nil
	k := noahKey{e.seg, e.sig}
	g := l.groups[k]
	for i, x := range g {
		if x == e {
			g = append(g[:i:i], g[i+1:]...)
			break
		}
	}
	if len(g) == 0 {
		delete(l.groups, k)
	} else {
		l.groups[k] = g
	}
	if e.n.fmt == e {
		e.n.fmt = nil
	}
}

// fmtReplace puts n in the place of e's element in the list (reconstruction, the adoption
// agency's clones).
func (p *parser) fmtReplace(e *fmtEntry, n *Node) {
	if e.n.fmt == e {
		e.n.fmt = nil
	}
	e.n = n
	n.fmt = e
}

// signature is what the Noah's Ark clause compares: the name and the attributes in any order.
func signature(t *token) string {
	if len(t.attr) == 0 {
		return t.data
	}
	type kv struct{ k, v string }
	a := make([]kv, len(t.attr))
	n := len(t.data)
	for i, at := range t.attr {
		a[i] = kv{at.Name, at.Value}
		n += len(at.Name) + len(at.Value) + 2
	}
	slices.SortFunc(a, func(x, y kv) int { return strings.Compare(x.k, y.k) })
	b := make([]byte, 0, n)
	b = append(b, t.data...)
	for _, x := range a {
		b = append(b, 0)
		b = append(b, x.k...)
		b = append(b, 0)
		b = append(b, x.v...)
	}
	return string(b)
}
