// Package sdk is the guest SDK that every bundle carries: the document.modelContext shim
// (WebMCP) and the guest half of the host bridge (JSON-RPC 2.0 over postMessage, with MCP
// Apps' method names). Its TypeScript sources are compiled with esbuild into compiled/ (go
// test ./sdk -update rewrites them, and fails when they are stale); a build fills in the
// app's Config, so building needs no npm and compiles nothing of the SDK.
//
//	js, err := sdk.Script(sdk.Config{Name: "Hello", Hosts: []string{"https://chat.example"}})
//	// js goes first in <head>, before any app code
//
// PROTOCOL.md beside this file is the contract a host implements; miniapp-sdk.d.ts is the
// API app authors write against (bundle sdk types prints it).
//
// # Guarantees
//
// The SDK posts only to the pinned parent origin, never to "*", and drops every inbound
// message that is not from window.parent, from that origin, and well-formed JSON-RPC. It never
// reassigns a native document.modelContext. Script is deterministic: the same Config gives the
// same bytes.
package sdk

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

//go:embed src/*.ts
var sources embed.FS

//go:embed miniapp-sdk.d.ts
var types string

//go:embed PROTOCOL.md
var protocol string

// Types returns the TypeScript declarations of @miniapp/sdk and @miniapp/sdk/react.
func Types() string { return types }

// Protocol returns PROTOCOL.md, the contract a host implements.
func Protocol() string { return protocol }

// ProtocolVersion is the MCP Apps protocol version the SDK speaks.
const ProtocolVersion = "2026-01-26"

// Config is what the build bakes into the SDK from the manifest. The zero value is an SDK that
// connects to the origin its frame is embedded in, with no links, no auth and the inline
// display mode only.
type Config struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	Hosts        []string `json:"hosts"`
	LinkDomains  []string `json:"linkDomains"`
	Auth         bool     `json:"auth"`
	DisplayModes []string `json:"displayModes"`
	// Carry is set when the app bundles its own MCP Apps client: the SDK then carries that
	// client over its own wire, so that the page makes one handshake (PROTOCOL.md, "Apps
	// that bring their own client").
	Carry bool `json:"-"`
}

// CarriedClients are the npm packages whose MCP Apps client the SDK carries when a bundle
// holds them.
var CarriedClients = []string{"@modelcontextprotocol/ext-apps"}

var cache sync.Map // Config JSON → compiled script

//go:embed compiled/sdk.js
var compiledPlain string

//go:embed compiled/sdk-carry.js
var compiledCarry string

// configSlot stands in the compiled SDK for its Config, which Script writes there: the
// sources are compiled once, when they change (go test ./sdk -update), not at every build.
const configSlot = "__MINIAPP_CONFIG_SLOT__"

// Script returns the compiled, minified SDK for cfg: one classic script that installs the
// shim and connects. It is safe for concurrent use.
func Script(cfg Config) (string, error) {
	if cfg.Hosts == nil {
		cfg.Hosts = []string{}
	}
	if cfg.LinkDomains == nil {
		cfg.LinkDomains = []string{}
	}
	if len(cfg.DisplayModes) == 0 {
		cfg.DisplayModes = []string{"inline"}
	}
	config, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	key := strconv.FormatBool(cfg.Carry) + string(config)
	if s, ok := cache.Load(key); ok {
		return s.(string), nil
	}
	compiled := compiledPlain
	if cfg.Carry {
		compiled = compiledCarry
	}
	if strings.Count(compiled, configSlot) != 1 {
		return "", fmt.Errorf("sdk: the compiled SDK has lost its config slot: run go test ./sdk -update")
	}
	obj := literal(cfg)
	s := strings.Replace(compiled, configSlot, obj, 1)
	cache.Store(key, s)
	return s, nil
}

// literal prints cfg as a JavaScript object literal, as a minifier would (keys bare, booleans
// !0 and !1) except that strings stay JSON strings, whose escapes of <, > and & keep them
// from closing the script element they are written in.
func literal(cfg Config) string {
	str := func(s string) string {
		b, _ := json.Marshal(s) // a string always marshals
		return string(b)
	}
	list := func(l []string) string {
		q := make([]string, len(l))
		for i, s := range l {
			q[i] = str(s)
		}
		return "[" + strings.Join(q, ",") + "]"
	}
	boolean := func(v bool) string {
		if v {
			return "!0"
		}
		return "!1"
	}
	return "{name:" + str(cfg.Name) + ",version:" + str(cfg.Version) + ",hosts:" + list(cfg.Hosts) +
		",linkDomains:" + list(cfg.LinkDomains) + ",auth:" + boolean(cfg.Auth) + ",displayModes:" + list(cfg.DisplayModes) + "}"
}

// Compile compiles the SDK's sources into the script Script fills in (carry selects the form
// that carries an app's own MCP Apps client). go test ./sdk checks that the files under
// compiled/ are what it gives.
func Compile(carry bool) (string, error) {
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{"index.ts"},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatIIFE,
		// ES2022 keeps class fields native (Chrome 72, Safari 14.1, Firefox 90 and later):
		// at ES2020 each field would cost a helper call.
		Target:            api.ES2022,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsNone,
		// Internal members end in "_" and are renamed; wire keys and WebMCP names never do.
		MangleProps: "_$",
		Define:      map[string]string{"__MINIAPP_CONFIG__": configSlot, "__MINIAPP_CARRY__": strconv.FormatBool(carry)},
		LogLevel:    api.LogLevelSilent,
		Plugins:     []api.Plugin{embedded()},
	})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		if e.Location != nil {
			return "", fmt.Errorf("sdk/src/%s:%d:%d: %s", e.Location.File, e.Location.Line, e.Location.Column+1, e.Text)
		}
		return "", fmt.Errorf("sdk: %s", e.Text)
	}
	if len(res.OutputFiles) != 1 {
		return "", fmt.Errorf("sdk: esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	return strings.TrimSpace(string(res.OutputFiles[0].Contents)) + "\n", nil
}

// embedded is an esbuild plugin that reads the SDK's sources from the binary.
func embedded() api.Plugin {
	return api.Plugin{Name: "sdk-embedded", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			p := strings.TrimPrefix(path.Clean(path.Join(path.Dir(a.Importer), a.Path)), "/")
			if a.Kind == api.ResolveEntryPoint {
				p = a.Path
			}
			if !strings.HasSuffix(p, ".ts") {
				p += ".ts"
			}
			return api.OnResolveResult{Path: p, Namespace: "sdk"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "sdk"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := sources.ReadFile("src/" + a.Path)
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("sdk source %s: %w", a.Path, err)
			}
			s := string(src)
			return api.OnLoadResult{Contents: &s, Loader: api.LoaderTS}, nil
		})
	}}
}

// exportRE matches a value a module of the SDK exports (its types are declared in
// miniapp-sdk.d.ts, which bundle sdk types prints).
var exportRE = regexp.MustCompile(`(?m)^export (?:async )?(?:function|const|let|class) ([A-Za-z_$][\w$]*)`)

// Specifiers are the import specifiers of the SDK an app may import; they resolve inside
// bundle, never from npm (no npm package of that name is the SDK).
var Specifiers = []string{"@miniapp/sdk", "@miniapp/sdk/react"}

// Exports returns the names of the values that spec ("@miniapp/sdk" or "@miniapp/sdk/react")
// exports to an app, sorted.
func Exports(spec string) []string {
	var names []string
	for _, m := range exportRE.FindAllStringSubmatch(Module(spec), -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

// Module returns the source (TypeScript) of the module that spec resolves to in a build:
// "@miniapp/sdk" gives the functions an app calls, on the SDK already in the page;
// "@miniapp/sdk/react" adds the useMiniApp hook, with React from the app's node_modules; a
// relative spec ("./limits") is one of the SDK's own modules, which those two import.
func Module(spec string) string {
	name := "src/module.ts"
	if spec == "@miniapp/sdk/react" {
		name = "src/react.ts"
	} else if rel, ok := strings.CutPrefix(spec, "./"); ok {
		name = "src/" + rel + ".ts"
	}
	b, err := sources.ReadFile(name)
	if err != nil {
		return "throw new Error(" + fmt.Sprintf("%q", "sdk: "+err.Error()) + ")"
	}
	return string(b)
}
