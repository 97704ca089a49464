package markup

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// html5libDir returns the html5lib-tests folder shipped in the golang.org/x/net module.
func html5libDir(t testing.TB) string {
	t.Helper()
	html5libOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/net").Output()
		if err != nil {
			html5libErr = err
			return
		}
		html5libPath = filepath.Join(strings.TrimSpace(string(out)), "html", "testdata", "html5lib-tests")
	})
	if html5libErr != nil {
		t.Fatalf("find golang.org/x/net: %v", html5libErr)
	}
	return html5libPath
}

var (
	html5libOnce sync.Once
	html5libPath string
	html5libErr  error
)

// treeCase is one case of html5lib-tests' tree construction suite.
type treeCase struct {
	file      string
	index     int
	data      string
	context   string // "" for a document; "div", "svg path", "math mi"
	scripting int    // 0 both, 1 on, -1 off
	want      string
}

func (c treeCase) name() string { return fmt.Sprintf("%s/%d", c.file, c.index) }

// readTreeCases reads a .dat file (html5lib-tests/tree-construction/README.md).
func readTreeCases(t testing.TB, path string) []treeCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []treeCase
	var c *treeCase
	section := ""
	var buf []string
	inQuote := false
	flush := func() {
		if c == nil {
			return
		}
		switch section {
		case "#data":
			c.data = strings.Join(buf, "\n")
		case "#document-fragment":
			c.context = strings.TrimSpace(strings.Join(buf, "\n"))
		case "#document":
			for len(buf) > 0 && buf[len(buf)-1] == "" {
				buf = buf[:len(buf)-1]
			}
			c.want = strings.Join(buf, "\n") + "\n"
		}
		buf = buf[:0]
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		header := ""
		if !inQuote {
			switch line {
			case "#data", "#errors", "#new-errors", "#document-fragment", "#script-on", "#script-off", "#document":
				header = line
			}
		}
		if section == "#document" && header == "#data" || header == "#data" && c == nil {
			flush()
			if c != nil {
				cases = append(cases, *c)
			}
			c = &treeCase{file: filepath.Base(path), index: len(cases)}
		}
		if header != "" {
			if header != "#data" {
				flush()
			}
			section = header
			switch header {
			case "#script-on":
				c.scripting = 1
			case "#script-off":
				c.scripting = -1
			}
			continue
		}
		if section == "#document" {
			trimmed := strings.TrimLeft(line, "| ")
			if !inQuote && strings.HasPrefix(line, "|") && strings.HasPrefix(trimmed, "\"") {
				inQuote = !(len(trimmed) > 1 && strings.HasSuffix(trimmed, "\""))
			} else if inQuote && strings.HasSuffix(line, "\"") {
				inQuote = false
			}
		}
		buf = append(buf, line)
	}
	flush()
	if c != nil {
		cases = append(cases, *c)
	}
	return cases
}

// dumpTree writes the nodes below root in the suite's format.
func dumpTree(root *Node) string {
	var b strings.Builder
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		dumpNode(&b, c, 0)
	}
	return b.String()
}

// dumpNode writes n at depth level; a work list keeps it free of recursion.
func dumpNode(b *strings.Builder, n *Node, level int) {
	type item struct {
		n     *Node
		level int
		label string // a "content" line
	}
	stack := []item{{n: n, level: level}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		indent := func(l int) {
			b.WriteString("| ")
			for i := 0; i < l; i++ {
				b.WriteString("  ")
			}
		}
		if it.label != "" {
			indent(it.level)
			b.WriteString(it.label + "\n")
			continue
		}
		n, l := it.n, it.level
		indent(l)
		switch n.Type {
		case ElementNode:
			switch n.Namespace {
			case SVG:
				b.WriteString("<svg " + n.Name + ">")
			case MathML:
				b.WriteString("<math " + n.Name + ">")
			default:
				b.WriteString("<" + n.Name + ">")
			}
			b.WriteString("\n")
			attrs := make([]string, 0, len(n.Attr))
			for _, a := range n.Attr {
				name := a.Name
				switch a.Namespace {
				case XLink:
					name = "xlink " + a.Name
				case XML:
					name = "xml " + a.Name
				case XMLNS:
					name = "xmlns " + a.Name
				}
				attrs = append(attrs, name+"=\""+a.Value+"\"")
			}
			sort.Strings(attrs)
			for _, a := range attrs {
				indent(l + 1)
				b.WriteString(a + "\n")
			}
		case TextNode:
			b.WriteString("\"" + n.Data + "\"\n")
		case CommentNode:
			b.WriteString("<!-- " + n.Data + " -->\n")
		case DoctypeNode:
			b.WriteString("<!DOCTYPE " + n.Name)
			if d := n.Doctype; d != nil && (d.PublicID != "" || d.SystemID != "") {
				b.WriteString(" \"" + d.PublicID + "\" \"" + d.SystemID + "\"")
			}
			b.WriteString(">\n")
		}
		var kids []item
		if n.Content != nil {
			kids = append(kids, item{level: l + 1, label: "content"})
			for c := n.Content.FirstChild; c != nil; c = c.NextSibling {
				kids = append(kids, item{n: c, level: l + 2})
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			kids = append(kids, item{n: c, level: l + 1})
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
}

// parseCase builds the tree of a case with scripting on or off; with check, it checks the
// stack's indexes after each token.
func parseCase(c treeCase, scripting, check bool) *Document {
	opts := Options{NoScripting: !scripting}
	if check {
		opts.after = verifyIndexes
	}
	if c.context == "" {
		return Parse([]byte(c.data), opts)
	}
	ctx := &Node{Type: ElementNode, Name: c.context}
	if ns, name, ok := strings.Cut(c.context, " "); ok {
		ctx.Name = name
		switch ns {
		case "svg":
			ctx.Namespace = SVG
		case "math":
			ctx.Namespace = MathML
		}
	}
	return ParseFragment([]byte(c.data), ctx, opts)
}

// treeFailures are the cases of the suite the model does not pass, each with the reason.
var treeFailures = map[string]string{}

// TestTreeConstruction runs every case of html5lib-tests' tree construction suite (in both
// scripting modes unless the case names one) and compares the tree with the expected one.
func TestTreeConstruction(t *testing.T) { treeConstruction(t, false) }

func treeConstruction(t *testing.T, check bool) {
	files, err := filepath.Glob(filepath.Join(html5libDir(t), "tree-construction", "*.dat"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tree construction tests: %v", err)
	}
	total, passed := 0, 0
	for _, f := range files {
		for _, c := range readTreeCases(t, f) {
			for _, scripting := range []bool{true, false} {
				if c.scripting == 1 && !scripting || c.scripting == -1 && scripting {
					continue
				}
				name := c.name()
				if c.scripting == 0 {
					name += map[bool]string{true: "/script-on", false: "/script-off"}[scripting]
				}
				total++
				got, perr := func() (s string, err error) {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					return dumpTree(parseCase(c, scripting, check).Root), nil
				}()
				reason, known := treeFailures[name]
				ok := perr == nil && got == c.want
				if ok {
					passed++
					if known {
						t.Errorf("%s passes but is listed as failing (%s): remove the row", name, reason)
					}
					continue
				}
				if known {
					continue
				}
				t.Errorf("%s %q (context %q):\n%v\ngot:\n%swant:\n%s", name, c.data, c.context, perr, got, c.want)
			}
		}
	}
	t.Logf("html5lib tree construction: %d of %d cases pass, %d listed as failing", passed, total, len(treeFailures))
}
