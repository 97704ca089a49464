log.push("text/ecmascript defer file " + document.readyState);
