// Package sdk is the guest SDK that every bundle carries: the document.modelContext shim and
// the guest half of the host bridge.
package sdk

// Config is what the build bakes into the SDK from the manifest.
type Config struct {
	Name, Version string
	Hosts         []string
	LinkDomains   []string
	Auth          bool
}

// Script returns the compiled SDK script for cfg.
func Script(cfg Config) (string, error) {
	return "", nil
}

// Module returns the source of the module that the import specifier spec (@miniapp/sdk or
// @miniapp/sdk/react) resolves to in a build.
func Module(spec string) string { return "export {}" }
