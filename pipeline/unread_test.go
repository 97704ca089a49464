package pipeline

import (
	"strings"
	"testing"

	"github.com/miniapp/bundle/pipeline/internal/localnames"
)

// TestUnreadWrites runs each module in Node as written and with the writes nothing reads
// taken out (unreadWrites' edits): both print the same, and the module after holds what it
// should (want) and not what it should not (not).
func TestUnreadWrites(t *testing.T) {
	run := nodeModuleRunner(t)
	for _, row := range []struct{ name, src, want, not string }{
		{"a static block's", `let s;class P{static{s=(e,t)=>{e.v=t}}m(){return 1}}console.log(new P().m())`, `static{(e,t)=>{e.v=t}}`, "s="},
		{"a property's value", `let c;c=globalThis.crypto;console.log(1)`, `c;globalThis.crypto;console`, "c="},
		{"in a comma", `let c;console.log(1),c=f();function f(){console.log("f")}`, `console.log(1),f()`, "c="},
		{"a name a function's parameter shadows", `let c;function f(c){c=2;return c}c=3;console.log(f(1))`, `function f(c){c=2;return c}3;`, ""},
		{"read", `let c;c=1;console.log(c)`, `c=1`, ""},
		{"read by typeof", `let c;c=1;console.log(typeof c)`, `c=1`, ""},
		{"its value read", `let c,d;d=c=2;console.log(d)`, `d=c=2`, ""},
		{"written otherwise too", `let c=0;c+=1;c=2;console.log(1)`, `c=2`, ""},
		{"an object literal's value", `let c;c={a:console.log(1)};console.log(2)`, `c={a:`, ""},
		{"a function's value", `let c;c=function(){};console.log(1)`, `c=function`, ""},
		{"a module that exports", `export let c;c=console.log(1)`, `c=console`, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			after := localnames.Apply(row.src, unreadWrites(localnames.Parse(row.src), row.src))
			if !strings.Contains(after, row.want) || row.not != "" && strings.Contains(after, row.not) {
				t.Errorf("after the pass (want %q, not %q):\n%s", row.want, row.not, after)
			}
			if a, b := run("before", row.src), run("after", after); a != b {
				t.Errorf("as written: %q; after the pass: %q\n%s", a, b, after)
			}
		})
	}
}
