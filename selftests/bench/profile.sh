#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench's profile, in the bench VM after vl-bench's table: perf
# samples the CPU time of "vl-bench load TARGET", which makes calls one
# at a time on one connection.  varlink.ko serves them in that very task
# (the fast path) and generic netlink does too, so the samples hold the
# whole call: the client, the system calls, AF_UNIX or netlink, and the
# server.  One sample per PERIOD_NS of CPU time; scripts/bench.sh sorts
# the symbols into the steps of a call and prints time per call.
#
# Prints "profile TARGET calls N rate R period P" and then a line
# "profile-sym TARGET SAMPLES [k|.] SYMBOL" per symbol.
# Usage: profile.sh SECONDS TARGET...
set -u
seconds=$1
shift
period=100000
perf=/usr/bin/perf
data=/tmp/perf.data

if ! [ -x $perf ]; then
	echo "profile: no perf in the VM"
	exit 0
fi
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 0 >/proc/sys/kernel/kptr_restrict
for t in "$@"; do
	if ! $perf record -q -N -B -e cpu-clock -c $period -o $data -- \
		/tests/vl-bench load "$t" "$seconds" >/tmp/load.txt 2>/tmp/perf.err; then
		echo "profile $t failed: $(cat /tmp/load.txt /tmp/perf.err | tr '\n' ' ')"
		continue
	fi
	echo "profile $t $(cat /tmp/load.txt) period $period"
	$perf report -q -i $data --stdio --no-children -F sample,sym 2>/dev/null |
		sed -n "s/^ *\([0-9][0-9]*\) *\(\[[k.]\]\) \([^ ]*\).*/profile-sym $t \1 \2 \3/p"
	rm -f $data
done
