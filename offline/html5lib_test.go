package offline

import (
	"bufio"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// html5libInputs returns the #data of every document case of html5lib-tests' tree
// construction suite (fragment cases left out: a page is a document), which ships in the
// golang.org/x/net module. They are the constructs the tree builder treats apart (foreign
// content, templates, tables, framesets, self-closing tags, integration points, misnested
// formatting, comments and doctypes), which TestDifferential puts around every load place.
func html5libInputs(t testing.TB) []string {
	t.Helper()
	html5libOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/net").Output()
		if err != nil {
			html5libErr = err
			return
		}
		dir := filepath.Join(strings.TrimSpace(string(out)), "html", "testdata", "html5lib-tests", "tree-construction")
		files, err := filepath.Glob(filepath.Join(dir, "*.dat"))
		if err != nil || len(files) == 0 {
			html5libErr = err
			return
		}
		for _, f := range files {
			in, err := readDataSections(f)
			if err != nil {
				html5libErr = err
				return
			}
			html5libData = append(html5libData, in...)
		}
	})
	if html5libErr != nil {
		t.Fatalf("read html5lib-tests from golang.org/x/net: %v", html5libErr)
	}
	return html5libData
}

var (
	html5libOnce sync.Once
	html5libData []string
	html5libErr  error
)

// readDataSections returns the #data of each document case of a .dat file
// (html5lib-tests/tree-construction/README.md): the lines after #data up to the next section,
// joined by newlines; a case with #document-fragment is left out.
func readDataSections(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	var data []string
	section, fragment := "", false
	flush := func() {
		if data != nil && !fragment {
			out = append(out, strings.Join(data, "\n"))
		}
		data, fragment = nil, false
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") && (line == "#data" || line == "#errors" || line == "#new-errors" ||
			line == "#document" || line == "#document-fragment" || line == "#script-on" || line == "#script-off") {
			if line == "#data" {
				flush()
				data = []string{}
			}
			if line == "#document-fragment" {
				fragment = true
			}
			section = line
			continue
		}
		if section == "#data" {
			data = append(data, line)
		}
	}
	flush()
	return out, sc.Err()
}

// inHTML5libContext puts doc, a page with a load place, into one of html5lib-tests' inputs, at
// its start, its end or a random character boundary inside it: the construct decides where the
// tree builder puts the load place (in a template, in foreign content, in a table's foster
// parent, after a frameset, inside a comment or raw text).
func inHTML5libContext(inputs []string) func(rng *rand.Rand, doc string) string {
	return func(rng *rand.Rand, doc string) string {
		in := inputs[rng.IntN(len(inputs))]
		at := 0
		switch rng.IntN(3) {
		case 0:
		case 1:
			at = len(in)
		default:
			if len(in) > 0 {
				at = rng.IntN(len(in) + 1)
				for at < len(in) && !utf8.RuneStart(in[at]) {
					at++
				}
			}
		}
		return in[:at] + doc + in[at:]
	}
}
