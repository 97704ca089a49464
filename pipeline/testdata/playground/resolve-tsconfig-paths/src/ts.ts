import { word } from '@/imported'

export default '[success] ' + word + ' from .ts'
