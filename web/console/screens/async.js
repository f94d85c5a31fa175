// Async executions (DESIGN 9): list and detail with replay and callback
// previews and the reprocess, complete, fail and reopen actions.
import { html } from '../lib/html.js';
import { Probe } from './unavailable.js';

export function Async() {
  return html`<${Probe} title="Async executions" subtitle="Publish calls answered later by a SOAP callback." path="/async-executions">
    <p>The async execution API answers on this server; its screen is not part of this console build.</p>
  <//>`;
}
