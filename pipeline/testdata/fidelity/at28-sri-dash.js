window.extra.dash = "ran";
