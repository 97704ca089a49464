package sdk

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

var updateCompiled = flag.Bool("update", false, "rewrite compiled/ from src/")

// TestCompiledIsCurrent: the compiled SDK under compiled/ is what the sources give (go test
// ./sdk -update rewrites it), and Script fills in a Config as an object literal.
func TestCompiledIsCurrent(t *testing.T) {
	for _, v := range []struct {
		file  string
		carry bool
	}{{"compiled/sdk.js", false}, {"compiled/sdk-carry.js", true}} {
		want, err := Compile(v.carry)
		if err != nil {
			t.Fatal(err)
		}
		if *updateCompiled {
			if err := os.WriteFile(v.file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, _ := os.ReadFile(v.file)
		if string(got) != want {
			t.Errorf("%s is stale: run go test ./sdk -update", v.file)
		}
	}
	js, err := Script(Config{Name: "Orders </script>", Hosts: []string{"https://chat.example.com"}, Auth: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `{name:"Orders \u003c/script\u003e",version:"",hosts:["https://chat.example.com"],linkDomains:[],auth:!0,displayModes:["inline"]}`) || strings.Contains(js, configSlot) {
		t.Errorf("the config is not in the script as an object literal: %.300s", js)
	}
}

// TestLiteralIsTheConfig: the literal Script writes means what the Config's JSON means, for
// every field and for strings a minifier would print otherwise (quotes, line separators,
// astral characters, markup), as esbuild reads and prints both.
func TestLiteralIsTheConfig(t *testing.T) {
	cfgs := []Config{ // as Script fills them in
		{Hosts: []string{}, LinkDomains: []string{}, DisplayModes: []string{"inline"}},
		{Name: `Bob's "app" </script><!-- & \ ` + "\u2028\u2029\n\t😀é", Version: "1.0.0-rc.1", Hosts: []string{"https://a.example", "http://localhost:5173"},
			LinkDomains: []string{"example.com"}, Auth: true, DisplayModes: []string{"inline", "fullscreen", "pip"}},
	}
	for _, cfg := range cfgs {
		j, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		lit := literal(cfg)
		print := func(src string) string {
			r := api.Transform("x="+src, api.TransformOptions{MinifyWhitespace: true, MinifySyntax: true, Charset: api.CharsetUTF8})
			if len(r.Errors) > 0 {
				t.Fatalf("%s does not parse: %s", src, r.Errors[0].Text)
			}
			return string(r.Code)
		}
		if a, b := print(lit), print(string(j)); a != b {
			t.Errorf("the literal means\n%s\nthe JSON\n%s", a, b)
		}
	}
}
