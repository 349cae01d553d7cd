#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# systemd's varlinkctl (Debian sid's, laid out by scripts/varlinkctl.sh
# with its own loader and libraries) against the kernel: info, the
# interfaces and their methods, introspection, a call of every method of
# org.kernel.system, .process, .network, .log, .sysctl, .memory,
# .pressure, .device and .example checked against /proc, /sys, /dev/kmsg and the
# inputs, PermissionDenied for nobody, error replies, a MonitorLinks
# stream while a link changes, a log stream that follows, a PSI trigger
# set, --oneway, --collect and ExpectedMore.  Runs as root; prints TAP,
# its plan first: the results
# are kept in a file until their number is known.
vctl="$(dirname "$0")/varlinkctl/varlinkctl"
addr=unix:@org.kernel.varlink
t=/tmp/varlinkctl.$$
n=0 failed=0
# plain output, and never a pager: the guest's stdout may be a tty
export SYSTEMD_COLORS=0 SYSTEMD_PAGER=cat

check() {	# check NAME CONDITION...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		for f in "$t.out" "$t.err"; do
			[ -s "$f" ] && head -c 2000 "$f" | sed 's/^/# /'
		done
		failed=$((failed + 1))
	fi
}

# Every varlinkctl run has a time limit, so that a server that does not
# answer fails the check rather than hangs the VM, and reads no standard
# input (a call without parameters would wait for them there).
run() {		# run ARGS...: output in $t.out and $t.err, status in $rc
	timeout 60 "$vctl" "$@" </dev/null >"$t.out" 2>"$t.err"
	rc=$?
}

# A call that must fail: varlinkctl names the errors of
# org.varlink.service by their errno; its debug log shows the reply.
run_err() {	# run_err METHOD PARAMS
	SYSTEMD_LOG_LEVEL=debug timeout 60 "$vctl" call --json=short "$addr" \
		"$1" "$2" </dev/null >"$t.out" 2>"$t.err"
	rc=$?
}
got_error() {	# got_error NAME: the reply was that error, the call failed
	[ $rc -ne 0 ] && grep -q "\"error\":\"$1\"" "$t.err"
}

call() {	# call METHOD [PARAMS]: one reply, compact JSON
	params=${2:-}
	[ -n "$params" ] || params='{}'
	run call --json=short "$addr" "$1" "$params"
}

# Fields of the compact JSON in $t.out (or the file $2): the last
# occurrence of the key on each line.
jstr() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "${2:-$t.out}"; }
jval() { sed -n "s/.*\"$1\":\([^,}\"]*\).*/\1/p" "${2:-$t.out}"; }
# The integer part of a JSON number, whatever notation varlinkctl prints
int() { awk -v x="$1" 'BEGIN { printf "%d", x }'; }

# CPUs in a list such as "0-1,3"
cpus() { tr ',' '\n' <"$1" | awk -F- '{ n += (NF == 2 ? $2 - $1 + 1 : 1) } END { print n }'; }
# A /proc/PID/stat field by its number in proc(5), the comm skipped
statf() { sed 's/.*) //' "/proc/$1/stat" | awk -v f="$2" '{ print $(f - 2) }'; }
# The first or second number of a /proc/PID/status line (Uid:, Gid:)
statusf() { awk -v k="$2:" -v i="$3" '$1 == k { print $(i + 1) }' "/proc/$1/status"; }
state_name() {
	case "$1" in
	R) echo running ;; S) echo sleeping ;; D) echo disk_sleep ;;
	T) echo stopped ;; t) echo tracing_stop ;; X) echo dead ;;
	Z) echo zombie ;; P) echo parked ;; I) echo idle ;;
	esac
}
meminfo() { awk -v k="$1:" '$1 == k { print $2 * 1024 }' /proc/meminfo; }

exec 3>&1 >"$t.tap"
echo "# $("$vctl" --version 2>&1 | head -n 1)"

# --- the service and its interfaces ---------------------------------------

# the version: built out of tree, the project's (modinfo's); in a kernel
# tree, the kernel's release
version=$(cat /sys/module/varlink/version 2>/dev/null || uname -r)
run info "$addr"
check "info: vendor, product, version, URL" eval '[ $rc -eq 0 ] &&
	grep -qx " *Vendor: Linux" "$t.out" &&
	grep -qx " *Product: kvarlink, the in-kernel varlink server" "$t.out" &&
	grep -qx " *Version: $version" "$t.out" &&
	grep -qx " *URL: https://varlink.org" "$t.out" &&
	grep -qE "^ +(Interfaces: )?org\.varlink\.service$" "$t.out"'

expected="org.varlink.service org.kernel.varlink org.kernel.system
org.kernel.process org.kernel.network org.kernel.log org.kernel.sysctl
org.kernel.memory org.kernel.pressure org.kernel.device org.kernel.example
org.varlink.certification org.kernel.varlink.test"
run list-interfaces "$addr"
cp "$t.out" "$t.ifaces"
missing=
for i in $expected; do
	grep -qx "$i" "$t.ifaces" || missing="$missing $i"
done
check "list-interfaces: every expected interface" eval '[ $rc -eq 0 ] && [ -z "$missing" ]'

run --json=short info "$addr"
getinfo=$(sed -n 's/.*"interfaces":\[\([^]]*\)\].*/\1/p' "$t.out" | tr -d '"' | tr ',' '\n' | sort)
check "list-interfaces: what GetInfo says, sorted" eval '[ $rc -eq 0 ] &&
	[ -n "$getinfo" ] && [ "$getinfo" = "$(cat "$t.ifaces")" ]'

# The methods of the interfaces this project documents; the others are
# taken from what list-methods says.
methods_of() {
	case "$1" in
	org.varlink.service) echo GetInfo GetInterfaceDescription ;;
	org.kernel.varlink) echo GetLimits GetStatistics ;;
	org.kernel.system) echo Describe GetCommandLine SetHostname ;;
	org.kernel.process) echo GetProcess ;;
	org.kernel.network) echo GetLink ListLinks MonitorLinks ;;
	org.kernel.log) echo Read Write ;;
	org.kernel.sysctl) echo Apply Get List Set ;;
	org.kernel.memory) echo Get GetStatistics ;;
	org.kernel.pressure) echo Get Monitor ;;
	org.kernel.device) echo Get GetAttributes List Monitor Trigger ;;
	org.kernel.example) echo Count Hello ;;
	esac
}

for i in org.varlink.service org.kernel.varlink org.kernel.system \
	 org.kernel.process org.kernel.network org.kernel.log org.kernel.sysctl \
	 org.kernel.memory org.kernel.pressure org.kernel.device \
	 org.kernel.example; do
	run list-methods "$addr" "$i"
	want=$(for m in $(methods_of "$i"); do echo "$i.$m"; done | sort)
	# what sd-varlink cannot parse (see below): list-methods fails, and
	# the methods are those of the description as introspect prints it
	if [ $rc -ne 0 ] && grep -q "Failed to parse" "$t.err"; then
		echo "# list-methods $i: $(cat "$t.err")"
		run introspect "$addr" "$i"
		grep -qE '\[string\]\(\)|\]\??\[|\]\?[a-z]' "$t.out" &&
			sed -n "s/^method \([A-Za-z]*\)(.*/$i.\1/p" "$t.out" >"$t.m" &&
			mv "$t.m" "$t.out"
	fi
	check "list-methods $i: $(methods_of "$i")" eval '[ $rc -eq 0 ] &&
		[ "$(sort "$t.out")" = "$want" ]'
done

# introspect every interface GetInfo lists.  sd-varlink's IDL parser knows
# no nested containers ("?[]?[string]T"), no sets ("[string]()") and no
# nullable elements ("[string]?string", device's attributes), all valid
# varlink IDL (systemd issue #33229): varlinkctl then warns and prints the
# description as it came, still with status 0.
for i in $(cat "$t.ifaces"); do
	run list-methods "$addr" "$i"
	listed=$(sed -n "s/^$i\.//p" "$t.out")
	run introspect "$addr" "$i"
	bad=
	for m in $(methods_of "$i") $listed; do
		grep -q "^method $m(" "$t.out" || bad="$bad $m"
	done
	if grep -q "Failed to parse" "$t.err"; then
		grep -qE '\[string\]\(\)|\]\??\[|\]\?[a-z]' "$t.out" ||
			bad="$bad (parse-error)"
	fi
	check "introspect $i: the interface line and its methods" eval '[ $rc -eq 0 ] &&
		grep -qx "interface $i" "$t.out" && [ -z "$bad" ]'
done

run introspect "$addr" org.kernel.nope
check "introspect of a missing interface fails" eval '[ $rc -ne 0 ]'

# --- org.kernel.system ----------------------------------------------------

up0=$(cut -d' ' -f1 /proc/uptime)
call org.kernel.system.Describe
up1=$(cut -d' ' -f1 /proc/uptime)
cp "$t.out" "$t.describe"
check "Describe: uname -s -n -r -v -m and the domain name" eval '[ $rc -eq 0 ] &&
	[ "$(jstr sysname)" = "$(uname -s)" ] &&
	[ "$(jstr nodename)" = "$(uname -n)" ] &&
	[ "$(jstr release)" = "$(uname -r)" ] &&
	[ "$(jstr version)" = "$(uname -v)" ] &&
	[ "$(jstr machine)" = "$(uname -m)" ] &&
	[ "$(jstr domainname)" = "$(cat /proc/sys/kernel/domainname)" ]'
check "Describe: uptime between two reads of /proc/uptime" eval '
	u=$(int "$(jval uptime)") && [ "$u" -ge "$(int "$up0")" ] &&
	[ "$u" -le "$(int "$up1")" ]'
check "Describe: boot_time is btime of /proc/stat" eval '
	[ "$(jval boot_time)" = "$(awk "\$1 == \"btime\" { print \$2 }" /proc/stat)" ]'
check "Describe: memory_total, swap_total as /proc/meminfo" eval '
	[ "$(jval memory_total)" = "$(meminfo MemTotal)" ] &&
	[ "$(jval swap_total)" = "$(meminfo SwapTotal)" ] &&
	[ "$(jval memory_free)" -le "$(jval memory_total)" ]'
check "Describe: CPUs online, present, possible as sysfs" eval '
	[ "$(jval cpus_online)" = "$(cpus /sys/devices/system/cpu/online)" ] &&
	[ "$(jval cpus_present)" = "$(cpus /sys/devices/system/cpu/present)" ] &&
	[ "$(jval cpus_possible)" = "$(cpus /sys/devices/system/cpu/possible)" ]'
check "Describe: tasks_total near that of /proc/loadavg, loads numbers" eval '
	total=$(cut -d" " -f4 /proc/loadavg | cut -d/ -f2) &&
	d=$(($(jval tasks_total) - total)) && [ ${d#-} -le 20 ] &&
	int "$(jval load_1)" >/dev/null && [ -n "$(jval load_15)" ]'

old=$(cat /proc/sys/kernel/hostname)
call org.kernel.system.SetHostname '{"hostname":"vctl-test.example"}'
set_rc=$rc set_out=$(cat "$t.out")
call org.kernel.system.Describe
check "SetHostname: uname -n, /proc and Describe show the new name" eval '
	[ $set_rc -eq 0 ] && [ "$set_out" = "{}" ] &&
	[ "$(uname -n)" = vctl-test.example ] &&
	[ "$(cat /proc/sys/kernel/hostname)" = vctl-test.example ] &&
	[ "$(jstr nodename)" = vctl-test.example ]'
run_err org.kernel.system.SetHostname '{"hostname":"-bad name"}'
check "SetHostname: a bad name is InvalidParameter, the name stays" eval '
	got_error org.varlink.service.InvalidParameter &&
	grep -qx "{\"parameter\":\"hostname\"}" "$t.out" &&
	[ "$(uname -n)" = vctl-test.example ]'
# the name from before may be one SetHostname refuses, e.g. "(none)"
echo "$old" >/proc/sys/kernel/hostname

call org.kernel.system.GetCommandLine
check "GetCommandLine: /proc/cmdline, and its words as the arguments" eval '[ $rc -eq 0 ] &&
	[ "$(jstr cmdline)" = "$(cat /proc/cmdline)" ] &&
	[ "$(sed "s/.*\"arguments\":\[\"\(.*\)\"\]}\$/\1/; s/\",\"/ /g" "$t.out")" = \
	  "$(cat /proc/cmdline | xargs)" ]'

# without CAP_SYS_ADMIN (and CAP_SYS_PTRACE): nobody.  The initramfs
# root is mode 0700 (a mktemp -d): opened to others for these two calls.
as_nobody() {	# as_nobody METHOD PARAMS (no single quotes in them)
	root_mode=$(stat -c %a /)
	chmod 755 /
	SYSTEMD_LOG_LEVEL=debug timeout 60 su -m -s /bin/sh \
		-c "exec '$vctl' call --json=short $addr '$1' '$2'" nobody \
		</dev/null >"$t.out" 2>"$t.err"
	rc=$?
	chmod "$root_mode" /
}
as_nobody org.kernel.system.SetHostname '{"hostname":"vctl-nobody"}'
check "SetHostname as nobody: PermissionDenied, the name stays" eval '
	got_error org.varlink.service.PermissionDenied &&
	[ "$(uname -n)" = "$old" ]'
as_nobody org.kernel.process.GetProcess '{"pid":1}'
check "GetProcess 1 as nobody: ProcessNotFound, as for a free pid" eval '
	got_error org.kernel.process.ProcessNotFound'

# --- org.kernel.process ---------------------------------------------------

process_ok() {	# process_ok PID: the reply in $t.out describes PID
	p=$1
	[ $rc -eq 0 ] &&
	[ "$(jval pid)" = "$p" ] &&
	[ "$(jval ppid)" = "$(statf "$p" 4)" ] &&
	[ "$(jstr comm)" = "$(cat "/proc/$p/comm")" ] &&
	[ "$(jstr state)" = "$(state_name "$(statf "$p" 3)")" ] &&
	[ "$(jval uid)" = "$(statusf "$p" Uid 1)" ] &&
	[ "$(jval euid)" = "$(statusf "$p" Uid 2)" ] &&
	[ "$(jval gid)" = "$(statusf "$p" Gid 1)" ] &&
	[ "$(jval egid)" = "$(statusf "$p" Gid 2)" ] &&
	[ "$(jval threads)" = "$(statusf "$p" Threads 1)" ] &&
	[ $(($(jval start_time) / 10000000)) -eq "$(statf "$p" 22)" ] &&
	[ "$(jval rss)" -gt 0 ]
}
# A process may change state between the call and the read of /proc (pid
# 1 wakes for a child's exit): a mismatch gets one more try.
process_call_ok() {	# process_call_ok PID
	call org.kernel.process.GetProcess "{\"pid\":$1}"
	process_ok "$1" && return
	call org.kernel.process.GetProcess "{\"pid\":$1}"
	process_ok "$1"
}
check "GetProcess 1: as /proc/1/stat and status" process_call_ok 1
check "GetProcess \$\$ (this shell): as /proc/$$/stat and status" process_call_ok $$
nopid=$(cat /proc/sys/kernel/pid_max)	# pids are below it
run call --json=short "$addr" org.kernel.process.GetProcess "{\"pid\":$nopid}"
check "GetProcess of no process: ProcessNotFound, named, status 1" eval '
	[ $rc -ne 0 ] && grep -qx "{\"pid\":$nopid}" "$t.out" &&
	grep -q "failed: org.kernel.process.ProcessNotFound" "$t.err"'

# --- org.kernel.network ---------------------------------------------------

links_ok() {	# links_ok FILE: one link a line, each as sysfs shows it
	while read -r l; do
		echo "$l" >"$t.link"
		s=/sys/class/net/$(jstr name "$t.link")
		[ -d "$s" ] &&
		[ "$(jval index "$t.link")" = "$(cat "$s/ifindex")" ] &&
		[ "$(jval mtu "$t.link")" = "$(cat "$s/mtu")" ] &&
		[ "$(jstr mac "$t.link")" = "$(cat "$s/address")" ] &&
		[ "$(jstr operstate "$t.link")" = "$(cat "$s/operstate")" ] || return 1
	done <"$1"
}
call org.kernel.network.ListLinks
sed 's/},{/}\n{/g' "$t.out" >"$t.links"
check "ListLinks: every link of /sys/class/net, as sysfs says" eval '[ $rc -eq 0 ] &&
	[ "$(jstr name "$t.links" | sort)" = "$(ls /sys/class/net | sort)" ] &&
	links_ok "$t.links"'
call org.kernel.network.GetLink '{"name":"lo"}'
check "GetLink lo: index, MTU, up, MAC, counters" eval '[ $rc -eq 0 ] &&
	[ "$(jstr name)" = lo ] &&
	[ "$(jval index)" = "$(cat /sys/class/net/lo/ifindex)" ] &&
	[ "$(jval mtu)" = "$(cat /sys/class/net/lo/mtu)" ] &&
	[ "$(jval up)" = true ] && [ "$(jstr mac)" = 00:00:00:00:00:00 ] &&
	[ "$(jval rx_bytes)" -ge 0 ] && [ "$(jval tx_packets)" -ge 0 ]'
call org.kernel.network.GetLink "{\"index\":$(cat /sys/class/net/lo/ifindex)}"
check "GetLink by index: lo" eval '[ $rc -eq 0 ] && [ "$(jstr name)" = lo ]'
run call --json=short "$addr" org.kernel.network.GetLink '{"name":"vctl-none"}'
check "GetLink of no link: LinkNotFound, the name echoed" eval '[ $rc -ne 0 ] &&
	grep -qx "{\"name\":\"vctl-none\"}" "$t.out" &&
	grep -q "failed: org.kernel.network.LinkNotFound" "$t.err"'

# MonitorLinks as a stream: the links there are, then each change to a
# dummy link: made, its MTU, up, down, deleted.
mon=$t.mon
now() { cut -d. -f1 /proc/uptime; }
wait_for() {	# wait_for SECONDS CONDITION...
	wait_end=$(($(now) + $1))
	shift
	until "$@"; do
		[ "$(now)" -lt $wait_end ] || return 1
		sleep 0.1
	done
}
events() { tr -d '\036' <"$mon" | grep -c "\"event\":\"$1\""; }
# the line number of the first event after line $1 with all the words
event_after() {
	after=$1
	shift
	tr -d '\036' <"$mon" | awk -v after="$after" -v words="$*" '
		BEGIN { nw = split(words, w, " ") }
		NR > after { ok = 1; for (i = 1; i <= nw; i++) if (index($0, w[i]) == 0) ok = 0
			     if (ok) { print NR; exit } }'
}
has_event() {	# has_event WORDS...: the next event, after the last one found
	l=$(event_after "$last" "$@")
	[ -n "$l" ] && last=$l
}

call org.kernel.varlink.GetStatistics
conns0=$(jval connections)
nlinks=$(ls /sys/class/net | wc -l)
timeout 120 "$vctl" call --more --json=short "$addr" \
	org.kernel.network.MonitorLinks '{}' </dev/null >"$mon" 2>"$mon.err" &
mpid=$!
wait_for 30 eval '[ "$(events current)" -ge "$nlinks" ]'
check "MonitorLinks --more: a \"current\" reply for each link" eval '
	[ "$(events current)" -eq "$nlinks" ] &&
	[ "$(event_after 0 "\"event\":\"current\"" "\"name\":\"lo\"" "\"up\":true")" -ge 1 ]'

link=vctl0
echo "# MonitorLinks: $(events current) links; changing $link"
if timeout 30 ip link add name $link type dummy 2>"$t.err"; then
	timeout 30 ip link set $link mtu 1400
	timeout 30 ip link set $link up
	timeout 30 ip link set $link down
	timeout 30 ip link delete $link
	wait_for 30 eval '[ "$(events removed)" -ge 1 ]'
	last=0
	check "MonitorLinks: added, MTU, up, down, removed, in order" eval '
		has_event "\"event\":\"added\"" "\"name\":\"$link\"" "\"up\":false" &&
		has_event "\"event\":\"changed\"" "\"name\":\"$link\"" "\"mtu\":1400" &&
		has_event "\"event\":\"changed\"" "\"name\":\"$link\"" "\"up\":true" &&
		has_event "\"event\":\"changed\"" "\"name\":\"$link\"" "\"up\":false" &&
		has_event "\"event\":\"removed\"" "\"name\":\"$link\""'
else
	check "MonitorLinks: ip link add $link type dummy" false
fi
tr -d '\036' <"$mon" | grep "\"name\":\"$link\"" | sed 's/^/# /'

# varlinkctl streams until it is stopped (SIGTERM: a background job of
# a shell without job control ignores SIGINT); the server then hangs up
kill -TERM $mpid
alive() {	# not yet exited (an exited child is a zombie until waited for)
	st=$(statf $mpid 3 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}
wait_for 10 eval '! alive'
stopped=$?
wait $mpid
mon_rc=$?
conns_closed() {
	call org.kernel.varlink.GetStatistics
	[ "$(jval connections)" -le "$conns0" ]
}
check "MonitorLinks: varlinkctl stops on SIGTERM, the connection closes" eval '
	[ $stopped -eq 0 ] && [ $mon_rc -eq 143 ] && [ ! -s "$mon.err" ] &&
	wait_for 10 conns_closed'

run_err org.kernel.network.MonitorLinks '{}'
check "MonitorLinks without --more: ExpectedMore" eval '
	got_error org.varlink.service.ExpectedMore &&
	grep -q "called without .more. flag" "$t.err"'

# --- org.kernel.log -------------------------------------------------------

# printk.devkmsg as the tests want it: no rate limit
devkmsg=$(cat /proc/sys/kernel/printk_devkmsg)
echo on >/proc/sys/kernel/printk_devkmsg
mark=vctl-log-$$
# where the log ends: a Read after its end has only the final reply, and
# its next (the whole log, 4 MiB filled by varlink_log, is too long a
# read for varlinkctl's timeout on the debug kernels)
run call --more --json=short "$addr" org.kernel.log.Read '{"after":1000000000000}'
tr -d '\036' <"$t.out" | tail -n 1 >"$t.end"
lnext=$(jval next "$t.end")
lnext=${lnext:-1}
call org.kernel.log.Write "{\"priority\":5,\"message\":\"$mark written\"}"
write_rc=$rc write_out=$(cat "$t.out")
# the record as syslog(2) shows it: "<13>[   12.345678] TEXT"
raw=$(dmesg -r | grep "\] $mark written\$" | tail -n 1)
check "Write: {}, and dmesg -r has the record, user.notice (<13>)" eval '
	[ $write_rc -eq 0 ] && [ "$write_out" = "{}" ] &&
	[ "${raw%%\[*}" = "<13>" ]'
# its seq from a Read of what came since, then Read from just before it
run call --more --json=short "$addr" org.kernel.log.Read "{\"after\":$((lnext - 1))}"
tr -d '\036' <"$t.out" | grep "\"message\":\"$mark written\"" >"$t.entry"
kseq=$(jval seq "$t.entry")
kseq=${kseq:-0}
run call --more --json=short "$addr" org.kernel.log.Read "{\"after\":$((kseq - 1))}"
tr -d '\036' <"$t.out" >"$t.log"
head -n 1 "$t.log" >"$t.first"
tail -n 1 "$t.log" >"$t.last"
ts=$(echo "$raw" | sed 's/^<[0-9]*>\[ *\([0-9]*\)\..*/\1/')
check "Read --more after: the record as dmesg has it, then the end" eval '
	[ $rc -eq 0 ] && [ "$kseq" -gt 0 ] && [ "$(jval seq "$t.first")" = "$kseq" ] &&
	[ "$(jval priority "$t.first")" = 5 ] &&
	[ "$(jval facility "$t.first")" = 1 ] &&
	[ "$(jstr message "$t.first")" = "$mark written" ] &&
	[ "$(int "$(jval timestamp "$t.first")")" = "$ts" ] &&
	! grep -q "\"entry\"" "$t.last" && [ "$(jval next "$t.last")" -gt "$kseq" ]'
cli="$(dirname "$0")/kvarlinkctl"
if [ -x "$cli" ]; then
	echo "# kvarlinkctl call --more org.kernel.log.Read '{\"after\":$((kseq - 1))}'"
	timeout 60 "$cli" call --more --json=pretty org.kernel.log.Read \
		"{\"after\":$((kseq - 1))}" </dev/null 2>&1 | head -n 40 | sed 's/^/# /'
fi
run_err org.kernel.log.Read '{}'
check "Read without --more: ExpectedMore" eval '
	got_error org.varlink.service.ExpectedMore'
as_nobody org.kernel.log.Write "{\"priority\":6,\"message\":\"$mark nobody\"}"
check "Write as nobody: PermissionDenied, nothing written" eval '
	got_error org.varlink.service.PermissionDenied &&
	! dmesg | grep -q "$mark nobody"'
mon=$t.follow
timeout 60 "$vctl" call --more --json=short "$addr" org.kernel.log.Read \
	"{\"after\":$kseq,\"follow\":true}" </dev/null >"$mon" 2>"$mon.err" &
fpid=$!
sleep 0.5
echo "<14>$mark followed" >/dev/kmsg
check "Read --more follow: a record written after the call comes" eval '
	wait_for 20 grep -q "\"message\":\"$mark followed\"" "$mon"'
kill -TERM $fpid
wait $fpid
echo "$devkmsg" >/proc/sys/kernel/printk_devkmsg
# --- org.kernel.memory and org.kernel.pressure ---------------------------

# nr_dirtied: a counter every kernel has (pgfault needs VM_EVENT_COUNTERS,
# which the debug kernels lack)
pgfault0=$(awk '$1 == "nr_dirtied" { print $2 }' /proc/vmstat)
call org.kernel.memory.GetStatistics
pgfault1=$(awk '$1 == "nr_dirtied" { print $2 }' /proc/vmstat)
check "memory.GetStatistics: nr_dirtied between two reads of /proc/vmstat" eval '[ $rc -eq 0 ] &&
	v=$(sed -n "s/.*\"nr_dirtied\":\([0-9]*\).*/\1/p" "$t.out") &&
	[ "$v" -ge "$pgfault0" ] && [ "$v" -le "$pgfault1" ]'
call org.kernel.memory.Get
hp=$(awk '$1 == "HugePages_Total:" { print $2 }' /proc/meminfo)
check "memory.Get: total and fields' MemTotal in bytes, HugePages_Total a count" eval '[ $rc -eq 0 ] &&
	[ "$(jval total)" = "$(meminfo MemTotal)" ] &&
	grep -q "\"MemTotal\":$(meminfo MemTotal)[,}]" "$t.out" &&
	{ { [ -z "$hp" ] && ! grep -q HugePages_Total "$t.out"; } ||
	  grep -q "\"HugePages_Total\":$hp[,}]" "$t.out"; }'
if [ -e /proc/pressure/memory ]; then
	t0=$(sed -n "s/^some .*total=//p" /proc/pressure/memory)
	call org.kernel.pressure.Get '{"resource":"memory"}'
	t1=$(sed -n "s/^some .*total=//p" /proc/pressure/memory)
	check "pressure.Get memory: some's total between two reads of the file" eval '
		[ $rc -eq 0 ] && v=$(sed -n "s/.*\"some\":{[^}]*\"total\":\([0-9]*\).*/\1/p" "$t.out") &&
		[ "$v" -ge "$t0" ] && [ "$v" -le "$t1" ]'
	# a trigger set: nothing to say until it fires, which 3 s are too
	# few for; then timeout's SIGTERM (status 124, or busybox's 143)
	timeout 3 "$vctl" call --more --json=short "$addr" org.kernel.pressure.Monitor \
		'{"resource":"memory","stall":500000,"window":2000000}' </dev/null >"$t.out" 2>"$t.err"
	rc=$?
	check "pressure.Monitor --more: taken, it streams until stopped" eval '
		{ [ $rc -eq 124 ] || [ $rc -eq 143 ]; } && ! grep -qi "error\|fail" "$t.err"'
	run_err org.kernel.pressure.Monitor '{"resource":"memory","stall":500000,"window":2000000}'
	check "pressure.Monitor without --more: ExpectedMore" eval '
		got_error org.varlink.service.ExpectedMore'
else
	run_err org.kernel.pressure.Get '{"resource":"memory"}'
	check "pressure.Get memory without PSI: PressureUnavailable" eval '
		got_error org.kernel.pressure.PressureUnavailable'
fi
run_err org.kernel.pressure.Get '{"resource":"disk"}'
check "pressure.Get of no resource: InvalidParameter" eval '
	got_error org.varlink.service.InvalidParameter &&
	grep -qx "{\"parameter\":\"resource\"}" "$t.out"'

# --- org.kernel.sysctl ----------------------------------------------------

call org.kernel.sysctl.Get '{"name":"kernel.random.boot_id"}'
check "sysctl Get kernel.random.boot_id: as /proc/sys" eval '[ $rc -eq 0 ] &&
	[ "$(jstr value)" = "$(cat /proc/sys/kernel/random/boot_id)" ]'
call org.kernel.sysctl.Get '{"name":"net/ipv4/conf/lo/forwarding"}'
check "sysctl Get in the slash form: as /proc/sys" eval '[ $rc -eq 0 ] &&
	[ "$(jstr value)" = "$(cat /proc/sys/net/ipv4/conf/lo/forwarding)" ]'
run_err org.kernel.sysctl.Get '{"name":"kernel.no_such"}'
check "sysctl Get of no sysctl: NoSuchName, with the name" eval '
	got_error org.kernel.sysctl.NoSuchName &&
	grep -qx "{\"name\":\"kernel.no_such\"}" "$t.out"'
run call --more --json=short "$addr" org.kernel.sysctl.List '{"prefix":"kernel.random"}'
check "sysctl List --more kernel.random: one reply per file of the directory" eval '
	[ $rc -eq 0 ] &&
	[ "$(grep -c "\"name\":\"kernel\.random\." "$t.out")" = "$(ls /proc/sys/kernel/random | wc -l)" ] &&
	grep -q "\"name\":\"kernel.random.boot_id\",\"value\":\"$(cat /proc/sys/kernel/random/boot_id)\",\"writable\":false" "$t.out"'
run_err org.kernel.sysctl.List '{"prefix":"kernel.random"}'
check "sysctl List of a directory without --more: ExpectedMore" eval '
	got_error org.varlink.service.ExpectedMore'
old=$(cat /proc/sys/vm/swappiness)
call org.kernel.sysctl.Set '{"name":"vm.swappiness","value":"17"}'
set_rc=$rc set_out=$(cat "$t.out")
check "sysctl Set vm.swappiness: /proc/sys shows it" eval '[ $set_rc -eq 0 ] &&
	[ "$set_out" = "{}" ] && [ "$(cat /proc/sys/vm/swappiness)" = 17 ]'
echo "$old" >/proc/sys/vm/swappiness
as_nobody org.kernel.sysctl.Set '{"name":"vm.swappiness","value":"18"}'
check "sysctl Set as nobody: PermissionDenied, the value stays" eval '
	got_error org.varlink.service.PermissionDenied &&
	[ "$(cat /proc/sys/vm/swappiness)" = "$old" ]'

# --- org.kernel.device ----------------------------------------------------

call org.kernel.device.Get '{"syspath":"/devices/virtual/mem/null"}'
check "device.Get /devices/virtual/mem/null: its uevent file and links" eval '[ $rc -eq 0 ] &&
	[ "$(jstr subsystem)" = "$(basename "$(readlink /sys/devices/virtual/mem/null/subsystem)")" ] &&
	[ "$(jstr devnum)" = "c$(cat /sys/devices/virtual/mem/null/dev)" ] &&
	[ "$(jstr DEVNAME)" = "$(sed -n "s/^DEVNAME=//p" /sys/devices/virtual/mem/null/uevent)" ] &&
	[ "$(jstr DEVMODE)" = "$(sed -n "s/^DEVMODE=//p" /sys/devices/virtual/mem/null/uevent)" ]'
echo "# varlinkctl call unix:@org.kernel.varlink org.kernel.device.Get '{\"devnum\":\"c1:3\"}'"
run call --json=short "$addr" org.kernel.device.Get '{"devnum":"c1:3"}'
sed 's/^/# /' "$t.out"
check "device.Get c1:3: /devices/virtual/mem/null" eval '[ $rc -eq 0 ] &&
	[ "$(jstr syspath)" = /devices/virtual/mem/null ]'
run call --more --json=short "$addr" org.kernel.device.List '{}'
ndev=$(find /sys/devices -name uevent -type f | wc -l)
check "device.List --more: one reply per uevent file of /sys/devices ($ndev)" eval '
	[ $rc -eq 0 ] && [ "$(grep -c "\"syspath\":" "$t.out")" = "$ndev" ]'
run call --more --json=short "$addr" org.kernel.device.List '{"subsystem":"mem"}'
echo "# varlinkctl call --more unix:@org.kernel.varlink org.kernel.device.List '{\"subsystem\":\"mem\"}'"
tr -d '\036' <"$t.out" | head -n 3 | sed 's/^/# /'
check "device.List --more mem: the links of /sys/class/mem" eval '
	[ $rc -eq 0 ] && [ "$(grep -c "\"syspath\":" "$t.out")" = "$(ls /sys/class/mem | wc -l)" ]'
run_err org.kernel.device.List '{}'
check "device.List without --more: ExpectedMore" eval '
	got_error org.varlink.service.ExpectedMore'
run_err org.kernel.device.Get '{"syspath":"/devices/virtual/mem/nope"}'
check "device.Get of no device: DeviceNotFound" eval '
	got_error org.kernel.device.DeviceNotFound'
mon=$t.devmon
timeout 10 "$vctl" call --more --json=short "$addr" org.kernel.device.Monitor \
	'{"subsystems":["mem"],"replay":true}' </dev/null >"$mon" 2>"$mon.err" &
dpid=$!
wait_for 10 grep -q '"exists"' "$mon"
echo change >/sys/devices/virtual/mem/zero/uevent
seq=$(cat /sys/kernel/uevent_seqnum)
check "device.Monitor --more: the replay, then the uevent written" eval '
	wait_for 8 grep -q "\"action\":\"change\",\"seqnum\":$seq," "$mon" &&
	grep -q "\"action\":\"exists\"" "$mon"'
echo "# varlinkctl call --more unix:@org.kernel.varlink org.kernel.device.Monitor '{\"subsystems\":[\"mem\"],\"replay\":true}'"
tr -d '\036' <"$mon" | grep -e '"change"' -e '/mem/null"' | sed 's/^/# /'
kill -TERM $dpid
wait $dpid
seq0=$(cat /sys/kernel/uevent_seqnum)
as_nobody org.kernel.device.Trigger '{"syspath":"/devices/virtual/mem/null","action":"change"}'
check "device.Trigger as nobody: PermissionDenied, no uevent" eval '
	got_error org.varlink.service.PermissionDenied &&
	[ "$(cat /sys/kernel/uevent_seqnum)" = "$seq0" ]'
call org.kernel.device.Trigger '{"syspath":"/devices/virtual/mem/null","action":"change"}'
check "device.Trigger change as root: one more uevent" eval '[ $rc -eq 0 ] &&
	[ "$(cat /sys/kernel/uevent_seqnum)" -gt "$seq0" ]'

# --- org.kernel.example ---------------------------------------------------

call org.kernel.example.Hello '{"name":"varlinkctl"}'
check "Hello: the greeting and the release" eval '[ $rc -eq 0 ] &&
	[ "$(cat "$t.out")" = "{\"greeting\":\"Hello, varlinkctl!\",\"release\":\"$(uname -r)\"}" ]'
run call --more --json=short "$addr" org.kernel.example.Count '{"n":3}'
check "Count --more: 1, 2, 3, one reply each" eval '[ $rc -eq 0 ] &&
	[ "$(tr -d "\036" <"$t.out" | tr "\n" " ")" = "{\"i\":1} {\"i\":2} {\"i\":3} " ]'
call org.kernel.example.Count '{"n":3}'
check "Count without --more: the last reply only" eval '[ $rc -eq 0 ] &&
	[ "$(cat "$t.out")" = "{\"i\":3}" ]'
run call --collect --json=short "$addr" org.kernel.example.Count '{"n":2}'
check "Count --collect: the replies as an array" eval '[ $rc -eq 0 ] &&
	[ "$(cat "$t.out")" = "[{\"i\":1},{\"i\":2}]" ]'
run call --json=short "$addr" org.kernel.example.Count '{"n":101}'
check "Count 101: TooMany, with its max" eval '[ $rc -ne 0 ] &&
	[ "$(cat "$t.out")" = "{\"max\":100}" ] &&
	grep -q "failed: org.kernel.example.TooMany" "$t.err"'

# --- errors and --oneway --------------------------------------------------

run_err org.kernel.example.Nope '{}'
check "an unknown method: MethodNotFound, status non-zero" eval '
	got_error org.varlink.service.MethodNotFound && grep -q Nope "$t.out"'
run_err org.kernel.nope.Nope '{}'
check "an unknown interface: InterfaceNotFound, status non-zero" eval '
	got_error org.varlink.service.InterfaceNotFound &&
	grep -qx "{\"interface\":\"org.kernel.nope\"}" "$t.out"'
run_err org.kernel.example.Hello '{"name":1}'
check "a parameter of the wrong type: InvalidParameter" eval '
	got_error org.varlink.service.InvalidParameter &&
	grep -qx "{\"parameter\":\"name\"}" "$t.out"'

counter() {
	call org.kernel.varlink.test.Counter '{"add":0}'
	jval value
}
before=$(counter)
run call --oneway "$addr" org.kernel.varlink.test.Counter '{"add":5}'
oneway_rc=$rc
cp "$t.out" "$t.oneway"
cat "$t.err" >>"$t.oneway"
check "--oneway: status 0, no output, and the call ran" eval '
	[ $oneway_rc -eq 0 ] && [ ! -s "$t.oneway" ] && [ -n "$before" ] &&
	wait_for 5 eval "[ \"\$(counter)\" -eq $((before + 5)) ]"'

exec >&3 3>&-
printf 'TAP version 13\n1..%d\n' "$n"
cat "$t.tap"
rm -f "$t".*
[ $failed -eq 0 ]
