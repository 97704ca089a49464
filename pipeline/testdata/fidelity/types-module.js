log.push("Module file " + document.readyState + " " + typeof this);
