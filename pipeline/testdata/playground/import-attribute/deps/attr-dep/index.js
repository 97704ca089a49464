import json from './data.json' with { type: 'json' }

export const word = json.word
