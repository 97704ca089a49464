log.push("text/ecmascript file " + document.readyState + " " + (document.currentScript && document.currentScript.type));
