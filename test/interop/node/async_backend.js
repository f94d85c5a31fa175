// async_backend.js WSDL_FILE [1.1|1.2] [SECRET]: the npm soap package as an
// asynchronous SOAP backend on 127.0.0.1 (a free port). The soap package
// serves the echo service of backend.js at /sync; /echo acknowledges each
// request at once (202, no body) and, a moment later, POSTs the envelope
// the soap package produced for it (the response, or its SOAP Fault) to
// the request's WS-Addressing ReplyTo address as a callback: with
// wsa:RelatesTo = the request's wsa:MessageID, and the shared secret
// SECRET in X-S2R-Callback-Secret. Prints
// "PORT=<n>" once listening and one "CALLBACK <status>" line per callback
// delivered; runs until killed.
'use strict';
const fs = require('fs');
const http = require('http');
const soap = require('soap');
const { echoService, exactNumbers, declareXsi } = require('./echo_service');

const [wsdlFile, version = '1.1', secret = ''] = process.argv.slice(2);
const soap12 = version === '1.2';
const xml = fs.readFileSync(wsdlFile, 'utf8');
const WSA = 'http://www.w3.org/2005/08/addressing';

// post sends body to url and resolves with the status and answer text.
function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// headerText returns the text of the first element named local in the
// WS-Addressing namespace's usual prefixes (the request is s2r's).
function headerText(envelope, local) {
  const m = envelope.match(new RegExp('<(?:[\\w.-]+:)?' + local + '\\b[^>]*>([^<]*)<'));
  return m ? m[1].trim() : '';
}

// withRelatesTo adds a wsa:RelatesTo header block to an envelope.
function withRelatesTo(envelope, id) {
  const block = '<wsa:RelatesTo xmlns:wsa="' + WSA + '">' + id + '</wsa:RelatesTo>';
  const env = envelope.match(/<([\w.-]+):Envelope\b/);
  const p = env ? env[1] : 'soap';
  const header = new RegExp('<' + p + ':Header\\s*>');
  if (header.test(envelope)) {
    return envelope.replace(header, (h) => h + block);
  }
  return envelope.replace('<' + p + ':Body', '<' + p + ':Header>' + block + '</' + p + ':Header><' + p + ':Body');
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/echo') {
    res.statusCode = 404;
    res.end();
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    const messageId = headerText(body, 'MessageID');
    const replyTo = headerText(body, 'Address');
    if (!messageId || !replyTo) {
      res.statusCode = 400;
      res.end('no WS-Addressing MessageID or ReplyTo');
      return;
    }
    res.statusCode = 202; // acknowledged: the answer comes as a callback
    res.end();
    const headers = { 'Content-Type': req.headers['content-type'] };
    if (req.headers.soapaction !== undefined) {
      headers.SOAPAction = req.headers.soapaction;
    }
    setTimeout(async () => {
      try {
        const answer = await post('http://127.0.0.1:' + server.address().port + '/sync', headers, body);
        const ct = soap12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
        const cb = await post(replyTo, { 'Content-Type': ct, 'X-S2R-Callback-Secret': secret },
          withRelatesTo(answer.body, messageId));
        process.stdout.write('CALLBACK ' + cb.status + ' ' + cb.body + '\n');
      } catch (err) {
        process.stdout.write('CALLBACK error ' + err.message + '\n');
      }
    }, 50);
  });
});

server.listen(0, '127.0.0.1', () => {
  const soapServer = soap.listen(server, {
    path: '/sync', services: echoService(soap12), xml, forceSoap12Headers: soap12, handleNilAsNull: true,
    customDeserializer: exactNumbers,
  });
  declareXsi(soapServer);
  process.stdout.write('PORT=' + server.address().port + '\n');
});
