// SPDX-License-Identifier: GPL-2.0
/*
 * org.kernel.log: the kernel's log buffer, read as dmesg(1) and
 * syslog(2) read it and written as /dev/kmsg is.
 *
 * /dev/kmsg cannot be read from the kernel (it has no read_iter), so the
 * records come from the exported kmsg dumper iterator:
 * kmsg_dump_get_line() with the syslog prefix gives one record's text,
 * each line as "<pri>[seconds.micros] text", and leaves the iterator just
 * after that record: the record's sequence number is cur_seq - 1, and a
 * record number above the one asked for means the ones between were
 * overwritten (lost), as /dev/kmsg reports with EPIPE.  The iterator
 * starts at clear_seq, the last "dmesg -C", as syslog(2)'s READ_ALL does.
 *
 * Every Read is a stream (a struct log_stream), which the core runs,
 * paced to its client: a client that reads slowly gets the whole log
 * without making the server close its connection, and a stream that
 * follows new records is idle between them.  The printk:console
 * tracepoint, which every stored record passes, is the wake-up: its probe
 * may run in any context (NMI included), so it only queues an irq_work,
 * which kicks the streams (varlink_stream_kick_all()).  The tracepoint
 * fires before the record is committed, but with interrupts off until it
 * is, so the irq_work runs later; a second kick a little later
 * (log_recheck_work) catches any record that was not yet readable at the
 * first one.  Without tracepoints (a tiny kernel), log_recheck_work polls
 * every LOG_POLL while a stream follows.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kmsg_dump.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <linux/varlink.h>

#include "../compat.h"

#define LOG_ERR(name)	"org.kernel.log." name

/* The longest message Write takes, in bytes, with its newline and a NUL:
 * LOG_LINE_MAX (1024 less the 32 bytes of PREFIX_MAX, on kernels built
 * without CONFIG_PRINTK_CALLER), what vprintk_store() stores of one
 * message (/dev/kmsg takes as much in one write(2), but a longer text
 * loses its newline there).
 */
#define LOG_MESSAGE_MAX		(1024 - 32)
/* The highest syslog facility a record holds (struct printk_info: u8) */
#define LOG_FACILITY_MAX	255
/* /dev/kmsg's rate limit (ratelimit_default_init()): 10 per 5 seconds */
#define LOG_RATE_BURST		10
#define LOG_RATE_INTERVAL	(5 * HZ)
/* Users whose Write rate is tracked at once; see log_rate_ok() */
#define LOG_RATE_USERS		16
/* The text of one record as kmsg_dump_get_line() gives it: a record holds
 * at most 1024 bytes (PRINTKRB_RECORD_MAX, LOG_LINE_MAX before 6.10), and
 * each of its lines gets a prefix of at most 48 bytes; a longer text
 * would lose its last lines.
 */
#define LOG_TEXT_MAX		(1024 + 1025 * 48)
/* How often a following stream looks for records without tracepoints */
#define LOG_POLL		HZ
/* The second look after a wake-up: see the top of the file */
#define LOG_RECHECK		(HZ / 10)

static const char log_idl[] =
"# The kernel's log buffer (dmesg, /dev/kmsg): one for the whole system,\n"
"# read as syslog(2) and dmesg(1) read it, written as /dev/kmsg is.\n"
"interface org.kernel.log\n"
"\n"
"# One record of the log.\n"
"type Entry (\n"
"  # Its sequence number, as field 2 of a /dev/kmsg record: one more for\n"
"  # each record stored since boot.\n"
"  seq: int,\n"
"  # The priority, 0 (emerg) to 7 (debug), as field 1 of a /dev/kmsg\n"
"  # record is priority + 8 * facility.\n"
"  priority: int,\n"
"  # The syslog facility: 0 for the kernel's own records, 1 (user) for\n"
"  # those written to /dev/kmsg (or with Write) without one.\n"
"  facility: int,\n"
"  # When it was stored, in seconds since boot (printk's clock, the local\n"
"  # clock of the CPU, without time suspended), to the microsecond as\n"
"  # /dev/kmsg and dmesg show it; null while printk.time is off.\n"
"  timestamp: ?float,\n"
"  # The same in microseconds, as an integer: field 3 of the /dev/kmsg\n"
"  # record; null while printk.time is off, when no reader the kernel\n"
"  # exports to modules gives a record's time.\n"
"  usec: ?int,\n"
"  # Who stored it, \"T\" and a thread id or \"C\" and a CPU number, on\n"
"  # kernels built with CONFIG_PRINTK_CALLER; null on others.\n"
"  caller: ?string,\n"
"  # The text; the lines of a multi-line record are joined with \"\\n\".\n"
"  # Bytes that are not UTF-8 become U+FFFD.\n"
"  message: string,\n"
"  # How many records were lost before this one: overwritten in the\n"
"  # buffer before they were read, since the previous reply of the\n"
"  # stream, or, for its first one, since the record \"after\" names.\n"
"  # Absent if none was.\n"
"  lost: ?int,\n"
"  # How many records were cleared before this one, counted as \"lost\" is:\n"
"  # removed by \"dmesg -C\" (SYSLOG_ACTION_CLEAR) before the stream had\n"
"  # read them (/dev/kmsg still gives them; the kernel gives a module no\n"
"  # reader that does).  The records after \"after\" are this entry, and\n"
"  # those counted in \"lost\" and \"cleared\".  Absent if none was.\n"
"  cleared: ?int\n"
")\n"
"\n"
"# Read the log, one record per reply, oldest first; call it with \"more\",\n"
"# else org.varlink.service.ExpectedMore.  Without \"follow\", the stream\n"
"# gives the records there are when the call is made, and its final\n"
"# reply has no entry.  With \"follow\", the stream goes on with each new\n"
"# record as it is stored, until the client hangs up; it ends (with a\n"
"# reply without entry) only when the interface goes away.  The server\n"
"# sends each reply once the client has read most of what was sent\n"
"# before, so a slow client gets every record the buffer still holds\n"
"# when it gets there; records overwritten before are counted in \"lost\".\n"
"#\n"
"# It needs what syslog(2)'s SYSLOG_ACTION_READ_ALL (dmesg) needs: while\n"
"# kernel.dmesg_restrict is 1, CAP_SYSLOG in the initial user namespace\n"
"# (or CAP_SYS_ADMIN, on kernels before 6.9, which took it too), else\n"
"# nothing.  A caller in another network namespace (a container) is held\n"
"# to the rule of dmesg_restrict 1 whatever its value, as container\n"
"# runtimes allow syslog(2) only with CAP_SYSLOG.  Both the task that\n"
"# opened the connection and the one that sent the call must pass, when\n"
"# the call is made; else org.varlink.service.PermissionDenied.  The\n"
"# LSM's syslog hook (security_syslog) is not consulted: the module\n"
"# cannot call it.\n"
"#\n"
"# Each call with \"more\" counts against the server's stream quotas (the\n"
"# parameters max_streams, max_streams_per_user and\n"
"# max_streams_per_container of varlink.ko) until its final reply; over\n"
"# them, it fails with org.kernel.varlink.TooManyStreams.\n"
"method Read(\n"
"  # Start after the record with this sequence number (the \"seq\" of the\n"
"  # last entry the caller has, or \"next\" - 1); null or absent: from the\n"
"  # first record there is since the last \"dmesg -C\".  A number beyond\n"
"  # the newest record starts after the newest record.  It must not be\n"
"  # below -1.\n"
"  after: ?int,\n"
"  # Go on with new records as they come (false if absent).\n"
"  follow: ?bool\n"
") -> (\n"
"  # The record; absent in the final reply that ends a stream.\n"
"  entry: ?Entry,\n"
"  # The sequence number the next record of the stream will have: the\n"
"  # entry's seq + 1, or after the last one sent.  Read(after: next - 1)\n"
"  # goes on from here.\n"
"  next: int\n"
")\n"
"\n"
"# Add a record to the log, as writing \"<N>message\\n\" to /dev/kmsg does:\n"
"# N = priority + 8 * facility, and a newline ends the message.  The\n"
"# record shows on the consoles as the kernel's own records do.\n"
"#\n"
"# It needs what opening /dev/kmsg for writing needs: the file's owner\n"
"# (root, mode 0644): a file system user id of 0, or CAP_DAC_OVERRIDE in\n"
"# the initial user namespace; and printk.devkmsg not \"off\"\n"
"# (kernel.printk_devkmsg), else PermissionDenied.  It also needs\n"
"# CAP_SYSLOG in the initial user namespace, in place of the device\n"
"# cgroup's permission for /dev/kmsg (character device 1:11), which the\n"
"# module cannot check for the caller.  Both the task that opened the\n"
"# connection and the one that sent the call must pass.  While\n"
"# printk.devkmsg is \"ratelimit\" (the default), /dev/kmsg takes 10 writes\n"
"# per 5 seconds from each open file and drops the rest silently; Write\n"
"# takes 10 per 5 seconds from each user, those of its own user\n"
"# namespaces included, and fails the rest with RateLimited.\n"
"method Write(\n"
"  # 0 (emerg) to 7 (debug).\n"
"  priority: int,\n"
"  # The syslog facility, 1 to 255 (1 user, 3 daemon, 16 to 23 local0 to\n"
"  # local7, ...); 1 if absent.  0 (the kernel) is refused, as /dev/kmsg\n"
"  # gives writers facility 1 instead.\n"
"  facility: ?int,\n"
"  # The text, at most 990 bytes: with the newline and a NUL, the 992 of\n"
"  # LOG_LINE_MAX, what the kernel stores of one message.  A newline within\n"
"  # makes a multi-line record.\n"
"  message: string\n"
") -> ()\n"
"\n"
"# More than 10 Write calls of the caller's user in 5 seconds while\n"
"# printk.devkmsg is \"ratelimit\": the message was not written.\n"
"error RateLimited ()\n";

/**
 * struct log_stream - a Read stream
 * @stream: the core's
 * @next: the sequence number of the next record to send
 * @end: without @follow, the sequence number after the last record to
 *	send: the newest when the call was made
 * @follow: the stream goes on with new records
 * @counted: a jump before the next record is lost records: the caller
 *	named where to start, or a record was sent
 */
struct log_stream {
	struct varlink_stream stream;
	u64 next;
	u64 end;
	bool follow;
	bool counted;
};

static atomic_t log_followers;	/* streams that follow */
static const struct varlink_interface log_iface;

/* Reading records: the iterator's buffer, one record at a time */
static DEFINE_MUTEX(log_read_lock);
static char *log_text;

/* The wake-ups, see the top of the file */
static struct tracepoint *log_console_tp;
static struct irq_work log_irq_work;
static struct delayed_work log_recheck_work;

static void log_recheck(struct work_struct *work)
{
	varlink_stream_kick_all(&log_iface);
	if (!log_console_tp && atomic_read(&log_followers))
		queue_delayed_work(system_unbound_wq, &log_recheck_work, LOG_POLL);
}

/* Hard interrupt context, after the record was committed */
static void log_irq(struct irq_work *work)
{
	varlink_stream_kick_all(&log_iface);
	queue_delayed_work(system_unbound_wq, &log_recheck_work, LOG_RECHECK);
}

/* The printk:console probe: any context, printk's own included */
static void log_console_probe(void *data, const char *text, size_t len)
{
	if (atomic_read(&log_followers))
		irq_work_queue(&log_irq_work);
}

static void log_find_console(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "console"))
		*(struct tracepoint **)priv = tp;
}

/* The numbers of a "[%5lu.%06lu]" timestamp at @p into *@us, in
 * microseconds; returns the bytes it takes, or 0 if @p holds none.
 */
static size_t log_parse_time(const char *p, const char *end, u64 *us)
{
	const char *q = p + 1;
	u64 sec = 0, frac = 0;
	unsigned int n;

	if (q >= end || *p != '[')
		return 0;
	while (q < end && *q == ' ')
		q++;
	for (n = 0; q < end && isdigit(*q) && n < 20; q++, n++)
		sec = sec * 10 + (*q - '0');
	if (!n || q >= end || *q++ != '.')
		return 0;
	for (n = 0; q < end && isdigit(*q); q++, n++)
		frac = frac * 10 + (*q - '0');
	if (n != 6 || q >= end || *q++ != ']')
		return 0;
	*us = sec * USEC_PER_SEC + frac;
	return q - p;
}

/**
 * struct log_record - one record, parsed out of log_text
 * @seq: its sequence number
 * @pri: facility * 8 + priority
 * @us: the timestamp in microseconds, if @has_time
 * @has_time: the text has a timestamp (printk.time is on)
 * @caller: the caller id ("T123"), of @caller_len bytes, or NULL
 * @caller_len: bytes of @caller
 * @message: the text, its lines joined with "\n", of @len bytes, within
 *	log_text
 * @len: bytes of @message
 */
struct log_record {
	u64 seq;
	unsigned int pri;
	u64 us;
	bool has_time;
	const char *caller;
	size_t caller_len;
	char *message;
	size_t len;
};

/* Join the lines of a record's text in place: the first, from @p, stays
 * where it is; each next one moves up over its prefix, which must be the
 * first line's (the @plen bytes at @text).  Returns the message's length.
 */
static size_t log_join_lines(char *text, size_t plen, char *p, char *end)
{
	char *nl = memchr(p, '\n', end - p), *out;

	if (!nl)
		return end - p;
	out = nl;
	while (nl) {
		char *line = nl + 1, *next;
		size_t l;

		if ((size_t)(end - line) < plen || memcmp(line, text, plen))
			break;
		line += plen;
		next = memchr(line, '\n', end - line);
		l = (next ? next : end) - line;
		*out++ = '\n';
		memmove(out, line, l);
		out += l;
		nl = next;
	}
	return out - p;
}

/* The prefix record_print_text() puts before each line of a record, at
 * @text: "<pri>", the timestamp with printk.time (@time), the caller id
 * with CONFIG_PRINTK_CALLER, then a space if either; into @r.  Return:
 * the byte after it, or NULL for a text without one (it cannot be).
 */
static char *log_parse_prefix(char *text, const char *end, bool time,
			      struct log_record *r)
{
	unsigned int pri = 0, n = 0;
	char *p = text;
	size_t t;

	if (p >= end || *p++ != '<')
		return NULL;
	for (; p < end && isdigit(*p) && n < 5; p++, n++)
		pri = pri * 10 + (*p - '0');
	if (!n || p >= end || *p++ != '>')
		return NULL;
	t = time ? log_parse_time(p, end, &r->us) : 0;
	r->has_time = t;
	p += t;
	if (IS_ENABLED(CONFIG_PRINTK_CALLER) && p < end && *p == '[') {
		char *close = memchr(p, ']', end - p);

		if (!close)
			return NULL;
		r->caller = skip_spaces(p + 1);
		r->caller_len = close - r->caller;
		p = close + 1;
	}
	if (r->has_time || IS_ENABLED(CONFIG_PRINTK_CALLER)) {
		if (p >= end || *p != ' ')
			return NULL;
		p++;
	}
	r->pri = pri;
	return p;
}

/* Parse the @len bytes of log_text that kmsg_dump_get_line(syslog=true)
 * made of a record: each line is the record's prefix and a line of the
 * text, and ends with a newline.  The lines are joined in place.  A text
 * that is not so (it cannot be) is taken whole as the message.
 */
static void log_parse(char *text, size_t len, bool time, struct log_record *r)
{
	char *end, *p;

	memset(r, 0, sizeof(*r));
	if (len && text[len - 1] == '\n')
		len--;
	r->message = text;
	r->len = len;
	end = text + len;
	p = log_parse_prefix(text, end, time, r);
	if (!p)
		return;
	r->message = p;
	r->len = log_join_lines(text, p - text, p, end);
}

/* Write the next record of @s into its reply, if there is one, and move
 * @s past it: true if there was.  Under log_read_lock, which keeps
 * log_text.
 */
static bool log_put_next(struct log_stream *s, bool time)
{
	struct varlink_call *call = s->stream.call;
	struct kmsg_dump_iter iter;
	struct log_record r;
	u64 from, clear;
	size_t len;

	mutex_lock(&log_read_lock);
	kmsg_dump_rewind(&iter);	/* cur_seq: clear_seq */
	clear = iter.cur_seq;
	from = max(s->next, clear);	/* the iterator skips what was cleared */
	if (!s->follow && from >= s->end) {
		mutex_unlock(&log_read_lock);
		return false;
	}
	iter.cur_seq = from;
	if (!kmsg_dump_get_line(&iter, true, log_text, LOG_TEXT_MAX, &len) ||
	    (!s->follow && iter.cur_seq > s->end)) {
		mutex_unlock(&log_read_lock);
		return false;
	}
	/* the iterator is just after the record */
	log_parse(log_text, min_t(size_t, len, LOG_TEXT_MAX - 1), time, &r);
	r.seq = iter.cur_seq - 1;

	varlink_open_object(call, "entry");
	varlink_put_u64(call, "seq", r.seq);
	varlink_put_s64(call, "priority", r.pri & 7);
	varlink_put_s64(call, "facility", r.pri >> 3);
	if (r.has_time) {
		varlink_put_fixed(call, "timestamp", r.us, 6);
		varlink_put_u64(call, "usec", r.us);
	}
	if (r.caller)
		varlink_put_str_len(call, "caller", r.caller, r.caller_len);
	varlink_put_str_len(call, "message", r.message, r.len);
	if (s->counted && r.seq > from)
		varlink_put_u64(call, "lost", r.seq - from);
	if (s->counted && from > s->next)
		varlink_put_u64(call, "cleared", from - s->next);
	varlink_close_object(call);
	varlink_put_u64(call, "next", r.seq + 1);
	mutex_unlock(&log_read_lock);

	s->next = r.seq + 1;
	s->counted = true;
	return true;
}

/* Whether printk.time is on: its timestamps are in the records' text. */
static bool log_time(void)
{
	char buf[8];

	if (varlink_file_read(NULL, VARLINK_SYSFS,
			      "module/printk/parameters/time",
			      buf, sizeof(buf)) <= 0)
		return true;	/* look for one anyway */
	return buf[0] == 'Y';
}

/* Send the records there are; without "follow", end after the last. */
static int log_run(struct varlink_stream *stream)
{
	struct log_stream *s = container_of(stream, struct log_stream, stream);
	bool time = log_time();
	int err;

	while (log_put_next(s, time)) {
		err = varlink_stream_reply(stream);
		if (err)
			return err;
		cond_resched();
	}
	if (s->follow)
		return 0;	/* until a wake-up */
	varlink_put_u64(stream->call, "next", s->next);
	return varlink_reply(stream->call);
}

/* The interface goes: the last reply says where the stream stopped */
static int log_stop(struct varlink_stream *stream)
{
	struct log_stream *s = container_of(stream, struct log_stream, stream);

	varlink_put_u64(stream->call, "next", s->next);
	return varlink_reply(stream->call);
}

static void log_release(struct varlink_stream *stream)
{
	struct log_stream *s = container_of(stream, struct log_stream, stream);

	if (s->follow)
		atomic_dec(&log_followers);
	kfree(s);
}

static const struct varlink_stream_ops log_stream_ops = {
	.run = log_run,
	.stop = log_stop,
	.release = log_release,
};

/* Whether the caller may read the log: syslog(2)'s check_syslog_permissions()
 * for SYSLOG_ACTION_READ_ALL, made for both parties by
 * varlink_call_capable(); outside the initial network namespace as if
 * dmesg_restrict were 1.  Where the kernel still takes CAP_SYS_ADMIN
 * instead (VL_SYSLOG_SYS_ADMIN), both parties must hold the same one of
 * the two, which never grants more than the kernel; its warning is not
 * printed.
 */
static bool log_may_read(struct varlink_call *call)
{
	char buf[16];
	bool restricted = true;

	if (varlink_caller_in_init_ns(varlink_call_caller(call), CLONE_NEWNET) &&
	    varlink_file_read(NULL, VARLINK_PROC, "sys/kernel/dmesg_restrict",
			      buf, sizeof(buf)) > 0)
		restricted = buf[0] != '0';	/* 0 or 1; else fail closed */
	return !restricted || varlink_call_capable(call, CAP_SYSLOG) ||
	       (VL_SYSLOG_SYS_ADMIN && varlink_call_capable(call, CAP_SYS_ADMIN));
}

struct log_read_params {
	struct varlink_opt_s64 after;
	bool follow;
};

static const struct varlink_param log_read_params[] = {
	VARLINK_PARAM("after", struct log_read_params, after),
	VARLINK_PARAM("follow", struct log_read_params, follow),
};

/* Read(after: ?int, follow: ?bool) -> (entry: ?Entry, next: int) */
static int log_read(struct varlink_call *call, const void *params)
{
	const struct log_read_params *p = params;
	s64 after = p->after.present ? p->after.value : -1;
	struct kmsg_dump_iter iter;
	struct log_stream *s;

	if (after < -1)
		return varlink_error_invalid_parameter(call, "after");
	if (!log_may_read(call))
		return -EPERM;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	s->follow = p->follow;
	kmsg_dump_rewind(&iter);
	s->end = iter.next_seq;
	s->next = min_t(u64, (u64)after + 1, iter.next_seq);
	s->counted = after >= 0;
	varlink_stream_init(&s->stream, &log_stream_ops);
	if (s->follow && atomic_inc_return(&log_followers) == 1 &&
	    !log_console_tp)
		queue_delayed_work(system_unbound_wq, &log_recheck_work, LOG_POLL);
	return varlink_stream_start(call, &s->stream);
}

/* Whether @cred may open /dev/kmsg for writing, as far as its mode (0644,
 * root) says: generic_permission() lets its owner write, or a holder of
 * CAP_DAC_OVERRIDE over it; /dev/kmsg's owner is the initial user
 * namespace's root, so the capability counts there.
 */
static bool log_cred_owner(const struct cred *cred, const void *data)
{
	return uid_eq(cred->fsuid, GLOBAL_ROOT_UID) ||
	       ns_capable_noaudit(&init_user_ns, CAP_DAC_OVERRIDE);
}

/* The rate of Write calls while printk.devkmsg is "ratelimit": per user
 * (&varlink_caller.user in its &varlink_caller.tenant), as the core shares
 * out its resources, since a provider has no state per connection.  Only
 * callers with CAP_SYSLOG get here, so a few slots are plenty; when all
 * are taken, the one whose window began first is reused.  The tenant is
 * a key only, never dereferenced.
 */
struct log_rate {
	kuid_t user;
	const void *tenant;
	unsigned long begin;
	unsigned int n;
	bool used;
};

static DEFINE_MUTEX(log_rate_lock);
static struct log_rate log_rates[LOG_RATE_USERS];

static bool log_rate_ok(struct varlink_call *call)
{
	kuid_t user = varlink_call_caller(call)->user;
	const void *tenant = varlink_call_caller(call)->tenant;
	struct log_rate *r = NULL, *free = NULL, *e;
	bool ok;

	mutex_lock(&log_rate_lock);
	for (e = log_rates; e < log_rates + LOG_RATE_USERS; e++) {
		if (e->used && uid_eq(e->user, user) && e->tenant == tenant) {
			r = e;
			break;
		}
		/* an unused slot, else the oldest window */
		if (!free || (free->used &&
			      (!e->used || time_before(e->begin, free->begin))))
			free = e;
	}
	if (!r) {
		r = free;
		r->used = true;
		r->user = user;
		r->tenant = tenant;
		r->begin = jiffies;
		r->n = 0;
	}
	if (time_after_eq(jiffies, r->begin + LOG_RATE_INTERVAL)) {
		r->begin = jiffies;
		r->n = 0;
	}
	ok = r->n < LOG_RATE_BURST;
	if (ok)
		r->n++;
	mutex_unlock(&log_rate_lock);
	return ok;
}

struct log_write_params {
	s32 priority;
	struct varlink_opt_s64 facility;
	const char *message;
};

static const struct varlink_param log_write_params[] = {
	VARLINK_PARAM("priority", struct log_write_params,
		      priority),
	VARLINK_PARAM("facility", struct log_write_params,
		      facility),
	VARLINK_PARAM("message", struct log_write_params,
		      message),
};

static __printf(3, 4) void log_emit(int facility, int level,
				    const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk_emit(facility, level, NULL, fmt, args);
	va_end(args);
}

/* Write(priority: int, facility: ?int, message: string) -> () */
static int log_write(struct varlink_call *call, const void *params)
{
	const struct log_write_params *p = params;
	s64 facility = p->facility.present ? p->facility.value : 1;
	char mode[16];
	ssize_t n;

	if (p->priority < 0 || p->priority > 7)
		return varlink_error_invalid_parameter(call, "priority");
	if (facility < 1 || facility > LOG_FACILITY_MAX)
		return varlink_error_invalid_parameter(call, "facility");
	if (strlen(p->message) + 2 > LOG_MESSAGE_MAX)
		return varlink_error_invalid_parameter(call, "message");

	if (!varlink_call_creds_allow(call, log_cred_owner, NULL) ||
	    !varlink_call_capable(call, CAP_SYSLOG))
		return -EPERM;
	n = varlink_file_read(NULL, VARLINK_PROC, "sys/kernel/printk_devkmsg",
			      mode, sizeof(mode));
	if (n <= 0)
		return n < 0 ? n : -EIO;
	if (!strncmp(mode, "off", 3))
		return -EPERM;
	if (strncmp(mode, "on", 2) && !log_rate_ok(call))
		return varlink_error(call, LOG_ERR("RateLimited"));

	log_emit(facility, p->priority, "%s\n", p->message);
	return varlink_reply(call);
}

static const struct varlink_method log_methods[] = {
	{
		.name = "Read", .call = log_read,
		VARLINK_PARAMS(log_read_params, struct log_read_params),
		.flags = VARLINK_MORE_ONLY | VARLINK_STREAM,
	},
	{
		.name = "Write", .call = log_write,
		VARLINK_PARAMS(log_write_params, struct log_write_params),
	},
};

static const struct varlink_interface log_iface = {
	.idl = log_idl,
	VARLINK_METHODS(log_methods),
	.flags = VARLINK_NETNS,
};

/* No wake-up runs once this returns */
static void log_wakeups_stop(void)
{
	if (log_console_tp) {
		tracepoint_probe_unregister(log_console_tp, log_console_probe,
					    NULL);
		tracepoint_synchronize_unregister();
	}
	irq_work_sync(&log_irq_work);
	cancel_delayed_work_sync(&log_recheck_work);
}

static int __init log_init(void)
{
	int err;

	log_text = kvmalloc(LOG_TEXT_MAX, GFP_KERNEL);
	if (!log_text)
		return -ENOMEM;
	init_irq_work(&log_irq_work, log_irq);
	INIT_DELAYED_WORK(&log_recheck_work, log_recheck);

	/* none without CONFIG_TRACEPOINTS: streams then poll */
	for_each_kernel_tracepoint(log_find_console, &log_console_tp);
	if (log_console_tp) {
		err = tracepoint_probe_register(log_console_tp,
						log_console_probe, NULL);
		if (err)
			goto free_text;
	}
	err = varlink_register_interface(&log_iface);
	if (err)
		goto unregister_probe;
	return 0;

unregister_probe:
	log_wakeups_stop();
free_text:
	kvfree(log_text);
	return err;
}

static void __exit log_exit(void)
{
	/* ends every stream with a reply without entry, and waits for them */
	varlink_unregister_interface(&log_iface);
	log_wakeups_stop();
	kvfree(log_text);
}

module_init(log_init);
module_exit(log_exit);

MODULE_LICENSE("GPL");
MODULE_ALIAS_VARLINK_INTERFACE("org.kernel.log");
MODULE_DESCRIPTION("org.kernel.log varlink interface: the kernel log buffer");
MODULE_AUTHOR("The kvarlink authors");
