package offline

import (
	"encoding/json"
	"io"
)

// Report is the JSON document bundle check --format json prints, and the WebAssembly checker
// (cmd/bundle-check-wasm) writes: the same bytes for the same findings, from either. The
// zero value is a report of no files; Add and AddError fill it in file order.
type Report struct {
	SchemaVersion int          `json:"schema_version"`
	Clean         bool         `json:"clean"`
	Files         []FileReport `json:"files"`
	Findings      Findings     `json:"findings"`
}

// FileReport is one file of a Report.
type FileReport struct {
	File     string `json:"file"`
	Clean    bool   `json:"clean"`
	Findings int    `json:"findings"`
	Error    string `json:"error,omitempty"`
}

// Add records the findings of the file named file.
func (r *Report) Add(file string, fs Findings) {
	r.init()
	r.Files = append(r.Files, FileReport{File: file, Clean: len(fs) == 0, Findings: len(fs)})
	r.Findings = append(r.Findings, fs...)
	r.Clean = r.clean()
}

// AddError records a file that could not be read.
func (r *Report) AddError(file string, err error) {
	r.init()
	r.Files = append(r.Files, FileReport{File: file, Error: err.Error()})
	r.Clean = false
}

func (r *Report) init() {
	r.SchemaVersion = 1
	if r.Files == nil {
		r.Files = []FileReport{}
	}
	if r.Findings == nil {
		r.Findings = Findings{}
	}
}

func (r *Report) clean() bool {
	for _, f := range r.Files {
		if !f.Clean {
			return false
		}
	}
	return true
}

// Encode writes the report as indented JSON, HTML characters as written, with a final newline.
func (r *Report) Encode(w io.Writer) error {
	r.init()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Request is one check as a process reads it (the WebAssembly checker's options): the name
// the findings give the page, and Options in JSON. The zero value checks as bundle check
// does with no flags.
type Request struct {
	// Name names the page in the findings; "" is "<stdin>".
	Name           string   `json:"name,omitempty"`
	LinkDomains    []string `json:"link_domains,omitempty"`
	SingleFile     bool     `json:"single_file,omitempty"`
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	Policy         string   `json:"policy,omitempty"`
	// FileSizes are the sizes of the files beside the page, by the URL the page names them
	// with, for SingleFile's data: URL notes.
	FileSizes map[string]int64 `json:"file_sizes,omitempty"`
}

// Options returns the Options of the request.
func (q Request) Options() Options {
	o := Options{LinkDomains: q.LinkDomains, SingleFile: q.SingleFile, AllowedDomains: q.AllowedDomains, Policy: q.Policy}
	if len(q.FileSizes) > 0 {
		o.FileSize = func(u string) (int64, bool) {
			n, ok := q.FileSizes[u]
			return n, ok
		}
	}
	return o
}

// FileName is the name the findings give the page.
func (q Request) FileName() string {
	if q.Name == "" {
		return "<stdin>"
	}
	return q.Name
}
