#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lay this project into a kernel source tree, from the files the
# out-of-tree build uses:
#   module/              -> net/varlink/ (module/Kbuild is its Makefile,
#                           module/Kconfig its Kconfig)
#   module/include/linux/varlink.h -> include/linux/varlink.h
#   uapi/linux/varlink.h -> include/uapi/linux/varlink.h
#   Documentation/varlink.rst -> Documentation/networking/varlink.rst
#   client/kvarlinkctl.c, .1, rules.mk, client/intree/ (its Makefile and the
#                           headers it needs beside tools/include)
#                        -> tools/varlink/
#   selftests/ (what its "intree-files" target names)
#                        -> tools/testing/selftests/varlink/
# and hook them into net/Kconfig, net/Makefile, MAINTAINERS,
# Documentation/networking/index.rst and the kselftest TARGETS.
#
# Usage: intree.sh KERNEL-SOURCE-DIR
#          lay the project into that tree; again after a change, it
#          rewrites only the files that differ (an incremental build stays
#          incremental) and removes ours that the project no longer has
#        intree.sh --patches OUTDIR KERNEL-SOURCE-DIR
#          leave the tree alone, and write the change as a series of
#          patches against it into OUTDIR (git format-patch): the core,
#          the interfaces, the tests, the documentation, the client, the
#          selftests
set -euo pipefail
export LC_ALL=C
top=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "intree.sh: $*" >&2; exit 1; }

patches=
if [ "${1:-}" = --patches ]; then
	[ $# -eq 3 ] || die "usage: intree.sh --patches OUTDIR KERNEL-SOURCE-DIR"
	patches=$2
	shift 2
fi
[ $# -eq 1 ] || die "usage: intree.sh [--patches OUTDIR] KERNEL-SOURCE-DIR"
ksrc=$(cd "$1" && pwd)
ksft_files=$(make -s --no-print-directory -C "$top/selftests" \
		KSFT_DIR="$ksrc/tools/testing/selftests" intree-files) ||
	die "selftests/: no list of the kselftest target's files"
[ -n "$ksft_files" ] || die "selftests/: the kselftest target names no files"
for f in Makefile net/Kconfig net/Makefile MAINTAINERS \
	 Documentation/networking/index.rst tools/testing/selftests/Makefile; do
	[ -f "$ksrc/$f" ] || die "$ksrc is not a kernel source tree: no $f"
done

# The Kconfig options of each step of the series, cumulative.  The
# interfaces are every tristate option of module/Kconfig but the core and
# the tests, as the top Kbuild reads them.
core_configs="VARLINK VARLINK_DEBUG"
test_configs="VARLINK_TEST_PROVIDER VARLINK_KUNIT_TEST"
provider_configs=$(awk '/^config / { c = $2 } /^\ttristate/ { print c }' "$top/module/Kconfig" |
	grep -vxF "$(printf '%s\n' $core_configs $test_configs)" | xargs)
[ -n "$provider_configs" ] || die "module/Kconfig: no provider"
declare -A step_configs=(
	[core]=$core_configs
	[interfaces]=$provider_configs
	[tests]=$test_configs
)
steps="core interfaces tests docs tools selftests"

# put SRC DST: copy when the content differs, so that make sees no
# change where there is none; executable if SRC is (a test script)
put() {
	local mode=0644
	[ -x "$1" ] && mode=0755
	mkdir -p "$(dirname "$2")"
	# a new file, never a write through a hard link to another tree
	cmp -s "$1" "$2" && [ "$(stat -c %a "$2")" = "${mode#0}" ] ||
		{ rm -f "$2" && install -m "$mode" "$1" "$2"; }
}

# put_text DST: standard input into DST, the same way
put_text() {
	local tmp
	tmp=$(mktemp)
	cat >"$tmp"
	put "$tmp" "$1"
	rm -f "$tmp"
}

# Keep the blocks of module/Kbuild (separated by blank lines) whose
# objects are built by the options in $1, and every block with none; the
# block that derives the providers from Kconfig becomes one block of two
# lines for each provider in $1, as a kernel Makefile says them.
filter_kbuild() {
	local c n providers

	providers=$(for c in $provider_configs; do
		case " $1 " in *" $c "*) ;; *) continue ;; esac
		n=$(echo "${c#VARLINK_}" | tr 'A-Z' 'a-z')
		printf '# org.kernel.%s\nobj-$(CONFIG_%s) += varlink_%s.o\nvarlink_%s-y := interfaces/%s.o\n\n' \
			"$n" "$c" "$n" "$n" "$n"
	done)
	PROVIDERS=$providers awk -v keep=" $1 " '
		function flush() {
			if (block ~ /vl-providers/)
				block = ENVIRON["PROVIDERS"] ? ENVIRON["PROVIDERS"] "\n" : ""
			if (block != "" && ok)
				printf "%s%s", (n++ ? "\n" : ""), block
			block = ""; ok = 1
		}
		BEGIN { ok = 1 }
		/^$/ { flush(); next }
		{
			block = block $0 "\n"
			if (match($0, /obj-\$\(CONFIG_[A-Z0-9_]+\)/)) {
				c = substr($0, RSTART + 13, RLENGTH - 14)
				if (index(keep, " " c " ") == 0)
					ok = 0
			}
		}
		END { flush() }' "$top/module/Kbuild"
}

# Keep the entries of module/Kconfig of the options in $1, and all that
# is not an entry.
filter_kconfig() {
	awk -v keep=" $1 " '
		/^config / { on = index(keep, " " $2 " ") != 0 }
		/^(if|endif|menu|endmenu|source)/ { on = 1 }
		NR == 1 { on = 1 }
		on' "$top/module/Kconfig"
}

# Who signs the series and maintains the code: the git identity of this
# repository, or where it has none (a fresh clone on a fresh machine),
# the author of its last commit.
maint_name=$(git -C "$top" config user.name || git -C "$top" log -1 --format=%an)
maint_email=$(git -C "$top" config user.email || git -C "$top" log -1 --format=%ae)

# The MAINTAINERS entry, with the files of the steps up to $1.
maintainers_entry() {
	local who="$maint_name <$maint_email>"
	printf 'VARLINK IPC SERVER\nM:\t%s\nL:\tnetdev@vger.kernel.org\nS:\tMaintained\n' "$who"
	case " $1 " in *" docs "*|*" selftests "*) echo "F:	Documentation/networking/varlink.rst" ;; esac
	printf 'F:\tinclude/linux/varlink.h\nF:\tinclude/uapi/linux/varlink.h\nF:\tnet/varlink/\n'
	case " $1 " in *" selftests "*) echo "F:	tools/testing/selftests/varlink/" ;; esac
	case " $1 " in *" tools "*) echo "F:	tools/varlink/" ;; esac
}

# compat.h as the tree needs it: each "#if KERNEL_VERSION(a, b, c) OP
# LINUX_VERSION_CODE" decided for the tree's version, keeping the branch
# taken; other conditionals stay.
resolve_compat() {
	local v p s
	v=$(sed -n 's/^VERSION = //p' "$ksrc/Makefile")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$ksrc/Makefile")
	s=$(sed -n 's/^SUBLEVEL = //p' "$ksrc/Makefile")
	awk -v code=$((v * 65536 + p * 256 + (s > 255 ? 255 : s))) '
		function kv(str,   a) {
			match(str, /KERNEL_VERSION\([0-9]+, *[0-9]+, *[0-9]+\)/)
			split(substr(str, RSTART + 15, RLENGTH - 16), a, /, */)
			return a[1] * 65536 + a[2] * 256 + a[3]
		}
		function out() { for (i = 1; i <= depth; i++) if (!keep[i]) return 0; return 1 }
		/^#include <linux\/version.h>$/ { getline; if ($0 == "") next }
		/^#if KERNEL_VERSION\(.*LINUX_VERSION_CODE$/ {
			k = kv($0)
			if ($0 ~ /<= LINUX_VERSION_CODE$/) t = k <= code
			else if ($0 ~ /> LINUX_VERSION_CODE$/) t = k > code
			else { print "intree.sh: cannot read " $0 > "/dev/stderr"; exit 1 }
			depth++; ver[depth] = 1; keep[depth] = t; next
		}
		/^#if/ { depth++; ver[depth] = 0; keep[depth] = 1 }
		/^#else/ && ver[depth] { keep[depth] = !keep[depth]; next }
		/^#endif/ && ver[depth] { depth--; next }
		/^#endif/ { if (out()) print; depth--; next }
		out()' "$top/module/compat.h"
}

# hook FILE AWK-PROGRAM: rewrite a file of the kernel through awk, once
hook() {
	local file=$1 prog=$2
	awk "$prog" "$file" | put_text "$file"
}

# The MAINTAINERS entry in its alphabetical place, replacing ours.
hook_maintainers() {
	local tree=$1 entry
	entry=$(maintainers_entry "$2")
	awk -v entry="$entry" '
		# our entry: from its title to the blank line after it
		$0 == "VARLINK IPC SERVER" { skip = 1; next }
		skip && /^$/ { skip = 0; next }
		skip { next }
		# a section title: after a blank line, before an "X:" line
		prev == "" && /^[A-Z0-9]/ && !done && started && $0 > "VARLINK IPC SERVER" {
			print entry; print ""; done = 1
		}
		/^3C59X NETWORK DRIVER$/ { started = 1 }
		{ print; prev = $0 }' "$tree/MAINTAINERS" | put_text "$tree/MAINTAINERS"
	grep -qx 'VARLINK IPC SERVER' "$tree/MAINTAINERS" ||
		die "no place for the MAINTAINERS entry in $tree/MAINTAINERS"
}

# take DIR FILE...: put the files into DIR of lay()'s tree, as files of
# ours (what is not one of ours in our directories goes)
take() {
	local dir=$1 f
	shift
	for f in "$@"; do
		put "$f" "$tree/$dir/${f##*/}"
		ours[$dir/${f##*/}]=1
	done
}

# lay TREE STEPS: the files and hooks of these steps of the series
lay() {
	local tree=$1 want=" $2 " configs="" s f dst
	local -A ours=()

	for s in $steps; do
		case "$want" in *" $s "*) configs="$configs ${step_configs[$s]:-}" ;; esac
	done

	# core: the code and its headers, Kconfig and Makefile, the hooks
	for f in "$top"/module/*.c "$top"/module/*.h; do
		dst=net/varlink/${f##*/}
		[ "$dst" = net/varlink/compat.h ] || put "$f" "$tree/$dst"
		ours[$dst]=1
	done
	resolve_compat | put_text "$tree/net/varlink/compat.h"
	put "$top/module/include/linux/varlink.h" "$tree/include/linux/varlink.h"
	put "$top/uapi/linux/varlink.h" "$tree/include/uapi/linux/varlink.h"
	filter_kbuild "$configs" | put_text "$tree/net/varlink/Makefile"
	filter_kconfig "$configs" | put_text "$tree/net/varlink/Kconfig"
	ours[net/varlink/Makefile]=1 ours[net/varlink/Kconfig]=1
	grep -q '^source "net/varlink/Kconfig"$' "$tree/net/Kconfig" ||
		hook "$tree/net/Kconfig" '{ print } $0 == "source \"net/unix/Kconfig\"" { print "source \"net/varlink/Kconfig\"" }'
	grep -q 'CONFIG_VARLINK' "$tree/net/Makefile" ||
		hook "$tree/net/Makefile" '{ print } /^obj-\$\(CONFIG_UNIX\)/ { print "obj-$(CONFIG_VARLINK)\t\t+= varlink/" }'
	grep -q '^source "net/varlink/Kconfig"$' "$tree/net/Kconfig" &&
		grep -q 'CONFIG_VARLINK' "$tree/net/Makefile" ||
		die "could not hook net/varlink into $tree/net/Kconfig and net/Makefile"
	hook_maintainers "$tree" "$2"

	case "$want" in *" interfaces "*)
		take net/varlink/interfaces "$top"/module/interfaces/*.c ;;
	esac
	case "$want" in *" tests "*)
		take net/varlink/tests "$top"/module/tests/*.[ch] ;;
	esac

	case "$want" in *" docs "*)
		put "$top/Documentation/varlink.rst" "$tree/Documentation/networking/varlink.rst"
		grep -qx '   varlink' "$tree/Documentation/networking/index.rst" ||
			hook "$tree/Documentation/networking/index.rst" \
				'$0 == "   vrf" { print "   varlink" } { print }'
		grep -qx '   varlink' "$tree/Documentation/networking/index.rst" ||
			die "no place for varlink in Documentation/networking/index.rst"
		;;
	esac

	case "$want" in *" tools "*)
		take tools/varlink "$top"/client/kvarlinkctl.c "$top"/client/kvarlinkctl.1 \
			"$top"/client/rules.mk "$top"/client/intree/Makefile
		for f in "$top"/client/intree/include/*/; do
			f=${f%/}
			take "tools/varlink/include/${f##*/}" "$f"/*.h
		done
		;;
	esac

	case "$want" in *" selftests "*)
		# the Makefile without what only this repository includes
		sed '/^# Outside a kernel tree/,$d' "$top/selftests/Makefile" |
			sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' |
			put_text "$tree/tools/testing/selftests/varlink/Makefile"
		ours[tools/testing/selftests/varlink/Makefile]=1
		for f in $ksft_files; do
			take tools/testing/selftests/varlink "$top/selftests/$f"
		done
		grep -qx 'TARGETS += varlink' "$tree/tools/testing/selftests/Makefile" ||
			hook "$tree/tools/testing/selftests/Makefile" \
				'$0 == "TARGETS += vDSO" { print "TARGETS += varlink" } { print }'
		grep -qx 'TARGETS += varlink' "$tree/tools/testing/selftests/Makefile" ||
			die "no place for varlink in the kselftest TARGETS"
		;;
	esac

	# what the project no longer has goes (build products stay)
	for f in $(cd "$tree" && find net/varlink tools/varlink tools/testing/selftests/varlink \
			-type f \( -name '*.[ch]' -o -name '*.sh' \) 2>/dev/null); do
		[ -n "${ours[$f]:-}" ] || rm -f "$tree/$f"
	done
}

if [ -z "$patches" ]; then
	lay "$ksrc" "$steps"
	echo "intree.sh: laid into $ksrc"
	exit 0
fi

# The series: a git repository of the files the series touches, as the
# tree has them, then one commit per step.
for f in net/Kconfig net/Makefile MAINTAINERS Documentation/networking/index.rst \
	 tools/testing/selftests/Makefile; do
	! grep -q 'varlink' "$ksrc/$f" || die "$ksrc/$f has varlink already: a clean tree, please"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in net/Kconfig net/Makefile MAINTAINERS Documentation/networking/index.rst \
	 tools/testing/selftests/Makefile; do
	mkdir -p "$work/$(dirname "$f")"
	cp "$ksrc/$f" "$work/$f"
done
# The same commit gives the same series, to the byte: its dates are
# those of the project's last commit, or now outside a repository with
# one.
date=$(git -C "$top" log -1 --format=%cI 2>/dev/null) || date=
GIT_AUTHOR_DATE=${date:-$(date -R)}
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
git -C "$work" init -q
git -C "$work" config user.name "$maint_name"
git -C "$work" config user.email "$maint_email"
git -C "$work" add -A
git -C "$work" commit -q -m base
git -C "$work" tag base

declare -A subject=(
	[core]="net: varlink: add an in-kernel varlink server"
	[interfaces]="net: varlink: add the interfaces: system, process, network, sysctl, memory"
	[tests]="net: varlink: add KUnit suites and the selftests' interfaces"
	[docs]="Documentation: networking: document the varlink server"
	[tools]="tools: varlink: add kvarlinkctl, a varlink client"
	[selftests]="selftests: varlink: add the varlink kselftests"
)
declare -A body=(
	[core]="Serve varlink, JSON messages ended by a NUL byte over a stream socket,
from the kernel on the abstract AF_UNIX socket @org.kernel.varlink of
every network namespace, from fs_initcall_sync on: the first process
can query the kernel before anything is mounted.

Kernel code registers an interface as its IDL text and a table of
method callbacks (include/linux/varlink.h).  Every call is validated
against the IDL by a bounded JSON tokenizer before its callback runs,
with the opener's and the sender's credentials at hand.  Connections
are limited in total, per user and per network namespace, and charged
to the memory cgroup of their opener.  The core serves
org.varlink.service and org.kernel.varlink (limits and statistics)."
	[interfaces]="org.kernel.system (the kernel and the machine), org.kernel.process
(processes, as /proc shows them to the caller) and org.kernel.network
(links, addresses and a stream of link events), each seen from the
caller's namespaces; org.kernel.sysctl (/proc/sys read, listed and
set with its own permissions, for the initial namespaces);
org.kernel.memory and org.kernel.pressure (/proc/meminfo, /proc/vmstat,
/proc/pressure, and PSI triggers as streams); and org.kernel.example,
the documentation's example."
	[tests]="KUnit suites for the JSON tokenizer and writer, the IDL parser, the
validation, the registry and the server; and the interfaces the
selftests call, org.kernel.varlink.test and the varlink certification
service org.varlink.certification."
	[docs]="The protocol as served, the limits and their parameters, the
statistics, the security model and the provider API."
	[tools]="kvarlinkctl introspects and calls varlink services, the kernel's
(@org.kernel.varlink) and any other on an AF_UNIX socket, in the shape
of systemd's varlinkctl: info, list-interfaces, introspect and call,
with --more and --oneway.  It parses replies with the server's own JSON
tokenizer, net/varlink/json.c, built for userspace on tools/include and
three headers of its own, as tools/bootconfig builds lib/bootconfig.c."
	[selftests]="The selftests connect as clients, root and unprivileged, from other
namespaces, and check the replies against what /proc, sysfs and
rtnetlink report; varlink_cli.sh tests kvarlinkctl, built static from
tools/varlink."
)
done_steps=""
for s in $steps; do
	done_steps="$done_steps $s"
	lay "$work" "$done_steps"
	git -C "$work" add -A
	printf '%s\n\n%s\n' "${subject[$s]}" "${body[$s]}" |
		git -C "$work" commit -q -s -F -
done
mkdir -p "$patches"
rm -f "$patches"/*.patch
git -C "$work" format-patch -q -o "$patches" base
ls "$patches"/*.patch
