export default function pairs(list, n) {
  return list.filter((x) => x % n === 0)
}
