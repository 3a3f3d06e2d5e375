# Sourced by tools/run-tests and tools/vm/run-guest-test: a guest test's
# "# nocb-guest: cmdline="..." smp=N cpu=intel timeout=S ..." header.
# guest_header TEST: the header line of TEST, without its prefix.
guest_header() { sed -n 's/^# nocb-guest: //p' "$1" | head -1; }
# guest_header_val KEY HEADER: KEY's value in HEADER, quoted or not.
guest_header_val() {
	sed -n "s/.*\\b$1=\"\\([^\"]*\\)\".*/\\1/p; t; s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"
}
