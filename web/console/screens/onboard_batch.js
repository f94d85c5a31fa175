// Batch import: several WSDL or ZIP files through
// POST /wsdl/import-files:autopilot, a few files per request so progress
// can be shown, with every file's result or error.
import { html, useState } from '../lib/html.js';
import { upload } from '../lib/api.js';
import { Link, BASE } from '../lib/router.js';
import { Field, ErrorBox, Progress, Status } from '../components/ui.js';
import { DataTable } from '../components/table.js';
import { Options } from './onboard.js';

const perRequest = 5;

export function BatchImport() {
  const [files, setFiles] = useState([]);
  const [opts, setOpts] = useState({ environment: 'dev', direction: 'publish' });
  const [items, setItems] = useState(null);
  const [done, setDone] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);

  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(0);
    const all = [];
    setItems(all);
    try {
      for (let i = 0; i < files.length; i += perRequest) {
        const chunk = files.slice(i, i + perRequest);
        const form = new FormData();
        chunk.forEach((f) => form.append('file', f));
        for (const k of ['environment', 'direction', 'backendUrl']) if (opts[k]) form.append(k, opts[k].trim());
        const res = await upload('/wsdl/import-files:autopilot', form);
        res.items.forEach((it) => all.push({ ...it, index: i + it.index }));
        setItems([...all]);
        setDone(i + chunk.length);
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const ok = items ? items.filter((i) => i.result).length : 0;
  const columns = [
    { key: 'source', label: 'File', render: (i) => html`<code>${i.source}</code>` },
    { key: 'status', label: 'Result', render: (i) => (i.result ? html`<${Status} value="succeeded" />` : html`<${Status} value="failed" /> <span class="muted">HTTP ${i.status}</span>`) },
    { key: 'service', label: 'Service', render: (i) => (i.result
      ? html`<${Link} href=${`${BASE}/services/${i.result.service.serviceId}`}>${i.result.service.serviceKey}<//> <span class="muted">(${i.result.operations.length} operations)</span>`
      : html`<${ErrorBox} error=${i.error} />`) },
    { key: 'readiness', label: 'Readiness', render: (i) => i.result && html`<${Status} value=${i.result.publishReadiness?.status} />` },
  ];
  return html`<form class="stack" onSubmit=${submit}>
    <${Field} label="WSDL or ZIP files" hint="Select several files; each becomes its own draft service, keyed by its WSDL service name." wide>${(a) => html`
      <input ...${a} type="file" multiple required accept=".wsdl,.xml,.zip" onChange=${(e) => setFiles([...e.target.files])} />`}<//>
    <${Options} value=${opts} set=${setOpts} batch />
    <div class="actions"><button type="submit" disabled=${busy || files.length === 0}>Import ${files.length || ''} file${files.length === 1 ? '' : 's'}</button></div>
    ${busy && html`<${Progress} value=${done} max=${files.length} label=${`Imported ${done} of ${files.length} files`} />`}
    <${ErrorBox} title="Batch import failed" error=${error} />
    ${items && items.length > 0 && html`<p role="status">${ok} of ${items.length} files imported${items.length - ok ? `, ${items.length - ok} failed` : ''}.</p>
      <${DataTable} caption="Batch results" columns=${columns} rows=${items} rowKey=${(i) => i.index} />`}
  </form>`;
}
