// backend.js WSDL_FILE [1.1|1.2]: the npm soap package as a SOAP backend on
// 127.0.0.1 (a free port), serving the echo service of echo_service.js at
// /echo. Prints "PORT=<n>" once listening; runs until killed.
'use strict';
const fs = require('fs');
const http = require('http');
const soap = require('soap');
const { echoService, exactNumbers, declareXsi } = require('./echo_service');

const [wsdlFile, version = '1.1'] = process.argv.slice(2);
const soap12 = version === '1.2';
const xml = fs.readFileSync(wsdlFile, 'utf8');

const server = http.createServer((req, res) => {
  res.statusCode = 404;
  res.end();
});
server.listen(0, '127.0.0.1', () => {
  const soapServer = soap.listen(server, {
    path: '/echo', services: echoService(soap12), xml, forceSoap12Headers: soap12, handleNilAsNull: true,
    customDeserializer: exactNumbers,
  });
  declareXsi(soapServer);
  process.stdout.write('PORT=' + server.address().port + '\n');
});
