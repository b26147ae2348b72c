/* utils/debug/asc_printf.h - kernel printf (CANN's header of that name): printf in a kernel prints
 * on the host when the block generates the call; AscendC::printf / PRINTF as well. */
#ifndef DVSIM_ASC_PRINTF_H
#define DVSIM_ASC_PRINTF_H

#include "../../kernel_operator.h"

#endif
