#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages as users install them: built by deb.sh in a minimal
# Debian 12 root (only debian/control's build dependencies), lintian
# clean; then, for each kernel series, in a fresh Debian root of that
# kernel's release with its newest headers (debian-kernel.sh's root, an
# overlay on it that is thrown away after):
#   - apt installs kvarlink-dkms: DKMS builds exactly the core and the
#     providers for the root's kernel, and skips a kernel outside the
#     supported range without failing apt;
#   - apt installs kvarlinkctl: it runs, says the version, and fails
#     cleanly when nobody listens;
#   - the modules DKMS installed and the client, with the libraries it
#     links, are kept in KVARLINK_OUT/deb-SERIES/deb/ for the VM of that
#     kernel (vm.sh lays it in as /deb), which loads them and calls them
#     with it (guest-init.sh, step deb);
#   - apt purges both: nothing of ours is left in /lib/modules,
#     /var/lib/dkms or /usr/src.
# Nothing is loaded here.  Prints TAP.
# Usage: deb-test.sh SERIES...   (6.1 6.12 7.3)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

version=$(cat "$KVARLINK_TOP/VERSION")
# the core and the providers: module/Kconfig's modules but the tests'
# (as the top Kbuild and dkms.conf read them)
modules=$(kconfig_modules | grep -vx varlink_test_provider | sort | xargs)
unsupported=7.9.0-1-amd64

debs=$KVARLINK_OUT/deb
"$KVARLINK_TOP/scripts/deb.sh" --root >"$KVARLINK_OUT/deb.log" 2>&1
status=$?
[ $status -eq 0 ] || tail -n 30 "$KVARLINK_OUT/deb.log" | sed 's/^/# /'
tap_result $status "deb: kvarlink-dkms and kvarlinkctl build in a minimal Debian 12 root, lintian clean"
sed -n 's/^[IWEPX]: /# lintian: &/p' "$debs/lintian.log" 2>/dev/null
for deb in "$debs"/*.deb; do
	[ -e "$deb" ] && echo "# $(basename "$deb"): $(stat -c %s "$deb") bytes"
done
dkms_deb=$(ls "$debs"/kvarlink-dkms_"$version"_all.deb 2>/dev/null)
ctl_deb=$(ls "$debs"/kvarlinkctl_"$version"_amd64.deb 2>/dev/null)
if [ -z "$dkms_deb" ] || [ -z "$ctl_deb" ]; then
	tap_result 1 "deb: both packages, at version $version (VERSION)"
	tap_summary deb
	exit
fi
tap_result 0 "deb: both packages, at version $version (VERSION)"

# A command in the overlay $ov on ROOT, as root, with /proc, the
# packages under /debs and this tree under /src.
# Usage: in_overlay ROOT COMMAND...
in_overlay() {
	local root=$1
	shift
	# shellcheck disable=SC2016 # the inner shell's
	unshare -m sh -c 'r=$0 o=$1 d=$2 t=$3 && shift 3 &&
		mount -t overlay overlay -o lowerdir="$r",upperdir="$o/upper",workdir="$o/work" "$o/merged" &&
		mount --bind "$d" "$o/merged/debs" && mount --bind "$t" "$o/merged/src" &&
		mount -t proc proc "$o/merged/proc" &&
		exec chroot "$o/merged" "$@"' "$root" "$ov" "$debs" "$KVARLINK_TOP" "$@"
}

for series in "$@"; do
	if ! dir=$("$KVARLINK_TOP/scripts/debian-kernel.sh" "$series"); then
		tap_result 1 "deb $series: the kernel and its root are fetched"
		continue
	fi
	root=$dir/root rel=$(cat "$dir/release")
	suite=$(sed -n 's/^VERSION_CODENAME=//p' "$root/etc/os-release")
	ov=$(mktemp -d "$KVARLINK_OUT/deb-root-$series.XXXXXX")
	mkdir -p "$ov/upper/debs" "$ov/upper/src" "$ov/work" "$ov/merged"
	log=$KVARLINK_OUT/deb-$series.log
	: >"$log"
	# the unsupported kernel is "installed": its modules directory
	# a kernel outside the range, with headers (the root's kernel's)
	in_overlay "$root" sh -c "mkdir -p /lib/modules/$unsupported &&
		ln -s /usr/src/linux-headers-$rel /lib/modules/$unsupported/build"

	in_overlay "$root" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q "/debs/${dkms_deb##*/}" >>"$log" 2>&1
	status=$?
	[ $status -eq 0 ] || tail -n 20 "$log" | sed 's/^/# /'
	tap_result $status "deb $series ($suite): apt installs kvarlink-dkms, DKMS builds it for $rel"
	got=$(in_overlay "$root" sh -c "cd /lib/modules/$rel/updates/dkms 2>/dev/null && ls" |
		sed -n 's/\.ko\(\.xz\|\.zst\|\.gz\)\?$//p' | sort | xargs)
	[ "$got" = "$modules" ]
	tap_result $? "deb $series: DKMS installed exactly $modules into /lib/modules/$rel/updates/dkms (got: ${got:-nothing})"
	in_overlay "$root" dkms status >"$log.status" 2>&1
	grep -q "^kvarlink/$version, $rel, x86_64: installed" "$log.status" &&
		! grep -q "$unsupported.*installed" "$log.status"
	status=$?
	[ $status -eq 0 ] || sed 's/^/# /' "$log.status"
	tap_result $status "deb $series: dkms status: kvarlink/$version installed for $rel, not for $unsupported"
	grep -q "BUILD_EXCLUSIVE" "$log"
	tap_result $? "deb $series: $unsupported, whose headers are there, is skipped as outside BUILD_EXCLUSIVE, and apt does not fail"

	# the modules for the VM of this kernel, uncompressed for busybox insmod
	keep=$KVARLINK_OUT/deb-$series/deb
	rm -rf "$keep"
	mkdir -p "$keep/modules"
	in_overlay "$root" tar -C "/lib/modules/$rel/updates/dkms" -c . | tar -C "$keep/modules" -x
	for f in "$keep"/modules/*.xz; do [ -e "$f" ] && xz -d "$f"; done
	for f in "$keep"/modules/*.zst; do [ -e "$f" ] && zstd -q -d --rm "$f"; done
	for f in "$keep"/modules/*.gz; do [ -e "$f" ] && gzip -d "$f"; done

	in_overlay "$root" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q "/debs/${ctl_deb##*/}" >>"$log" 2>&1
	status=$?
	out=$(in_overlay "$root" kvarlinkctl --version 2>&1)
	[ $status -eq 0 ] && [ "$out" = "kvarlinkctl $version" ]
	tap_result $? "deb $series: apt installs kvarlinkctl; kvarlinkctl --version says $version (got: $out)"
	out=$(in_overlay "$root" kvarlinkctl info @org.kernel.varlink.nobody 2>&1)
	status=$?
	[ $status -eq 1 ] && [ -n "$out" ]
	tap_result $? "deb $series: kvarlinkctl info to a name nobody listens on: exit 1 (got $status: $out)"
	[ -s "$ov/upper/usr/share/man/man1/kvarlinkctl.1.gz" ]
	tap_result $? "deb $series: the man page is installed"
	# the client and what it links, for the VM: the binary, the
	# libraries ldd names and the loader, and a wrapper that runs it
	# through that loader
	libs=$(in_overlay "$root" ldd /usr/bin/kvarlinkctl)
	bundle_program "$keep/client" kvarlinkctl /usr/bin/kvarlinkctl "$libs" \
		in_overlay "$root" cat
	status=$?
	echo "$version" >"$keep/version"
	[ $status -eq 0 ] && [ -s "$keep/client/lib/kvarlinkctl" ]
	tap_result $? "deb $series: the installed client and its libraries are kept for the VM"

	in_overlay "$root" env DEBIAN_FRONTEND=noninteractive \
		apt-get purge -y -q kvarlink-dkms kvarlinkctl >>"$log" 2>&1
	status=$?
	left=$(in_overlay "$root" sh -c 'ls -d /lib/modules/*/updates/dkms/varlink* \
		/var/lib/dkms/kvarlink /usr/src/kvarlink* /usr/bin/kvarlinkctl 2>/dev/null')
	[ $status -eq 0 ] && [ -z "$left" ]
	tap_result $? "deb $series: apt purges both; nothing left in /lib/modules, /var/lib/dkms, /usr/src (left: ${left:-nothing})"

	# the manual way (README, "Install"), on Debian 12's own kernel
	if [ "$series" = 6.1 ]; then
		in_overlay "$root" make -C /src dkms KDIR="/usr/src/linux-headers-$rel" \
			>"$log.make" 2>&1
		status=$?
		got=$(in_overlay "$root" sh -c "cd /lib/modules/$rel/updates/dkms 2>/dev/null && ls" |
			sed -n 's/\.ko\(\.xz\|\.zst\|\.gz\)\?$//p' | sort | xargs)
		[ $status -eq 0 ] || tail -n 20 "$log.make" | sed 's/^/# /'
		[ $status -eq 0 ] && [ "$got" = "$modules" ]
		tap_result $? "deb $series: make dkms installs kvarlink/$version for $rel, exactly $modules (got: ${got:-nothing})"
	fi
	rm -rf "$ov"
done
tap_summary deb
