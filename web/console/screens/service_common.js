// Helpers shared by the service screens.
import { html, useState } from '../lib/html.js';
import { api } from '../lib/api.js';
import { ErrorBox, announce } from '../components/ui.js';

// runtimePath is how a client calls an operation of a service.
export function runtimePath(service, op) {
  const base = `${location.origin}/${service.direction}/${service.environment}/${service.serviceKey}`;
  if (service.direction === 'publish') return `${op.restMethod || 'POST'} ${base}${op.restPath || `/${op.operationKey}`}`;
  return `POST ${base} (SOAP ${op.soapOperationName})`;
}

// pickVersion chooses the version a screen edits by default: the draft,
// else the active version, else the newest.
export function pickVersion(versions, wanted) {
  return versions.find((v) => v.versionId === wanted) || versions.find((v) => v.status === 'draft') ||
    versions.find((v) => v.status === 'active') || versions[0];
}

// useSave wraps a write: busy flag, error, and a success announcement.
export function useSave() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (fn, ok) => {
    setBusy(true);
    setError(null);
    try {
      const res = await fn();
      if (ok) announce(ok);
      return res;
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError, errorBox: html`<${ErrorBox} error=${error} />` };
}

// send is api() for the service screens.
export const send = api;

// parseJSON parses an editor's text or throws an error the ErrorBox shows.
export function parseJSON(text, field) {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw { code: 'JSON', message: `${field} is not valid JSON: ${e.message}`, details: { field } };
  }
}
