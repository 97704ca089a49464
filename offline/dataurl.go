package offline

// DataURL decodes a data: URL as a browser does (the Fetch Standard's data: URL processor):
// it returns the lower-cased MIME essence (text/plain when the type is empty or does not
// parse), the charset parameter and the payload. ok is false when u is not a data: URL or
// does not decode, in which case a browser fetches nothing from it. The build reads an
// import of a data: URL with it, so that the bundle holds what the browser would have run.
func DataURL(u string) (mime, charset string, payload []byte, ok bool) { return dataURL(u) }
