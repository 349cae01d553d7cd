#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's Go certification client (varlink/go, cmd/varlink-go-certification)
# against org.varlink.certification.  It exits 0 whatever happens: the
# run passes when it prints "End: 'true'".
dir=$(dirname "$0")
out=/tmp/varlink-go-certification.out

printf 'TAP version 13\n1..1\n'
"$dir/varlink-go-certification" -client -varlink=unix:@org.kernel.varlink >"$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
if [ $rc -eq 0 ] && grep -qx "End: 'true'" "$out"; then
	echo "ok 1 varlink-go-certification -client: End: 'true'"
	exit 0
fi
echo "not ok 1 varlink-go-certification -client (exit $rc)"
exit 1
