#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, summed up.
# Usage: check.sh [--long]
#
# lint, the Debian packages (built, lintian, installed with apt and DKMS
# in a root of 6.1, 6.12 and 7.3, purged) and the host build of the
# protocol core, and beside
# them, two at a time from the start, the jobs: a short fuzz run, make
# run, the in-tree build as modules, and the VM runs: the kselftest
# target on the stock kernel (6.1), on 6.12 and on 7.3, KUnit and the
# kselftest target on the debug kernel (KASAN), the concurrent selftests
# on the kcsan kernel (KCSAN), the kselftest target on the built-in
# kernel (CONFIG_VARLINK=y) after its PID 1 called it before mounting
# anything, each followed by unload, kmemleak, lockdep and taint checks
# in the guest, whose results the kernel's KTAP parser reads, and a scan
# of the console log for kernel splats.  --long (make check-long) adds
# the fault run: selftests while failslab fails allocations of our
# modules, on the debug kernel, with the table of the call sites hit.
# Prints TAP for every test, a table of the time each part took, and
# ends with "N passed, N failed".
#
# Environment: KERNELS="stock 6.12 7.3 debug kcsan builtin fault" picks the VM
# runs (fault is the fault run), FUZZ_SECONDS the time per fuzz target (0
# skips fuzzing), KVARLINK_OUT the output dir.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

long=
[ "${1:-}" = --long ] && long=" fault"
KERNELS=${KERNELS:-stock 6.12 7.3 debug kcsan builtin$long}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
passed=0 failed=0 n=0

tally() {
	local ok=$1 name=$2
	n=$((n + 1))
	if [ "$ok" -eq 0 ]; then
		echo "ok $n - $name"
		passed=$((passed + 1))
	else
		echo "not ok $n - $name"
		failed=$((failed + 1))
	fi
}

# Count the top-level "ok"/"not ok" lines of a TAP stream, and show its
# other lines but the passes; a skip counts as a failure: nothing
# skipped is ever called done.
tally_tap() {
	local prefix=$1 file=$2 line name
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP"*|"not ok "*)
			name=${line#not ok }; name=${name#ok }; name=${name#* }
			tally 1 "$prefix${name#- }" ;;
		"ok "*)
			name=${line#ok }; name=${name#* }
			tally 0 "$prefix${name#- }" ;;
		*) echo "$line" ;;
		esac
	done <"$file"
}

# Each part's time, for the table at the end: wall clock, and the CPU
# time of the processes it ran (both CPUs busy, the wall clock is about
# half the sum of the CPU times: what a part costs the whole run).
# bash's times, written to a file (a pipe or $(...) would run it in a
# subshell of its own, without the children), sums this shell's
# waited-for children; cpu_seconds sets $cpu to it.
cpu_seconds() {
	local file=$KVARLINK_OUT/times.$BASHPID
	times >"$file"
	cpu=$(awk 'END { for (i = 1; i <= NF; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] }
		printf "%d\n", n }' "$file")
	rm -f "$file"
}
times=() current= started=$SECONDS
section() {
	section_done
	echo "# ---- $*"
	cpu_seconds
	current=$* t0=$SECONDS cpu0=$cpu
}
section_done() {
	[ -n "$current" ] || return 0
	cpu_seconds
	times+=("$(printf '%6d s %6d s  %s' $((SECONDS - t0)) $((cpu - cpu0)) "$current")")
	current=
}

# A script that prints TAP: its lines, and its exit status.
# Usage: tap_script NAME COMMAND...
tap_script() {
	local name=$1
	shift
	"$@" >"$KVARLINK_OUT/$name.tap" 2>&1
	tally_tap "$name: " "$KVARLINK_OUT/$name.tap"
	tally $? "$name: exits 0"
}

mkdir -p "$KVARLINK_OUT"
section packages
"$KVARLINK_TOP/scripts/deps.sh" build lint vm kernels debug host bench go deb || exit 1

# What the parts below take from the network and the compiler starts
# here, in the background: the Debian kernels and their roots
# (debian-kernel.sh: the network and dpkg), and the kernels built from
# source (debug-kernel.sh, builtin-kernel.sh).  The debug kernel comes
# first, at the priority of the tests: on a fresh machine its build and
# the debug VM run after it are the longest path; the others, built from
# it or after it, at the lowest priority, take what the tests leave
# idle.  A part that needs one waits for it: each script locks what it
# makes while it makes it, and finds it made after.  A built-in tree
# made before is left to the job that needs it, whose incremental build
# would otherwise be done twice.  Their results are counted at the end.
declare -A bg_pids
background() {
	local name=$1
	shift
	"$@" >"$KVARLINK_OUT/$name.log" 2>&1 &
	bg_pids[$name]=$!
}
built_kernels() {
	local kernel
	"$KVARLINK_TOP/scripts/debug-kernel.sh" debug >/dev/null || return 1
	renice -n 19 -p "$BASHPID" >/dev/null
	for kernel in builtin kcsan m; do
		case " $KERNELS m " in *" $kernel "*) ;; *) continue ;; esac
		case "$kernel" in
		kcsan) "$KVARLINK_TOP/scripts/debug-kernel.sh" "$kernel" ;;
		builtin) KVARLINK_NEW_ONLY=1 "$KVARLINK_TOP/scripts/builtin-kernel.sh" y ;;
		m) KVARLINK_NEW_ONLY=1 "$KVARLINK_TOP/scripts/builtin-kernel.sh" m ;;
		esac >/dev/null || return 1
	done
}
for series in 6.1 6.12 7.3; do
	background "fetch-$series" "$KVARLINK_TOP/scripts/debian-kernel.sh" "$series"
done
background kernels built_kernels

# ---- the jobs: each writes its TAP to job-NAME.tap, its time to
# job-NAME.seconds; check.sh tallies them in order when all are done.

job_fuzz() {
	[ "$FUZZ_SECONDS" -gt 0 ] || return 0
	make -s -C "$KVARLINK_TOP/selftests/fuzz" run FUZZ_SECONDS="$FUZZ_SECONDS" \
		>"$KVARLINK_OUT/fuzz.log" 2>&1
	tap_result $? "fuzz: no crash in $FUZZ_SECONDS s per target"
	tail -n 20 "$KVARLINK_OUT/fuzz.log" | sed 's/^/# /'
}

# The README's first command, as CI runs it: no terminal, the demo only.
job_run() {
	"$KVARLINK_TOP/scripts/run.sh" </dev/null >"$KVARLINK_OUT/run.log" 2>&1
	tap_result $? "run: make run shows the demo and exits 0"
	# grep reads it all: with -q it would stop at the line, and tr, still
	# writing, would fail the pipeline (pipefail) with SIGPIPE
	tr -d '\r' <"$KVARLINK_OUT/run.log" | grep ' @org\.kernel\.varlink$' >/dev/null
	tap_result $? "run: the demo shows the listening socket"
}

# The in-tree form as modules (the built-in kernel's VM run builds it
# =y): scripts/intree.sh into linux-source-6.1, every varlink option =m,
# W=1 without a warning.
job_m() {
	"$KVARLINK_TOP/scripts/builtin-kernel.sh" m >"$KVARLINK_OUT/intree-m.log" 2>&1
	tap_result $? "in-tree: net/varlink builds as modules, with W=1 and no warning"
	tail -n 5 "$KVARLINK_OUT/intree-m.log" | sed 's/^/# /'
}

# A VM run (vm.sh), then what it left judged, each by a function below.
job_vm() {
	local kernel=$1 dir=$KVARLINK_OUT/vm-$1 run=("$1" check)
	[ "$kernel" = fault ] && run=(debug fault)
	rm -rf "$dir"
	mkdir -p "$dir"
	"$KVARLINK_TOP/scripts/vm.sh" "${run[@]}" "$dir" >"$dir.log" 2>&1
	tap_result $? "$kernel: build, boot and run"
	sed 's/^/# /' "$dir.log"
	[ -e "$dir/result.txt" ] || : >"$dir/result.txt"
	tr -d '\r' <"$dir/result.txt" >"$dir/result.ktap"
	judge_build "$kernel"
	judge_results "$kernel" "$dir"
	[ "$kernel" != fault ] || judge_faults "$dir"
	judge_console "$kernel" "$dir"
}

# The modules of the debug kernels build with W=1 and no warning (lint.sh
# judges the others' builds, the built-in kernel's build its own).
judge_build() {
	case "$1" in
	debug|kcsan) ;;
	*) return 0 ;;
	esac
	local log=$KVARLINK_OUT/modules-$1/build.log
	grep 'warning:' "$log" | sed 's/^/# /'
	[ -e "$log" ] && ! grep -q 'warning:' "$log"
	tap_result $? "$1: the modules build with W=1 and no warning"
}

# The guest's results (guest-init.sh), a KTAP document: a line per test
# at every level, as the kernel's parser reads it (ktap.py).
judge_results() {
	local kernel=$1 dir=$2
	python3 "$KVARLINK_TOP/scripts/ktap.py" "$(ksrc_ensure)/tools/testing/kunit" \
		"$kernel" <"$dir/result.ktap" 2>"$dir/result.parsed"
	# the time each step, program and test of a program took: the slow
	# ones, slowest first
	awk '/^ *# selftests: varlink: / { prog = $NF }
		/^ *# seconds=/ { s = $NF; sub(/.*=/, "", s); next }
		/^ *(not )?ok [0-9]+ / && s != "" {
			test = /^        / ? prog ": " : ""
			sub(/^ *(not )?ok [0-9]+ (- )?(selftests: varlink: )?/, "")
			sub(/ # .*/, "")
			print s, test $0; s = ""
		}' "$dir/result.ktap" | sort -rn |
		awk '$1 >= 20 { s = $1; sub(/^[0-9]+ /, ""); printf "# %s s: %s\n", s, $0 }'
}

# The fault run's table: how many injected failures hit each call site,
# by the first frame of our modules in their stacks, what that frame
# called, and the function that asked the slab allocator.
judge_faults() {
	local dir=$1 injected dumped
	injected=$(sed -n 's/^ *# injected=\([0-9]*\).*/\1/p' "$dir/result.ktap" |
		awk '{ n += $1 } END { print n + 0 }')
	sed -n 's/^ *# fault /fault /p' "$dir/result.ktap" >"$dir/faults.lines"
	dumped=$(wc -l <"$dir/faults.lines")
	{
		echo "$injected allocations failed on purpose; $dumped dumped their stack (the others were __GFP_NOWARN):"
		awk '
		{
			site = "(none of ours)"; via = "-"; alloc = "-"
			for (i = 4; i <= NF; i++) {
				if (alloc == "-" && $i !~ /^_*(kmalloc|kmem_cache|kvmalloc|slab)/)
					alloc = $i
				if ($i ~ /\[varlink/) {
					site = $i
					via = i > 4 ? $(i - 1) : "-"
					break
				}
			}
			if (alloc == site)
				alloc = "-"
			n[sprintf("%-40s %-24s %s", site, via, alloc)]++
		}
		END {
			printf "%6s  %-40s %-24s %s\n", "count", "site (first frame of ours)", "it called", "which allocated"
			for (k in n)
				printf "%6d  %s\n", n[k], k | "sort -k1,1nr"
		}' "$dir/faults.lines"
	} | tee "$dir/faults.txt" | sed 's/^/#   /'
	[ "$injected" -gt 0 ] && [ "$dumped" -gt 0 ]
	tap_result $? "fault: failures were injected, and their stacks read"
}

# A console that is missing, empty or cut off before the guest's last
# words cannot show a splat: that is a failure, not a pass.  A KCSAN
# race that is 6.1's own (the guest says which) is no splat.
judge_console() {
	local kernel=$1 console=$2/console.log
	if ! [ -s "$console" ] || ! tr -d '\r' <"$console" | grep -qx "$GUEST_END_MARK"; then
		tap_result 1 "$kernel: console log complete, to the guest's last line"
		echo "# $console: missing, empty, or cut off before '$GUEST_END_MARK'"
		# what the kernel reported first, then where the log stopped, so
		# that a CI log which keeps only a failure's neighbourhood shows
		# both; memory and initramfs lines tell an early boot's budget
		[ -e "$console" ] || return 0
		tr -d '\r' <"$console" |
			grep -Ea "$KERNEL_SPLATS|Memory:|initramfs|initrd|oom|Out of memory" |
			head -n 20 | sed 's/^/#   first: /'
		tr -d '\r' <"$console" | tail -n 40 | sed 's/^/#   /'
		return 0
	fi
	tap_result 0 "$kernel: console log complete, to the guest's last line"
	sed -n "s/^ *# kernel's race: //p" "$2/result.ktap" >"$2/kcsan-kernel.txt"
	echo "no race of the kernel's own" >>"$2/kcsan-kernel.txt"
	if tr -d '\r' <"$console" | grep -Ea "$KERNEL_SPLATS" |
		grep -avF -f "$2/kcsan-kernel.txt" >"$2/splats.txt"; then
		head -n 40 "$2/splats.txt" | sed 's/^/# /'
		tap_result 1 "$kernel: console free of kernel splats"
	else
		tap_result 0 "$kernel: console free of kernel splats"
	fi
}

# Run a job: its TAP and its times into files of its own.
job() {
	local name=$1 t0=$SECONDS cpu cpu0
	shift
	cpu_seconds
	cpu0=$cpu
	"$@" >"$KVARLINK_OUT/job-$name.tap" 2>&1
	cpu_seconds
	echo $((SECONDS - t0)) $((cpu - cpu0)) >"$KVARLINK_OUT/job-$name.seconds"
}

# The jobs, taken by two workers from a queue, the longest first, so that
# the two end together; each job locks what it builds, so that two never
# build the same at once, and waits for a kernel built in the background.
jobs=
for name in debug fault builtin kcsan stock 7.3 6.12 m fuzz run; do
	case " fuzz run m $KERNELS " in *" $name "*) jobs="$jobs $name" ;; esac
done
queue=$KVARLINK_OUT/jobs
printf '%s\n' $jobs >"$queue"
worker() {
	local name
	while name=$(flock "$queue.lock" sh -c 'head -n 1 "$0" && sed -i 1d "$0"' "$queue") &&
		[ -n "$name" ]; do
		case "$name" in
		fuzz|run|m) job "$name" "job_$name" ;;
		*) job "$name" job_vm "$name" ;;
		esac
	done
}
# The VMs of the Debian kernels load the packages the deb section below
# installs (vm.sh): they wait for this lock, held until then.
exec 7>"$KVARLINK_OUT/deb.lock"
flock 7
export KVARLINK_DEB_WAIT=1
worker 7>&- &
workers=$!
worker 7>&- &
workers="$workers $!"

section lint
tap_script lint "$KVARLINK_TOP/scripts/lint.sh"

section "the Debian packages, DKMS on 6.1, 6.12 and 7.3"
tap_script deb "$KVARLINK_TOP/scripts/deb-test.sh" 6.1 6.12 7.3 7>&-
exec 7>&-

section "host build of the protocol core"
tap_script host make -s -C "$KVARLINK_TOP/selftests/host" run

section "the jobs, two at a time, to their end"
# shellcheck disable=SC2086
wait $workers
section_done
for name in $jobs; do
	if [ -e "$KVARLINK_OUT/job-$name.seconds" ]; then
		# shellcheck disable=SC2046 # two numbers
		times+=("$(printf '%6d s %6d s    %s' $(cat "$KVARLINK_OUT/job-$name.seconds") "$name")")
	fi
	echo "# ---- $name"
	tally_tap "" "$KVARLINK_OUT/job-$name.tap"
done

# The background work: each job's log, if it failed.
for name in "${!bg_pids[@]}"; do
	wait "${bg_pids[$name]}"
	status=$?
	[ $status -eq 0 ] || tail -n 20 "$KVARLINK_OUT/$name.log" | sed 's/^/# /'
	tally $status "background: $name"
done

section_done
echo "# time per part (the jobs ran beside the parts before them), wall clock and CPU:"
cpu_seconds
printf '#  %s\n' "${times[@]}" "$(printf '%6d s %6d s  in all' $((SECONDS - started)) "$cpu")"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
