export { which as valueB } from '@which'
