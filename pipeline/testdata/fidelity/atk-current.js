// A module script's document.currentScript is null, as the file and as written in the page.
(window.extra ??= {}).fileCurrent = String(document.currentScript);
