#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS as users run it: in the Debian root of each kernel series
# (debian-kernel.sh), add this tree as kvarlink/0.1, "dkms build" it for
# the root's kernel, check that exactly the core and the providers were
# built, then check that a kernel outside the supported range is skipped,
# not failed.  Nothing is loaded.  Prints TAP.
# Usage: dkms-test.sh SERIES...   (6.1 6.12 7.3)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

want="varlink.ko varlink_device.ko varlink_example.ko varlink_log.ko varlink_memory.ko varlink_network.ko varlink_process.ko varlink_sysctl.ko varlink_system.ko"
for series in "$@"; do
	if ! dir=$("$KVARLINK_TOP/scripts/debian-kernel.sh" "$series"); then
		tap_result 1 "dkms $series: the kernel and its root are fetched"
		continue
	fi
	root=$dir/root rel=$(cat "$dir/release")
	ver=$(in_root "$root" dpkg-query -W -f='${Version}' dkms)
	rm -rf "$root/usr/src/kvarlink-0.1" "$root/var/lib/dkms/kvarlink"
	mkdir -p "$root/usr/src/kvarlink-0.1"
	(cd "$KVARLINK_TOP" && cp -r Kbuild Makefile dkms.conf module uapi "$root/usr/src/kvarlink-0.1/")
	log=$KVARLINK_OUT/dkms-$series.log
	in_root "$root" dkms build -m kvarlink -v 0.1 -k "$rel" >"$log" 2>&1
	status=$?
	[ $status -eq 0 ] || sed 's/^/# /' "$log" | tail -n 20
	tap_result $status "dkms $series: dkms $ver builds kvarlink for $rel"
	got=$(cd "$root/var/lib/dkms/kvarlink/0.1/$rel/x86_64/module" 2>/dev/null &&
		ls | sed -n 's/\.ko\(\.xz\|\.zst\|\.gz\)\?$/.ko/p' | sort | xargs)
	[ "$got" = "$want" ]
	tap_result $? "dkms $series: built exactly $want (got: ${got:-nothing})"
	# a kernel we do not support: skipped, with the module not built
	in_root "$root" dkms build -m kvarlink -v 0.1 -k 7.9.0-1-amd64 >"$log.skip" 2>&1
	status=$?
	grep -q 'BUILD_EXCLUSIVE' "$log.skip" && [ ! -d "$root/var/lib/dkms/kvarlink/0.1/7.9.0-1-amd64/x86_64/module" ]
	tap_result $? "dkms $series: kernel 7.9 is skipped as unsupported (dkms exit $status)"
	in_root "$root" dkms remove -m kvarlink -v 0.1 --all >/dev/null 2>&1
	rm -rf "$root/usr/src/kvarlink-0.1"
done
tap_summary dkms
