import './main.css'
import { word } from 'minified'

console.log(word)

if (window) {
  console.log('hello world')
}
