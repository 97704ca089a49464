log.push("application/x-javascript file " + document.readyState);
