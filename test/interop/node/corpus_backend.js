// corpus_backend.js WSDL_FILE ANSWERS_JSON: the npm soap package as a SOAP
// backend on 127.0.0.1 (a free port) for a WSDL as it is published (a
// corpus file, read with its imports from its folder), at /service. Every
// operation of every port answers ANSWERS_JSON[operation name] and keeps
// the arguments it was called with; GET /last answers the last call as
// JSON {operation, args}. Prints "PORT=<n>" once listening; runs until
// killed.
'use strict';
const fs = require('fs');
const http = require('http');
const soap = require('soap');

const [wsdlFile, answersJSON] = process.argv.slice(2);
const answers = JSON.parse(answersJSON);
const xml = fs.readFileSync(wsdlFile, 'utf8');
let last = null;

const server = http.createServer((req, res) => {
  if (req.url === '/last') {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(last));
    return;
  }
  res.statusCode = 404;
  res.end();
});

// services answers every operation node-soap finds in the WSDL.
function services(definitions) {
  const out = {};
  for (const [svcName, svc] of Object.entries(definitions.services)) {
    out[svcName] = {};
    for (const [portName, port] of Object.entries(svc.ports)) {
      out[svcName][portName] = {};
      for (const op of Object.keys(port.binding.methods)) {
        out[svcName][portName][op] = (args) => {
          last = { operation: op, args };
          return answers[op];
        };
      }
    }
  }
  return out;
}

const wsdl = new soap.WSDL(xml, wsdlFile, {});
wsdl.onReady((err) => {
  if (err) {
    process.stderr.write(String(err) + '\n');
    process.exit(1);
  }
  server.listen(0, '127.0.0.1', () => {
    soap.listen(server, { path: '/service', services: services(wsdl.definitions), xml, uri: wsdlFile });
    process.stdout.write('PORT=' + server.address().port + '\n');
  });
});
