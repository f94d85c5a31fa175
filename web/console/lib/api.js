// The console's only way to the server: same-origin calls to /admin/v1.
// The identity comes from the headers the ingress adds (or, on a laptop,
// S2R_DEV_IDENTITY); the console sends none of its own.

export const ADMIN = '/admin/v1';

// ApiError is an error answer in SPEC 7.1's shape:
// {"error":{"code","message","details","correlationId"}}.
export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || `HTTP-${status}`;
    this.details = e.details || {};
    this.correlationId = e.correlationId || '';
  }
}

// listeners are told about every 401/403, so the session can refresh /me.
const denied = new Set();
export function onDenied(fn) { denied.add(fn); return () => denied.delete(fn); }

// query builds "?a=1&b=2" from an object, skipping empty values.
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function errorOf(res, quiet) {
  let body = null;
  const text = await res.text();
  try { body = JSON.parse(text); } catch { body = { error: { message: text.slice(0, 300) || res.statusText } }; }
  const err = new ApiError(res.status, body);
  if (!quiet && (res.status === 401 || res.status === 403)) denied.forEach((fn) => fn(err));
  return err;
}

// api calls METHOD /admin/v1{path}. body: an object (sent as JSON), a
// string with opts.type, or FormData. Answers the parsed JSON (null for
// 204), or {blob, headers} with opts.blob, or {json, headers} with
// opts.headers. Throws ApiError; a 401 or 403 is also told to the onDenied
// listeners unless opts.quiet.
export async function api(method, path, body, opts = {}) {
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' }, signal: opts.signal };
  if (body instanceof FormData) {
    init.body = body;
  } else if (typeof body === 'string') {
    init.body = body;
    init.headers['Content-Type'] = opts.type || 'text/plain';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(ADMIN + path, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, { error: { code: 'NETWORK', message: `the server cannot be reached: ${e.message}` } });
  }
  if (!res.ok) throw await errorOf(res, opts.quiet);
  if (opts.blob) return { blob: await res.blob(), headers: res.headers };
  if (res.status === 204) return null;
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  return opts.headers ? { json, headers: res.headers } : json;
}

export const get = (path, params, opts) => api('GET', path + query(params), undefined, opts);

// upload posts a FormData with upload progress (fetch has none):
// onProgress(loaded, total) while sending, then onProgress(total, total, true)
// once the server is working on it.
export function upload(path, form, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ADMIN + path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress && e.lengthComputable && onProgress(e.loaded, e.total, false);
    xhr.upload.onload = () => onProgress && onProgress(1, 1, true);
    xhr.onerror = () => reject(new ApiError(0, { error: { code: 'NETWORK', message: 'the server cannot be reached' } }));
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { body = { error: { message: xhr.responseText.slice(0, 300) } }; }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body);
      const err = new ApiError(xhr.status, body);
      if (xhr.status === 401 || xhr.status === 403) denied.forEach((fn) => fn(err));
      reject(err);
    };
    xhr.send(form);
  });
}

// download saves a blob answer under name.
export async function download(path, name) {
  const { blob } = await api('GET', path, undefined, { blob: true });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
