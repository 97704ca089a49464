let result

export function setResult(v) {
  result = v
}

export function getResult() {
  return result
}
