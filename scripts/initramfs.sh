#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the test VM's initramfs: static busybox, our init, the modules and
# the static test programs.
# Usage: [EXTRA_MODULES="a.ko b.ko"] [EXTRA_ROOT=DIR] initramfs.sh MODULE_DIR
#        TESTS_DIR OUTPUT.cpio
# EXTRA_ROOT: a tree copied over the root (make bench: perf and its libraries).
# The built-in kernel's: FIRST_CALL=PROGRAM is PID 1 (/init), which runs
# guest-init.sh as /guest-init.sh; BOOT_ROOT=PROGRAM goes to
# /varlink_boot_root, the PID 1 of rdinit=/varlink_boot_root, which execs
# /init; KSELFTEST=DIR (an installed kselftest target, run_kselftest.sh
# and all) goes to /kselftest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mods=$1 tests=$2 out=$3
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,dev,etc,proc,sys,tmp,modules,tests,root}
cp /bin/busybox "$root/bin/busybox"
if [ -n "${FIRST_CALL:-}" ]; then
	cp "$FIRST_CALL" "$root/init"
	[ -z "${BOOT_ROOT:-}" ] || cp "$BOOT_ROOT" "$root/varlink_boot_root"
	cp "$KVARLINK_TOP/scripts/guest-init.sh" "$root/guest-init.sh"
else
	cp "$KVARLINK_TOP/scripts/guest-init.sh" "$root/init"
fi
[ -z "${KSELFTEST:-}" ] || cp -r "$KSELFTEST" "$root/kselftest"
cp "$mods"/*.ko "$root/modules/"
# the kernel's own modules the tests need, where they are not built in
mkdir -p "$root/modules/extra"
for m in ${EXTRA_MODULES:-}; do
	cp "$m" "$root/modules/extra/"
done
if [ -d "$tests" ]; then
	cp -r "$tests"/. "$root/tests/"
fi
[ -z "${EXTRA_ROOT:-}" ] || cp -a "$EXTRA_ROOT"/. "$root/"
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
	'nobody:x:65534:65534:nobody:/:/bin/false' >"$root/etc/passwd"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$out"
