window.extra.wrong = "ran";
