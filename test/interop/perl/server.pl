#!/usr/bin/perl
# server.pl: Debian's Perl SOAP::Lite (libsoap-lite-perl) as the SOAP
# backends of the publish interop tests (internal/tests/interop): one
# SOAP::Transport::HTTP::Daemon on 127.0.0.1 (a free port) serving both
# contracts of test/interop/wsdl, dispatched by the namespace of the
# operation element. Prints "PORT=<n>" once listening; runs until killed.
#
#   urn:example:ledger    ledger.wsdl, document/literal: Post echoes its
#                         entry; Reject dies with the Fault Client.CardDeclined
#                         and a Decline detail.
#   urn:example:accounts  accounts-rpc.wsdl, rpc/encoded: getAccount answers
#                         a stored account; freeze dies with Server.Frozen.
#
# SOAP::Lite writes its answers the way it always does: the response
# element declares the operation's namespace as the default namespace, so
# every member below it is qualified (SOAP 1.1 section 5 wants encoded
# members unqualified; s2r accepts both), and values carry xsi:type.
use strict;
use warnings;
use utf8;
use SOAP::Transport::HTTP;

# text is a leaf element typed as a string, so SOAP::Lite escapes it.
sub text { SOAP::Data->name($_[0] => $_[1])->type('string') }

# echo rebuilds a request element (a SOAP::Data from SOAP::SOM::dataof) as
# an answer element of the same name, in the answer's default namespace.
sub echo {
	my ($d) = @_;
	my $v = $d->value;
	if (ref $v eq 'REF' && ref $$v eq 'SOAP::Data') {
		return SOAP::Data->name($d->name => \SOAP::Data->value(map { echo($_) } $$v->value));
	}
	return SOAP::Data->name($d->name)->attr({'xsi:nil' => 'true'}) unless defined $v;
	return text($d->name, $v);
}

package Ledger;
use parent -norequire, 'SOAP::Server::Parameters';

sub Post {
	my $som = pop;
	return main::echo($som->dataof('//Post/entry'));
}

sub Reject {
	my $som = pop;
	my $reason = $som->valueof('//Reject/reason');
	die SOAP::Fault->faultcode('Client.CardDeclined')->faultstring("declined: $reason")
		->faultdetail(SOAP::Data->name(Decline => \SOAP::Data->value(
			main::text(reason => $reason), main::text(limit => '100.50')))->attr({xmlns => 'urn:example:ledger'}));
}

package Accounts;
use parent -norequire, 'SOAP::Server::Parameters';

sub getAccount {
	my ($class, $id) = @_;
	return SOAP::Data->name(return => \SOAP::Data->value(
		SOAP::Data->name(id => $id)->type('long'),
		SOAP::Data->name(owner => \SOAP::Data->value(
			main::text(name => 'Zoë <&> "q"'), SOAP::Data->name(since => '2001-02-03')->type('date'))),
		SOAP::Data->name(balance => '12345678901234567890.000000001')->type('decimal'),
		SOAP::Data->name(tags => [main::text(item => 'only one')]),
		SOAP::Data->name(closed => 'false')->type('boolean'),
		SOAP::Data->name(note => undef),
	))->type('Account');
}

sub freeze {
	my ($class, $id, $reason) = @_;
	die SOAP::Fault->faultcode('Server.Frozen')->faultstring("frozen: $reason");
}

package main;

my $daemon = SOAP::Transport::HTTP::Daemon->new(LocalAddr => '127.0.0.1', LocalPort => 0, Reuse => 1)
	->dispatch_with({'urn:example:ledger' => 'Ledger', 'urn:example:accounts' => 'Accounts'});
$| = 1;
print 'PORT=', $daemon->sockport, "\n";

# The daemon serves one connection at a time (HTTP::Daemon), and its own
# handle loop keeps a connection open for the client's next request, so a
# second connection (s2r keeps one per backend) would wait for the first
# to close. Answer one request per connection, with Connection: close.
while (my $c = $daemon->accept) {
	if (my $r = $c->get_request) {
		$daemon->request($r);
		$daemon->SOAP::Transport::HTTP::Server::handle;
		$c->force_last_request;
		$daemon->response->header(Connection => 'close');
		$c->send_response($daemon->response);
	}
	$c->close;
}
