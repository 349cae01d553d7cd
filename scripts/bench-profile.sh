#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The profile table of make bench: where a call's CPU time goes, from the
# samples selftests/bench/profile.sh took in the VM.  Our own symbols are
# sorted by the source file that defines them (nm of the module build's
# objects: the step of a call that file is), the kernel's by name into the
# paths a call takes through it.  Time per call = samples x period / calls.
# Functions the compiler inlined count for their caller.
#
# Usage: bench-profile.sh RESULT_FILE MODULE_BUILD_DIR
set -euo pipefail

result=$1 build=$2

# "symbol file" for every function our objects define
symfile=$(mktemp)
trap 'rm -f "$symfile"' EXIT
find "$build" -name '*.o' ! -name '*.mod.o' ! -name '*kunit*' -print0 |
	while IFS= read -r -d '' o; do
		# not a module's whole, linked from the others
		[ -e "${o%.o}.ko" ] && continue
		nm --defined-only "$o" 2>/dev/null |
			awk -v f="${o#"$build"/}" '$2 ~ /^[Tt]$/ { print $3, f }'
	done >"$symfile"

awk -v symfile="$symfile" '
function step_of_file(f,    g) {
	if (f ~ /(^|\/)json(_number)?\.o$/) return "parse: JSON tokenizer (json.c)"
	if (f ~ /(^|\/)(validate|idl)\.o$/) return "validate: against the IDL (validate.c, idl.c)"
	if (f ~ /(^|\/)(dispatch|registry)\.o$/) return "dispatch: envelope, routing, decoding"
	if (f ~ /(^|\/)call\.o$/) return "call: its lifetime, the reply API (call.c)"
	if (f ~ /(^|\/)jsonw\.o$/) return "reply: JSON writer (jsonw.c)"
	if (f ~ /(^|\/)(conn|peer|admission|stats|params|cache|server|main)\.o$/) return "connection: framing, output (conn.c ...)"
	g = f
	sub(/.*\//, "", g)
	sub(/\.o$/, ".c", g)
	return "method: the provider (" g ")"
}
function step_of_sym(s, k) {
	sub(/\.(part|isra|constprop|cold)\.[0-9.]*$/, "", s)
	if (s in file) return step_of_file(file[s])
	if (k == "[.]") return "client: userspace (vl-bench, libc)"
	if (s ~ /^(__)?unix_|^maybe_add_creds|^scm_|^(__)?scm_/) return "kernel: AF_UNIX"
	if (s ~ /^(__)?netlink|^genl|^ctrl_|^(__)?nla_|^nlmsg/) return "kernel: netlink, genetlink"
	if (s ~ /^(__)?(sock|sk|skb)_|^(__)?(kfree|consume|alloc|build)_skb|^kmalloc_reserve|^(__|___)?sys_(send|recv)|^sockfd_|^(__)?fdget|^(__)?fget|^fput|^kernel_(send|recv)msg|^security_socket|^(apparmor|aa)_sk|^move_addr|^copy_msghdr|^import_(single_range|iovec)|^_?copy_(to|from)_(iter|user)|^(__)?check_object_size|^check_heap_object|^__virt_addr_valid|^rep_movs|^copy_user|^memcpy|^memmove|^memset|^__memcpy|^__memset/) return "kernel: sockets, skbs, copies"
	if (s ~ /^entry_SYSCALL|^do_syscall|^syscall_|^exit_to_user|^__x64_sys|^__(rseq|do_sys)|^rseq|^fpregs|^switch_fpu|^restore_fpregs|^irqentry|^(syscall_)?enter_from_user/) return "kernel: system call entry, exit"
	if (s ~ /^(__)?(schedule|try_to_wake_up|ttwu|enqueue|dequeue|pick_next|finish_task_switch|switch_to|switch_mm|update_curr|update_load|wake_up|__wake_up|autoremove_wake|prepare_to_wait|finish_wait|wait_woken|woken_wake|select_task_rq|set_next_entity|put_prev|check_preempt|resched|default_wake|psi_|queue_work|__queue_work|insert_work)/) return "kernel: scheduler, wakeups"
	if (s ~ /^(__|___)?(kmem_cache|kmalloc|kfree|slab|memcg|obj_cgroup|refill_obj|mod_objcg|get_obj_cgroup|kvfree|kvmalloc|alloc_pages|get_page_from_freelist|page_counter|__mod_memcg|mod_memcg)/) return "kernel: memory allocation, memcg"
	if (s ~ /^(__)?(mutex|_raw|raw|queued|srcu|rcu|down|up|preempt|local_bh|_local_bh|refcount|lockref)_/) return "kernel: locks, RCU, refcounts"
	if (s ~ /^(__)?(get|put)_(pid|cred|task)|^(__)?put_cred|^prepare_creds|^security_|^apparmor|^aa_|^cap_|^override_creds|^revert_creds/) return "kernel: credentials, pids, LSM"
	if (s ~ /^(__)?(path_|link_path_walk|walk_component|lookup_|d_|dput|dget|step_into|may_open|do_dentry_open|dentry_open|vfs_|kernel_read|kernel_write|rw_verify_area|(__)?fput|filp_|alloc_empty_file|(__)?alloc_file|file_free|inode_permission|generic_permission|proc_|seq_|sysctl_|mntget|mntput|legitimize|terminate_walk|complete_walk|set_root|nd_|follow_|try_to_unlazy|getname|putname|fsnotify|__fsnotify)/) return "kernel: files (VFS, procfs)"
	if (s ~ /^(asm_)?(__)?sysvec|^hrtimer|^tick_|^(__)?irq|^(__)?do_softirq|^run_timer|^update_process_times|^scheduler_tick|^ktime_get|^read_tsc|^native_|^clockevents|^lapic/) return "kernel: timer, interrupts"
	return "kernel: other"
}
FILENAME == symfile { file[$1] = $2; next }
$1 == "profile" && $3 == "calls" {
	calls[$2] = $4; rate[$2] = $6; period[$2] = $8
	if (!($2 in seen)) { seen[$2] = 1; order[++nt] = $2 }
	next
}
$1 == "profile" { failed = failed $0 "\n"; next }
$1 == "profile-sym" {
	t = $2; n = $3; k = $4; s = $5
	st = step_of_sym(s, k)
	samples[t, st] += n; total[t] += n
	if (!((st) in stepseen)) { stepseen[st] = 1; steps[++ns] = st }
	sym[t, s] += n; symstep[s] = st
	if (!((t, s) in symseen)) { symseen[t, s] = 1; syms[t, ++nsym[t]] = s }
}
END {
	printf "\n== profile: where the CPU time of one call goes, in the bench VM\n"
	printf "== (perf, cpu-clock sampled every %s ns of the calling task, which\n", period[order[1]]
	printf "== runs the whole call: see selftests/bench/profile.sh); us per call\n"
	printf "== and share of the samples.  TCG: relative figures only.\n"
	printf "%s", failed
	if (!nt) { print "no profile"; exit }
	printf "%-46s", "step"
	for (i = 1; i <= nt; i++) printf " %15s", order[i]
	printf "\n%-46s", "calls/s under perf"
	for (i = 1; i <= nt; i++) printf " %15.0f", rate[order[i]]
	printf "\n"
	# the steps in a fixed order: ours first, as a call meets them
	n = split("client: userspace (vl-bench, libc)|kernel: system call entry, exit|kernel: sockets, skbs, copies|kernel: AF_UNIX|kernel: netlink, genetlink|connection: framing, output (conn.c ...)|parse: JSON tokenizer (json.c)|dispatch: envelope, routing, decoding|validate: against the IDL (validate.c, idl.c)|call: its lifetime, the reply API (call.c)|reply: JSON writer (jsonw.c)", fixed, "|")
	for (i = 1; i <= n; i++) { out[++no] = fixed[i]; isfixed[fixed[i]] = 1 }
	for (i = 1; i <= ns; i++) if (steps[i] ~ /^method/ && !(steps[i] in isfixed)) { out[++no] = steps[i]; isfixed[steps[i]] = 1 }
	for (i = 1; i <= ns; i++) if (!(steps[i] in isfixed)) { out[++no] = steps[i]; isfixed[steps[i]] = 1 }
	for (j = 1; j <= no; j++) {
		st = out[j]
		printf "%-46s", st
		for (i = 1; i <= nt; i++) {
			t = order[i]
			us = calls[t] ? samples[t, st] * period[t] / calls[t] / 1000 : 0
			sh = total[t] ? 100 * samples[t, st] / total[t] : 0
			printf " %7.2f %5.1f%%", us, sh
		}
		printf "\n"
	}
	printf "%-46s", "total"
	for (i = 1; i <= nt; i++) {
		t = order[i]
		printf " %7.2f %5.1f%%", calls[t] ? total[t] * period[t] / calls[t] / 1000 : 0, 100
	}
	printf "\n"
	for (i = 1; i <= nt; i++) {
		t = order[i]
		printf "\n%s: the symbols over 1%% of its samples, us per call\n", t
		m = 0
		for (j = 1; j <= nsym[t]; j++) {
			s = syms[t, j]
			if (sym[t, s] * 100 >= total[t])
				printf "  %6.2f %5.1f%%  %-34s %s\n", sym[t, s] * period[t] / calls[t] / 1000,
					100 * sym[t, s] / total[t], s, symstep[s]
		}
	}
}' "$symfile" "$result"
