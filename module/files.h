/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel files, read and written as the caller: see files.c. */
#ifndef _VL_FILES_H
#define _VL_FILES_H

struct cred;

int vl_files_init(void);
void vl_files_exit(void);
const struct cred *vl_files_kernel_cred(void);
int vl_errno_user(int err);
void vl_kthread_unsignal(void);
bool vl_file_restart(long err, unsigned int *n);

#endif /* _VL_FILES_H */
