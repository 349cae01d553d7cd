/* SPDX-License-Identifier: GPL-2.0 */
/* net/varlink/compat.h takes it from <asm/unaligned.h> before 6.12. */
#ifndef _KVARLINKCTL_ASM_UNALIGNED_H
#define _KVARLINKCTL_ASM_UNALIGNED_H

#include <asm-generic/unaligned.h>

#endif
