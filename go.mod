module github.com/miniapp/bundle

go 1.26.8

require (
	github.com/evanw/esbuild v0.28.2
	github.com/tdewolff/parse/v2 v2.8.20
	golang.org/x/net v0.62.0
)

require golang.org/x/sys v0.49.0 // indirect
