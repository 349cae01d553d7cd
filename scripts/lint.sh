#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict over every C file and header, then sparse over the
# modules.  Prints one TAP line per file and tool; fails on any finding.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$(ksrc_ensure) || exit 1
n=0 failed=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

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
	esac
	report=$("$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types $ignore -f "$f" 2>&1)
	[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
	result "$([ -z "$report" ] && echo 0 || echo 1)" "checkpatch $f"
done

rel=$(stock_release)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rsync -a "$KVARLINK_TOP/Kbuild" "$KVARLINK_TOP/module" "$KVARLINK_TOP/uapi" "$tmp/" \
	--exclude='*.o' --exclude='*.ko' --exclude='*.cmd' --exclude='*.mod*'
report=$(make -s -C "/usr/src/linux-headers-$rel" M="$tmp" W=1 C=2 VARLINK_DEBUG=y modules 2>&1 |
	grep -v 'Skipping BTF generation' | grep -E 'warning|error|sparse')
[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
result "$([ -z "$report" ] && echo 0 || echo 1)" "sparse and W=1 ($rel)"

echo "# lint: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
