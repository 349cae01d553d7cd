#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# PID 1 of the test VM (busybox sh).
#
# kvarlink.mode= on the kernel command line picks what to do:
#   check  load the modules, run KUnit and the selftests, unload, then
#          check kmemleak, lockdep and taint; results go to /dev/ttyS1
#   demo   load the modules and show the demo on the console
#   shell  the demo, then an interactive shell ("exit" powers off)
#   bench  load the modules, run /tests/bench-run (make bench): its
#          tables go to /dev/ttyS1, its progress to the console
#   builtin  the built-in kernel (CONFIG_VARLINK=y), after its PID 1,
#          varlink_first_call, has called the kernel before anything was
#          mounted: report that, load the test modules, run the kselftest
#          target with run_kselftest.sh, unload, check as "check" does
#   fault  the fault run (debug kernel): load the modules, run selftests
#          while failslab fails allocations made on behalf of our modules,
#          then check that new clients are served, and unload and check
#          as "check" does; see fault_run below
# kvarlink.tests=a,b,... runs these selftests instead of /tests/list, in
# that order; kvarlink.kunit=n skips the KUnit suites;
# kvarlink.kcsan_ignore=f,g,... are functions whose races KCSAN is not to
# report (see vm.sh); kvarlink.fault_site=FUNCTION limits the fault run's
# failures to stacks through that function.
# Whatever happens, the VM ends with a reboot, which qemu turns into exit.

/bin/busybox --install -s /bin
export PATH=/bin:/tests
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
# cgroup v2, where the kernel has cgroups (the debug kernels do)
mkdir -p /sys/fs/cgroup 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
ip link set lo up 2>/dev/null

mode=check
tests=$(cat /tests/list 2>/dev/null)
kunit=y
kcsan_ignore=
fault_site=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	kvarlink.mode=*) mode=${arg#kvarlink.mode=} ;;
	kvarlink.tests=*) tests=$(echo "${arg#kvarlink.tests=}" | tr , ' ') ;;
	kvarlink.kunit=*) kunit=${arg#kvarlink.kunit=} ;;
	kvarlink.kcsan_ignore=*) kcsan_ignore=$(echo "${arg#*=}" | tr , ' ') ;;
	kvarlink.fault_site=*) fault_site=${arg#*=} ;;
	esac
done

out=/dev/ttyS1
failures=""
fail() { failures="$failures $1"; echo "check: $1 FAIL${2:+ ($2)}" >"$out"; }
pass() { echo "check: $1 ok" >"$out"; }
section() { echo "# section $1 $2" >"$out"; }
endsection() { echo "# endsection" >"$out"; }

# whole seconds since boot, for the time each test takes
uptime_s() { cut -d. -f1 /proc/uptime; }

kmemleak=/sys/kernel/debug/kmemleak
[ -e $kmemleak ] && echo clear >$kmemleak

load_modules() {
	for m in /modules/extra/*.ko; do
		[ -e "$m" ] && insmod "$m"
	done
	# shellcheck disable=SC2046 # the parameters are words
	insmod /modules/varlink.ko $(cat /tests/varlink.params 2>/dev/null) || return 1
	for m in /modules/*.ko; do
		case "$m" in */varlink.ko|*/varlink_kunit.ko) continue ;; esac
		insmod "$m" || return 1
	done
}

unload_modules() {
	for m in $(ls /modules | sed -n 's/\.ko$//p' | sort -r); do
		case "$m" in varlink) continue ;; esac
		grep -q "^$m " /proc/modules && { rmmod "$m" || return 1; }
	done
	rmmod varlink
}

socket_live() {
	grep -q " @org.kernel.varlink$" /proc/net/unix
}

demo() {
	echo "== varlink.ko loaded; the listening socket:"
	grep "@org.kernel.varlink" /proc/net/unix
	if command -v varlink-cli >/dev/null; then
		varlink-cli demo
	fi
}

run_checks() {
	# KCSAN, if the kernel has it, watches from here on (see vm.sh)
	if [ -e /sys/kernel/debug/kcsan ]; then
		for f in $kcsan_ignore; do
			echo "!$f" >/sys/kernel/debug/kcsan || fail kcsan-ignore "$f"
		done
		echo on >/sys/kernel/debug/kcsan
	fi
	if load_modules; then pass load; else fail load; return; fi
	if socket_live; then pass socket; else fail socket; fi

	# The suites run at load time and print KTAP to the kernel log; it
	# is read with dmesg, as the debugfs logs of 6.1 lack the headers of
	# parameterized tests.
	if [ -e /modules/varlink_kunit.ko ] && [ "$kunit" = y ]; then
		dmesg -c >/dev/null
		if insmod /modules/varlink_kunit.ko; then
			# A test module prints its suites without the top-level
			# KTAP header of the boot-time executor: add it.
			section kunit all
			echo "KTAP version 1" >"$out"
			echo "1..$(ls /sys/kernel/debug/kunit | wc -l)" >"$out"
			dmesg -c | sed "s/^\[[^]]*\] //" >"$out"
			endsection
			rmmod varlink_kunit || fail kunit-unload
		else
			fail kunit-load
		fi
	fi

	for t in $tests; do
		section selftest "$t"
		t0=$(uptime_s)
		"/tests/$t" >"$out" 2>&1
		echo "# exit=$?" >"$out"
		echo "# seconds=$(($(uptime_s) - t0))" >"$out"
		endsection
	done
	if [ -e /sys/kernel/debug/kcsan ]; then
		# KCSAN's counters: how much it watched, and the races it found
		sed 's/^/kcsan: /' /sys/kernel/debug/kcsan >"$out"
		# its reports whole, each between its lines of "=": the
		# console has only their first lines
		section kcsan reports
		dmesg | sed 's/^\[[^]]*\] \{0,1\}//' | awk '
			/^=+$/ { if (r) { print; r = 0 } else b = $0; next }
			/^BUG: KCSAN:/ { r = 1; print b }
			r' >"$out"
		endsection
	fi

	final_checks
}

# Unload every module, then look for what they may have left behind.
final_checks() {
	if unload_modules; then pass unload; else fail unload; fi
	if socket_live; then fail socket-gone; else pass socket-gone; fi
	leak_checks
}

leak_checks() {
	if [ -e $kmemleak ]; then
		# Objects younger than 5 s are never reported: let them age.
		sleep 6
		echo scan >$kmemleak
		echo scan >$kmemleak
		# debugfs files have no size: read the report itself
		leaks=$(cat $kmemleak)
		if [ -n "$leaks" ]; then
			fail kmemleak "see the console log"
			echo "$leaks"
		else
			pass kmemleak
		fi
	fi
	if [ -e /proc/lockdep_stats ]; then
		if grep -q "debug_locks: *1" /proc/lockdep_stats; then
			pass lockdep
		else
			fail lockdep "debug_locks is off"
		fi
	fi
	# out-of-tree (4096), unsigned (8192) and test (262144) taint only
	taint=$(cat /proc/sys/kernel/tainted)
	if [ $((taint & ~(4096 | 8192 | 262144))) -eq 0 ]; then
		pass taint
	else
		fail taint "tainted=$taint"
		# a WARN without panic_on_warn (kcsan) is below the console's level
		dmesg | grep -B 2 -A 30 'WARNING:' | head -n 100 | sed 's/^/# /' >"$out"
	fi
}

# The fault run.  failslab fails a share of the slab allocations whose
# call stack goes through code of our modules (require-start/-end over
# the module area: every module in this guest is ours, and the range
# stays right when a test unloads and loads them again), in task context
# (task-filter, with make-it-fail on every task, kernel threads too: the
# connections are served by kworkers).  Each failure that is not
# __GFP_NOWARN dumps its stack: the dumps are logged below the console's
# level, so they never reach the console, which must stay free of
# splats; they are read back with dmesg after each test, one line per
# failure with its frames, innermost first, in section "faults TEST".
failslab=/sys/kernel/debug/failslab
fault_times=1000000

fault_setup() {
	local start end p
	[ -e $failslab/require-start ] || return 1
	# the console shows levels below 4 only, and the dumps are at the
	# default level, made 4 here (their first line is at 5)
	echo "4 4 1 4" >/proc/sys/kernel/printk
	start=$(sed -n 's/^\([0-9a-f]*\) . _end$/\1/p' /proc/kallsyms)
	[ -n "$start" ] || start=ffffffffa0000000
	end=ffffffffff000000	# MODULES_END on x86-64
	if [ -n "$fault_site" ]; then
		# from the function to the symbol after it (a module unloaded
		# and loaded again moves: for the tests that do not)
		set -- $(sort /proc/kallsyms | awk -v f="$fault_site" '
			on { print $1; exit }
			$3 == f && $2 ~ /^[tT]$/ { print $1; on = 1 }')
		[ $# -eq 2 ] || return 1
		start=$1 end=$2
	fi
	echo 0 >$failslab/probability
	echo 1 >$failslab/interval
	echo $fault_times >$failslab/times
	echo 0 >$failslab/space
	echo N >$failslab/ignore-gfp-wait
	echo N >$failslab/cache-filter
	echo Y >$failslab/task-filter
	echo 32 >$failslab/stacktrace-depth
	echo 0x$start >$failslab/require-start
	echo 0x$end >$failslab/require-end
	echo 0 >$failslab/reject-start
	echo 0 >$failslab/reject-end
	echo 2 >$failslab/verbose
	echo 0 >$failslab/verbose_ratelimit_interval_ms
	# kthreadd first: the kernel threads it starts from now on inherit it
	echo 1 >/proc/2/make-it-fail
	for p in /proc/[0-9]*/make-it-fail; do
		echo 1 >"$p" 2>/dev/null
	done
	echo "# failslab: stacks through $start-$end; varlink.ko at $(cat /sys/module/varlink/sections/.text)" >"$out"
}

# dmesg to one line per injected failure: "fault TEST COMM FRAME...",
# the frames innermost first, failslab's own left out, a module's as
# function[module]
fault_lines() {
	sed 's/^\[[^]]*\] \{0,1\}//' | awk -v t="$1" '
	function done() {
		if (on)
			print "fault " t " " comm frames
		on = 0
	}
	/^FAULT_INJECTION: forcing a failure/ {
		done(); on = 1; comm = "?"; frames = ""; n = 0; next
	}
	!on { next }
	/ Comm: / { comm = $0; sub(/.* Comm: /, "", comm); sub(/ .*/, "", comm); next }
	/<\/TASK>/ { done(); next }
	{
		sub(/^ +/, "")
		if ($1 == "?" || $1 !~ /\+0x[0-9a-f]+\/0x[0-9a-f]+$/)
			next
		f = $1
		sub(/\+.*/, "", f)
		if (f ~ /^(dump_stack|should_fail|__should_failslab|slab_pre_alloc_hook)/)
			next
		if ($2 ~ /^\[.*\]$/)
			f = f $2
		if (n++ < 32)	# as deep as the stack filter looks
			frames = frames " " f
	}
	END { done() }'
}

# Load the modules that are not: a test under injection may have
# unloaded one and failed to load it again.
load_missing() {
	local m name
	for m in /modules/varlink.ko /modules/*.ko; do
		name=${m##*/}
		name=${name%.ko}
		[ "$name" = varlink_kunit ] && continue
		grep -q "^$name " /proc/modules || insmod "$m" || return 1
	done
}

# Run selftest $1 with failslab at $2 percent, killed after $3 seconds.
fault_test() {
	local t=$1 before status
	# what an earlier test left unloaded (a load that failed under
	# injection) is back, for this test to find
	load_missing || fail reload "before $t"
	dmesg -c >/dev/null
	before=$(cat $failslab/times)
	section fault "$t"
	echo "$2" >$failslab/probability
	timeout "$3" "/tests/$t" >"$out" 2>&1
	status=$?
	echo 0 >$failslab/probability
	echo "# exit=$status" >"$out"
	echo "# injected=$((before - $(cat $failslab/times))) probability=$2" >"$out"
	endsection
	section faults "$t"
	dmesg -c | fault_lines "$t" >"$out"
	endsection
}

fault_run() {
	if load_modules; then pass load; else fail load; return; fi
	if fault_setup; then pass failslab; else fail failslab "no stack filter in $failslab"; return; fi

	for t in $tests; do
		case "$t" in
		# it sets the probability itself, and must pass
		varlink_fault) fault_test "$t" 0 900 ;;
		*) fault_test "$t" 10 900 ;;
		esac
	done

	# injection is off: all is loaded and serves new clients
	if load_missing; then pass reload; else fail reload; fi
	if varlink-cli call org.varlink.service.GetInfo >/dev/null &&
	   varlink-cli call org.kernel.varlink.test.Echo '{"string":"after"}' >/dev/null; then
		pass served-after
	else
		fail served-after
	fi
	final_checks
}

# The built-in kernel: the core and its interfaces are built in, the test
# interfaces are modules (/modules), the kselftest target is installed in
# /kselftest.  $tests: the programs that need no built-in module unloaded.
builtin_run() {
	local m calls
	section selftest first-call
	if [ -s /first-call.tap ]; then
		cat /first-call.tap >"$out"
	else
		echo "not ok 1 PID 1 left no results # exit=1" >"$out"
	fi
	endsection
	# the listener came up before PID 1 ran
	if dmesg | awk '/varlink: listening on @/ { l = 1 } /Run \/init as init process/ { r = l; exit } END { exit !r }'; then
		pass listening-before-init
	else
		fail listening-before-init
	fi
	if [ -d /sys/module/varlink ] && [ ! -e /sys/module/varlink/initstate ]; then
		pass built-in
	else
		fail built-in "/sys/module/varlink is not that of built-in code"
	fi
	calls=$(cat /sys/module/varlink/statistics/calls 2>/dev/null)
	if [ "${calls:-0}" -ge 2 ]; then pass statistics; else fail statistics "calls=$calls"; fi

	for m in /modules/*.ko; do
		insmod "$m" || fail load "$m"
	done
	# runner.sh runs each test under /usr/bin/timeout --foreground, which
	# busybox's timeout does not know; it runs in the foreground anyway
	mkdir -p /usr/bin
	printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /bin/timeout "$@"\n' >/usr/bin/timeout
	chmod +x /usr/bin/timeout
	# and it logs to /dev/stdout, which devtmpfs does not make
	[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout
	section kselftest varlink
	# shellcheck disable=SC2046
	/kselftest/run_kselftest.sh $(for m in $tests; do echo "-t varlink:$m"; done) >"$out" 2>&1
	echo "# exit=$?" >"$out"
	endsection

	for m in $(ls /modules | sed -n 's/\.ko$//p'); do
		grep -q "^$m " /proc/modules && { rmmod "$m" || fail unload "$m"; }
	done
	pass unload
	if socket_live; then pass socket-stays; else fail socket-stays; fi
	leak_checks
}

case "$mode" in
builtin)
	echo "# kvarlink results $(uname -r)" >"$out"
	builtin_run
	if [ -z "$failures" ]; then
		echo "verdict: pass" >"$out"
	else
		echo "verdict: fail$failures" >"$out"
	fi
	;;
check)
	echo "# kvarlink results $(uname -r)" >"$out"
	run_checks
	if [ -z "$failures" ]; then
		echo "verdict: pass" >"$out"
	else
		echo "verdict: fail$failures" >"$out"
	fi
	;;
fault)
	echo "# kvarlink fault run $(uname -r)" >"$out"
	fault_run
	if [ -z "$failures" ]; then
		echo "verdict: pass" >"$out"
	else
		echo "verdict: fail$failures" >"$out"
	fi
	;;
demo|shell)
	if load_modules; then
		demo
	else
		echo "loading varlink.ko failed"
	fi
	if [ "$mode" = shell ]; then
		echo "== a guest shell; varlink-cli is on the PATH; 'exit' powers off"
		setsid cttyhack sh -l
	fi
	echo "verdict: pass" >"$out"
	;;
bench)
	echo "# kvarlink bench $(uname -r)" >"$out"
	if ! load_modules; then
		echo "verdict: fail load" >"$out"
	elif /tests/bench-run >"$out"; then
		echo "verdict: pass" >"$out"
	else
		echo "verdict: fail bench" >"$out"
	fi
	;;
esac
sync
# the host checks that the console got this far (GUEST_END_MARK, lib.sh)
echo "kvarlink: guest done" >/dev/console
reboot -f
