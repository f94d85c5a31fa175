// Onboarding (DESIGN 8): a WSDL (file, ZIP, pasted XML or URL) goes
// through autopilot; the result shows operations, mapping diagnostics and
// publish readiness; an operation is tried against the backend with a
// generated sample; the draft is activated. Several files go through the
// batch autopilot with per-item results.
import { html, useState } from '../lib/html.js';
import { api, upload } from '../lib/api.js';
import { Can } from '../lib/session.js';
import { Page } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { Field, ErrorBox, Progress, Busy } from '../components/ui.js';
import { setQuery, Link, BASE } from '../lib/router.js';
import { AutopilotResult } from './onboard_result.js';
import { BatchImport } from './onboard_batch.js';

const sources = [['file', 'Upload a WSDL or ZIP'], ['xml', 'Paste XML'], ['url', 'From a URL'], ['batch', 'Several files']];

export function Onboard({ query }) {
  const [result, setResult] = useState(null);
  const tab = query.get('source') || 'file';
  return html`<${Page} title="Onboard a service" subtitle="Import a WSDL: autopilot drafts the service, you try it, then activate it. Publish turns a SOAP service into a REST API with its OpenAPI document; consume serves the WSDL's SOAP service over a REST backend of yours.">
    <${Can} role="operator" fallback=${html`<p class="notice">Onboarding changes services: it needs the operator role. You can browse the existing <${Link} href=${`${BASE}/services`}>services<//>.</p>`}>
      ${result
        ? html`<${AutopilotResult} result=${result} onAgain=${() => setResult(null)} />`
        : html`<${Tabs} label="WSDL source" tabs=${sources} current=${tab} onSelect=${(t) => setQuery({ source: t })} />
          <${TabPanel} id=${tab}>${tab === 'batch' ? html`<${BatchImport} />` : html`<${SingleImport} key=${tab} source=${tab} onDone=${setResult} />`}<//>`}
    <//>
  <//>`;
}

// directionHints say what each direction makes of the WSDL.
const directionHints = {
  publish: 'Your SOAP service, called through a JSON REST API that s2r generates with its OpenAPI document.',
  consume: 'Your REST service, called as the SOAP service the WSDL describes: SOAP clients get the WSDL from s2r, each operation calls a REST path of your backend.',
  gateway: 'SOAP in, SOAP out: s2r forwards the envelopes unchanged, with grants and traffic logs.',
};

// Options are the autopilot fields shared by every source.
export function Options({ value, set, batch }) {
  const input = (name, props = {}) => (a) => html`<input ...${a} ...${props} name=${name} value=${value[name] || ''} onInput=${(e) => set({ ...value, [name]: e.target.value })} />`;
  return html`<fieldset class="grid">
    <legend>Service</legend>
    <${Field} label="Environment" hint="Required: the runtime path is /{direction}/{environment}/{serviceKey}.">${input('environment', { required: true, pattern: '[a-z0-9][a-z0-9\\-]{0,62}' })}<//>
    <${Field} label="Direction" hint=${directionHints[value.direction || 'publish']}>${(a) => html`<select ...${a} name="direction" value=${value.direction || 'publish'} onChange=${(e) => set({ ...value, direction: e.target.value })}>
      <option value="publish">publish — SOAP backend as REST/JSON</option>
      <option value="consume">consume — REST backend as SOAP</option>
      <option value="gateway">gateway — SOAP passthrough</option>
    </select>`}<//>
    ${!batch && html`<${Field} label="Service key" hint="Optional: derived from the WSDL service name.">${input('serviceKey', { pattern: '[a-z0-9][a-z0-9\\-]{0,62}' })}<//>`}
    ${!batch && html`<${Field} label="Service name" hint="Optional.">${input('serviceName')}<//>`}
    ${value.direction === 'consume'
    ? html`<${Field} label="REST backend URL" hint="The base URL of your REST service (each operation's REST path is appended to it), not the WSDL's soap:address." wide>${input('backendUrl', { type: 'url', placeholder: 'http://10.0.0.5/api' })}<//>`
    : html`<${Field} label="Backend URL" hint="Optional: default is the WSDL's soap:address." wide>${input('backendUrl', { type: 'url', placeholder: 'http://10.0.0.5/calc' })}<//>`}
  </fieldset>`;
}

function fields(opts) {
  const out = {};
  for (const k of ['environment', 'direction', 'serviceKey', 'serviceName', 'backendUrl', 'rootPath']) if (opts[k]) out[k] = opts[k].trim();
  return out;
}

function SingleImport({ source, onDone }) {
  const [opts, setOpts] = useState({ environment: 'dev', direction: 'publish' });
  const [xml, setXML] = useState('');
  const [url, setURL] = useState('');
  const [file, setFile] = useState(null);
  const [state, setState] = useState({ busy: false, error: null, sent: 0, total: 0, processing: false });

  const submit = async (e) => {
    e.preventDefault();
    setState({ busy: true, error: null, sent: 0, total: 0, processing: source !== 'file' });
    try {
      let res;
      if (source === 'file') {
        const form = new FormData();
        form.append('file', file);
        for (const [k, v] of Object.entries(fields(opts))) form.append(k, v);
        res = await upload('/wsdl/import:autopilot', form, (sent, total, done) => setState((s) => ({ ...s, sent, total, processing: done })));
      } else if (source === 'xml') {
        res = await api('POST', '/wsdl/import-xml:autopilot', { ...fields(opts), xml });
      } else {
        res = await api('POST', '/wsdl/import-url:autopilot', { ...fields(opts), url: url.trim() });
      }
      onDone(res);
    } catch (err) {
      setState({ busy: false, error: err });
    }
  };
  const isZip = file && /\.zip$/i.test(file.name);
  return html`<form class="stack" onSubmit=${submit} aria-busy=${state.busy ? 'true' : 'false'}>
    ${source === 'file' && html`<${Field} label="WSDL file or ZIP of a WSDL with its XSDs" hint="A .wsdl/.xml file, or a .zip whose root WSDL is found automatically." wide>${(a) => html`
      <input ...${a} type="file" name="file" required accept=".wsdl,.xml,.xsd,.zip,application/zip,text/xml,application/xml"
        onChange=${(e) => setFile(e.target.files[0] || null)} />`}<//>
      ${isZip && html`<${Field} label="Root WSDL inside the ZIP" hint="Optional: the path of the root WSDL when the archive has several.">${(a) => html`
        <input ...${a} name="rootPath" value=${opts.rootPath || ''} onInput=${(e) => setOpts({ ...opts, rootPath: e.target.value })} />`}<//>`}`}
    ${source === 'xml' && html`<${Field} label="WSDL XML" hint="Paste the root WSDL document." wide>${(a) => html`
      <textarea ...${a} name="xml" rows="12" required spellcheck="false" class="mono" value=${xml} onInput=${(e) => setXML(e.target.value)}></textarea>`}<//>`}
    ${source === 'url' && html`<${Field} label="WSDL URL" hint="http or https; the server fetches it (loopback and link-local addresses are refused unless allowed in settings)." wide>${(a) => html`
      <input ...${a} type="url" name="url" required placeholder="https://example.com/service?wsdl" value=${url} onInput=${(e) => setURL(e.target.value)} />`}<//>`}
    <${Options} value=${opts} set=${setOpts} />
    <div class="actions"><button type="submit" disabled=${state.busy}>Import and draft the service</button></div>
    ${state.busy && (state.processing
      ? html`<${Busy} label="Importing the WSDL and drafting the service" />`
      : html`<${Progress} value=${state.sent} max=${state.total || 1} label=${`Uploading ${file ? file.name : ''}`} />`)}
    <${ErrorBox} title="Import failed" error=${state.error} />
  </form>`;
}
