window.extra.module = "ran";
