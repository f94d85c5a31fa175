<?php
// server.php: PHP's ext/soap (Debian php-soap) as the SOAP backends of the
// publish interop tests (internal/tests/interop), run by PHP's built-in
// server: php -S 127.0.0.1:PORT server.php. One process serves both
// contracts of test/interop/wsdl:
//
//   POST /ledger    ledger.wsdl, document/literal: Post echoes its entry;
//                   Reject answers the declared Fault Client.CardDeclined.
//   POST /accounts  accounts-rpc.wsdl, rpc/encoded: getAccount answers a
//                   stored account; freeze answers the Fault Server.Frozen.
//
// ext/soap keeps xs:decimal and xs:long values as they are written (a
// decimal as its text, a long as a 64-bit integer), so values round-trip
// exactly.

$wsdl = __DIR__ . '/../wsdl/';

class Ledger {
	public function Post($req) {
		return ['entry' => $req->entry];
	}
	public function Reject($req) {
		throw new SoapFault('Client.CardDeclined', 'declined: ' . $req->reason, null,
			['reason' => $req->reason, 'limit' => '100.50'], 'Decline');
	}
}

class Accounts {
	public function getAccount($id) {
		return [
			'id' => $id,
			'owner' => ['name' => 'Zoë <&> "q"', 'since' => '2001-02-03'],
			'balance' => '12345678901234567890.000000001',
			'tags' => ['only one'],
			'closed' => false,
			'note' => null,
		];
	}
	public function freeze($id, $reason) {
		throw new SoapFault('Server.Frozen', 'frozen: ' . $reason);
	}
}

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$opts = ['cache_wsdl' => WSDL_CACHE_NONE, 'features' => SOAP_SINGLE_ELEMENT_ARRAYS];
switch ($path) {
case '/ledger':
	$server = new SoapServer($wsdl . 'ledger.wsdl', $opts);
	$server->setClass('Ledger');
	break;
case '/accounts':
	$server = new SoapServer($wsdl . 'accounts-rpc.wsdl', $opts);
	$server->setClass('Accounts');
	break;
default:
	http_response_code(404);
	return;
}
$server->handle();
