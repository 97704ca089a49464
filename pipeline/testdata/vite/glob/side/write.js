window.sideEffect = "ran";
