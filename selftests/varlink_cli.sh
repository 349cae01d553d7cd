#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# varlink-cli, our client: pretty replies, --more, --oneway, errors,
# descriptions printed as text, and the demo.
cli="$(dirname "$0")/varlink-cli"
t=/tmp/varlink-cli.$$
n=0 failed=0

check() {	# check NAME CONDITION...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		sed 's/^/# /' "$t.out" "$t.err"
		failed=$((failed + 1))
	fi
}

run() {		# run ARGS...: output in $t.out and $t.err, status in $rc
	"$cli" "$@" >"$t.out" 2>"$t.err"
	rc=$?
}

same() {	# same EXPECTED-TEXT: $t.out is exactly that
	printf '%s\n' "$1" | cmp -s - "$t.out"
}

printf 'TAP version 13\n1..7\n'

run info
check "info: GetInfo, indented" eval '[ $rc -eq 0 ] &&
	grep -qx "  \"vendor\": \"Linux\"," "$t.out" &&
	grep -qxE "    \"org\.varlink\.service\",?" "$t.out"'

run call --more org.kernel.varlink.test.Count '{"n":2}'
check "call --more: every reply" eval '[ $rc -eq 0 ] && same "{
  \"index\": 0
}
{
  \"index\": 1
}
{
  \"index\": 2
}"'

run call org.kernel.varlink.test.Types
check "call: nested values" eval '[ $rc -eq 0 ] &&
	grep -qx "  \"everything\": {" "$t.out" &&
	grep -qx "    \"array\": \[" "$t.out" &&
	grep -qx "      -9223372036854775808," "$t.out" &&
	grep -qx "    \"set\": {" "$t.out" && grep -qx "      \"x\": {}" "$t.out"'

run call org.kernel.varlink.test.Counter '{"add":0}'
before=$(sed -n 's/^  "value": \(.*\)$/\1/p' "$t.out")
run call --oneway org.kernel.varlink.test.Counter '{"add":5}'
oneway_rc=$rc
cp "$t.out" "$t.oneway"
run call org.kernel.varlink.test.Counter '{"add":0}'
after=$(sed -n 's/^  "value": \(.*\)$/\1/p' "$t.out")
check "call --oneway: no output, the call ran" eval '[ $oneway_rc -eq 0 ] &&
	[ ! -s "$t.oneway" ] && [ -n "$before" ] &&
	[ "$after" -eq $((before + 5)) ]'

run call org.varlink.certification.Test01 '{"client_id":"x"}'
check "call: an error on stderr, status 1" eval '[ $rc -eq 1 ] && [ ! -s "$t.out" ] &&
	grep -qx "error: org.varlink.certification.ClientIdError" "$t.err"'

run describe org.varlink.certification
check "describe: the text as it is" eval '[ $rc -eq 0 ] &&
	[ "$(head -n 1 "$t.out")" = "# Interface to test varlink implementations against." ] &&
	grep -qx "interface org.varlink.certification" "$t.out" &&
	grep -qx "# returns more than one reply with \"continues\"" "$t.out"'

run demo
check "demo: GetInfo, the interfaces, their descriptions" eval '[ $rc -eq 0 ] &&
	grep -qx "== org.varlink.service.GetInfo" "$t.out" &&
	grep -qx "== the interfaces" "$t.out" &&
	grep -qx "org.varlink.certification" "$t.out" &&
	grep -qx "== org.varlink.service" "$t.out" &&
	grep -qx "interface org.varlink.service" "$t.out"'

rm -f "$t.out" "$t.err" "$t.oneway"
[ $failed -eq 0 ]
