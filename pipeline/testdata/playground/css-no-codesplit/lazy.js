// a module that is nothing but a stylesheet's import
import './lazy.css'
