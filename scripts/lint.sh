#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict over every C file and header, then W=1 and sparse
# builds of the modules for the release kernels of make check.  Prints one TAP
# line per file and tool; fails on any finding.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$(ksrc_ensure) || exit 1

cd "$KVARLINK_TOP" || exit 1
# Kernel code passes every check.  Userspace test code may use the
# CamelCase names of the APIs it calls (libFuzzer, cJSON); the host shim
# headers re-create kernel headers and are not checked.
for f in $(git ls-files -co --exclude-standard '*.c' '*.h' | sort); do
	[ -e "$f" ] || continue
	ignore=
	case "$f" in
	selftests/host/include/*) continue ;;
	selftests/host/*|selftests/fuzz/*) ignore="--ignore CAMELCASE" ;;
	# version tests are compat.h's purpose
	module/compat.h) ignore="--ignore LINUX_VERSION_CODE" ;;
	esac
	report=$("$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types $ignore -f "$f" 2>&1)
	[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
	tap_result "$([ -z "$report" ] && echo 0 || echo 1)" "checkpatch $f"
done

# W=1 on every kernel, and sparse where Debian's sparse can read the
# kernel's headers: trixie's 0.6.4 stops at 7.3's __typeof_unqual__
for kernel in stock 6.12 7.3; do
	vm_kernel "$kernel"
	checker=C=2 what="sparse and W=1"
	[ "$kernel" = 7.3 ] && checker= what="W=1"
	report=$(KBUILD_EXTRA=$checker VARLINK_DEBUG=y \
		"$KVARLINK_TOP/scripts/build-module.sh" "$kdir" "$KVARLINK_OUT/lint-$kernel" $kroot 2>&1 |
		grep -E 'warning|error|sparse')
	[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
	tap_result "$([ -z "$report" ] && echo 0 || echo 1)" "$what ($rel)"
done

tap_summary lint
