// SPDX-License-Identifier: GPL-2.0
/*
 * An interface's module, loaded on the interface's first call
 * (module/autoload.c).
 *
 * The guest's modules are laid out in /lib/modules/RELEASE (a tmpfs over
 * it, the system's own hidden meanwhile) and indexed with depmod, as on
 * an installed system, and kernel.modprobe is a wrapper that notes each
 * run before it loads the module (see wrapper below).  Every provider
 * that is a module is unloaded: the core alone serves, and each test
 * checks then:
 *  - GetInterfaceDescription of each org.kernel interface a module
 *    served loads that module, one modprobe per module; the certification
 *    service, whose module has an alias too, is not under org.kernel.
 *    and is not loaded;
 *  - a call loads its module and is answered: org.kernel.sysctl.Get
 *    (org.kernel.varlink.test.Ping where sysctl is built in), timed
 *    against the same call once loaded;
 *  - org.kernel.nosuch.X called 1,000 times by uid 65534 runs modprobe
 *    once (at most 3 times: the name's retry is a minute);
 *  - names outside org.kernel., or outside the IDL's grammar, or too
 *    long for a module name, never run it;
 *  - from a container (a user and a network namespace of uid 65534's),
 *    a call loads the host's module: an interface served in every
 *    namespace answers there, one of the initial namespace only
 *    (sysctl) is loaded and still not found there;
 *  - eight first calls at once run modprobe once and are all answered;
 *  - 64 names that no module has run modprobe at most 32 times (the
 *    requests in vain allowed per 10 s, all names together).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "varlink_test.h"

#define NOT_FOUND	"org.varlink.service.InterfaceNotFound"
#define ALIAS		"varlink-interface-"
#define WORK		"/tmp/varlink-autoload"
#define RUNS		WORK "/runs"
#define WRAPPER		WORK "/modprobe"
#define MODPROBE	"/proc/sys/kernel/modprobe"
#define NOBODY		65534
#define FAILS_PER_WINDOW 32	/* VL_AUTOLOAD_FAILS */

#define GET_INFO	"{\"method\":\"org.varlink.service.GetInfo\"}"
#define CALL(m, p)	"{\"method\":\"" m "\",\"parameters\":" p "}"

/* The modules of /modules unloaded for a test, loaded again after it */
struct unloaded {
	char name[32][64];
	int n;
};

/*
 * The interfaces the server lists (GetInfo) into @names, at most @max;
 * returns how many, or -1.
 */
static int list_interfaces(char (*names)[128], int max)
{
	struct vt_conn c;
	const char *msg;
	char *name;
	int n = 0;

	if (vt_open(&c))
		return -1;
	if (vt_call(&c, GET_INFO, &msg) != 1 || !vt_is_ok(msg)) {
		vt_close(&c);
		return -1;
	}
	while (n < max &&
	       (name = vt_json_str(msg, vt_fmt("parameters.interfaces.%d", n)))) {
		snprintf(names[n++], 128, "%s", name);
		free(name);
	}
	vt_close(&c);
	return n;
}

/* Runs of the wrapper that asked for @alias (NULL: any), or -1. */
static int runs(const char *alias)
{
	char line[512], want[256];
	int n = 0;
	FILE *f = fopen(RUNS, "re");

	if (!f)
		return errno == ENOENT ? 0 : -1;
	snprintf(want, sizeof(want), " %s\n", alias ? alias : "");
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line), wlen = strlen(want);

		if (!alias || (len >= wlen && !strcmp(line + len - wlen, want)))
			n++;
	}
	fclose(f);
	return n;
}

/* A command's exit status, as system() gives it, or -1. */
static int run(const char *cmd)
{
	int status = system(cmd);

	return status < 0 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

/*
 * kernel.modprobe while a test runs: it notes the run, then loads the
 * module of the alias it is asked for (modprobe -q -- ALIAS).  It looks
 * the alias up in modules.alias itself, as kmod's modprobe does, and has
 * the guest's modprobe load the module by its name: busybox's cuts an
 * alias at its first dot ("varlink_interface_org").
 */
static const char wrapper[] =
	"#!/bin/sh\n"
	"echo \"$*\" >>" RUNS "\n"
	"for a; do alias=$a; done\n"
	"cd /lib/modules/$(uname -r) || exit 1\n"
	"m=$(awk -v a=\"$alias\" '$1 == \"alias\" && $2 == a { print $3; exit }' modules.alias)\n"
	"[ -n \"$m\" ] && exec modprobe \"$m\"\n"
	"exit 1\n";

/* Write what was in kernel.modprobe back */
static char saved_modprobe[256];

/*
 * /lib/modules/RELEASE: a tmpfs over it (made if there is none), with
 * every module of /modules linked in and depmod run.
 */
static int modules_dir(char *dir, size_t size)
{
	struct utsname u;
	char cmd[512];

	if (uname(&u))
		return -errno;
	snprintf(dir, size, "/lib/modules/%s", u.release);
	snprintf(cmd, sizeof(cmd), "mkdir -p %1$s && mount -t tmpfs varlink-autoload %1$s",
		 dir);
	if (run(cmd))
		return -EIO;
	snprintf(cmd, sizeof(cmd), "mkdir %1$s/kernel && ln -s %2$s/*.ko %1$s/kernel/",
		 dir, VT_MODULE_DIR);
	if (run(cmd) || run("depmod"))
		return -EIO;
	snprintf(cmd, sizeof(cmd), "grep -q '^alias %s' %s/modules.alias", ALIAS, dir);
	return run(cmd) ? -EIO : 0;
}

/* Unload every module of /modules but the core (and KUnit's), noting them */
static int unload_providers(struct unloaded *u)
{
	struct dirent *d;
	DIR *dir = opendir(VT_MODULE_DIR);
	int err = 0;

	u->n = 0;
	if (!dir)
		return -errno;
	while (!err && u->n < 32 && (d = readdir(dir))) {
		size_t len = strlen(d->d_name);
		char *name = u->name[u->n];

		if (len < 4 || len >= 64 || strcmp(d->d_name + len - 3, ".ko"))
			continue;
		snprintf(name, 64, "%.*s", (int)len - 3, d->d_name);
		if (!strcmp(name, VT_CORE_MODULE) || !strcmp(name, "varlink_kunit") ||
		    !vt_module_loaded(name))
			continue;
		err = vt_rmmod(name, 60000);
		if (!err)
			u->n++;
	}
	closedir(dir);
	return err;
}

FIXTURE(autoload) {
	char dir[256];
	struct unloaded unloaded;
	char before[64][128];	/* what was served with every module loaded */
	int n_before;
};

FIXTURE_SETUP(autoload)
{
	int i, fd;

	/* what is served with every module loaded */
	self->n_before = list_interfaces(self->before, 64);
	ASSERT_LT(0, self->n_before);
	ASSERT_EQ(0, unload_providers(&self->unloaded));
	ASSERT_LT(0, self->unloaded.n);
	ASSERT_FALSE(vt_module_loaded(VT_PROVIDER_MODULE));

	/* modprobe through the wrapper, with the modules installed */
	ASSERT_EQ(0, run("rm -rf " WORK " && mkdir -p " WORK));
	fd = open(WRAPPER, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	ASSERT_LE(0, fd);
	dprintf(fd, "%s", wrapper);
	close(fd);
	fd = open(MODPROBE, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	i = read(fd, saved_modprobe, sizeof(saved_modprobe) - 1);
	close(fd);
	ASSERT_LT(0, i);
	saved_modprobe[i] = '\0';
	ASSERT_EQ(0, modules_dir(self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, vt_write_file(MODPROBE, WRAPPER));
	ASSERT_EQ(0, runs(NULL));
}

FIXTURE_TEARDOWN(autoload)
{
	int i;

	vt_write_file(MODPROBE, saved_modprobe);
	/* the modules as they were, for the tests that follow */
	for (i = 0; i < self->unloaded.n; i++) {
		if (!vt_module_loaded(self->unloaded.name[i]))
			vt_insmod(self->unloaded.name[i]);
	}
	if (self->dir[0])
		umount2(self->dir, MNT_DETACH);
	run("rm -rf " WORK);
}

static bool was_unloaded(const struct unloaded *u, const char *module)
{
	int i;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->name[i], module))
			return true;
	return false;
}

/*
 * What a test calls: an interface of a module, a call of it and that
 * module.  org.kernel.sysctl, or on a kernel where it is built in, the
 * test interface (a module everywhere).
 */
struct subject {
	const char *iface, *call, *module;
};

static const struct subject sysctl_subject = {
	"org.kernel.sysctl",
	CALL("org.kernel.sysctl.Get", "{\"name\":\"kernel.random.boot_id\"}"),
	"varlink_sysctl",
};

/* served in every network namespace (VARLINK_NETNS) */
static const struct subject system_subject = {
	"org.kernel.system", CALL("org.kernel.system.Describe", "{}"), "varlink_system",
};

static const struct subject test_subject = { VT_IFACE, VT_PING, VT_PROVIDER_MODULE };

static const struct subject *pick(const struct unloaded *u, const struct subject *s)
{
	return was_unloaded(u, s->module) ? s : &test_subject;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * Each org.kernel interface that a module served is described again, its
 * module loaded by one modprobe; the others are not found.
 */
TEST_F(autoload, describe_loads_each_module)
{
	char now[64][128];
	int n_now, i, j, loaded = 0;

	n_now = list_interfaces(now, 64);
	ASSERT_LT(0, n_now);
	for (i = 0; i < self->n_before; i++) {
		const char *name = self->before[i];
		bool kernel = !strncmp(name, "org.kernel.", 11), listed = false;

		for (j = 0; j < n_now; j++)
			listed |= !strcmp(name, now[j]);
		if (listed)
			continue;	/* the core's, or built in */
		EXPECT_EQ(kernel, vt_interface_served(name)) TH_LOG("%s", name);
		EXPECT_GE(kernel, runs(vt_fmt(ALIAS "%s", name))) TH_LOG("%s", name);
		TH_LOG("%s: %s", name, kernel ? "loaded" : "not under org.kernel., not loaded");
	}
	for (i = 0; i < self->unloaded.n; i++)
		loaded += vt_module_loaded(self->unloaded.name[i]);
	EXPECT_LT(0, loaded);
	EXPECT_EQ(loaded, runs(NULL));
	TH_LOG("%d of the %d modules unloaded loaded again, by %d runs of modprobe",
	       loaded, self->unloaded.n, runs(NULL));
}

/* A call loads its module, and is answered. */
TEST_F(autoload, call_loads_module)
{
	const struct subject *s = pick(&self->unloaded, &sysctl_subject);
	long long t0, first, loaded;
	struct vt_conn c;
	const char *msg;
	char *v = NULL;
	int i;

	ASSERT_EQ(0, vt_open(&c));
	t0 = now_us();
	ASSERT_EQ(1, vt_call(&c, s->call, &msg));
	first = now_us() - t0;
	EXPECT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	EXPECT_TRUE(vt_module_loaded(s->module));
	EXPECT_EQ(1, runs(vt_fmt(ALIAS "%s", s->iface)));
	EXPECT_EQ(1, runs(NULL));
	if (s == &sysctl_subject) {
		char id[64] = "";
		FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

		ASSERT_NE(NULL, f);
		ASSERT_NE(NULL, fgets(id, sizeof(id), f));
		fclose(f);
		id[strcspn(id, "\n")] = '\0';
		v = vt_json_str(msg, "parameters.value");
		ASSERT_NE(NULL, v);
		EXPECT_STREQ(id, v);
	}
	/* the same call, once loaded: the mean of 100 */
	t0 = now_us();
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(1, vt_call(&c, s->call, &msg));
		ASSERT_TRUE(vt_is_ok(msg)) TH_LOG("%s", msg);
	}
	loaded = (now_us() - t0) / 100;
	EXPECT_EQ(1, runs(NULL));
	printf("# autoload: %s: the first call, which loads %s: %lld us\n",
	       s->iface, s->module, first);
	printf("# autoload: %s: the same call once loaded: %lld us\n", s->iface, loaded);
	free(v);
	vt_close(&c);
}

/* Each of @n calls of @call, as uid @uid, is not found with @iface; 0 or 1 */
static int nobody_not_found(const char *call, const char *iface, int n)
{
	struct vt_conn c;
	const char *msg;
	char *got;
	pid_t pid;
	int i, status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		if (vt_become(NOBODY) || vt_open(&c))
			_exit(2);
		for (i = 0; i < n; i++) {
			if (vt_call(&c, call, &msg) != 1 || !vt_is_error(msg, NOT_FOUND))
				break;
			got = vt_json_str(msg, "parameters.interface");
			if (!got || strcmp(got, iface))
				break;
			free(got);
		}
		if (i < n)
			fprintf(stderr, "# call %d of %s: %s\n", i, call, msg);
		_exit(i < n);
	}
	return waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	       WEXITSTATUS(status);
}

/* A client looping on a name no module has runs modprobe once a minute. */
TEST_F(autoload, nosuch_once)
{
	long long t0 = now_us(), s;

	EXPECT_EQ(0, nobody_not_found(CALL("org.kernel.nosuch.X", "{}"),
				      "org.kernel.nosuch", 1000));
	s = (now_us() - t0) / 1000000;
	EXPECT_LE(1, runs(ALIAS "org.kernel.nosuch"));
	EXPECT_GE(1 + s / 60, runs(ALIAS "org.kernel.nosuch"));
	EXPECT_GE(3, runs(NULL));
	printf("# autoload: 1000 calls of org.kernel.nosuch.X as uid %d: %lld ms, %d modprobe\n",
	       NOBODY, (now_us() - t0) / 1000, runs(NULL));
}

/* Names outside org.kernel., outside the grammar, or too long: never. */
TEST_F(autoload, never_outside_org_kernel)
{
	static const char *const ifaces[] = {
		"org.example",
		"org.varlink.certification",	/* its module has an alias */
		"org.kernelx.sysctl",
		"org.kernel",
		"org.kernel.-sysctl",
		"org.kernel.sys_ctl",
		"org.kernel..sysctl",
		"org.kernel.sysctl-",
		"org.kernel.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ifaces); i++) {
		const char *name = ifaces[i];

		EXPECT_EQ(0, nobody_not_found(vt_fmt(CALL("%s.Get", "{}"), name), name, 3))
			TH_LOG("%s", name);
		EXPECT_FALSE(vt_interface_served(name)) TH_LOG("%s", name);
	}
	EXPECT_EQ(0, runs(NULL));
	EXPECT_FALSE(vt_module_loaded("varlink_certification"));
}

/* In a container: @s loaded and served there, sysctl loaded and not. */
static int in_container(const struct subject *s, bool sysctl)
{
	struct vt_conn c;
	const char *msg;
	int failed = 0;

	if (vt_become(NOBODY) || unshare(CLONE_NEWUSER | CLONE_NEWNET) || vt_open(&c))
		return 100;
	if (vt_call(&c, s->call, &msg) != 1 || !vt_is_ok(msg)) {
		fprintf(stderr, "# %s in a container: %s\n", s->iface, msg);
		failed++;
	}
	if (sysctl && (vt_call(&c, sysctl_subject.call, &msg) != 1 ||
		       !vt_is_error(msg, NOT_FOUND))) {
		fprintf(stderr, "# sysctl in a container: %s\n", msg);
		failed++;
	}
	vt_close(&c);
	return failed;
}

TEST_F(autoload, container)
{
	const struct subject *s = pick(&self->unloaded, &system_subject);
	bool sysctl = was_unloaded(&self->unloaded, sysctl_subject.module);
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(in_container(s, sysctl));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(vt_module_loaded(s->module));
	EXPECT_EQ(1, runs(vt_fmt(ALIAS "%s", s->iface)));
	if (sysctl) {
		/* the host's module, loaded for the container's call */
		EXPECT_TRUE(vt_module_loaded(sysctl_subject.module));
		EXPECT_EQ(1, runs(ALIAS "org.kernel.sysctl"));
	} else {
		TH_LOG("org.kernel.sysctl is built in: its case needs it a module");
	}
}

struct racer {
	const struct subject *s;
	pthread_barrier_t *start;
	int ok;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	struct vt_conn c;
	const char *msg;

	if (vt_open(&c))
		return NULL;
	pthread_barrier_wait(r->start);
	r->ok = vt_call(&c, r->s->call, &msg) == 1 && vt_is_ok(msg);
	if (!r->ok)
		fprintf(stderr, "# %s\n", msg);
	vt_close(&c);
	return NULL;
}

/* Eight first calls at once: one modprobe, eight answers. */
TEST_F(autoload, concurrent_first_calls)
{
	const struct subject *s = pick(&self->unloaded, &sysctl_subject);
	struct racer r[8];
	pthread_barrier_t start;
	pthread_t t[8];
	int i;

	ASSERT_EQ(0, pthread_barrier_init(&start, NULL, 8));
	for (i = 0; i < 8; i++) {
		r[i] = (struct racer){ .s = s, .start = &start };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, race, &r[i]));
	}
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		EXPECT_TRUE(r[i].ok) TH_LOG("call %d", i);
	}
	pthread_barrier_destroy(&start);
	EXPECT_EQ(1, runs(vt_fmt(ALIAS "%s", s->iface)));
	EXPECT_EQ(1, runs(NULL));
}

/* 64 names no module has: at most 32 runs per 10 s, all names together. */
TEST_F_TIMEOUT(autoload, distinct_names_bounded, 300)
{
	long long t0 = now_us(), s;
	int i;

	for (i = 0; i < 64; i++) {
		const char *name = vt_fmt("org.kernel.nosuch%d", i);

		ASSERT_EQ(0, nobody_not_found(vt_fmt(CALL("%s.X", "{}"), name), name, 2));
	}
	s = (now_us() - t0) / 1000000;
	EXPECT_LE(1, runs(NULL));
	EXPECT_GE(FAILS_PER_WINDOW * (1 + s / 10 + 1), runs(NULL));
	printf("# autoload: 64 names no module has, in %lld ms: %d runs of modprobe\n",
	       (now_us() - t0) / 1000, runs(NULL));
}

TEST_HARNESS_MAIN
