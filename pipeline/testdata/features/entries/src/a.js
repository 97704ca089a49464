import { mark } from './shared.js';
import './a.css';
mark('a');
