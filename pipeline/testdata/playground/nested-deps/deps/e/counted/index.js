const key = '$$countedInstances'
window[key] = (window[key] || 0) + 1

export function count() {
  return window[key]
}
