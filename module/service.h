/* SPDX-License-Identifier: GPL-2.0 */
/* org.varlink.service and org.kernel.varlink: see service.c. */
#ifndef _VL_SERVICE_H
#define _VL_SERVICE_H

int vl_service_init(void);
void vl_service_exit(void);

#endif /* _VL_SERVICE_H */
