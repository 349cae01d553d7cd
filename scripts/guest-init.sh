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
# Whatever happens, the VM ends with a reboot, which qemu turns into exit.

/bin/busybox --install -s /bin
export PATH=/bin:/tests
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
ip link set lo up 2>/dev/null

mode=check
for arg in $(cat /proc/cmdline); do
	case "$arg" in kvarlink.mode=*) mode=${arg#kvarlink.mode=} ;; esac
done

out=/dev/ttyS1
failures=""
fail() { failures="$failures $1"; echo "check: $1 FAIL${2:+ ($2)}" >"$out"; }
pass() { echo "check: $1 ok" >"$out"; }
section() { echo "# section $1 $2" >"$out"; }
endsection() { echo "# endsection" >"$out"; }

kmemleak=/sys/kernel/debug/kmemleak
[ -e $kmemleak ] && echo clear >$kmemleak

load_modules() {
	for m in /modules/extra/*.ko; do
		[ -e "$m" ] && insmod "$m"
	done
	insmod /modules/varlink.ko || return 1
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
	if load_modules; then pass load; else fail load; return; fi
	if socket_live; then pass socket; else fail socket; fi

	# The suites run at load time and print KTAP to the kernel log; it
	# is read with dmesg, as the debugfs logs of 6.1 lack the headers of
	# parameterized tests.
	if [ -e /modules/varlink_kunit.ko ]; then
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

	for t in $(cat /tests/list 2>/dev/null); do
		section selftest "$t"
		"/tests/$t" >"$out" 2>&1
		echo "# exit=$?" >"$out"
		endsection
	done

	if unload_modules; then pass unload; else fail unload; fi
	if socket_live; then fail socket-gone; else pass socket-gone; fi

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
	fi
}

case "$mode" in
check)
	echo "# kvarlink results $(uname -r)" >"$out"
	run_checks
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
