package pipeline

import "testing"

// TestLoweredAssignments runs each module in Node as written and after the pass.
func TestLoweredAssignments(t *testing.T) {
	testPass(t, loweredAssignments, []passRow{
		{"tsc's lowering", `function f(e){var n;return(n=e.d).w??(n.w=1),e}console.log(JSON.stringify(f({d:{}})))`, `return e.d.w??=1`, "var n"},
		{"one of two names goes", `function f(e){var n,o;o=2;(n=e).w??(n.w=o);return e}console.log(f({}).w)`, `var o;o=2;e.w??=o`, "n="},
		{"both names go", `function f(e){var n,o;(n=e).a||(n.a=1),(o=e.b).c&&(o.c=3);return e}console.log(JSON.stringify(f({b:{c:1}})))`, `;e.a||=1,e.b.c&&=3`, "var"},
		{"twice in a function", `function f(e){var n;(n=e).a??(n.a=1);(n=e).b??(n.b=2);return e}console.log(JSON.stringify(f({})))`, `e.a??=1;e.b??=2`, "var n"},
		{"at the top level", `var Za;(Za=globalThis).__z??(Za.__z={});console.log(typeof globalThis.__z)`, `globalThis.__z??={}`, "Za"},
		{"a call's result", `let k=0;function g(){k++;return{}}function f(){var n;return(n=g()).p??(n.p=k)}console.log(f(),k)`, `g().p??=k`, "n="},
		{"beside names with values", `var a=1,Za,b=[1,2],c;(Za=globalThis).__z??(Za.__z={});(c=globalThis).__y??(c.__y=a);console.log(typeof __z,__y,b)`, `var a=1,b=[1,2];globalThis.__z??={};globalThis.__y??=a`, "Za"},
		{"first of names with values", `var Za,b=(1,2),c;(Za=globalThis).__z??(Za.__z={});c=b;console.log(typeof __z,c)`, `var b=(1,2),c;globalThis`, "Za"},
		{"a let of a block's function", `{let f=function(e){let n,o=2;return(n=e).p??(n.p=o),e};console.log(f({}).p)}`, `let o=2;return e.p??=o,e`, "n="},
		{"a getter that assigns the temporary stays", `function f(){var n,o={p:1},q={get p(){n=o;return null}};(n=q).p??(n.p=5);return[q.p,o.p]}console.log(f())`, `(n=q).p??(n.p=5)`, ""},
		{"a getter in a class that assigns it stays", `function f(){var n,o={},q=new class{get p(){n=o}};(n=q).p??(n.p=5);return o.p}console.log(f())`, `(n=q).p??(n.p=5)`, ""},
		{"a pair in a closure stays", `function f(e){var n;let g=()=>(n=e).p??(n.p=1);g();return e.p}console.log(f({}))`, `(n=e).p??(n.p=1)`, ""},
		{"the temporary read after stays", `function f(e){var n;(n=e).p??(n.p=1);return n===e}console.log(f({}))`, `(n=e).p??(n.p=1)`, ""},
		{"a parameter stays", `function f(e,n){(n=e).p??(n.p=1);return e.p}console.log(f({}))`, `(n=e).p??(n.p=1)`, ""},
		{"a temporary with a value stays", `function f(e){var n=0;(n=e).p??(n.p=1);return e.p}console.log(f({}))`, `(n=e).p??(n.p=1)`, ""},
		{"an or stays", `function f(a,b){var n;(n=a||b).p??(n.p=1);return b.p}console.log(f(0,{}))`, `(n=a||b).p??(n.p=1)`, ""},
		{"an optional chain stays", `function f(a){var n;(n=a?.b).p??(n.p=1);return a.b.p}console.log(f({b:{}}))`, `(n=a?.b).p??(n.p=1)`, ""},
		{"new stays", `class A{}function f(){var n;return(n=new A).p??(n.p=1)}console.log(f())`, `(n=new A).p??(n.p=1)`, ""},
		{"another key stays", `function f(e){var n;(n=e).p??(n.q=1);return e.q}console.log(f({}))`, `(n=e).p??(n.q=1)`, ""},
		{"a test of a conditional stays", `function f(e){var n;return(n=e).p??(n.p=0)?1:2}console.log(f({}))`, `(n=e).p??(n.p=0)?1:2`, ""},
		{"a let declared after stays (TDZ)", `function f(e){try{(n=e).p??(n.p=1)}catch(x){console.log(x.name)}let n;return e.p}console.log(f({}))`, `(n=e).p??(n.p=1)`, ""},
		{"a top-level let declared after stays (TDZ)", `try{(Za=globalThis).__z??(Za.__z={})}catch(x){console.log(x.name)}let Za;console.log(typeof globalThis.__z)`, `(Za=globalThis)`, ""},
		{"a pair in a parameter's default stays", `function f(e,x=(n=e).p??(n.p=1)){var n;return e.p}try{console.log(f({}))}catch(t){console.log(t.name)}`, `(n=e).p??(n.p=1)`, ""},
		{"a pair in another's value", `function f(a,b){var n;(n=a).p??(n.p=(n=b).q??(n.q=1));return[a.p,b.q]}console.log(f({},{}))`, `a.p??=b.q??=1`, "n="},
		{"a direct eval stays", `function f(e){var n;(n=e).p??(n.p=1);return eval("n")===e}console.log(f({}))`, `(n=e)`, ""},
		{"a generator's pair around a yield", `function*g(e){var n;(n=e).p??(n.p=yield 1);return e.p}var i=g({});i.next();console.log(i.next(7).value)`, `e.p??=yield 1`, "n="},
		{"a let declared before its pair", `function f(e){let n;(n=e).p??(n.p=1);return e.p}console.log(f({}))`, `e.p??=1`, "let"},
		{"a module that exports", `export var Za;(Za=globalThis).__z??(Za.__z={});console.log(typeof globalThis.__z)`, `(Za=globalThis)`, ""},
	})
}
