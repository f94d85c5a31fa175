// client.js WSDL_URL OPERATION ARGS_JSON [1.1|1.2]: the npm soap package as
// a SOAP client. Loads the WSDL (and its imports) from WSDL_URL, calls
// OPERATION with ARGS_JSON and prints {"result": …} or {"fault": …} as JSON.
'use strict';
const soap = require('soap');

const [url, operation, argsJSON, version = '1.1'] = process.argv.slice(2);

async function main() {
  const client = await soap.createClientAsync(url, {
    forceSoap12Headers: version === '1.2',
    handleNilAsNull: true,
    // Keep numbers as their exact text: JavaScript numbers would round 64-bit integers and long decimals.
    customDeserializer: { long: (t) => t, decimal: (t) => t, integer: (t) => t },
  });
  try {
    const [result] = await client[operation + 'Async'](JSON.parse(argsJSON));
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
