/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: everything is visible to the host tests. */
#ifndef _SHIM_KUNIT_VISIBILITY_H
#define _SHIM_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
