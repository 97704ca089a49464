window.cycLog.push("defer classic " + document.readyState);
