export default function other() {
  return 1 + 2
}
