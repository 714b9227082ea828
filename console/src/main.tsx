/** Entry point of the operator console (served at /console/ by the service). */
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
