#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# PID 1 of the test VM (busybox sh).
#
# kvarlink.mode= on the kernel command line picks what to do:
#   check  load the modules, run KUnit and the kselftest target, unload,
#          then check kmemleak, lockdep and taint
#   builtin  the built-in kernel (CONFIG_VARLINK=y), after its PID 1,
#          varlink_boot_root, has found and mounted its root disk over
#          varlink with nothing mounted, and varlink_first_call (which it
#          execs) has called the kernel: report both, load the test
#          modules, run the kselftest target, unload them, check as
#          "check" does
#   fault  the fault run (debug kernel): load the modules, run selftests
#          while failslab fails allocations made on behalf of our modules,
#          then check that new clients are served, unload and check as
#          "check" does; see fault_setup below
#   demo   load the modules and show the demo on the console
#   shell  the demo, then an interactive shell ("exit" powers off)
#   bench  load the modules, run /tests/bench-run (make bench): its
#          tables go to /dev/ttyS1, its progress to the console; with
#          /tests/modules-base (BENCH_BASE), then the same runs again
#          (/tests/bench-run-base) with those modules in their place
#
# check, builtin and fault write one KTAP document to /dev/ttyS1, which
# the host reads with the kernel's own parser (scripts/ktap.py): one test
# for each step of the mode, its plan first, and nested in a step what
# it ran: the KUnit suites as the kernel printed them, and the kselftest
# runner's TAP, whose "# "-prefixed lines (a program's own output) are
# turned into nested lines (ksft_ktap).  Diagnostics are "#" lines.
# demo, shell and bench end with "verdict: pass" or "verdict: fail ...".
#
# kvarlink.tests=a,b,... runs these programs of the kselftest target (by
# the runner's run_many) instead of all of it (kselftest-list.txt);
# kvarlink.expect=kunit,kmemleak,lockdep,kcsan: what this kernel has, so
# that a kernel built without it fails the step rather than leaves it out;
# kvarlink.params=a=1,b=2 are the core's module parameters;
# kvarlink.kunit=n leaves the KUnit suites out; kvarlink.kcsan_ignore=
# f,g,... are functions whose races KCSAN is not to report (vm.sh);
# kvarlink.fault_site=FUNCTION limits the fault run's failures to stacks
# through that function.
# Whatever happens, the VM ends with a reboot, which qemu turns into exit.

/bin/busybox --install -s /bin
export PATH=/bin:/kselftest/varlink:/tests
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
tests=
kunit=y
expect=
params=$(cat /tests/varlink.params 2>/dev/null)
kcsan_ignore=
fault_site=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	kvarlink.mode=*) mode=${arg#kvarlink.mode=} ;;
	kvarlink.tests=*) tests=$(echo "${arg#*=}" | tr , ' ') ;;
	kvarlink.expect=*) expect=$(echo "${arg#*=}" | tr , ' ') ;;
	kvarlink.kunit=*) kunit=${arg#kvarlink.kunit=} ;;
	kvarlink.params=*) params=$(echo "${arg#*=}" | tr , ' ') ;;
	kvarlink.kcsan_ignore=*) kcsan_ignore=$(echo "${arg#*=}" | tr , ' ') ;;
	kvarlink.fault_site=*) fault_site=${arg#*=} ;;
	esac
done

out=/dev/ttyS1
kmemleak=/sys/kernel/debug/kmemleak
kcsan=/sys/kernel/debug/kcsan
failslab=/sys/kernel/debug/failslab
[ -e $kmemleak ] && echo clear >$kmemleak

# KTAP to the host.  A step prints what it nests, then its result line.
ktap() { echo "$*" >"$out"; }
# a diagnostic: the words given, or else the lines of stdin
diag() {
	if [ $# -gt 0 ]; then echo "$*"; else cat; fi | sed 's/^/# /' >"$out"
}
nest() { sed 's/^/    /' >"$out"; }

# Whether this kernel has FEATURE, or is to have it (kvarlink.expect)
has() {
	case " $expect " in *" $1 "*) return 0 ;; esac
	case "$1" in
	kunit) [ -e /modules/varlink_kunit.ko ] && [ "$kunit" = y ] ;;
	kmemleak) [ -e $kmemleak ] ;;
	lockdep) [ -e /proc/lockdep_stats ] ;;
	kcsan) [ -e $kcsan ] ;;
	esac
}

# Run the steps given, each a function step_NAME (or fault_test for
# "fault:TEST"), as the tests of the document, each with the seconds it
# took.  When "load" fails, the steps after it are not run, and fail.
run_steps() {
	local n=0 s status not_run= t0
	ktap "KTAP version 1"
	ktap "# kvarlink $mode $(uname -r)"
	ktap "1..$#"
	for s in "$@"; do
		n=$((n + 1))
		t0=$(cut -d. -f1 /proc/uptime)
		if [ -n "$not_run" ]; then
			status=1
			diag "not run: $not_run failed"
		else
			case "$s" in
			fault:*) fault_test "${s#fault:}" ;;
			*) "step_$s" ;;
			esac
			status=$?
			[ $status -eq 0 ] || [ "$s" != load ] || not_run=load
		fi
		diag "seconds=$(($(cut -d. -f1 /proc/uptime) - t0))"
		if [ $status -eq 0 ]; then ktap "ok $n $s"; else ktap "not ok $n $s"; fi
	done
}

# The kselftest runner's TAP on stdin, made KTAP: the lines it prefixes
# with "# " after a program's header are the program's own output, one
# level deeper; the time each program took is a diagnostic before its
# result, and the time each of its tests took (since the one before it
# ended) before the test's.  Fails unless the runner gave as many
# results as it planned.
ksft_ktap() {
	awk '
	function now(  l) { getline l <"/proc/uptime"; close("/proc/uptime"); return int(l) }
	/^# selftests: / { print "    " $0; t0 = t1 = now(); fflush(); next }
	/^#( |$)/ {
		sub(/^# ?/, "")
		if (/^(not )?ok [0-9]+ /) {
			print "        # seconds=" now() - t1
			t1 = now()
		}
		print "        " $0; fflush(); next
	}
	/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0 }
	/^(not )?ok [0-9]+ / { print "    # seconds=" now() - t0; results++ }
	{ print "    " $0; fflush() }
	END { exit !(plan != "" && results == plan) }' >"$out"
}

# The varlink target by the kselftest runner (its run_many): all of it,
# in its own order (kselftest-list.txt, as run_kselftest.sh runs it), or
# the programs given, listed or not.  Without perl the runner prefixes
# the programs' lines with sed, busybox's here, which passes them on a
# pipe's buffer at a time: each line as it comes instead, for the times
# of the tests (ksft_ktap).
ksft_run() {
	# shellcheck disable=SC2046 # a list of words
	[ $# -gt 0 ] || set -- $(sed -n 's/^varlink://p' /kselftest/kselftest-list.txt)
	(cd /kselftest/varlink && BASE_DIR=/kselftest && . ../kselftest/runner.sh &&
		tap_prefix() { awk '{ print "# " $0; fflush() }'; } &&
		run_many "$@")
}

# The runner calls /usr/bin/timeout --foreground, which busybox's timeout
# does not know (it runs in the foreground anyway), and logs to
# /dev/stdout, which devtmpfs does not make.
mkdir -p /usr/bin
printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /bin/timeout "$@"\n' >/usr/bin/timeout
chmod +x /usr/bin/timeout
[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout

# Load what of /modules is not loaded (a test under injection may have
# unloaded a module and failed to load it again): the core first, with
# its parameters (kvarlink.params, or /tests/varlink.params), and the kernel's
# own modules the tests need, where they are not built in.
load_modules() {
	local m name dir=${1:-/modules}
	for m in /modules/extra/*.ko; do
		[ -e "$m" ] && insmod "$m" 2>/dev/null
	done
	for m in $dir/varlink.ko $dir/*.ko; do
		name=${m##*/}
		name=${name%.ko}
		case "$name" in varlink_kunit|'*') continue ;; esac
		grep -q "^$name " /proc/modules && continue
		# shellcheck disable=SC2086 # the parameters are words
		if [ "$name" = varlink ]; then
			[ -e "$m" ] || continue
			insmod "$m" $params
		else
			insmod "$m"
		fi || return 1
	done
}

# Unload the modules of /modules, the core last ("varlink" sorts before
# its providers' names), which must be loaded.
step_unload() {
	local m
	for m in $(ls /modules | sed -n 's/\.ko$//p' | sort -r); do
		grep -q "^$m " /proc/modules || [ "$m" = varlink ] || continue
		rmmod "$m" || return 1
	done
}

# Both vCPUs of vm_qemu are up: the concurrency tests need them, and a
# kernel that cannot bring the second one up (no MP table, no ACPI)
# would run them on one.
step_cpus() {
	local online
	online=$(cat /sys/devices/system/cpu/online)
	diag "cpus online: $online"
	[ "$online" = 0-1 ]
}

socket_live() {
	grep -q " @org.kernel.varlink$" /proc/net/unix
}

step_load() {
	# KCSAN, if the kernel has it, watches from here on (see vm.sh)
	if [ -e $kcsan ]; then
		for f in $kcsan_ignore; do
			echo "!$f" >$kcsan || { diag "kcsan: cannot ignore $f"; return 1; }
		done
		echo on >$kcsan
	fi
	load_modules
}
step_socket() { socket_live; }

# The suites run at load time and print KTAP to the kernel log; it is
# read with dmesg, as the debugfs logs of 6.1 lack the headers of
# parameterized tests.  A test module prints its suites without the
# top-level header of the boot-time executor: it is added.
step_kunit() {
	[ -e /modules/varlink_kunit.ko ] || { diag "no varlink_kunit.ko"; return 1; }
	dmesg -c >/dev/null
	insmod /modules/varlink_kunit.ko || return 1
	{
		echo "KTAP version 1"
		echo "1..$(ls /sys/kernel/debug/kunit | wc -l)"
		dmesg -c | sed 's/^\[[^]]*\] //'
	} | nest
	rmmod varlink_kunit
}

# shellcheck disable=SC2086 # $tests is words
step_kselftest() { ksft_run $tests 2>&1 | ksft_ktap; }

step_socket_gone() { ! socket_live; }

step_kmemleak() {
	local leaks
	[ -e $kmemleak ] || { diag "no kmemleak in this kernel"; return 1; }
	# Objects younger than 5 s are never reported: let them age.
	sleep 6
	echo scan >$kmemleak
	echo scan >$kmemleak
	# debugfs files have no size: read the report itself; the console
	# shows it too, where the host looks for "unreferenced object"
	leaks=$(cat $kmemleak)
	[ -z "$leaks" ] && return 0
	echo "$leaks" | tee /dev/console | head -n 200 | diag
	return 1
}

step_lockdep() {
	[ -e /proc/lockdep_stats ] || { diag "no lockdep in this kernel"; return 1; }
	grep -q "debug_locks: *1" /proc/lockdep_stats && return 0
	diag "debug_locks is off: lockdep found something"
	return 1
}

step_taint() {
	local taint
	# out-of-tree (4096), unsigned (8192) and test (262144) taint only
	taint=$(cat /proc/sys/kernel/tainted)
	[ $((taint & ~(4096 | 8192 | 262144))) -eq 0 ] && return 0
	diag "tainted=$taint"
	# a WARN without panic_on_warn (kcsan) is below the console's level
	dmesg | grep -B 2 -A 30 'WARNING:' | head -n 100 | sed 's/^/# /' >"$out"
	return 1
}

# KCSAN: its counters, and that it set up watchpoints (it was on).
step_kcsan_watched() {
	[ -e $kcsan ] || { diag "no KCSAN in this kernel"; return 1; }
	sed 's/^/kcsan: /' $kcsan | diag
	grep -q '^enabled: 1' $kcsan && grep -q '^setup_watchpoints: [1-9]' $kcsan
}

# KCSAN's reports, whole from the kernel log (the console has only their
# first lines), each between lines of "=".  A report is ours when a
# stack of either access has a frame of one of our modules
# ("[varlink...]") above any interrupt's or softirq's entry: our code
# made the access, or the kernel made it on our behalf; what an
# interrupt stopped did not make it.  A race with no such frame is
# 6.1's own, between two accesses of code we do not touch, that only
# its timing brings out: it is shown, fails nothing, and its header
# goes to the host as "# kernel's race: BUG: KCSAN: ..." so that the
# console's copy of it is no splat either.  The races with a frame of
# ours fail this step.
step_kcsan_races() {
	dmesg | sed 's/^\[[^]]*\] \{0,1\}//' | awk '
		function close_report(  c, a, i, n) {
			c = mine ? "ours" : "kernel"
			n = split(r, a, "\n")
			for (i = 1; i <= n; i++)
				if (a[i] != "")
					print c "\t" a[i]
			open = 0
		}
		/^BUG: KCSAN:/ { r = $0 "\n"; mine = 0; open = 1; stack = 0; next }
		/^=+$/ { if (open) close_report(); next }
		!open { next }
		{ r = r $0 "\n" }
		/ bytes by (task [0-9]+|interrupt) on cpu [0-9]+:$/ { stack = 1; next }
		/^[ \t]*$/ { stack = 0; next }
		stack && /^ *[a-z0-9_.]*(sysvec_|common_interrupt|softirq)[a-z0-9_.]*\+0x/ { stack = 0; next }
		stack && /\[varlink[a-z_]*\]/ { mine = 1 }
		END { if (open) close_report() }' >/tmp/kcsan
	# each race once, whose it is
	awk -F '\t' '$2 ~ /^BUG: KCSAN:/ { print $1 ": " $2 }' /tmp/kcsan | sort | uniq -c | diag
	awk -F '\t' '$1 == "ours" && $2 ~ /^BUG: KCSAN:/ { print $2 }' /tmp/kcsan |
		sort -u >/tmp/kcsan.ours
	echo "no race of ours" >>/tmp/kcsan.ours
	awk -F '\t' '$1 == "kernel" && $2 ~ /^BUG: KCSAN:/ { print $2 }' /tmp/kcsan | sort -u |
		grep -vxF -f /tmp/kcsan.ours | sed "s/^/kernel's race: /" | diag
	# the reports with a frame of ours, whole
	awk -F '\t' '$1 == "ours" { print $2 }' /tmp/kcsan | head -n 400 | diag
	! grep -q '^ours' /tmp/kcsan
}

# The Debian packages (deb-test.sh, laid in /deb): the modules DKMS built
# for this kernel and the client apt installed, with the libraries it
# links.  They are loaded, called with that client (and with systemd's
# varlinkctl, where the guest has it, for the same answers), and
# unloaded; "load" then loads the test build.  Nested TAP.
deb_n=0 deb_failed=0
deb_ok() {	# deb_ok NAME COMMAND...
	local name=$1
	shift
	deb_n=$((deb_n + 1))
	if "$@" >/tmp/deb.out 2>/tmp/deb.err; then
		echo "ok $deb_n $name"
	else
		echo "not ok $deb_n $name"
		sed 's/^/# /' /tmp/deb.out /tmp/deb.err
		deb_failed=$((deb_failed + 1))
	fi
}
deb_load() {
	local m
	insmod /deb/modules/varlink.ko || return 1
	for m in /deb/modules/varlink_*.ko; do
		insmod "$m" || return 1
	done
	socket_live
}
deb_unload() {
	local m
	for m in $(ls /deb/modules | sed -n 's/\.ko$//p' | sort -r); do
		rmmod "$m" || return 1
	done
	! socket_live
}
deb_info() {
	$ctl info >/tmp/deb.info || return 1
	cat /tmp/deb.info
	grep -qx " *Version: $v" /tmp/deb.info &&
		grep -qE "^ +(Interfaces: )?org\.kernel\.example$" /tmp/deb.info
}
deb_hello() {
	local r
	r=$($ctl call org.kernel.example.Hello '{"name":"deb"}') || return 1
	echo "$r"
	[ "$r" = "{\"greeting\":\"Hello, deb!\",\"release\":\"$(uname -r)\"}" ]
}
deb_more() {
	$ctl call --more org.kernel.example.Count '{"n":3}' >/tmp/deb.more || return 1
	cat /tmp/deb.more
	printf '{"i":1}\n{"i":2}\n{"i":3}\n' | cmp -s - /tmp/deb.more
}
deb_error() {
	$ctl call org.kernel.network.GetLink '{"name":"nope0"}' 2>/tmp/deb.e
	[ $? -eq 1 ] && cat /tmp/deb.e && grep -q "org.kernel.network.LinkNotFound" /tmp/deb.e
}
deb_refused() {
	$ctl info @org.kernel.varlink.nobody
	[ $? -eq 1 ]
}
# deb_same ARGS...: kvarlinkctl and varlinkctl print the same, but the
# RS (JSON text sequences) varlinkctl writes before each reply of --more
deb_same() {
	$ctl "$@" >/tmp/deb.a 2>&1
	local a=$?
	$vctl "$@" 2>&1 | tr -d '\036' >/tmp/deb.b
	[ $a -eq 0 ] && cmp /tmp/deb.a /tmp/deb.b || { diff /tmp/deb.a /tmp/deb.b; false; }
}
step_deb() {
	local v ctl=/deb/client/kvarlinkctl vctl=/kselftest/varlink/varlinkctl/varlinkctl
	v=$(cat /deb/version)
	{
		echo "TAP version 13"
		if [ -x $vctl ]; then echo "1..10"; else echo "1..8"; fi
		deb_ok "the modules DKMS built load, the socket listens" deb_load
		deb_ok "modinfo's version is VERSION's, $v" \
			grep -qx "$v" /sys/module/varlink/version
		deb_ok "kvarlinkctl info: version $v, org.kernel.example" deb_info
		deb_ok "kvarlinkctl call: a reply, one line when not on a terminal" deb_hello
		deb_ok "kvarlinkctl call --more: every reply" deb_more
		deb_ok "kvarlinkctl call: an error reply, on stderr, exit 1" deb_error
		deb_ok "kvarlinkctl info to a name nobody listens on: exit 1" deb_refused
		if [ -x $vctl ]; then
			deb_ok "varlinkctl list-interfaces says the same" \
				deb_same list-interfaces unix:@org.kernel.varlink
			deb_ok "varlinkctl call --more says the same" deb_same call --more \
				unix:@org.kernel.varlink org.kernel.example.Count '{"n":3}'
		fi
		deb_ok "they unload, the socket is gone" deb_unload
	} >/tmp/deb.tap 2>&1
	nest </tmp/deb.tap
	[ $deb_failed -eq 0 ]
}

check_run() {
	local steps="load socket"
	[ -d /deb ] && steps="deb $steps"
	steps="cpus $steps"
	has kunit && steps="$steps kunit"
	steps="$steps kselftest"
	has kcsan && steps="$steps kcsan_watched kcsan_races"
	steps="$steps unload socket_gone"
	has kmemleak && steps="$steps kmemleak"
	has lockdep && steps="$steps lockdep"
	# shellcheck disable=SC2086
	run_steps $steps taint
}

# The built-in kernel: the core and its interfaces are built in, the test
# interfaces are modules (/modules), the kselftest target is the one the
# kernel tree installs.
step_first_call() {
	if [ -s /first-call.tap ]; then
		nest </first-call.tap
	else
		diag "PID 1 left no results"
		return 1
	fi
}
# The early-boot demonstration (varlink_boot_root, PID 1 before /init):
# its TAP, every test passed, as many as planned; what it read over
# varlink is what /proc and /sys say now; its start line is in the log
# (vm.sh checks on the host that it reached the console).
step_boot_root() {
	local tap=/boot-root.tap plan got id dev want fail=0
	if ! [ -s $tap ]; then
		diag "varlink_boot_root left no results"
		return 1
	fi
	nest <$tap
	plan=$(sed -n 's/^1\.\.//p' $tap)
	got=$(grep -c '^ok ' $tap)
	[ -n "$plan" ] && [ "$got" -eq "$plan" ] || fail=1
	id=$(sed -n 's/^# kernel.random.boot_id=//p' $tap)
	if [ "$id" != "$(cat /proc/sys/kernel/random/boot_id)" ]; then
		diag "boot_id: \"$id\" over varlink, $(cat /proc/sys/kernel/random/boot_id) in /proc"
		fail=1
	fi
	dev=$(sed -n 's/^# root=\([a-z0-9]*\) devnum=b\([0-9:]*\) .*/\1 \2/p' $tap)
	want=$(cat "/sys/class/block/${dev%% *}/dev" 2>/dev/null)
	if [ -z "$dev" ] || [ "${dev#* }" != "$want" ]; then
		diag "root disk \"$dev\" over varlink, /sys/class/block has \"$want\""
		fail=1
	fi
	if ! dmesg | grep -q "kvarlink-boot: up, PID 1,"; then
		diag "no \"kvarlink-boot: up\" line in the kernel log"
		fail=1
	fi
	return $fail
}
# the listener came up before PID 1 ran
step_listening_before_init() {
	dmesg | awk '/varlink: listening on @/ { l = 1 }
		/Run \/[a-z_]* as init process/ { r = l; exit } END { exit !r }'
}
step_built_in() {
	[ -d /sys/module/varlink ] && [ ! -e /sys/module/varlink/initstate ]
}
step_statistics() {
	local calls
	calls=$(cat /sys/module/varlink/statistics/calls 2>/dev/null)
	diag "calls=$calls"
	[ "${calls:-0}" -ge 2 ]
}
step_socket_stays() { socket_live; }

builtin_run() {
	local steps="cpus boot_root first_call listening_before_init built_in statistics"
	steps="$steps load kselftest unload socket_stays"
	has kmemleak && steps="$steps kmemleak"
	has lockdep && steps="$steps lockdep"
	# shellcheck disable=SC2086
	run_steps $steps taint
}

# The fault run.  failslab fails a share of the slab allocations whose
# call stack goes through code of our modules (require-start/-end over
# the module area: every module in this guest is ours, and the range
# stays right when a test unloads and loads them again), in task context
# (task-filter, with make-it-fail on every task, kernel threads too: the
# connections are served by kworkers).  Each failure that is not
# __GFP_NOWARN dumps its stack: the dumps are logged below the console's
# level, so they never reach the console, which must stay free of
# splats; they are read back with dmesg after each test, one diagnostic
# "# fault TEST COMM FRAME..." per failure (fault_lines).
fault_times=1000000

step_failslab() {
	local start end
	[ -e $failslab/require-start ] || { diag "no stack filter in $failslab"; return 1; }
	# the console shows levels below 4 only, and the dumps are at the
	# default level, made 4 here (their first line is at 5)
	echo "4 4 1 4" >/proc/sys/kernel/printk
	start=$(sed -n 's/^\([0-9a-f]*\) . _end$/\1/p' /proc/kallsyms)
	[ -n "$start" ] || start=ffffffffa0000000
	end=ffffffffff000000	# MODULES_END on x86-64
	if [ -n "$fault_site" ]; then
		# from the function to the symbol after it (a module unloaded
		# and loaded again moves: for the tests that do not)
		# shellcheck disable=SC2046
		set -- $(sort /proc/kallsyms | awk -v f="$fault_site" '
			on { print $1; exit }
			$3 == f && $2 ~ /^[tT]$/ { print $1; on = 1 }')
		[ $# -eq 2 ] || { diag "no function $fault_site"; return 1; }
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
	diag "failslab: stacks through $start-$end; varlink.ko at $(cat /sys/module/varlink/sections/.text)"
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

# Selftest $1 while failslab fails allocations.  varlink_fault sets the
# probability itself, and its results count; the others run at 10 %,
# are expected to fail calls, and only have to end by themselves: their
# output is kept as diagnostics.
fault_test() {
	local t=$1 p=10 before result status
	[ "$t" = varlink_fault ] && p=0
	# what an earlier test left unloaded (a load that failed under
	# injection) is back, for this test to find
	load_modules || { diag "could not load the modules before $t"; return 1; }
	dmesg -c >/dev/null
	before=$(cat $failslab/times)
	echo $p >$failslab/probability
	if [ "$t" = varlink_fault ]; then
		ksft_run "$t" 2>&1 | ksft_ktap
		status=$?
	else
		ksft_run "$t" >/tmp/fault.out 2>&1
		sed 's/^/# /' /tmp/fault.out >"$out"
		# the runner's verdict: ok, "# exit=N", "# TIMEOUT"
		result=$(grep '^\(not \)\{0,1\}ok 1 ' /tmp/fault.out)
		case "$result" in
		ok*) status=0 ;;
		*"# exit="*) status=${result##*# exit=}; [ "$status" -lt 124 ] && status=0 ;;
		*) status=1 ;;
		esac
	fi
	echo 0 >$failslab/probability
	diag "injected=$((before - $(cat $failslab/times))) probability=$p"
	dmesg -c | fault_lines "$t" | sed 's/^/# /' >"$out"
	return "$status"
}

# injection is off: all is loaded and serves new clients
step_reload() { load_modules; }
step_served_after() {
	kvarlinkctl call org.varlink.service.GetInfo >/dev/null &&
		kvarlinkctl call org.kernel.varlink.test.Echo '{"string":"after"}' >/dev/null
}

fault_run() {
	local steps="cpus load failslab" t
	for t in $tests; do
		steps="$steps fault:$t"
	done
	steps="$steps reload served_after unload socket_gone kmemleak lockdep"
	# shellcheck disable=SC2086
	run_steps $steps taint
}

# demo_run ARGS...: kvarlinkctl ARGS, said first
demo_run() {
	echo
	echo "== kvarlinkctl $*"
	kvarlinkctl "$@" 2>&1
}

demo() {
	echo "== varlink.ko loaded; the listening socket:"
	grep "@org.kernel.varlink" /proc/net/unix
	command -v kvarlinkctl >/dev/null || return 0
	# what the kernel serves, each interface's description, and calls
	# (JSON indented: the console is no terminal to kvarlinkctl)
	demo_run info
	for i in $(kvarlinkctl list-interfaces); do
		demo_run introspect "$i"
	done
	demo_run call --json=pretty org.kernel.system.Describe
	demo_run call --json=pretty org.kernel.example.Hello '{"name":"world"}'
	demo_run call --more --json=short org.kernel.example.Count '{"n":3}'
	demo_run call org.kernel.network.GetLink '{"name":"nope0"}'
	return 0
}

case "$mode" in
check) check_run ;;
builtin) builtin_run ;;
fault) fault_run ;;
demo|shell)
	if load_modules; then
		demo
	else
		echo "loading varlink.ko failed"
	fi
	if [ "$mode" = shell ]; then
		echo "== a guest shell; kvarlinkctl is on the PATH; 'exit' powers off"
		setsid cttyhack sh -l
	fi
	echo "verdict: pass" >"$out"
	;;
bench)
	echo "# kvarlink bench $(uname -r)" >"$out"
	verdict=pass
	if ! load_modules; then
		verdict="fail load"
	else
		/tests/bench-run >"$out" || verdict="fail bench"
	fi
	if [ "$verdict" != "fail load" ] && [ -d /tests/modules-base ]; then
		if step_unload && load_modules /tests/modules-base; then
			# the base tree's figures are compared, not judged:
			# its goals may fail
			echo "# bench: the base tree" >"$out"
			/tests/bench-run-base >"$out"
		else
			verdict="fail base"
		fi
	fi
	echo "verdict: $verdict" >"$out"
	;;
esac
sync
# the host checks that the console got this far (GUEST_END_MARK, lib.sh)
echo "kvarlink: guest done" >/dev/console
reboot -f
