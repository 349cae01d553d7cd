#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lay systemd's varlinkctl, from Debian sid, into a self-contained tree
# that runs with no libc installed (the test VM's initramfs): the binary,
# libsystemd-shared, every library ldd names (the host's bookworm ones
# where sid's are not needed), the ELF loader, and OUTDIR/varlinkctl, a
# wrapper that runs it through that loader; and so systemd-sysctl and
# procps's sysctl.
# sid is reached through an apt configuration of our own (sources.list,
# lists and cache under $KVARLINK_CACHE/varlinkctl); the system's apt
# sources are not touched.  The packages are fetched once per version.
# Failing to fetch them is an error, not a skip.
# Usage: varlinkctl.sh OUTDIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: varlinkctl.sh OUTDIR"
out=$1
export LC_ALL=C

base=$KVARLINK_CACHE/varlinkctl
private_apt "$base" "deb http://deb.debian.org/debian sid main"

log "varlinkctl: updating the package lists of Debian sid"
apt-get "${apt_opts[@]}" -q --error-on=any update >/dev/null ||
	die "varlinkctl: apt-get update of Debian sid failed (network? keyring?)"
version=$(apt-cache "${apt_opts[@]}" policy systemd | sed -n 's/^  Candidate: //p')
case "$version" in
"" | "(none)") die "varlinkctl: no systemd package in Debian sid" ;;
esac

# systemd and, since 256 or so, libsystemd-shared in a package of its own
pkgs="systemd"
if apt-cache "${apt_opts[@]}" show "libsystemd-shared=$version" >/dev/null 2>&1; then
	pkgs="$pkgs libsystemd-shared"
fi

dir=$base/$version
if [ ! -e "$dir/.kvarlink-extracted" ]; then
	log "varlinkctl: fetching $pkgs $version from Debian sid"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp/debs" "$dir.tmp/root"
	want=()
	for p in $pkgs; do
		want+=("$p=$version")
	done
	(cd "$dir.tmp/debs" && apt-get "${apt_opts[@]}" -q download "${want[@]}" >/dev/null) ||
		die "varlinkctl: apt-get download ${want[*]} failed"
	for deb in "$dir.tmp"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir.tmp/root"
	done
	touch "$dir.tmp/.kvarlink-extracted"
	mv "$dir.tmp" "$dir"
fi

root=$dir/root
bin=$root/usr/bin/varlinkctl
[ -x "$bin" ] || die "varlinkctl: systemd $version has no /usr/bin/varlinkctl"
shared=$(ls "$root"/usr/lib/x86_64-linux-gnu/systemd/libsystemd-shared-*.so 2>/dev/null | head -n 1)
[ -n "$shared" ] || die "varlinkctl: no libsystemd-shared-*.so in $pkgs $version"

# ldd of the binary, libsystemd-shared found in the extracted tree (its
# RUNPATH, /usr/lib/x86_64-linux-gnu/systemd, is the host's, where it is
# not); every other library is the host's
libs=$(LD_LIBRARY_PATH=$(dirname "$shared") ldd "$bin") ||
	die "varlinkctl: ldd $bin failed"
if grep -q 'not found' <<<"$libs"; then
	die "varlinkctl: missing libraries: $(grep 'not found' <<<"$libs" | tr -s ' \t\n' ' ')"
fi

bundle_program "$out" varlinkctl "$bin" "$libs" cat ||
	die "varlinkctl: ldd named no ELF loader, or a library could not be read"
echo "$version" >"$out/version"

# On the same libraries, for varlink_sysctl's parity tests: systemd-sysctl
# of the same package, and the host's procps sysctl (deps.sh), whose only
# library is libc
for prog in "$root/usr/lib/systemd/systemd-sysctl" /usr/sbin/sysctl; do
	name=${prog##*/}
	cp "$prog" "$out/lib/$name" || die "varlinkctl: no $prog"
	# shellcheck disable=SC2016 # the script's own
	printf '#!/bin/sh\nd=$(dirname "$0")/lib\nexec "$d/ld-linux-x86-64.so.2" --inhibit-cache --library-path "$d" --argv0 "$0" "$d/%s" "$@"\n' \
		"$name" >"$out/$name"
	chmod 0755 "$out/$name"
done

# it must run here, on bookworm's glibc, through the copied loader
ver=$("$out/varlinkctl" --version) ||
	die "varlinkctl: $out/varlinkctl --version failed on this host"
log "varlinkctl: $(head -n 1 <<<"$ver") in $out ($(ls "$out/lib" | tr '\n' ' '))"
