window.extra.log.push("deferred " + document.readyState);
