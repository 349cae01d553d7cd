#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kvarlinkctl, our client (client/): info with its aligned fields,
# list-interfaces, introspect, call (short JSON by default off a
# terminal, pretty on request), --more streams, --oneway, error replies,
# timeouts, addresses (abstract, unix:, paths that lead nowhere) and the
# command line's errors.  Prints TAP, its plan first: the results are kept
# in a file until their number is known.
cli="$(dirname "$0")/kvarlinkctl"
addr=@org.kernel.varlink
t=/tmp/kvarlinkctl.$$
n=0 failed=0

check() {	# check NAME CONDITION...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		for f in "$t.out" "$t.err"; do
			[ -s "$f" ] && head -c 2000 "$f" | sed 's/^/# /'
		done
		failed=$((failed + 1))
	fi
}

# Every run has a time limit, so that a server that does not answer fails
# the check rather than hangs the VM; stdout is a file, not a terminal.
run() {		# run ARGS...: output in $t.out and $t.err, status in $rc
	timeout 60 "$cli" "$@" </dev/null >"$t.out" 2>"$t.err"
	rc=$?
}

same() {	# same EXPECTED-TEXT: $t.out is exactly that
	printf '%s\n' "$1" | cmp -s - "$t.out"
}

# An error reply, as varlinkctl words it: the line in $t.err
failed() {	# failed METHOD ERROR
	grep -qxF "Method call $1() failed: $2" "$t.err"
}

err_is() {	# err_is TEXT: $t.err is exactly that line
	[ "$(cat "$t.err")" = "$1" ]
}

# A command line refused before any connection: status 1, the message,
# the pointer to --help, nothing on stdout.
refused() {	# refused MESSAGE-PATTERN
	[ $rc -eq 1 ] && [ ! -s "$t.out" ] && grep -q "$1" "$t.err" &&
		grep -qx "Try 'kvarlinkctl --help' for more information." "$t.err"
}

exec 3>&1 >"$t.tap"

run --version
check "--version: kvarlinkctl and the version" eval '[ $rc -eq 0 ] &&
	grep -qx "kvarlinkctl [0-9][0-9.]*" "$t.out"'
echo "# $(cat "$t.out")"

run --help
check "--help: the commands, on stdout, status 0" eval '[ $rc -eq 0 ] &&
	grep -q "^  call \[ADDRESS\] METHOD \[PARAMETERS\]" "$t.out"'

# --- info and list-interfaces ---------------------------------------------

run --json=short info
cp "$t.out" "$t.getinfo"
getinfo=$(sed -n 's/.*"interfaces":\[\([^]]*\)\].*/\1/p' "$t.out" |
	tr -d '"' | tr ',' '\n' | LC_ALL=C sort)
check "info --json=short: GetInfo's parameters on one line" eval '
	[ $rc -eq 0 ] && [ "$(wc -l <"$t.out")" -eq 1 ] &&
	grep -q "^{\"vendor\":\"Linux\",.*\"interfaces\":\[" "$t.out" &&
	[ -n "$getinfo" ]'

run info
sed 's/^/# /' "$t.out"
first=$(echo "$getinfo" | head -n 1)
# built out of tree, the project's version (modinfo's); built in, the
# kernel's release
version=$(cat /sys/module/varlink/version 2>/dev/null || uname -r)
check "info: the fields, labels right-aligned as varlinkctl's" eval '
	[ $rc -eq 0 ] && [ ! -s "$t.err" ] &&
	[ "$(sed -n 1p "$t.out")" = "    Vendor: Linux" ] &&
	[ "$(sed -n 2p "$t.out")" = "   Product: kvarlink, the in-kernel varlink server" ] &&
	[ "$(sed -n 3p "$t.out")" = "   Version: $version" ] &&
	[ "$(sed -n 4p "$t.out")" = "       URL: https://varlink.org" ] &&
	[ "$(sed -n 5p "$t.out")" = "Interfaces: $first" ]'
check "info: every interface of GetInfo, sorted, aligned under the first" eval '
	[ "$(sed -n "5,\$p" "$t.out" | cut -c 13-)" = "$getinfo" ] &&
	[ -z "$(sed -n "6,\$p" "$t.out" | grep -v "^            [a-z]")" ]'

run --json=pretty info
check "info --json=pretty: the parameters, indented" eval '[ $rc -eq 0 ] &&
	grep -qx "  \"vendor\": \"Linux\"," "$t.out" &&
	grep -qxE "    \"org\.varlink\.service\",?" "$t.out"'

run list-interfaces
check "list-interfaces: GetInfo's interfaces, sorted, one a line" eval '
	[ $rc -eq 0 ] && [ "$(cat "$t.out")" = "$getinfo" ] &&
	grep -qx org.varlink.service "$t.out" &&
	grep -qx org.kernel.varlink.test "$t.out"'

run --json=short list-interfaces
array=$(sed -n 's/.*"interfaces":\(\[[^]]*\]\).*/\1/p' "$t.getinfo")
check "list-interfaces --json=short: the array as GetInfo gives it" eval '
	[ $rc -eq 0 ] && [ -n "$array" ] && [ "$(cat "$t.out")" = "$array" ]'

run list-interfaces unix:$addr
cp "$t.out" "$t.unix"
run list-interfaces $addr
check "addresses unix:@NAME and @NAME: the kernel's, as the default" eval '
	[ $rc -eq 0 ] && [ "$(cat "$t.out")" = "$getinfo" ] &&
	cmp -s "$t.out" "$t.unix"'

# --- introspect -----------------------------------------------------------

run introspect org.varlink.certification
check "introspect: the description as it is" eval '[ $rc -eq 0 ] &&
	[ "$(head -n 1 "$t.out")" = "# Interface to test varlink implementations against." ] &&
	grep -qx "interface org.varlink.certification" "$t.out" &&
	grep -qx "# returns more than one reply with \"continues\"" "$t.out"'

run introspect $addr org.kernel.varlink.test
check "introspect ADDRESS INTERFACE: a tab kept, the text ends in one newline" eval '
	[ $rc -eq 0 ] && grep -q "^	string: ?string,$" "$t.out" &&
	[ "$(tail -n 1 "$t.out")" = "error TestError (reason: string, code: int)" ]'

run introspect org.kernel.nope
check "introspect of no interface: InterfaceNotFound on stderr, status 1" eval '
	[ $rc -eq 1 ] && [ ! -s "$t.out" ] &&
	failed org.varlink.service.GetInterfaceDescription \
		org.varlink.service.InterfaceNotFound &&
	grep -qx "{\"interface\":\"org.kernel.nope\"}" "$t.err"'

# --- call -----------------------------------------------------------------

echo='{"string":"a\"b","array":[1,2],"map":{}}'
run call org.kernel.varlink.test.Echo "$echo"
check "call: short JSON off a terminal, one line" eval '[ $rc -eq 0 ] &&
	same "$echo"'

run call org.kernel.varlink.test.Ping
check "call without PARAMETERS: {} is sent, {} comes back" eval '
	[ $rc -eq 0 ] && same "{}"'

run call --json=pretty org.kernel.varlink.test.Types
check "call --json=pretty: nested values, two spaces a level" eval '
	[ $rc -eq 0 ] &&
	grep -qx "  \"everything\": {" "$t.out" &&
	grep -qx "    \"array\": \[" "$t.out" &&
	grep -qx "      -9223372036854775808," "$t.out" &&
	grep -qx "    \"set\": {" "$t.out" && grep -qx "      \"x\": {}" "$t.out"'

run call $addr org.kernel.varlink.test.Big '{"size":200000}'
check "call: a reply of 200000 bytes, more than one read" eval '[ $rc -eq 0 ] &&
	[ "$(wc -c <"$t.out")" -eq $((200000 + 12)) ]'

run call --more org.kernel.varlink.test.Count '{"n":2}'
check "call --more: each reply on a line of its own" eval '[ $rc -eq 0 ] &&
	same "{\"index\":0}
{\"index\":1}
{\"index\":2}"'

run call --more --json=pretty org.kernel.varlink.test.Count '{"n":1}'
check "call --more --json=pretty: each reply indented" eval '[ $rc -eq 0 ] &&
	same "{
  \"index\": 0
}
{
  \"index\": 1
}"'

run call org.kernel.varlink.test.Monitor '{"count":2}'
check "call of a stream without --more: ExpectedMore, and the hint" eval '
	[ $rc -eq 1 ] &&
	failed org.kernel.varlink.test.Monitor \
		"org.varlink.service.ExpectedMore (call it with --more)"'

run call org.kernel.varlink.test.Counter '{"add":0}'
before=$(sed -n 's/^{"value":\(.*\)}$/\1/p' "$t.out")
run call --oneway org.kernel.varlink.test.Counter '{"add":5}'
oneway_rc=$rc
cat "$t.out" "$t.err" >"$t.oneway"
run call org.kernel.varlink.test.Counter '{"add":0}'
after=$(sed -n 's/^{"value":\(.*\)}$/\1/p' "$t.out")
check "call --oneway: no output, status 0, the call ran before the exit" eval '
	[ $oneway_rc -eq 0 ] && [ ! -s "$t.oneway" ] && [ -n "$before" ] &&
	[ "$after" -eq $((before + 5)) ]'

run call org.kernel.varlink.test.Raise '{"reason":"on purpose","code":7}'
check "call: an error's name on stderr, its parameters on stdout, status 1" eval '
	[ $rc -eq 1 ] &&
	failed org.kernel.varlink.test.Raise org.kernel.varlink.test.TestError &&
	[ "$(wc -l <"$t.err")" -eq 1 ] &&
	same "{\"reason\":\"on purpose\",\"code\":7}"'

run call org.varlink.certification.Test01 '{"client_id":"x"}'
check "call: the certification's ClientIdError, status 1" eval '[ $rc -eq 1 ] &&
	failed org.varlink.certification.Test01 org.varlink.certification.ClientIdError'

run call org.kernel.varlink.test.Nope
check "call of no method: MethodNotFound, status 1" eval '[ $rc -eq 1 ] &&
	grep -q "failed: org.varlink.service.MethodNotFound$" "$t.err"'

run --timeout=1 call org.kernel.varlink.test.Slow '{"ms":3000}'
check "call --timeout=1 of a 3 s call: no reply within 1 s, status 1" eval '
	[ $rc -eq 1 ] && [ ! -s "$t.out" ] &&
	err_is "No reply from $addr within 1 s."'

# --- the kernel's interfaces: what udevadm, journald and sysctl read ------

timeout 3 "$cli" call --more --json=short org.kernel.device.Monitor \
	'{"subsystems":["none"]}' </dev/null >"$t.out" 2>"$t.err"
check "device.Monitor --more: {\"ready\":true} first" eval '
	[ "$(head -n 1 "$t.out")" = "{\"ready\":true}" ]'
run call --json=short org.kernel.device.GetAttributes \
	'{"syspath":"/devices/virtual/mem/null","names":["dev","no_such"]}'
check "device.GetAttributes: the value, and null" same \
	'{"attributes":{"dev":"1:3","no_such":null}}'
run call --more --json=short org.kernel.log.Read '{}'
check "log.Read --more: each entry with its usec" eval '[ $rc -eq 0 ] &&
	[ "$(grep -c "\"entry\":" "$t.out")" = "$(grep -c "\"usec\":" "$t.out")" ]'
run call --json=short org.kernel.sysctl.Apply \
	'{"settings":[{"name":"kernel.no_such","value":"1","ignore_failure":true}]}'
check "sysctl.Apply: a failure ignored, nothing applied" same '{"applied":[]}'

# --- addresses that lead nowhere ------------------------------------------

nobody=@kvarlinkctl.nobody.listens
run info $nobody
check "a name nobody listens on: refused, status 1" eval '[ $rc -eq 1 ] &&
	[ ! -s "$t.out" ] && err_is "Failed to connect to $nobody: Connection refused"'

path=unix:/nonexistent/varlink.sock
run call $path org.kernel.varlink.test.Ping
check "unix:PATH of no socket: status 1, the reason" eval '[ $rc -eq 1 ] &&
	err_is "Failed to connect to $path: No such file or directory"'

run list-interfaces ./nonexistent.sock
check "a relative PATH of no socket: status 1, the reason" eval '[ $rc -eq 1 ] &&
	grep -qx "Failed to connect to ./nonexistent.sock: No such file or directory" "$t.err"'

run info /dev/null
check "a PATH that is no socket: status 1, the reason" eval '[ $rc -eq 1 ] &&
	grep -q "^Failed to connect to /dev/null: " "$t.err"'

# --- the command line -----------------------------------------------------

run
check "no command: refused" refused "no command given"
run frobnicate
check "an unknown command: refused" refused "unknown command 'frobnicate'"
run call org.kernel.varlink.test.ping
check "a method name that is not one: refused" refused "invalid method name"
run call org.kernel.varlink.test.Ping '[1]'
check "PARAMETERS not an object: refused before connecting" refused \
	"PARAMETERS must be a JSON object"
run call org.kernel.varlink.test.Ping '{"a":'
check "PARAMETERS not JSON: refused, with where" refused \
	"PARAMETERS are not valid JSON: .* at byte 5"
run introspect 'org."x'
check "an interface name that is not one: refused" refused "invalid interface name"
run call --more --oneway org.kernel.varlink.test.Ping
check "--more with --oneway: refused" refused "exclude each other"
run --json=ugly info
check "--json=ugly: refused" refused "not 'pretty' or 'short'"
run call tcp:127.0.0.1:1 org.kernel.varlink.test.Ping
check "an address of another kind: refused" refused "unsupported address"
run info $addr extra
check "an argument too many: refused" refused "info takes \[ADDRESS\] only"

# --- what it looks like, for the README ----------------------------------

show() {	# show ARGS...: the command and what it prints, as comments
	echo "# \$ kvarlinkctl $*"
	timeout 60 "$cli" "$@" </dev/null 2>&1 | head -n 60 | sed 's/^/# /'
}
show call --json=pretty org.kernel.system.Describe
show call --json=pretty org.kernel.network.GetLink '{"name":"lo"}'
show call --json=pretty org.kernel.process.GetProcess '{"pid":1}'
show call --json=pretty org.kernel.example.Hello '{"name":"world"}'
show call --more org.kernel.example.Count '{"n":3}'
show call org.kernel.network.GetLink '{"name":"nope0"}'
show introspect org.kernel.example
show call --json=pretty org.kernel.pressure.Get '{"resource":"cpu"}'
show call org.kernel.pressure.Get '{"resource":"irq"}'

exec >&3 3>&-
printf 'TAP version 13\n1..%d\n' "$n"
cat "$t.tap"
rm -f "$t".*
[ $failed -eq 0 ]
