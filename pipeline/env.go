package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// publicPrefixes are the .env key prefixes that reach the bundle, as Vite's envPrefix does:
// every other key stays out, so that a secret in .env never ships.
var publicPrefixes = []string{"VITE_", "MINIAPP_"}

// envFiles are read in Vite's order for mode "production"; a later file wins.
var envFiles = []string{".env", ".env.local", ".env.production", ".env.production.local"}

// loadEnv reads the app's .env files and returns the public keys and their values.
func loadEnv(root string) (map[string]string, error) {
	env := map[string]string{}
	for _, name := range envFiles {
		src, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for k, v := range parseDotenv(src) {
			for _, p := range publicPrefixes {
				if strings.HasPrefix(k, p) {
					env[k] = v
				}
			}
		}
	}
	return env, nil
}

// parseDotenv reads KEY=value lines: "export " prefixes, # comments, and single-, double- or
// un-quoted values (double quotes expand \n), as dotenv does.
func parseDotenv(src []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		v = strings.TrimSpace(v)
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.ReplaceAll(v[1:len(v)-1], `\n`, "\n")
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		out[k] = v
	}
	return out
}

// defines returns esbuild's define map: import.meta.env as Vite defines it in production,
// process.env.NODE_ENV, and the manifest's own defines, which win.
func defines(env map[string]string, user map[string]string) map[string]string {
	d := map[string]string{}
	all := map[string]any{"MODE": "production", "PROD": true, "DEV": false, "SSR": false, "BASE_URL": "/"}
	for k, v := range env {
		all[k] = v
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b, _ := json.Marshal(all[k])
		d["import.meta.env."+k] = string(b)
	}
	obj, _ := json.Marshal(all) // encoding/json sorts map keys
	d["import.meta.env"] = string(obj)
	d["process.env.NODE_ENV"] = `"production"`
	for k, v := range user {
		d[k] = v
	}
	return d
}
