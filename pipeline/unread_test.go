package pipeline

import (
	"testing"
)

// TestUnreadWrites runs each module in Node as written and with the writes nothing reads
// taken out (unreadWrites' edits): both print the same, and the module after holds what it
// should (want) and not what it should not (not).
func TestUnreadWrites(t *testing.T) {
	testPass(t, unreadWrites, []passRow{
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
	})
}
