// A module script's document.currentScript is null, as the file and as written in the page,
// and its top-level this undefined.
(window.extra ??= {}).fileCurrent = String(document.currentScript);
window.extra.fileThis = typeof this;
