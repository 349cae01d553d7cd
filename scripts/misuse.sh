#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The provider API refuses misuse at build time: compiles each case of
# selftests/build/param_misuse.c against a kernel build tree, in a
# module of its own in a temporary directory.  CASE_OK must build; every
# other case must fail, and for the reason the header gives (its check
# macro in the compiler's notes), not for another error.  One TAP line
# per case.
# Usage: misuse.sh KDIR
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1
file=$KVARLINK_TOP/selftests/build/param_misuse.c
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$file" "$tmp/"
cat >"$tmp/Kbuild" <<KBUILD
obj-m := param_misuse.o
ccflags-y := -I$KVARLINK_TOP/module/include -DCASE_\$(CASE)
KBUILD

for c in $(sed -n 's/.*defined(CASE_\([A-Z0-9_]*\)).*/\1/p' "$file"); do
	rm -f "$tmp/param_misuse.o"
	out=$(make -s -C "$kdir" M="$tmp" CASE="$c" W=1 param_misuse.o 2>&1)
	built=$?
	if [ "$c" = OK ]; then
		[ $built -eq 0 ] && [ -z "$out" ]
	else
		[ $built -ne 0 ] && grep -q '__VARLINK_PARAM_CHECK' <<<"$out"
	fi
	ok=$?
	[ $ok -ne 0 ] && printf '%s\n' "$out" | sed 's/^/# /'
	tap_result $ok "$([ "$c" = OK ] || echo "refused: ")$c"
done

tap_summary misuse
