#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: in one boot of the stock kernel under qemu, varlink.ko
# against raw AF_UNIX ping-pong, generic netlink and Debian's Go varlink
# library (selftests/bench/vl_bench.c says what is measured and how),
# then perf's profile of a call (selftests/bench/profile.sh, sorted into
# its steps by scripts/bench-profile.sh); then the protocol core's JSON
# throughput on the host.  Prints one table and saves it to
# build/bench.txt, the previous one to build/bench.prev.txt.  Only ratios
# from one run mean something.
#
# Usage: bench.sh [--quick]           measure (--quick: 1 short run each)
#        bench.sh --compare OLD NEW   two saved tables, row by row
# Environment: BENCH_KERNEL=stock|debug (default stock; the debug kernel's
# figures are no benchmark, its run shows the paths free of splats; its
# table is build/bench-debug.txt), BENCH_SECONDS and BENCH_REPS (seconds
# per run, runs per figure; default 1 and 5), BENCH_PROFILE=0 (no perf
# profile), BENCH_STATS=0 (do not read
# /sys/module/varlink/statistics: no "inline" column), BENCH_ARGS (more
# options of vl-bench, e.g. "-t kernel-ping -M": see vl-bench's usage),
# BENCH_SMP (vCPUs, default 2), KVARLINK_OUT; BENCH_BASE=REV: the same
# runs, in the same boot, with the modules of git revision REV in place of
# this tree's, and their table against this one (--compare) at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Join two tables on target and mode: the x raw ratios of calls/s and
# p50, old and new, and new/old of those ratios.
compare() {
	awk '
	function row() {
		return $1 ~ /^[a-z-]+$/ && $2 ~ /^(seq|pipe16|c[0-9]+)$/ && $3 ~ /^[0-9]+$/
	}
	FNR == 1 { file++ }
	file == 1 && row() { rate[$1 " " $2] = $5; p50[$1 " " $2] = $7; next }
	file == 2 && row() && ($1 " " $2) in rate {
		k = $1 " " $2
		if (!hdr++)
			printf "%-23s %-6s %18s %8s %18s %8s\n", "target", "mode",
				"calls/s x raw", "change", "p50 x raw", "change"
		printf "%-23s %-6s %8.4g -> %6.4g %7.3gx %8.4g -> %6.4g %7.3gx\n",
			$1, $2, rate[k], $5, (rate[k] > 0 ? $5 / rate[k] : 0),
			p50[k], $7, ($7 > 0 ? p50[k] / $7 : 0)
	}
	END { if (!hdr) print "no rows in common" }' "$1" "$2"
	echo "(change: new/old of calls/s x raw, old/new of p50 x raw; above 1 is better)"
}

# perf and the libraries it loads, where it looks for them, for the VM.
# Debian's linux-perf of the stock kernel's series: it matches the VM.
perf_root() {
	local root=$1 bin lib

	rm -rf "$root"
	mkdir -p "$root/usr/bin"
	bin=$(readlink -f "$(command -v perf)") || die "no perf: scripts/deps.sh bench"
	cp "$bin" "$root/usr/bin/perf"
	for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
				     $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

if [ "${1:-}" = --compare ]; then
	[ $# -eq 3 ] || die "usage: bench.sh --compare OLD NEW"
	compare "$2" "$3"
	exit 0
fi

seconds=${BENCH_SECONDS:-1} reps=${BENCH_REPS:-5}
case "${1:-}" in
--quick) seconds=${BENCH_SECONDS:-0.3} reps=${BENCH_REPS:-1} ;;
"") ;;
*) die "usage: bench.sh [--quick] | --compare OLD NEW" ;;
esac
kernel=${BENCH_KERNEL:-stock}
smp=${BENCH_SMP:-2}

groups="build vm go bench"
[ "$kernel" = debug ] && groups="$groups debug"
# shellcheck disable=SC2086
"$KVARLINK_TOP/scripts/deps.sh" $groups

case "$kernel" in
stock)
	limit=1500
	table="$KVARLINK_OUT/bench.txt"
	;;
debug)
	limit=3600
	table="$KVARLINK_OUT/bench-debug.txt"
	;;
*) die "BENCH_KERNEL: unknown kernel '$kernel'" ;;
esac
vm_kernel "$kernel"

out="$KVARLINK_OUT/bench-$kernel"
mkdir -p "$out/tests"
"$KVARLINK_TOP/scripts/build-module.sh" "$kdir" "$out/build" $kroot
export GOCACHE=${GOCACHE:-$KVARLINK_CACHE/go-build}
make -s -C "$KVARLINK_TOP/selftests/bench" OUTPUT="$out/tests"
# what the guest runs (scripts/guest-init.sh, mode bench)
stats=
[ "${BENCH_STATS:-1}" = 0 ] && stats=-x
profile=
if [ "${BENCH_PROFILE:-1}" != 0 ]; then
	profile="/tests/profile.sh $(awk -v s="$seconds" 'BEGIN { print 3 * s }') kernel-ping kernel-getinfo nlctrl kernel-sysctl-get kernel-memory-get"
	perf_root "$out/perf-root"
else
	rm -rf "$out/perf-root" && mkdir -p "$out/perf-root"
fi
run="/tests/vl-bench run -s $seconds -r $reps $stats ${BENCH_ARGS:-}"
printf '#!/bin/sh\n%s || exit\n%s\n' "$run" "$profile" >"$out/tests/bench-run"
chmod +x "$out/tests/bench-run"
rm -rf "$out/tests/modules-base" "$out/base"
if [ -n "${BENCH_BASE:-}" ]; then
	mkdir -p "$out/base/src"
	git -C "$KVARLINK_TOP" archive "$BENCH_BASE" | tar -x -C "$out/base/src"
	# a build tree of its own: the kept one would give it this tree's
	# modules that it does not have
	KVARLINK_CACHE="$out/base/cache" \
		"$out/base/src/scripts/build-module.sh" "$kdir" "$out/base/build" $kroot
	mkdir "$out/tests/modules-base"
	cp "$out/base/build/module"/*.ko "$out/tests/modules-base/"
	rm -f "$out/tests/modules-base/varlink_kunit.ko"
	printf '#!/bin/sh\n%s\n' "$run" >"$out/tests/bench-run-base"
	chmod +x "$out/tests/bench-run-base"
fi
# 10000 idle connections: past the default max_connections (4096)
echo max_connections=16384 >"$out/tests/varlink.params"
EXTRA_ROOT="$out/perf-root" "$KVARLINK_TOP/scripts/initramfs.sh" \
	"$out/build/module" "$out/tests" "$out/initramfs.cpio"

vm_qemu "$image" "$out/initramfs.cpio" bench "$smp"
rm -f "$out/result.txt" "$out/console.log"
log "booting the $kernel kernel ($(basename "$image")) for the benchmark," \
	"$reps run(s) of $seconds s per figure; console in $out/console.log"
load0=$(cut -d' ' -f1 /proc/loadavg)
start=$SECONDS
timeout --foreground "$limit" "${qemu[@]}" \
	-serial file:"$out/console.log" -serial file:"$out/result.txt" ||
	log "qemu ended with status $? (timeout is $limit s)"
log "the VM ran for $((SECONDS - start)) s"
load1=$(cut -d' ' -f1 /proc/loadavg)
touch "$out/result.txt"
tr -d '\r' <"$out/result.txt" >"$out/result.unix"
mv "$out/result.unix" "$out/result.txt"
# the rows from the guest's marker to the verdict are the base tree's
sed -n '/^# bench: the base tree/,$p' "$out/result.txt" >"$out/base.txt"
sed -i '/^# bench: the base tree/,/^verdict: /{/^verdict: /!d}' "$out/result.txt"

log "the JSON benchmark on the host (make -C selftests/host bench)"
json_ok=0
make -s -C "$KVARLINK_TOP/selftests/host" bench >"$out/json.txt" 2>&1 || json_ok=$?

[ -e "$table" ] && mv "$table" "${table%.txt}.prev.txt"
{
	echo "== kvarlink bench, $(date -u '+%Y-%m-%d %H:%M UTC')," \
		"tree $(git -C "$KVARLINK_TOP" describe --always --dirty 2>/dev/null || echo '?')"
	echo "== qemu TCG, -smp $smp: the concurrent modes share $smp vCPU(s)," \
		"and so do client and server"
	echo "== host: $(nproc) CPUs, load average $load0 before the VM," \
		"$load1 after: the higher, the noisier"
	grep -v -e '^result ' -e '^verdict: ' -e '^# kvarlink bench' -e '^profile' \
		"$out/result.txt" || true
	[ -z "$profile" ] || "$KVARLINK_TOP/scripts/bench-profile.sh" "$out/result.txt" "$out/build"
	echo
	echo "== the protocol core's JSON tokenizer on the host (not in the VM)"
	cat "$out/json.txt"
} >"$table"
grep '^result ' "$out/result.txt" >"${table%.txt}.runs.txt" || true
if [ -n "${BENCH_BASE:-}" ]; then
	{
		echo
		echo "== this tree against $BENCH_BASE ($(git -C "$KVARLINK_TOP" \
			rev-parse --short "$BENCH_BASE")), in the same boot"
		compare "$out/base.txt" "$table"
	} >>"$table"
fi
cat "$table"

status=0
if grep -Ea "$KERNEL_SPLATS" "$out/console.log" >"$out/splats.txt"; then
	log "kernel splats in $out/console.log:"
	head -n 40 "$out/splats.txt" >&2
	status=1
fi
if ! grep -qx 'verdict: pass' "$out/result.txt"; then
	log "the guest did not finish the benchmark: $(grep '^verdict:' "$out/result.txt" || echo 'no verdict')"
	status=1
fi
[ "$json_ok" -eq 0 ] || { log "the JSON benchmark failed, see $out/json.txt"; status=1; }
log "table saved to $table; every run in ${table%.txt}.runs.txt"
if [ -e "${table%.txt}.prev.txt" ]; then
	log "against the previous table: $0 --compare ${table%.txt}.prev.txt $table"
fi
exit $status
