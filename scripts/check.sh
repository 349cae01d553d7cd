#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, summed up.
# Usage: check.sh [--long]
#
# lint, DKMS builds, the host build of the protocol core, a short fuzz
# run, then the VM runs: the selftests on the stock kernel (6.1), on 6.12
# and on 7.3, KUnit and the selftests on the debug kernel (KASAN), the
# concurrent selftests on the kcsan kernel (KCSAN), the kselftest target
# with run_kselftest.sh on the built-in kernel (CONFIG_VARLINK=y) after
# its PID 1 called it before mounting anything, each followed by
# unload, kmemleak, lockdep and taint checks in the guest and a scan of
# the console log for kernel splats.  --long (make check-long) adds the
# fault run: selftests while failslab fails allocations of our modules,
# on the debug kernel, with the table of the call sites hit.
# Prints TAP for every test and ends with "N passed, N failed".
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
declare -A bg_pids

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

# Count the top-level "ok"/"not ok" lines of a TAP stream; a skip counts
# as a failure: nothing skipped is ever called done.
tally_tap() {
	local prefix=$1 file=$2 line name
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP"*|"not ok "*)
			name=${line#not ok }; name=${name#ok }; name=${name#* }
			tally 1 "$prefix: ${name#- }" ;;
		"ok "*)
			name=${line#ok }; name=${name#* }
			tally 0 "$prefix: ${name#- }" ;;
		esac
	done <"$file"
}

# Each section's time, for the table at the end.
times=() current= started=$SECONDS
section() {
	section_done
	echo "# ---- $*"
	current=$* t0=$SECONDS
}
section_done() {
	[ -n "$current" ] || return 0
	times+=("$(printf '%6d s  %s' $((SECONDS - t0)) "$current")")
	current=
}

section packages
"$KVARLINK_TOP/scripts/deps.sh" build lint vm kernels debug host bench go || exit 1
mkdir -p "$KVARLINK_OUT"

# What the sections below take from the network and the compiler starts
# here, in the background: the Debian kernels and their roots
# (debian-kernel.sh: the network and dpkg), and the kernels built from
# source (debug-kernel.sh, builtin-kernel.sh) at the lowest CPU priority,
# so that they take what the tests before them leave idle (a guest that
# waits, a download) and slow no test down much.  A section that needs
# one waits for it: each script locks what it makes while it makes it,
# and finds it made after.  Their results are counted at the end.
background() {
	local name=$1
	shift
	"$@" >"$KVARLINK_OUT/$name.log" 2>&1 &
	bg_pids[$name]=$!
}
built_kernels() {
	local kernel
	renice -n 19 -p "$BASHPID" >/dev/null
	for kernel in debug $KERNELS m; do
		case "$kernel" in
		debug|kcsan) "$KVARLINK_TOP/scripts/debug-kernel.sh" "$kernel" ;;
		builtin) "$KVARLINK_TOP/scripts/builtin-kernel.sh" y ;;
		m) "$KVARLINK_TOP/scripts/builtin-kernel.sh" m ;;
		*) continue ;;
		esac >/dev/null || return 1
	done
}
for series in 6.1 6.12 7.3; do
	background "fetch-$series" "$KVARLINK_TOP/scripts/debian-kernel.sh" "$series"
done
background kernels built_kernels

section lint
"$KVARLINK_TOP/scripts/lint.sh" >"$KVARLINK_OUT/lint.tap" 2>&1
status=$?
grep -v '^ok ' "$KVARLINK_OUT/lint.tap"
tally_tap lint "$KVARLINK_OUT/lint.tap"
tally $status "lint: exits 0"

section "DKMS on 6.1, 6.12 and 7.3"
"$KVARLINK_TOP/scripts/dkms-test.sh" 6.1 6.12 7.3 >"$KVARLINK_OUT/dkms.tap" 2>&1
status=$?
grep -v '^ok ' "$KVARLINK_OUT/dkms.tap"
tally_tap dkms "$KVARLINK_OUT/dkms.tap"
tally $status "dkms: exits 0"

if [ -e "$KVARLINK_TOP/selftests/host/Makefile" ]; then
	section "host build of the protocol core"
	make -s -C "$KVARLINK_TOP/selftests/host" run >"$KVARLINK_OUT/host.tap" 2>&1
	status=$?
	grep -v '^ok ' "$KVARLINK_OUT/host.tap" | tail -n 40
	tally_tap host "$KVARLINK_OUT/host.tap"
	tally $status "host: all runners exit 0"
fi

if [ -e "$KVARLINK_TOP/selftests/fuzz/Makefile" ] && [ "$FUZZ_SECONDS" -gt 0 ]; then
	section "fuzzing, $FUZZ_SECONDS s per target"
	make -s -C "$KVARLINK_TOP/selftests/fuzz" run FUZZ_SECONDS="$FUZZ_SECONDS" \
		>"$KVARLINK_OUT/fuzz.log" 2>&1
	status=$?
	tail -n 20 "$KVARLINK_OUT/fuzz.log" | sed 's/^/# /'
	tally $status "fuzz: no crash in $FUZZ_SECONDS s per target"
fi

# The README's first command, as CI runs it: no terminal, the demo only.
section "make run, without a terminal"
"$KVARLINK_TOP/scripts/run.sh" </dev/null >"$KVARLINK_OUT/run.log" 2>&1
tally $? "run: make run shows the demo and exits 0"
tr -d '\r' <"$KVARLINK_OUT/run.log" | grep -q ' @org\.kernel\.varlink$'
tally $? "run: the demo shows the listening socket"

kunit_py="$(ksrc_ensure)/tools/testing/kunit/kunit.py"

# KCSAN's reports in IN (guest-init.sh: each between lines of "="), the
# ones with a frame of our modules to OURS, the others to KERNEL.  Only
# the frames of the two accesses' stacks count, and of each stack only
# those above an interrupt's or a softirq's entry: what an interrupt
# stopped did not make its access (nor do the locks a task held).
# Usage: kcsan_split IN OURS KERNEL
kcsan_split() {
	: >"$2"
	: >"$3"
	awk -v ours="$2" -v kernel="$3" '
		/^BUG: KCSAN:/ { r = sep "\n" $0 "\n"; mine = 0; open = 1; stack = 0; next }
		/^=+$/ { if (open) printf "%s%s\n", r, $0 > (mine ? ours : kernel); open = 0; sep = $0; next }
		!open { next }
		{ r = r $0 "\n" }
		/ bytes by (task [0-9]+|interrupt) on cpu [0-9]+:$/ { stack = 1; next }
		/^[ \t]*$/ { stack = 0; next }
		stack && /^ *[a-z0-9_.]*(sysvec_|common_interrupt|softirq)[a-z0-9_.]*\+0x/ { stack = 0; next }
		stack && /\[varlink[a-z_]*\]/ { mine = 1 }
		END { if (open) printf "%s", r > (mine ? ours : kernel) }' "$1"
}

# The table of the fault run: how many injected failures hit each call
# site, by the first frame of our modules in their stacks, what that
# frame called, and the function that asked the slab allocator.
fault_table() {
	local dir=$1 injected dumped
	injected=$(cat "$dir"/sections/fault-* 2>/dev/null |
		sed -n 's/^# injected=\([0-9]*\).*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
	dumped=$(cat "$dir"/sections/faults-* 2>/dev/null | grep -c '^fault ')
	echo "# $injected allocations failed on purpose; $dumped dumped their stack (the others were __GFP_NOWARN):"
	cat "$dir"/sections/faults-* 2>/dev/null | awk '
		$1 != "fault" { next }
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
		}' | sed 's/^/#   /'
	[ "$injected" -gt 0 ] && [ "$dumped" -gt 0 ]
}

for kernel in $KERNELS; do
	dir="$KVARLINK_OUT/vm-$kernel"
	case "$kernel" in
	fault) run=(debug fault); section "fault run, debug kernel" ;;
	*) run=("$kernel" check); section "$kernel kernel" ;;
	esac
	"$KVARLINK_TOP/scripts/vm.sh" "${run[@]}" "$dir" >"$dir.log" 2>&1
	status=$?
	sed 's/^/# /' "$dir.log"
	tally $status "$kernel: build, boot and run"
	# W=1 and no warning (the built-in kernel's build checks its own)
	if [ "$kernel" != builtin ]; then
		[ -e "$dir/build/build.log" ] && ! grep -q 'warning:' "$dir/build/build.log"
		tally $? "$kernel: the modules build with W=1 and no warning"
	fi
	result="$dir/result.txt"
	[ -e "$result" ] || : >"$result"

	# Split the guest's result stream into its sections.
	rm -rf "$dir/sections"
	mkdir -p "$dir/sections"
	tr -d '\r' <"$result" >"$result.unix"
	mv "$result.unix" "$result"
	awk -v d="$dir/sections" '
		/^# section / { f = d "/" $3 "-" $4; next }
		/^# endsection/ { f = ""; next }
		f != "" { print > f }' "$result"

	for f in "$dir"/sections/kunit-*; do
		[ -e "$f" ] || continue
		suite=${f##*/kunit-}
		python3 "$kunit_py" parse "$f" >"$f.parsed" 2>&1
		sed 's/^/# /' "$f.parsed"
		# kunit.py prints one line per test: "[PASSED] name" or "[FAILED] name"
		while IFS= read -r line; do
			case "$line" in
			*"===="*) ;;
			*"[PASSED] "*) tally 0 "$kernel: kunit $suite: ${line##*\[PASSED\] }" ;;
			*"[FAILED] "*|*"[SKIPPED] "*|*"[CRASHED] "*)
				tally 1 "$kernel: kunit $suite: ${line##*\] }" ;;
			esac
		done <"$f.parsed"
		grep -q 'Testing complete' "$f.parsed" &&
			! grep -q 'Testing complete.*\(failed\|errors\|crashed\): [1-9]' "$f.parsed"
		tally $? "$kernel: kunit.py parse of $suite reports success"
	done

	for f in "$dir"/sections/selftest-*; do
		[ -e "$f" ] || continue
		t=${f##*/selftest-}
		grep -v '^ok ' "$f" | grep -v '^#  *\(RUN\|OK\)' | sed 's/^/# /'
		tally_tap "$kernel: $t" "$f"
		grep -qx '# exit=0' "$f"
		tally $? "$kernel: $t exits 0"
	done

	# The built-in kernel's run_kselftest.sh: a line "ok N selftests:
	# varlink: PROGRAM" for each program, and its cases one level in,
	# behind "# ".
	for f in "$dir"/sections/kselftest-*; do
		[ -e "$f" ] || continue
		grep -v '^\(# \)\{0,1\}ok ' "$f" | grep -v '^# #  *\(RUN\|OK\)' | sed 's/^/# /'
		sed -n 's/^# \(\(not \)\{0,1\}ok \)/\1/p' "$f" >"$f.cases"
		tally_tap "$kernel: kselftest" "$f.cases"
		tally_tap "$kernel: run_kselftest.sh" "$f"
		grep -q '^ok .* selftests: varlink: ' "$f"
		tally $? "$kernel: run_kselftest.sh ran the varlink target"
	done

	# The fault run: varlink_fault must pass; the other selftests are
	# expected to fail calls under injection, and only have to end.
	for f in "$dir"/sections/fault-*; do
		[ -e "$f" ] || continue
		t=${f##*/fault-}
		status=$(sed -n 's/^# exit=//p' "$f")
		if [ "$t" = varlink_fault ]; then
			grep -v '^ok ' "$f" | grep -v '^#  *\(RUN\|OK\)' | sed 's/^/# /'
			tally_tap "$kernel: $t" "$f"
			[ "$status" = 0 ]
			tally $? "$kernel: $t exits 0"
		else
			grep '^# \(Totals\|injected\)' "$f"
			grep -c 'Test terminated by timeout' "$f" | sed 's/^/# tests that ran out of time: /'
			[ -n "$status" ] && [ "$status" -lt 124 ]
			tally $? "$kernel: $t ends by itself under injection (exit ${status:-none})"
		fi
	done
	# The KCSAN kernel: the race detector was on and watched, and
	# reported no race that code of ours takes part in (its data_races
	# count also has the conflicts that changed no value, which are not
	# reported); its reports whole, from the kernel log, in kcsan.txt.
	# A report is ours when either access's stack has a frame in one of
	# our modules ("[varlink...]") above any interrupt entry: our code
	# made it, or the kernel made it on our behalf (kcsan_split).  A
	# race with no such frame is 6.1's own, between two accesses of code
	# we do not touch, that only its timing brings out: it is shown, in
	# kcsan-kernel.txt, and fails nothing (nor do its headers on the
	# console); vm.sh's ignore list keeps the known ones out of the log.
	: >"$dir/kcsan-kernel-only.txt"
	if grep -q '^kcsan: enabled: 1' "$result"; then
		grep '^kcsan: ' "$result" | sed 's/^/# /'
		grep -q '^kcsan: setup_watchpoints: [1-9]' "$result"
		tally $? "$kernel: KCSAN was on and set up watchpoints"
		cp "$dir/sections/kcsan-reports" "$dir/kcsan.txt" 2>/dev/null || : >"$dir/kcsan.txt"
		kcsan_split "$dir/kcsan.txt" "$dir/kcsan-ours.txt" "$dir/kcsan-kernel.txt"
		if grep -q 'BUG: KCSAN:' "$dir/kcsan-ours.txt"; then
			echo "# $(grep -c 'BUG: KCSAN:' "$dir/kcsan-ours.txt") KCSAN reports with a frame of ours, in $dir/kcsan-ours.txt:"
			sed 's/^/# /' "$dir/kcsan-ours.txt" | head -n 400
		fi
		# each race once, next to the verdict
		grep -o 'BUG: KCSAN: .*' "$dir/kcsan-kernel.txt" | sort | uniq -c |
			sed 's/^/# 6.1'"'"'s own race, no frame of ours (kcsan-kernel.txt): /'
		grep -o 'BUG: KCSAN: .*' "$dir/kcsan-ours.txt" | sort | uniq -c | sed 's/^/# race: /'
		# the console's header lines that are only of 6.1's own races
		grep -o 'BUG: KCSAN: .*' "$dir/kcsan-kernel.txt" | sort -u |
			grep -vxF -f <(grep -o 'BUG: KCSAN: .*' "$dir/kcsan-ours.txt") \
			>"$dir/kcsan-kernel-only.txt" || :
		! grep -q 'BUG: KCSAN:' "$dir/kcsan-ours.txt"
		tally $? "$kernel: KCSAN reported no data race that code of ours takes part in"
	elif [ "$kernel" = kcsan ]; then
		tally 1 "$kernel: KCSAN was on and set up watchpoints"
	fi
	if ls "$dir"/sections/fault-* >/dev/null 2>&1; then
		fault_table "$dir" | tee "$dir/faults.txt"
		tally "${PIPESTATUS[0]}" "$kernel: failures were injected, and their stacks read"
	fi

	while IFS= read -r line; do
		case "$line" in
		"check: "*" ok") c=${line#check: }; tally 0 "$kernel: ${c% ok}" ;;
		"check: "*) c=${line#check: }; tally 1 "$kernel: $c" ;;
		esac
	done <"$result"
	grep -qx 'verdict: pass' "$result"
	tally $? "$kernel: the guest ran to its verdict"

	# A console that is missing, empty or cut off before the guest's last
	# words cannot show a splat: that is a failure, not a pass.
	console="$dir/console.log"
	complete=1
	[ -s "$console" ] && tr -d '\r' <"$console" | grep -qx "$GUEST_END_MARK" && complete=0
	tally $complete "$kernel: console log complete, to the guest's last line"
	if [ $complete -ne 0 ]; then
		echo "# $console: missing, empty, or cut off before '$GUEST_END_MARK'"
		# what the kernel reported first, then where the log stopped, so
		# that a CI log which keeps only a failure's neighbourhood shows
		# both; memory and initramfs lines tell an early boot's budget
		if [ -e "$console" ]; then
			tr -d '\r' <"$console" | grep -Ea "$KERNEL_SPLATS|Memory:|initramfs|initrd|oom|Out of memory" |
				head -n 20 | sed 's/^/#   first: /'
			tr -d '\r' <"$console" | tail -n 40 | sed 's/^/#   /'
		fi
		tally 1 "$kernel: console free of kernel splats"
	elif grep -Ea "$KERNEL_SPLATS" "$console" |
		grep -avF -f "$dir/kcsan-kernel-only.txt" >"$dir/splats.txt"; then
		sed 's/^/# /' "$dir/splats.txt" | head -n 40
		tally 1 "$kernel: console free of kernel splats"
	else
		tally 0 "$kernel: console free of kernel splats"
	fi
done

# The in-tree form as modules (the built-in kernel's VM run above builds
# it =y): scripts/intree.sh into linux-source-6.1, every varlink option
# =m, W=1 without a warning.
section "in-tree build, CONFIG_VARLINK=m"
"$KVARLINK_TOP/scripts/builtin-kernel.sh" m >"$KVARLINK_OUT/intree-m.log" 2>&1
status=$?
tail -n 5 "$KVARLINK_OUT/intree-m.log" | sed 's/^/# /'
tally $status "in-tree: net/varlink builds as modules, with W=1 and no warning"

# The background work: each job's log, if it failed.
for name in "${!bg_pids[@]}"; do
	wait "${bg_pids[$name]}"
	status=$?
	[ $status -eq 0 ] || tail -n 20 "$KVARLINK_OUT/$name.log" | sed 's/^/# /'
	tally $status "background: $name"
done

section_done
echo "# time per section:"
printf '#  %s\n' "${times[@]}" "$(printf '%6d s  in all' $((SECONDS - started)))"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
