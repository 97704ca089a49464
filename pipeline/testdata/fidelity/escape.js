// Texts the HTML parser would act on, inline: each must keep its value.
const tag = (s, ...v) => s.raw.join("|") + v.length;
window.escaped = {
  raw: String.raw`<!--<script>a</script>b-->`,
  template: `x <!--<script> ${1 + 1} </script> y`,
  string: "<!--<script></script>",
  regexp: /<\/script>|<!--<script>/.source,
  tagged: tag`<!--<script>`,
  less: 1 </script/.source.length ? "yes" : "no",
};
