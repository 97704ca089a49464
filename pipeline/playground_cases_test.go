package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// fixtureText is a fixture file's text.
func fixtureText(pg, name string) string {
	b, err := os.ReadFile(filepath.Join(playgroundRoot, pg, filepath.FromSlash(name)))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// compactJSON is JSON.stringify(JSON.parse(file)).
func compactJSON(pg, name string) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(fixtureText(pg, name))); err != nil {
		panic(err)
	}
	return buf.String()
}

// playgrounds are the ported playgrounds, in the order.
var playgrounds = []playground{
	{name: "env", base: "/env-base/", env: map[string]string{"VITE_FROM_PROCESS": "from the builder's environment"}, checks: []check{
		tText("base", ".base", "/env-base/"),
		tText("mode", ".mode", "production"),
		tText("dev", ".dev", "false"),
		tText("prod", ".prod", "true"),
		tText("custom", ".plain", "1"),
		tText("custom in template literal expression", ".plain-template", "1"),
		tText("custom-prefix", ".other-prefix", "1"),
		tText("mode file override", ".which-file", ".env.production"),
		tText("inline variables", ".from-process", "from the builder's environment"),
		tText("define", ".flag", "boolean"),
		tText("define", ".count", "number"),
		tText("define", ".weird", "string"),
		tText("define", ".pair", "object"),
		tText("NODE_ENV", ".node-env", "production"),
		tText("NODE_ENV", ".global-node-env", "production"),
		tText("NODE_ENV", ".global-this-node-env", "production"),
		tText("expand", ".expand-config", "set by the config"),
		tText("expand", ".expand-key", "depended on"),
		tText("ssr", ".ssr", "false"),
		tJS("env object", `Object.keys(JSON.parse(__pg.text(".env-object"))).filter((k) => ["PRIVATE_DEP", "SECRET_EXPANDED"].includes(k))`, `[]`),
		tJS("env object", `(({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, VITE_EXPAND_CONFIG, VITE_EXPAND_KEY, VITE_DOLLAR_ESCAPED, VITE_DOLLAR_TRAILING, BASE_URL, VITE_FLAG, SSR, MODE, DEV, PROD, VITE_COUNT, VITE_WEIRD, VITE_PAIR}) => ({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, VITE_EXPAND_CONFIG, VITE_EXPAND_KEY, VITE_DOLLAR_ESCAPED, VITE_DOLLAR_TRAILING, BASE_URL, VITE_FLAG, SSR, MODE, DEV, PROD, VITE_COUNT, VITE_WEIRD, VITE_PAIR}))(JSON.parse(__pg.text(".env-object")))`,
			`{"VITE_WHICH_FILE":".env.production","PG_PUBLIC_OTHER":"1","VITE_PLAIN":"1","VITE_EXPAND_CONFIG":"set by the config","VITE_EXPAND_KEY":"depended on","VITE_DOLLAR_ESCAPED":"cost$","VITE_DOLLAR_TRAILING":"cost$","BASE_URL":"/env-base/","VITE_FLAG":true,"SSR":false,"MODE":"production","DEV":false,"PROD":true,"VITE_COUNT":42,"VITE_WEIRD":"{\"4\",}","VITE_PAIR":{"x":"1","y":"2"}}`),
		tJS("env object in template literal expression", `(({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, BASE_URL, MODE, DEV, PROD}) => ({VITE_WHICH_FILE, PG_PUBLIC_OTHER, VITE_PLAIN, BASE_URL, MODE, DEV, PROD}))(JSON.parse(__pg.text(".env-object-template")))`,
			`{"VITE_WHICH_FILE":".env.production","PG_PUBLIC_OTHER":"1","VITE_PLAIN":"1","BASE_URL":"/env-base/","MODE":"production","DEV":false,"PROD":true}`),
		tText("ignores import.meta.env in string literals", ".literal-dot", "import.meta.env."),
		tText("ignores import.meta.env in string literals", ".literal", "import.meta.env"),
	}},
	{name: "env-nested", checks: []check{
		tText("mode", ".mode", "production"),
		tText("mode file override", ".which-file", "settings/.env.production"),
		tText("should not load parent .env file", ".parent", "undefined"),
	}},
	{name: "define", checks: []check{
		tText("string", ".exp", "boolean"),
		tText("string", ".string", "hi there"),
		tText("string", ".number", "7"),
		tText("string", ".boolean", "true"),
		tText("string", ".undefined", ""),
		tText("string", ".object", `{
  "a": 1,
  "b": {
    "c": [
      2,
      3
    ]
  },
  "process": {
    "env": {
      "WHO": "\"inside a shape\""
    }
  }
}`),
		tText("string", ".node-env", "staging"),
		tText("string", ".process-env", "{\n  \"NODE_ENV\": \"staging\",\n  \"WHO\": \"someone\",\n  \"MORE\": \"yes\"\n}"),
		tText("string", ".env-var", "someone"),
		tText("string", ".as-property", `"inside a shape"`),
		tText("string", ".spread-object", `{"WHO":"<someone>"}`),
		tText("string", ".spread-array", `["h","i"," ","t","h","e","r","e","!"]`),
		tText("string", ".dollar", "11"),
		tText("string", ".unicode", "12"),
		tText("string", ".no-substring", "a longer name"),
		tText("string", ".no-property", "a property"),
		tText("string", ".in-markup", "__FLAG__"),
		tText("string", ".in-json", "__FLAG__"),
		tText("string", ".in-dep", `{"on":true}`),
		tText("string", ".in-env", "for the client"),
		tText("ignores constants in string literals", ".literal .pe-dot", "process.env."),
		tText("ignores constants in string literals", ".literal .gpe-dot", "global.process.env."),
		tText("ignores constants in string literals", ".literal .gtpe-dot", "globalThis.process.env."),
		tText("ignores constants in string literals", ".literal .pe-node-env", "process.env.NODE_ENV"),
		tText("ignores constants in string literals", ".literal .gpe-node-env", "global.process.env.NODE_ENV"),
		tText("ignores constants in string literals", ".literal .gtpe-node-env", "globalThis.process.env.NODE_ENV"),
		tText("ignores constants in string literals", ".literal .hot", "import.meta.hot"),
		tText("replaces constants in template literal expressions", ".template .pe-who", "someone"),
		tText("replaces constants in template literal expressions", ".template .pe-node-env", "staging"),
		tText("replace constants on import.meta.env when it is a invalid json", ".meta-env .undef", "undefined"),
		tText("replace constants on import.meta.env when it is a invalid json", ".meta-env .some-name", "named at run time"),
		tText("optional values are detected by pattern properly", ".optional", "someone"),
	}, skipped: []string{
		"env import with query parameters works correctly: its config's plugin writes the import (a plugin's transform, which bundle does not run: the build warns naming it)",
	}},
	{name: "json", checks: []check{
		tText("default import", ".whole", compactJSON("json", "data.json")),
		tText("named import", ".named", "hello from json"),
		tText("deep import", ".deep-whole", compactJSON("json", "deps/deep-json/package.json")),
		tText("named deep import", ".deep-named", "@pg/deep-json"),
		tText("dynamic import", ".dynamic", compactJSON("json", "data.json")),
		tText("dynamic import, named", ".dynamic-named", "hello from json"),
		tMatch("?url", ".url", "^data:application/json"),
		tText("?raw", ".raw", fixtureText("json", "data.json")),
		tText("require(json) returns object without default export", ".require", `{"200":"ok"}`),
	}, refusals: []refusal{
		{spec: "fetch", files: map[string]string{"index.html": `<script type="module">fetch('/public.json').then((r) => r.json())</script>`, "public/public.json": "{}"},
			want: "the bundle is one file with nothing beside it"},
	}},
}
