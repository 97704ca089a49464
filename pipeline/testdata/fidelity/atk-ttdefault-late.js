// A deferred classic script: run by the parser's list, no sink, no policy called.
window.ttLog.push("deferred ran " + document.readyState);
