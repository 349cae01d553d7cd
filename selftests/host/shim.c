// SPDX-License-Identifier: GPL-2.0
/* State behind the host shim (include/linux/bug.h and slab.h). */
int shim_warn_count;
int shim_fail_alloc;
