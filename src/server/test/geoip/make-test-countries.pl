#!/usr/bin/perl
# Writes test-countries.mmdb: a tiny GeoLite2-Country-shaped database over the documentation address blocks,
# for the tests of the 'Countries' figure. Run: perl make-test-countries.pl (Debian: libmaxmind-db-writer-perl).
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my %types = (
    country  => 'map',
    iso_code => 'utf8_string',
    names    => 'map',
    en       => 'utf8_string',
);
my $tree = MaxMind::DB::Writer::Tree->new(
    ip_version            => 6,
    record_size           => 24,
    # The documentation blocks used here are reserved ones, which the writer leaves out unless told.
    remove_reserved_networks => 0,
    database_type         => 'GeoLite2-Country',
    languages             => ['en'],
    description           => { en => 'Station test countries' },
    map_key_type_callback => sub { $types{ $_[0] } },
);
my %blocks = (
    '192.0.2.0/24'    => [ 'DE', 'Germany' ],
    '198.51.100.0/24' => [ 'BR', 'Brazil' ],
    '203.0.113.0/24'  => [ 'KE', 'Kenya' ],
    '2001:db8::/32'   => [ 'PH', 'Philippines' ],
);
for my $network ( sort keys %blocks ) {
    my ( $code, $name ) = @{ $blocks{$network} };
    $tree->insert_network( $network, { country => { iso_code => $code, names => { en => $name } } } );
}
open my $out, '>:raw', 'test-countries.mmdb' or die $!;
$tree->write_tree($out);
close $out;
