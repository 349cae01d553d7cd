# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the build and test scripts; sourced, not run.

KVARLINK_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KVARLINK_CACHE=${KVARLINK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kvarlink}
KVARLINK_OUT=${KVARLINK_OUT:-$KVARLINK_TOP/build}
STOCK_FLAVOUR=amd64

# The guest's last line on its console (guest-init.sh): a console log
# without it was cut off.
GUEST_END_MARK="kvarlink: guest done"

# What no test VM's console may show (grep -E), for check.sh and bench.sh:
# the kernel's own reports (BUG:, WARNING:, Oops, KASAN, UBSAN, lockdep,
# RCU, hung tasks, any stack dump), and three that only the debug
# kernels print: KCSAN: (a data race on the kcsan kernel), FAULT_INJECTION
# (a failslab stack dump at the console's level: the fault run keeps them
# below it) and "unreferenced object" (a leak kmemleak found, which
# guest-init.sh copies to the console).  The stock kernel has neither
# KCSAN nor kmemleak, and nothing sets up fault injection on it, so they
# cost the stock runs (make bench) nothing.
KERNEL_SPLATS='BUG:|WARNING:|KCSAN:|FAULT_INJECTION|Kernel panic|KASAN|UBSAN|kernel BUG|Oops|general protection|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|unreferenced object|blocked for more than|rcu.*stall|Call Trace:'

# TAP lines of the test scripts: tap_result STATUS NAME prints "ok N -
# NAME" when STATUS is 0, else "not ok N - NAME"; tap_summary WHAT prints
# the count and fails if any test did.
tap_n=0 tap_failed=0
tap_result() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}
tap_summary() {
	echo "# $1: $((tap_n - tap_failed)) passed, $tap_failed failed"
	[ $tap_failed -eq 0 ]
}

log() { printf '%s\n' "kvarlink: $*" >&2; }
die() { log "error: $*"; exit 1; }

# The source package the debug kernel, checkpatch and the kselftest
# harness come from.
# The modules module/Kconfig makes, as the top Kbuild names them: every
# tristate option in lower case (VARLINK_SYSTEM: varlink_system), the
# KUnit tests' aside; with "providers", the core and the test provider
# aside too.
kconfig_modules() {
	awk '/^config / { c = $2 } /^\ttristate/ { print tolower(c) }' \
		"$KVARLINK_TOP/module/Kconfig" | grep -vx varlink_kunit_test |
		if [ "${1:-}" = providers ]; then
			grep -vx -e varlink -e varlink_test_provider
		else
			cat
		fi
}

ksrc_tarball() { echo /usr/src/linux-source-6.1.tar.xz; }
ksrc_version() { dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null; }
ksrc_dir() { echo "$KVARLINK_CACHE/src/linux-source-6.1-$(ksrc_version)"; }

# Extract the kernel source once per package version; two scripts that
# want it at once (make check's background work and lint.sh) extract it
# once, under a lock.
ksrc_ensure() {
	local dir
	dir=$(ksrc_dir)
	mkdir -p "$(dirname "$dir")"
	(
		flock 6
		if [ ! -e "$dir/.kvarlink-extracted" ]; then
			log "extracting $(ksrc_tarball) into $dir"
			rm -rf "$dir" "$dir.tmp"
			mkdir -p "$dir.tmp"
			tar -C "$dir.tmp" --strip-components=1 -xf "$(ksrc_tarball)" &&
				touch "$dir.tmp/.kvarlink-extracted" &&
				mv "$dir.tmp" "$dir"
		fi
	) 6>"$dir.lock"
	[ -e "$dir/.kvarlink-extracted" ] || die "could not extract $(ksrc_tarball)"
	echo "$dir"
}

# The stock kernel: the newest installed Debian image with its headers.
stock_release() {
	local r
	for r in $(ls -1 /usr/src | sed -n "s/^linux-headers-\(.*-$STOCK_FLAVOUR\)$/\1/p" | sort -V -r); do
		if [ -e "/boot/vmlinuz-$r" ]; then
			echo "$r"
			return
		fi
	done
}

# A test kernel: sets kdir (its build tree), kroot (the root that tree
# is built in, empty for the host), image, extra_modules (the kernel
# modules the network tests need, where they are not built in),
# tcg_thread (qemu's TCG threading for it: multi or single), vm_mem
# (the guest's memory, MiB), and varlink_debug (y: our modules are built with VARLINK_DEBUG for it,
# every reply checked against its IDL; the stock kernel runs them as
# users build them).  Its modules are built once into modules (lint.sh
# with sparse, then the VM runs and make run find them made).
#   stock  the host's Debian 12 kernel (6.1)
#   6.12   bookworm-backports, also Debian 13's kernel
#   7.3    trixie-backports, built in a Debian 13 root
#   debug  6.1 from linux-source-6.1 with KUnit, KASAN, lockdep, ...
#   kcsan  the same with KCSAN instead of KASAN
vm_kernel() {
	local dir
	kroot= tcg_thread=multi varlink_debug=y vm_mem=1536
	modules=$KVARLINK_OUT/modules-$1
	case "$1" in
	stock)
		rel=$(stock_release)
		[ -n "$rel" ] || die "no stock kernel: install linux-image-$STOCK_FLAVOUR and linux-headers-$STOCK_FLAVOUR"
		kdir=/usr/src/linux-headers-$rel
		image=/boot/vmlinuz-$rel
		dir=/lib/modules/$rel/kernel/drivers/net
		extra_modules="$dir/dummy.ko $dir/veth.ko"
		# varlink_device compares a loop device with /sys
		[ -e "$dir/../block/loop.ko" ] && extra_modules="$extra_modules $dir/../block/loop.ko"
		varlink_debug=
		;;
	6.12|7.3)
		# 7.3 patches its text (static keys) while the other CPU runs
		# it, and under multi-threaded TCG that CPU now and then still
		# meets the breakpoint of a patch that is done: "Oops: int3" in
		# sched_clock_cpu() at boot, in about 1 boot of 25 on a loaded
		# host.  One host thread runs both vCPUs, in turns, for it.
		[ "$1" = 7.3 ] && tcg_thread=single
		dir=$("$KVARLINK_TOP/scripts/debian-kernel.sh" "$1") || exit 1
		rel=$(cat "$dir/release")
		kroot=$dir/root
		kdir=/usr/src/linux-headers-$rel
		image=$dir/vmlinuz
		extra_modules="$dir/modules/dummy.ko $dir/modules/veth.ko"
		;;
	debug|kcsan|builtin)
		# kmemleak's scan reads every page of the guest: with half
		# the memory, its two scans take 25 s, not 38 s, and the
		# selftests need no more
		vm_mem=768
		;;&
	debug|kcsan)
		kdir=$("$KVARLINK_TOP/scripts/debug-kernel.sh" "$1")
		image=$kdir/arch/x86/boot/bzImage
		extra_modules=
		;;
	builtin)
		kdir=$("$KVARLINK_TOP/scripts/builtin-kernel.sh") || exit 1
		image=$kdir/arch/x86/boot/bzImage
		extra_modules= modules=$kdir/net/varlink
		;;
	*) die "unknown kernel '$1'" ;;
	esac
}

# Run a command in a root made by debian-kernel.sh, with /proc (objtool
# reads it) mounted in a mount namespace of its own, gone with it.
# Usage: in_root ROOT COMMAND...
in_root() {
	unshare -m sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$@"
}

# A dynamically linked program and what it links, to run in the guest:
# OUT/lib/ holds the program, the libraries LIBS (ldd's output for it)
# names and the ELF loader, and OUT/NAME is a script that runs it through
# that loader.  READ... prints a file by its path in the program's root
# (cat, or cat in a chroot).
# Usage: bundle_program OUT NAME PROGRAM LIBS READ...
bundle_program() {
	local out=$1 name=$2 prog=$3 libs=$4 lib arrow path _ loader=
	shift 4
	rm -rf "$out"
	mkdir -p "$out/lib"
	"$@" "$prog" >"$out/lib/$name" || return 1
	while read -r lib arrow path _; do
		case "$lib" in linux-vdso.so.* | linux-gate.so.*) continue ;; esac
		if [ "$arrow" = "=>" ]; then
			"$@" "$path" >"$out/lib/$lib" || return 1
		else	# the loader: "/lib64/ld-linux-x86-64.so.2 (0x...)"
			loader=${lib##*/}
			"$@" "$lib" >"$out/lib/$loader" || return 1
		fi
	done <<<"$libs"
	[ -n "$loader" ] || return 1
	chmod 0755 "$out/lib/"*
	# shellcheck disable=SC2016 # the script's own
	printf '#!/bin/sh\n# %s through its own ELF loader and libraries (bundle_program)\nd=$(dirname "$0")/lib\nexec "$d/%s" --inhibit-cache --library-path "$d" --argv0 "$0" "$d/%s" "$@"\n' \
		"$name" "$loader" "$name" >"$out/$name"
	chmod 0755 "$out/$name"
}

# The test VM's qemu command, without its serial ports, in the array qemu.
# Usage: vm_qemu IMAGE INITRAMFS MODE VCPUS [ARGS]  (MODE and the
# kvarlink.* ARGS for the kernel command line: see guest-init.sh)
vm_qemu() {
	local cmdline="console=ttyS0 kvarlink.mode=$3 panic=-1 oops=panic panic_on_warn=1"
	# a timer interrupt late under a loaded host's TCG is no broken
	# IO-APIC: without this, 6.x panics at boot now and then ("IO-APIC +
	# timer doesn't work!")
	cmdline="$cmdline no_timer_check"
	# the log holds what the guest reads of it at once (KUnit's report,
	# 80 KB with its prefixes) many times over; selftests that read all
	# of /dev/kmsg read all of it, full once varlink_log has filled it
	cmdline="$cmdline hung_task_panic=1 softlockup_panic=1 log_buf_len=1M quiet loglevel=4"
	# a KUnit case may run minutes under KASAN in TCG on a busy machine; a
	# real hang still panics long before the outer timeout
	cmdline="$cmdline sysctl.kernel.hung_task_timeout_secs=300"
	# last, so that they can override what is above
	cmdline="$cmdline${5:+ $5}"
	# one vCPU a socket: SeaBIOS's MP table, all a kernel without ACPI
	# has, names the first CPU of each package only; -uuid: a DMI
	# product_uuid (0400, root's only) for varlink_device
	qemu=(qemu-system-x86_64 -accel tcg,thread="${tcg_thread:-multi}" -cpu max -m "${vm_mem:-1536}" -smp "$4,sockets=$4"
		-nodefaults -display none -no-reboot -monitor none -uuid 8e1f0c2a-5b3d-4e6f-9a7b-0c1d2e3f4a5b
		-kernel "$1" -initrd "$2" -append "$cmdline")
}

# A private apt configuration in DIR for the sources lines given: sets
# the array apt_opts, for apt-get and apt-cache.  Its sources, lists and
# cache are DIR's; the system's apt configuration is never read or
# changed.  The downloads go into DIR/archives.  A release's Valid-Until
# is not enforced (signatures are): the archive a test machine reaches may
# be a mirror frozen at some date, and sid's Release is valid for a week.  One script at a time
# uses DIR: apt is told not to lock it, so this takes DIR/lock on fd 9
# until the calling script ends.
# Usage: private_apt DIR "deb URL SUITE main"...
private_apt() {
	local dir=$1 line
	shift
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	exec 9>"$dir/lock"
	flock 9
	for line in "$@"; do
		echo "${line/deb /deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] }"
	done >"$dir/sources.list"
	apt_opts=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache::Archives="$dir/archives"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1
		-o Acquire::Check-Valid-Until=false)
	# apt's _apt user cannot write into root's private cache
	[ "$(id -u)" -ne 0 ] || apt_opts+=(-o APT::Sandbox::User=root)
}

# The debug kernels' config fragments, in the order they are merged on
# top of tinyconfig, one a line.  Usage: debug_fragments debug|kcsan
debug_fragments() {
	case "$1" in
	debug|kcsan) ;;
	*) die "unknown debug kernel '$1'" ;;
	esac
	printf '%s\n' "$KVARLINK_TOP/scripts/kernel-base.config" \
		"$KVARLINK_TOP/scripts/$1-kernel.config"
}

# A debug kernel's build tree, named after what it is built from: the
# config fragments, the source package version, and the recipe version,
# bumped whenever debug-kernel.sh changes how the kernels are built.
# Usage: debug_kdir [debug|kcsan]  (default debug)
DEBUG_KERNEL_RECIPE=4
debug_kdir() {
	local variant=${1:-debug} key frags
	mapfile -t frags < <(debug_fragments "$variant")
	[ ${#frags[@]} -eq 2 ] || exit 1
	key=$( { ksrc_version; echo "$DEBUG_KERNEL_RECIPE"; cat "${frags[@]}"; } |
		sha256sum | cut -c1-12)
	echo "$KVARLINK_CACHE/$variant-$key"
}

# The source every kernel of ours is built from (debug-kernel.sh): Debian's
# linux-source-6.1, patched, with this project laid in.
ktree_src() { echo "$(ksrc_dir)-kvarlink$DEBUG_KERNEL_RECIPE"; }

# Configure a small kernel in KDIR from SRC: tinyconfig, then the
# fragments merged on top (kernel_configure_merge).  make runs as the
# caller's mk(), which builds SRC into KDIR with the compiler the build
# will use (the config records it).
# Usage: kernel_configure SRC KDIR FRAGMENT...
kernel_configure() {
	mk tinyconfig >/dev/null || return 1
	kernel_configure_merge "$@"
}

# Merge the fragments onto KDIR's .config, then olddefconfig; fails
# (after saying which) unless every line of the fragments survived, of a
# symbol that two set the last one.
# Usage: kernel_configure_merge SRC KDIR FRAGMENT...
kernel_configure_merge() {
	local src=$1 kdir=$2 line sym bad=0
	shift 2
	"$src/scripts/kconfig/merge_config.sh" -m -O "$kdir" "$kdir/.config" "$@" >/dev/null ||
		return 1
	mk olddefconfig || return 1
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		sym=${line%%=*}
		if [ "${line#*=}" = n ]; then
			! grep -q "^$sym=" "$kdir/.config" && continue
		else
			grep -qxF "$line" "$kdir/.config" && continue
		fi
		log "config: wanted $line, got: $(grep "^$sym=\|^# $sym " "$kdir/.config" || echo unset)"
		bad=1
	done < <(cat "$@" | tac | awk -F= '/^CONFIG_/ && !seen[$1]++')
	[ $bad -eq 0 ]
}
