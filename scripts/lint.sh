#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict over every C file and header, then W=1 and sparse
# builds of the modules for the release kernels of make check.  Prints one TAP
# line per file and tool; fails on any finding.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$(ksrc_ensure) || exit 1

cd "$KVARLINK_TOP" || exit 1
# checkpatch, or what it said before of the same file under the same
# options: its reports are kept in the cache, named after checkpatch
# (its source tree and its text), its arguments and the file's content,
# but for a patch's commit and date (its first "From <commit>" and
# "Date:" lines), which every commit of this project changes and
# checkpatch does not judge.
# Usage: checkpatch_cached REPORT ARGUMENT... FILE
checkpatch_cached() {
	local report=$1 file=${!#} key status
	shift
	key=$( { echo "$src $checkpatch_sum $*"
		awk 'head && (/^From [0-9a-f]+ / || /^Date: /) { next }
			/^---$/ { head = 0 } { print }' head=1 "$file"; } |
		sha256sum | cut -c1-32)
	if [ -e "$cpcache/$key" ]; then
		touch "$cpcache/$key"
		cp "$cpcache/$key" "$report"
		return
	fi
	"$src/scripts/checkpatch.pl" "$@" >"$report" 2>&1
	status=$?
	# 1: it found something; more, it did not finish
	[ $status -gt 1 ] || { cp "$report" "$cpcache/$key.$$" && mv "$cpcache/$key.$$" "$cpcache/$key"; }
}
cpcache=$KVARLINK_CACHE/checkpatch
checkpatch_sum=$(sha256sum <"$src/scripts/checkpatch.pl" | cut -c1-64)
mkdir -p "$cpcache"
find "$cpcache" -type f -mtime +30 -delete

# Kernel code passes every check.  Userspace test code may use the
# CamelCase names of the APIs it calls (libFuzzer, cJSON); the host shim
# headers re-create kernel headers and are not checked.  checkpatch runs
# on one file a CPU at a time; its reports are printed in order after.
checkpatch_one() {
	local f=$1 ignore=
	case "$f" in
	selftests/host/*|selftests/fuzz/*) ignore="--ignore CAMELCASE" ;;
	# version tests are compat.h's purpose
	module/compat.h) ignore="--ignore LINUX_VERSION_CODE" ;;
	# VARLINK_PARAM() names the member twice, for offsetof() and for
	# its type, as container_of() does: a member has no side effects;
	# module_varlink_interface() is declarations at file scope (a module
	# alias, and module_driver()'s init and exit), as MODULE_ALIAS_CRYPTO()
	# is, which no do-while can hold
	module/include/linux/varlink.h) ignore="--ignore MACRO_ARG_REUSE,MULTISTATEMENT_MACRO_USE_DO_WHILE" ;;
	# the table of limits is an X-macro (as the kernel's own
	# FOR_EACH_ tables): its X is a macro name applied once per
	# line, and each X expands to declarations or statements
	module/params.h) ignore="--ignore COMPLEX_MACRO,MACRO_ARG_REUSE,TRAILING_SEMICOLON,LINE_SPACING" ;;
	module/params.c) ignore="--ignore MACRO_ARG_REUSE,TRAILING_SEMICOLON" ;;
	esac
	# shellcheck disable=SC2086 # $ignore is words
	checkpatch_cached "$reports/${f//\//%}" --strict --no-tree --quiet --show-types $ignore -f "$f"
}
reports=$KVARLINK_OUT/checkpatch
rm -rf "$reports"
mkdir -p "$reports"
files=()
for f in $(git ls-files -co --exclude-standard '*.c' '*.h' | sort); do
	case "$f" in selftests/host/include/*) continue ;; esac
	[ -e "$f" ] && files+=("$f")
done
export -f checkpatch_cached checkpatch_one
export src reports cpcache checkpatch_sum
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 1 bash -c 'checkpatch_one "$1"' checkpatch
for f in "${files[@]}"; do
	report=$(cat "$reports/${f//\//%}" 2>/dev/null || echo "no report")
	[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
	tap_result "$([ -z "$report" ] && echo 0 || echo 1)" "checkpatch $f"
done

# The client as a distribution builds it (dynamically linked; the flags
# of dpkg-buildflags, warnings fatal here), and its man page, which man
# renders without a warning.
report=$(eval "$(dpkg-buildflags --export=sh 2>/dev/null)"
	make -s -B -C client O="$KVARLINK_OUT/client" CFLAGS="${CFLAGS:--O2 -g} -Werror" 2>&1)
[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
tap_result "$([ -z "$report" ] && [ -x "$KVARLINK_OUT/client/kvarlinkctl" ] && echo 0 || echo 1)" \
	"client/: kvarlinkctl builds without a warning"
report=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 \
	-l client/kvarlinkctl.1 2>&1 >/dev/null)
[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
tap_result "$([ -z "$report" ] && echo 0 || echo 1)" \
	"client/kvarlinkctl.1 renders without a warning"

# W=1 on every kernel, and sparse where Debian's sparse can read the
# kernel's headers: trixie's 0.6.4 stops at 7.3's __typeof_unqual__.
# The builds are the ones the VM runs use (vm_kernel): the stock
# kernel's as users build it, the others' with VARLINK_DEBUG.
for kernel in stock 6.12 7.3; do
	vm_kernel "$kernel"
	checker=C=2 what="sparse and W=1"
	[ "$kernel" = 7.3 ] && checker= what="W=1"
	report=$( {
		KBUILD_EXTRA=$checker VARLINK_DEBUG=$varlink_debug \
			"$KVARLINK_TOP/scripts/build-module.sh" "$kdir" "$modules" $kroot 2>&1
		cat "$modules/build.log"
	} | grep -E 'warning|error|sparse')
	[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
	tap_result "$([ -z "$report" ] && echo 0 || echo 1)" \
		"$what ($rel${varlink_debug:+, VARLINK_DEBUG})"
done

# Misuse of the provider API does not build (stock kernel: the cases
# test the header, not the kernel)
vm_kernel stock
report=$("$KVARLINK_TOP/scripts/misuse.sh" "$kdir" 2>&1)
status=$?
printf '%s\n' "$report" | sed 's/^/# /'
tap_result $status "misuse.sh: the provider API refuses misuse at build time"

# The table of limits in params.h (the parameters, the load-time checks,
# GetLimits) and the README's table of module parameters name the same
# limits
missing=
for name in $(sed -n 's/^\tX(\([a-z_]*\), .*/\1/p' "$KVARLINK_TOP/module/params.h"); do
	grep -q "^| \`$name\` | " "$KVARLINK_TOP/README.md" || missing="$missing $name"
done
[ -z "$missing" ] || echo "# not in README's table of parameters:$missing"
tap_result "$([ -z "$missing" ] && [ -n "${name:-}" ] && echo 0 || echo 1)" \
	"every limit of module/params.h is in README's table of parameters"

# A provider is its .c, its Kbuild block and its Kconfig entry: both
# builds take it from there
report=$("$KVARLINK_TOP/scripts/provider-test.sh" "$kdir" "$src" 2>&1)
status=$?
printf '%s\n' "$report" | sed 's/^/# /'
tap_result $status "provider-test.sh: a provider added in module/ is in both builds"

# The in-tree form (intree.sh): its patches pass checkpatch --strict
# (under net/, with the networking comment style), and every file they
# add is one the MAINTAINERS entry names; kernel-doc finds nothing to
# say about what Documentation/ pulls in; the documentation is valid
# reStructuredText.
patches=$KVARLINK_OUT/patches
if "$KVARLINK_TOP/scripts/intree.sh" --patches "$patches" "$src" >/dev/null; then
	tap_result 0 "intree.sh writes the patch series"
else
	tap_result 1 "intree.sh writes the patch series"
fi
# A patch that adds files under a directory the first one gave to
# MAINTAINERS is told "does MAINTAINERS need updating?": answered below.
# Run outside this repository's git tree: there checkpatch would hand
# every SPDX line to spdxcheck.py, which needs the kernel's own git tree
# (and python's ply and git modules).
checkpatch_patch() {
	local p=$1 ignore=
	# as for module/include/linux/varlink.h above
	grep -q '^+++ b/include/linux/varlink.h' "$p" &&
		ignore="$ignore,MACRO_ARG_REUSE,MULTISTATEMENT_MACRO_USE_DO_WHILE"
	# as for module/params.h above; its file was checked alone there
	grep -q '^+++ b/net/varlink/params.h' "$p" &&
		ignore="$ignore,COMPLEX_MACRO,MACRO_ARG_REUSE,TRAILING_SEMICOLON,LINE_SPACING"
	# one patch may hold both: the types of each, together
	[ -z "$ignore" ] || ignore="--ignore ${ignore#,}"
	# shellcheck disable=SC2086 # $ignore is words
	checkpatch_cached "$reports/$p" --strict --quiet --show-types \
		--ignore FILE_PATH_CHANGES $ignore "$p"
}
export -f checkpatch_patch
(cd "$patches" && printf '%s\n' *.patch |
	xargs -P "$(nproc)" -n 1 bash -c 'checkpatch_patch "$1"' checkpatch)
for p in "$patches"/*.patch; do
	report=$(cat "$reports/${p##*/}" 2>/dev/null || echo "no report")
	[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
	tap_result "$([ -z "$report" ] && echo 0 || echo 1)" "checkpatch ${p##*/}"
done
files=$(cat "$patches"/*.patch | sed -n 's|^+++ b/||p' | sort -u)
pats=$(cat "$patches"/*.patch | sed -n 's/^+F:\t//p')
orphans=
for f in $files; do
	case "$f" in MAINTAINERS|net/Kconfig|net/Makefile|*/index.rst|tools/testing/selftests/Makefile) continue ;; esac
	covered=
	for p in $pats; do
		case "$f" in "$p"|"$p"*/*|"${p%/}"/*) covered=1 ;; esac
	done
	[ -n "$covered" ] || orphans="$orphans $f"
done
[ -z "$orphans" ] || echo "# not in the MAINTAINERS entry:$orphans"
tap_result "$([ -z "$orphans" ] && [ -n "$files" ] && echo 0 || echo 1)" \
	"every file the series adds is in its MAINTAINERS entry"
report=$(cd "$KVARLINK_TOP" && { "$src/scripts/kernel-doc" -none \
		module/include/linux/varlink.h uapi/linux/varlink.h
	"$src/scripts/kernel-doc" -none -export module/registry.c module/call.c \
		module/json_equal.c module/files.c module/peer.c; } 2>&1 | grep -v 'Sphinx')
[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
tap_result "$([ -z "$report" ] && echo 0 || echo 1)" "kernel-doc -none"
# Plain docutils does not know the kernel-doc directive: its lines go.
report=$(sed '/^\.\. kernel-doc::/,/^$/d' "$KVARLINK_TOP/Documentation/varlink.rst" |
	python3 -c 'import sys, docutils.core
docutils.core.publish_string(sys.stdin.read(), writer_name="null",
	settings_overrides={"report_level": 2, "halt_level": 5})' 2>&1)
[ -n "$report" ] && printf '%s\n' "$report" | sed 's/^/# /'
tap_result "$([ -z "$report" ] && echo 0 || echo 1)" "Documentation/varlink.rst is valid reStructuredText"

tap_summary lint
