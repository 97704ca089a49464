document.write("<p>the async script wrote this</p>");
