// Discovery (DESIGN 9): services seen in load-balancer and gateway traffic.
import { html } from '../lib/html.js';
import { Probe } from './unavailable.js';

export function Discovery() {
  return html`<${Probe} title="Discovery" subtitle="SOAP services seen in traffic, onboarded or not." path="/master-discovery/rows">
    <p>The discovery API answers on this server; its screen is not part of this console build.</p>
  <//>`;
}
