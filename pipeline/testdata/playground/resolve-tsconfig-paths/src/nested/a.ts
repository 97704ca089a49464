export { which as valueA } from '@which'
