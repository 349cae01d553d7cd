// SPDX-License-Identifier: GPL-2.0
/*
 * Walking a directory tree of an internal mount for a caller, a step at a
 * time: what sysctl's List and device's List and replay do, resumable, so
 * that a stream can stop where its client's reading left it and go on
 * later.
 *
 * The walk is depth first: varlink_walk_next() gives the entries of the
 * directory it is in, one at a time, and goes into a subdirectory only
 * when asked to (varlink_walk_enter()), so that an entry comes before
 * what is below it.  It holds one open directory per level it is in, and
 * reads each directory a buffer's worth of entries at a time, from the
 * directory file's own position, as getdents() does: what it holds is
 * bounded by its depth, not by the size of the tree.
 *
 * The directory the walk starts in is opened as the caller, as
 * varlink_file_open() opens it.  Below it, a directory is opened as the
 * caller too, by its path from the mount's root; or, with
 * VARLINK_WALK_KERNEL, as the kernel, looked up in its parent's open
 * directory without following a symbolic link: for a tree the caller may
 * read all of (sysfs's directories are all 0755), which a walk that
 * looks each one up from the root as the caller takes tens of times as
 * long to read.  A directory is listed as whoever opened it.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/varlink.h>

#include "compat.h"
#include "files.h"

/* Entries of one directory read at once: a type, a length and a name */
#define VL_WALK_BUF		1024
/* Directories one walk lists at most */
#define VL_WALK_DIRS_MAX	BIT(20)

/**
 * struct vl_walk_level - a directory the walk is in
 * @dir: the directory, open
 * @buf: entries read ahead, each its d_type, its length and its name
 * @len: bytes of @buf
 * @off: the next entry in @buf
 * @path_len: the length of its path in the walk's @path
 * @eof: the directory was read to its end
 */
struct vl_walk_level {
	struct file *dir;
	char buf[VL_WALK_BUF];
	unsigned int len;
	unsigned int off;
	unsigned int path_len;
	bool eof;
};

/**
 * struct varlink_walk - a walk in progress
 * @call: whom it walks for
 * @fs: the mount
 * @flags: VARLINK_WALK_*
 * @max_depth: the deepest level it goes to
 * @depth: the levels it is in; 0 once it is done
 * @dirs: directories it listed
 * @path: the path of the last entry given
 * @level: the directories it is in, from the one it started in
 */
struct varlink_walk {
	struct varlink_call *call;
	enum varlink_fs fs;
	unsigned int flags;
	unsigned int max_depth;
	unsigned int depth;
	unsigned int dirs;
	char path[VARLINK_WALK_PATH_MAX + 1];
	struct vl_walk_level level[];
};

struct walk_fill {
	struct dir_context ctx;
	struct vl_walk_level *l;
};

static bool walk_fill_one(struct dir_context *ctx, const char *name, int len,
			  loff_t pos, u64 ino, unsigned int d_type)
{
	struct vl_walk_level *l = container_of(ctx, struct walk_fill, ctx)->l;

	if (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.')))
		return true;
	if (len <= 0 || len > NAME_MAX)
		return true;
	/* full: iterate_dir() stops, and goes on from here next time */
	if (l->len + 2 + len > VL_WALK_BUF)
		return false;
	l->buf[l->len++] = d_type;
	l->buf[l->len++] = len;
	memcpy(l->buf + l->len, name, len);
	l->len += len;
	return true;
}

/* Read @l's next entries, as whoever opened its directory; a handler
 * that asks for a restart is tried again, as files.c's are.
 */
static int walk_fill(struct vl_walk_level *l)
{
	struct walk_fill f = { .ctx.actor = walk_fill_one, .l = l };
	loff_t pos = l->dir->f_pos;
	unsigned int restarts = 0;
	const struct cred *old;
	int err;

	old = override_creds(l->dir->f_cred);
	do {
		l->len = 0;
		l->off = 0;
		err = iterate_dir(l->dir, &f.ctx);
	} while (err && vl_file_restart(err, &restarts));
	revert_creds(old);
	l->eof = !err && l->dir->f_pos == pos;
	return vl_errno_user(err);
}

/* Open the directory of @w->path, @name in @parent's, as the walk does. */
static struct file *walk_open(struct varlink_walk *w, struct file *parent,
			      const char *name)
{
	struct path path;
	struct file *f;
	int err;

	if (!(w->flags & VARLINK_WALK_KERNEL))
		return varlink_file_open(w->call, w->fs, w->path,
					 O_RDONLY | O_DIRECTORY);
	err = vfs_path_lookup(parent->f_path.dentry, parent->f_path.mnt, name,
			      LOOKUP_NO_SYMLINKS | LOOKUP_DIRECTORY, &path);
	if (err)
		return ERR_PTR(err);
	f = dentry_open(&path, O_RDONLY | O_DIRECTORY | O_LARGEFILE,
			vl_files_kernel_cred());
	path_put(&path);
	return f;
}

/* Go into the directory @dir, of @w->path, as one level more. */
static void walk_push(struct varlink_walk *w, struct file *dir)
{
	struct vl_walk_level *l = &w->level[w->depth++];

	l->dir = dir;
	l->len = 0;
	l->off = 0;
	l->eof = false;
	l->path_len = strlen(w->path);
}

/**
 * varlink_walk_start() - start walking a directory tree for a caller
 * @call: the call
 * @fs: the internal mount
 * @dir: the directory to start in, its path relative to the mount's root,
 *	checked as varlink_file_open() checks a name
 * @max_depth: the deepest level to go to, 1 (@dir's own entries) to
 *	VARLINK_WALK_DEPTH_MAX
 * @flags: 0, or VARLINK_WALK_KERNEL: see the top of walk.c
 *
 * Context: process context, may sleep.
 * Return: the walk, or an ERR_PTR(): an error of varlink_file_open(),
 * -EINVAL for a @max_depth out of range, -ENOMEM.
 */
struct varlink_walk *varlink_walk_start(struct varlink_call *call,
					enum varlink_fs fs, const char *dir,
					unsigned int max_depth,
					unsigned int flags)
{
	struct varlink_walk *w;
	struct file *f;

	if (!max_depth || max_depth > VARLINK_WALK_DEPTH_MAX ||
	    strlen(dir) > VARLINK_WALK_PATH_MAX)
		return ERR_PTR(-EINVAL);
	w = kvzalloc(struct_size(w, level, max_depth), GFP_KERNEL_ACCOUNT);
	if (!w)
		return ERR_PTR(-ENOMEM);
	w->call = call;
	w->fs = fs;
	w->flags = flags;
	w->max_depth = max_depth;
	strscpy(w->path, dir, sizeof(w->path));
	f = varlink_file_open(call, fs, dir, O_RDONLY | O_DIRECTORY);
	if (IS_ERR(f)) {
		kvfree(w);
		return ERR_CAST(f);
	}
	walk_push(w, f);
	return w;
}
EXPORT_SYMBOL_GPL(varlink_walk_start);

/**
 * varlink_walk_next() - the next entry of a walk
 * @w: the walk
 * @e: filled with the entry, valid until the walk's next step
 *
 * The entries of the directory the walk is in, in the order the file
 * system lists them, but "." and ".."; at the end of one, those of its
 * parent, from where they were left.  A subdirectory is gone into only
 * with varlink_walk_enter().  Entries whose path would be longer than
 * VARLINK_WALK_PATH_MAX are left out.
 *
 * Context: process context, may sleep.
 * Return: 1 with @e filled; 0 at the end of the walk; a negative errno,
 * which ends it too (-E2BIG past a million directories).
 */
int varlink_walk_next(struct varlink_walk *w, struct varlink_walk_entry *e)
{
	struct vl_walk_level *l;
	unsigned int len;
	int err;

	while (w->depth) {
		l = &w->level[w->depth - 1];
		if (l->off == l->len && !l->eof) {
			if (++w->dirs > VL_WALK_DIRS_MAX)
				return -E2BIG;
			err = walk_fill(l);
			if (err)
				return err;
		}
		if (l->off == l->len) {
			fput(l->dir);
			w->depth--;
			continue;
		}
		e->type = (u8)l->buf[l->off];
		len = (u8)l->buf[l->off + 1];
		e->name = l->buf + l->off + 2;
		l->off += 2 + len;
		if (l->path_len + 1 + len > VARLINK_WALK_PATH_MAX)
			continue;
		w->path[l->path_len] = '/';
		memcpy(w->path + l->path_len + 1, e->name, len);
		w->path[l->path_len + 1 + len] = '\0';
		e->name = w->path + l->path_len + 1;
		e->path = w->path;
		e->depth = w->depth;
		e->dir = l->dir;
		return 1;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(varlink_walk_next);

/**
 * varlink_walk_enter() - go into the directory varlink_walk_next() gave
 * @w: the walk
 *
 * Its entries come next, then those of its parent after it.
 *
 * Context: process context, may sleep.
 * Return: the directory, open, valid until the walk leaves it (to read
 * its files in it); or an ERR_PTR(): -ELOOP past the walk's deepest
 * level, -ENOTDIR, or an error of the open (the walk goes on with the
 * entries after it).
 */
struct file *varlink_walk_enter(struct varlink_walk *w)
{
	struct vl_walk_level *l = &w->level[w->depth - 1];
	struct file *f;

	if (w->depth == w->max_depth)
		return ERR_PTR(-ELOOP);
	f = walk_open(w, l->dir, w->path + l->path_len + 1);
	if (!IS_ERR(f))
		walk_push(w, f);
	return f;
}
EXPORT_SYMBOL_GPL(varlink_walk_enter);

/**
 * varlink_walk_end() - end a walk
 * @w: the walk, or an ERR_PTR() or NULL
 */
void varlink_walk_end(struct varlink_walk *w)
{
	if (IS_ERR_OR_NULL(w))
		return;
	while (w->depth)
		fput(w->level[--w->depth].dir);
	kvfree(w);
}
EXPORT_SYMBOL_GPL(varlink_walk_end);
