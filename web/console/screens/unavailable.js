// A screen whose admin API this server does not offer: it says so with
// the API's own answer.
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Page } from '../components/page.js';
import { useAsync, Loaded, ErrorBox, missingEndpoint } from '../components/ui.js';

export function Probe({ title, subtitle, path, children }) {
  const probe = useAsync(() => get(path, { pageSize: 1 }).then(() => true, (e) => (missingEndpoint(e) ? e : Promise.reject(e))), [path]);
  return html`<${Page} title=${title} subtitle=${subtitle}>
    <${Loaded} state=${probe}>${(ok) => (ok === true ? children : html`<div class="notice">
      <p>This s2r server does not offer <code>/admin/v1${path}</code> yet, so there is nothing to show here.</p>
      <${ErrorBox} error=${ok} /></div>`)}<//>
  <//>`;
}
