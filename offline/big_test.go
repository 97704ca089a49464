//go:build !race

package offline

import (
	"strings"
	"testing"
)

// TestCheckFiftyMB: a 50 MB page, a million elements with one outside load at the end, is
// checked to the end and refused. It runs without the race detector (scripts/test runs it so),
// which makes it seven times slower (70 s on two busy cores) and finds nothing here that
// TestCheckHostileInputs does not: a page of small elements is checked on one goroutine.
func TestCheckFiftyMB(t *testing.T) {
	doc := strings.Repeat(`<div class="row"><span title="https://x.example">cell</span><img src="data:,x"></div>`+"\n", 50<<20/90) + `<img src="https://cdn.example/a.png">`
	fs, err := Check("t.html", []byte(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("hostile input with a load passed the check")
	}
}
