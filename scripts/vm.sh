#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a test kernel under qemu (TCG) with the modules and tests.
# Usage: vm.sh stock|6.12|7.3|debug|kcsan|builtin check|fault|demo|shell OUTDIR
#
# check: the console goes to OUTDIR/console.log and the guest's results to
#        OUTDIR/result.txt through a second serial port; exit status 0 when
#        the VM ran to its end (the caller judges the results).
# fault: the same for the fault run (guest-init.sh), on the debug kernel.
# demo:  the console on stdout.  shell: the console on this terminal.
#
# Environment: KVARLINK_TESTS="a b ..." runs these selftests instead of
# the kernel's default list (all of them; for kcsan and fault, see below);
# KVARLINK_FAULT_SITE=FUNCTION makes the fault run fail only allocations
# whose stack goes through that function (to chase one call site).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Under KCSAN: kcsan_stress, every kind of concurrent use at once for a
# minute, then the selftests that run calls concurrently: many clients
# and connection limits, pipelining and parallel connections, several
# threads on one connection and the inline path, streams and link
# events, paced streams waiting for their clients, the kernel log's
# streams (a tracepoint, irq_work and work items), clients that vanish,
# and unloading a provider and the core under load.  KUnit is left out:
# its suites are single-threaded.
KCSAN_TESTS="kcsan_stress varlink_protocol varlink_limits varlink_fastpath
	varlink_network varlink_streams varlink_log varlink_provider_unload
	varlink_core_unload"
# The functions whose races KCSAN is not to report, with the reasons:
# kcsan-ignore.txt, one a line.
KCSAN_IGNORE=$(grep -v '^#' "$KVARLINK_TOP/scripts/kcsan-ignore.txt")
# The fault run: varlink_fault, then the protocol, provider, streaming
# (paced streams too), file and unload selftests under injection.
FAULT_TESTS="varlink_fault varlink_protocol varlink_provider varlink_network
	varlink_streams varlink_files varlink_log varlink_provider_unload
	varlink_core_unload"

# What the kernels leave out of the kselftest target; they run the rest
# with the kselftest runner (run_many), in its order.  The Debian kernels
# run all of it (but varlink_varlinkctl.sh on 6.12); every suite but
# varlink_varlinkctl.sh runs under KASAN, lockdep and kmemleak once at
# least, on the debug kernel (varlink as modules) or the built-in one
# (the same kernel, varlink built in), both where being built in changes
# what it tests.
# - varlink_varlinkctl.sh: systemd's varlinkctl run 60 times, a client
#   that checks what the protocol looks like to it, the same bytes on every
#   kernel; its time goes to loading its 5 MB library (40 s of a Debian
#   kernel's 200, 250 s under KASAN), not to the server.  It runs on 6.1
#   (Debian 12's kernel, under a container of a newer Debian, say) and
#   7.3 (Debian 13's, whose systemd has varlinkctl): one kernel of each
#   way AF_UNIX tells the server who wrote (peer.c), of which 6.12 has
#   6.1's, and leaves it out.
# - varlink_cli.sh: our client, kvarlinkctl, started 50 times (42 s of the
#   debug run): the built-in kernel runs it with the client built from
#   the kernel tree, and the Debian kernels run it.
# - on the debug kernel, what the built-in kernel runs and nothing in it
#   loads or unloads: the socket (varlink_socket), the dispatch
#   (varlink_protocol) and the providers built in there (varlink_system,
#   varlink_process, varlink_files), 90 s of the debug run.  Providers
#   loaded and unloaded against the core (varlink_provider,
#   varlink_provider_unload) and the listeners of the namespaces
#   (varlink_containers) run on both: a core that is a module or not
#   changes them.
DEBUG_EXCLUDED="varlink_varlinkctl.sh varlink_cli.sh varlink_socket
	varlink_protocol varlink_system varlink_process varlink_files"
EXCLUDED_612="varlink_varlinkctl.sh"
# - on the built-in kernel, what unloads a built-in module: the core
#   (varlink_core_unload, varlink_impostor, and varlink_netns, which loads it again with
#   other parameters) and org.kernel.network (varlink_network reloads it
#   with other limits);
# - the suites of org.kernel.sysctl, .log and .device (500 s of the
#   built-in kernel's run): built in, those interfaces serve PID 1 before
#   anything is mounted, which the early-boot demonstration checks
#   (sysctl Get and Set, log Write and Read, device Monitor); the rest of
#   their suites is the same code as in their modules on the debug kernel;
# - and the core's stress suites (varlink_limits, varlink_fastpath,
#   varlink_streams, varlink_memory; 170 s): many clients, slow readers
#   and memory accounting, the same code built in or not.  What being
#   built in changes keeps its suites here: the socket from boot, the
#   dispatch (varlink_protocol), providers loaded and unloaded against a
#   core that is not (varlink_provider, varlink_provider_unload), the
#   listeners of the namespaces (varlink_containers) and the built-in
#   providers (varlink_system, varlink_process, varlink_files).
BUILTIN_EXCLUDED="varlink_core_unload varlink_netns varlink_impostor varlink_network
	varlink_sysctl varlink_log varlink_device
	varlink_limits varlink_fastpath varlink_streams varlink_memory"

kernel=$1 mode=$2 out=$3
vm_kernel "$kernel"
export EXTRA_MODULES=$extra_modules
# seconds the VM may run: the built-in kernel is a debug one too, and its
# run took 13 minutes with issue 23's selftests, the debug kernel's 29
limit=600
tests=${KVARLINK_TESTS:-}
# A list of words, whatever the white space between them, as one
# kernel command-line value: the words separated by commas.
commas() {
	echo "$1" | tr -s ' \t\n' , | sed 's/^,//; s/,$//'
}

args=
case "$kernel" in
builtin) limit=1500 ;;
debug|kcsan) limit=2700 ;;
esac
# what the kernel has, for the guest to check (guest-init.sh); on the
# debug kernels, where a connection costs a hundred times what it costs
# on the others, the core is loaded with a quarter of the default
# max_connections, and on the debug and KCSAN kernels with half of its
# max_output, which the tests that fill a connection's queue read a few
# bytes at a time (the defaults' own tests run on the Debian kernels)
case "$kernel" in
debug) args="kvarlink.expect=kunit,kmemleak,lockdep" ;;
kcsan) args="kvarlink.expect=kcsan,kmemleak,lockdep" ;;
builtin) args="kvarlink.expect=kmemleak,lockdep varlink.max_connections=1024" ;;
esac
# The built-in kernel's PID 1 is first varlink_boot_root, the early-boot
# demonstration: it finds its root disk (root=, a virtio disk that
# boot-disk.sh makes) over varlink and mounts it, then execs /init
# (varlink_first_call); its start line must reach the console (below).
[ "$kernel" != builtin ] || args="$args root=vda rdinit=/varlink_boot_root"
case "$kernel" in
debug|kcsan) args="$args kvarlink.params=max_connections=1024,max_output=131072" ;;
esac
case "$kernel:$mode" in
kcsan:check)
	tests=${tests:-$KCSAN_TESTS}
	# KCSAN starts off and guest-init.sh turns it on before it loads the
	# modules: the races of 6.1's own boot (APIC calibration) are not
	# ours.  A KCSAN report panics with panic_on_warn, which would show
	# only the first: it is off, and a WARN still fails the run by the
	# taint it leaves (guest-init.sh).  A report's first lines reach the
	# console, its stacks (at the default level) only the kernel log:
	# guest-init.sh reads them from there.  A watchpoint every 500
	# accesses instead of 4000: a run is short.
	args="$args kvarlink.kunit=n kcsan.early_enable=0 panic_on_warn=0"
	args="$args kcsan.skip_watch=${KCSAN_SKIP_WATCH:-500}"
	args="$args kvarlink.kcsan_ignore=$(commas "$KCSAN_IGNORE")"
	;;
*:fault)
	tests=${tests:-$FAULT_TESTS}
	# KVARLINK_FAULT_SITE=FUNCTION: fail only allocations under it
	args="$args${KVARLINK_FAULT_SITE:+ kvarlink.fault_site=$KVARLINK_FAULT_SITE}"
	# each test has 15 minutes in the guest; calls that hang take their
	# clients' timeouts, 10 s or 30 s each
	limit=3600
	;;
esac

# The programs of the kselftest list (kselftest-list.txt, "varlink:NAME"
# lines) but the words given, in the list's order.
all_but() {
	sed -n 's/^varlink://p' "$1" | grep -vxF "$(printf '%s\n' $2)"
}

mkdir -p "$out"
if [ "$kernel" = builtin ]; then
	# the kselftest target as a kernel tree builds it, the test
	# interfaces from the same build, and PID 1
	[ "$mode" = check ] && mode=builtin
	rm -rf "$out/kselftest"
	make -s -j"$(nproc)" -C "$(ktree_src)/tools/testing/selftests" O="$kdir" \
		TARGETS=varlink KSFT_INSTALL_PATH="$out/kselftest" install >/dev/null
	make -s -C "$KVARLINK_TOP/selftests/boot" OUTPUT="$out/boot"
	"$KVARLINK_TOP/scripts/boot-disk.sh" "$out/boot-disk.img"
	[ -n "$tests" ] || tests=$(all_but "$out/kselftest/kselftest-list.txt" "$BUILTIN_EXCLUDED")
	FIRST_CALL="$out/boot/varlink_first_call" BOOT_ROOT="$out/boot/varlink_boot_root" \
		KSELFTEST="$out/kselftest" \
		"$KVARLINK_TOP/scripts/initramfs.sh" "$modules" \
		/nonexistent "$out/initramfs.cpio"
else
	VARLINK_DEBUG=$varlink_debug "$KVARLINK_TOP/scripts/build-module.sh" \
		"$kdir" "$modules" $kroot
	# Under make check (KVARLINK_DEB_WAIT), the Debian packages as apt
	# installed them in this kernel's root (deb-test.sh, which make
	# check runs while it holds KVARLINK_OUT/deb.lock): the guest loads
	# and calls them first (step deb).
	deb=
	case "$kernel" in stock) series=6.1 ;; 6.12|7.3) series=$kernel ;; *) series= ;; esac
	if [ -n "$series" ] && [ -n "${KVARLINK_DEB_WAIT:-}" ]; then
		flock "$KVARLINK_OUT/deb.lock" true
		deb=$KVARLINK_OUT/deb-$series
		[ -d "$deb/deb" ] || die "no packages for $series: deb-test.sh did not install them"
	fi
	# the kselftest target installed as a kernel tree's selftests
	# "make install" lays it out: the runner, kselftest-list.txt, and
	# the target in varlink/; one VM at a time makes it
	ksft=$KVARLINK_OUT/kselftest ksrc=$(ksrc_ensure)/tools/testing/selftests
	(
		flock 8
		rm -rf "$ksft"
		mkdir -p "$ksft"
		make -s -j"$(nproc)" -C "$KVARLINK_TOP/selftests" OUTPUT="$KVARLINK_OUT/selftests" \
			KSFT_DIR="$ksrc" INSTALL_PATH="$ksft/varlink" install >/dev/null &&
		make -s -C "$KVARLINK_TOP/selftests" OUTPUT="$KVARLINK_OUT/selftests" \
			KSFT_DIR="$ksrc" COLLECTION=varlink emit_tests >"$ksft/kselftest-list.txt" &&
		cp "$ksrc/run_kselftest.sh" "$ksft/" && cp -r "$ksrc/kselftest" "$ksft/" &&
		EXTRA_ROOT=$deb KSELFTEST="$ksft" "$KVARLINK_TOP/scripts/initramfs.sh" \
			"$modules/module" /nonexistent "$out/initramfs.cpio" &&
		cp "$ksft/kselftest-list.txt" "$out/"
	) 8>"$KVARLINK_OUT/kselftest.lock"
	case "$kernel:$mode:$tests" in
	debug:check:) tests=$(all_but "$out/kselftest-list.txt" "$DEBUG_EXCLUDED") ;;
	6.12:check:) tests=$(all_but "$out/kselftest-list.txt" "$EXCLUDED_612") ;;
	esac
fi
[ -z "$tests" ] ||
	args="${args:+$args }kvarlink.tests=$(commas "$tests")"

vm_qemu "$image" "$out/initramfs.cpio" "$mode" 2 "$args"
[ "$kernel" != builtin ] ||
	qemu+=(-drive file="$out/boot-disk.img",if=virtio,format=raw,readonly=on)
rm -f "$out/result.txt" "$out/console.log"

case "$mode" in
check|fault|builtin)
	log "booting the $kernel kernel ($(basename "$image")); console in $out/console.log"
	timeout --foreground "$limit" "${qemu[@]}" \
		-serial file:"$out/console.log" -serial file:"$out/result.txt" ||
		log "qemu ended with status $? (timeout is $limit s)"
	;;
demo)
	timeout --foreground "$limit" "${qemu[@]}" \
		-serial stdio -serial file:"$out/result.txt" | tee "$out/console.log"
	;;
shell)
	"${qemu[@]}" -serial mon:stdio -serial file:"$out/result.txt"
	;;
*) die "unknown mode '$mode'" ;;
esac
# the early-boot demonstration's PID 1 wrote its start line with
# org.kernel.log.Write: it must have reached the serial console (grep
# reads it all: with -q, tr could die of SIGPIPE and fail the pipeline)
if [ "$kernel" = builtin ] && [ "$mode" != shell ] &&
	! tr -d '\r' <"$out/console.log" | grep "kvarlink-boot: up" >/dev/null; then
	die "the console has no \"kvarlink-boot: up\" line from varlink_boot_root (PID 1)"
fi
