note("defer classic");
