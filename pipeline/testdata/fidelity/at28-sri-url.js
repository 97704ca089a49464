window.extra.url = "ran";
