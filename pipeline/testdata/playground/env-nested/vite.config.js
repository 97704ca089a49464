export default {
  envDir: './settings',
}
