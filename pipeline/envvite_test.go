package pipeline

import (
	"encoding/json"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/miniapp/bundle/manifest"
)

// viteLoadEnv is Vite's loadEnv (packages/vite/src/node/env.ts) for mode production and the
// prefixes VITE_ and MINIAPP_, run on Node with the real util.parseEnv and dotenv-expand 12
// (testdata/dotenv): the reference TestEnvLikeVite holds loadEnv to. It prints the public
// keys and their values as JSON.
const viteLoadEnv = `
const fs = require("node:fs");
const path = require("node:path");
const { parseEnv } = require("node:util");
const { expand } = require(path.join(process.argv[2], "node_modules/dotenv-expand"));
const dir = process.argv[1];
const prefixes = ["VITE_", "MINIAPP_"];
const files = [".env", ".env.local", ".env.production", ".env.production.local"].map((f) => path.join(dir, f));
const parsed = Object.fromEntries(files.flatMap((f) => fs.existsSync(f) ? Object.entries(parseEnv(fs.readFileSync(f, "utf-8"))) : []));
const processEnv = { ...process.env };
expand({ parsed, processEnv });
const env = {};
for (const [k, v] of Object.entries(parsed)) if (prefixes.some((p) => k.startsWith(p))) env[k] = v;
for (const k in process.env) if (prefixes.some((p) => k.startsWith(p))) env[k] = process.env[k];
process.stdout.write(JSON.stringify(env));
`

// TestEnvLikeVite: the public values bundle reads from .env files are the ones Vite's loadEnv
// gives, on rows of dotenv-expand's features and edge cases, the process environment
// included; and a public value that takes a variable from the environment is warned of at
// its line.
func TestEnvLikeVite(t *testing.T) {
	modules, err := filepath.Abs("testdata/dotenv")
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name  string
		files map[string]string
		env   map[string]string // the process environment, besides the test's own
		warn  []string          // keys warned of
	}{
		{"plain", map[string]string{".env": "VITE_A=1\nSECRET=2\nMINIAPP_B=three words\n"}, nil, nil},
		{"later_file_wins", map[string]string{".env": "VITE_A=env\nVITE_B=b\n", ".env.production.local": "VITE_A=local\n"}, nil, nil},
		{"refers_to_file", map[string]string{".env": "BASE=https://api.example\nVITE_URL=$BASE/v1\nVITE_URL2=${BASE}/v2\n"}, nil, nil},
		{"refers_to_later_key", map[string]string{".env": "VITE_A=$Z_LATER\nZ_LATER=z\n"}, nil, nil},
		{"refers_across_files", map[string]string{".env": "HOST=h.example\n", ".env.production": "VITE_URL=https://$HOST\n"}, nil, nil},
		{"takes_environment", map[string]string{".env": "VITE_TOKEN=$BUNDLE_TEST_TOKEN\nVITE_SAFE=$HOST_IN_FILE\nHOST_IN_FILE=x\n"},
			map[string]string{"BUNDLE_TEST_TOKEN": "s3cret"}, []string{"VITE_TOKEN"}},
		{"takes_environment_through_key", map[string]string{".env": "TOK=$BUNDLE_TEST_TOKEN\nVITE_T=pre-$TOK\n"},
			map[string]string{"BUNDLE_TEST_TOKEN": "s3cret"}, []string{"VITE_T"}},
		{"environment_wins", map[string]string{".env": "VITE_A=file\nVITE_B=$VITE_A\n"}, map[string]string{"VITE_A": "process"}, []string{"VITE_B"}},
		{"environment_value_kept", map[string]string{".env": "VITE_A=file\n"}, map[string]string{"VITE_A": "has $HOME in it"}, nil},
		{"defaults", map[string]string{".env": "VITE_A=${NOPE_UNSET:-fallback}\nVITE_B=${NOPE_UNSET-dash}\nVITE_C=${VITE_A:+alt}\nVITE_D=${NOPE_UNSET:+alt}\nVITE_E=${VITE_A:-x:-y}\n"}, nil, nil},
		{"escaped", map[string]string{".env": "VITE_A=price \\$5\nVITE_B='single $NOPE_UNSET'\nVITE_C=\"dq \\$X\"\n"}, nil, nil},
		{"escaped_then_same", map[string]string{".env": "A=v\nVITE_A=\\$A $A\n"}, nil, nil},
		{"self_reference", map[string]string{".env": "VITE_A=$VITE_A\nVITE_B=x$VITE_B\n"}, nil, nil},
		{"recursive", map[string]string{".env": "A=1\nB=$A$A\nVITE_C=${B}-$B\n"}, nil, nil},
		{"replacement_patterns", map[string]string{".env": "P=a$&b$$c\nVITE_A=[$P]\n"}, nil, nil},
		{"unset_is_empty", map[string]string{".env": "VITE_A=x${NOPE_UNSET}y$NOPE_ALSO\n"}, nil, nil},
		{"quotes_and_comments", map[string]string{".env": "# c\nexport VITE_A = \"two words\" # c\nVITE_B='x' trailing\nVITE_C=`bq`\nVITE_D=v # c\nVITE_E=\"multi\nline\"\nVITE_F=\"nl\\nhere\"\n\nVITE_G=\n"}, nil, nil},
		{"numeric_keys_first", map[string]string{".env": "VITE_B=$1\n1=one\n"}, nil, nil},
		{"crlf", map[string]string{".env": "VITE_A=1\r\nVITE_B=$VITE_A\r\n"}, nil, nil},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"env\"\nname = \"Env\"\ndescription = \"Env.\"\nentry = \"index.html\"\n")
			writeFile(t, filepath.Join(dir, "index.html"), "<!doctype html><p>x</p>")
			for name, body := range row.files {
				writeFile(t, filepath.Join(dir, name), body)
			}
			for k, v := range row.env {
				t.Setenv(k, v)
			}
			m, err := manifest.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			got, warnings, err := loadEnv(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", "-e", viteLoadEnv, dir, modules)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v (run scripts/test, which installs testdata/dotenv)", err)
			}
			var want map[string]string
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, want) {
				t.Errorf("bundle\n%q\nVite\n%q", got, want)
			}
			var warned []string
			for _, w := range warnings {
				warned = append(warned, w.Text[:strings.IndexByte(w.Text, ' ')])
				if w.Line == 0 || !strings.HasPrefix(w.LineText, strings.Fields(w.Text)[0]) {
					t.Errorf("warning not at its line: %+v", w)
				}
				for _, v := range row.env {
					if strings.Contains(w.Text+w.Note+w.LineText, v) {
						t.Errorf("the warning shows the environment's value: %s", w.Text)
					}
				}
			}
			if !slices.Equal(warned, row.warn) {
				t.Errorf("warned of %q, want %q", warned, row.warn)
			}
		})
	}
}

// TestParseDotenvLikeNode: the .env parser reads what Node's util.parseEnv reads, on the forms
// every Node version Vite supports reads alike.
func TestParseDotenvLikeNode(t *testing.T) {
	src := "A=1\nexport B = \"two words\" # c\nC='single $A'\nD=\"multi\nline\"\nE=`back`\nF=x # comment\nG=\"esc\\nnl\"\nH= spaced  \nK = k \n# only a comment\nM=\nN=v#c\nO=\"q\"tail\nP=a=b\n\n\nQ='it''s'\n"
	cmd := exec.Command("node", "-e", `process.stdout.write(JSON.stringify(require("node:util").parseEnv(require("node:fs").readFileSync(0, "utf8"))))`)
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range parseDotenv([]byte(src)) {
		got[v.key] = v.value
	}
	if !maps.Equal(got, want) {
		t.Errorf("bundle\n%q\nNode\n%q", got, want)
	}
}
