// wss_client.js WSDL_URL MODE ARG1 ARG2: the npm soap package as a
// WS-Security client of an s2r consume service (internal/tests/interop).
// Calls GetOrder({id: "7"}) on the orders contract with
//   text USER PASSWORD     WSSecurity, PasswordText, with a Timestamp
//   digest USER PASSWORD   WSSecurity, PasswordDigest, with a Timestamp
//   cert KEY_FILE CERT_FILE  WSSecurityCert (signs Body and Timestamp)
// and prints {"result": …} or {"fault": …} as JSON.
'use strict';
const fs = require('fs');
const soap = require('soap');

const [url, mode, a, b] = process.argv.slice(2);

function security() {
  switch (mode) {
    case 'text':
    case 'digest':
      return new soap.WSSecurity(a, b, {
        passwordType: mode === 'digest' ? 'PasswordDigest' : 'PasswordText',
        hasTimeStamp: true,
        mustUnderstand: true,
      });
    case 'cert':
      return new soap.WSSecurityCert(fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8'), '',
        { signerOptions: { idMode: 'wssecurity' } });
  }
  throw new Error('unknown mode ' + mode);
}

async function main() {
  const client = await soap.createClientAsync(url);
  client.setSecurity(security());
  try {
    const [result] = await client.GetOrderAsync({ id: '7' });
    process.stdout.write(JSON.stringify({ result }) + '\n');
  } catch (err) {
    if (err.root && err.root.Envelope) {
      process.stdout.write(JSON.stringify({ fault: err.root.Envelope.Body.Fault, status: err.response && err.response.status }) + '\n');
      return;
    }
    throw err;
  }
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exit(1);
});
