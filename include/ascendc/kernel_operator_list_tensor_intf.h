/* kernel_operator_list_tensor_intf.h - ListTensorDesc / TensorDesc (dvac/list_tensor.h), under the
 * name CANN's samples include. */
#ifndef DVSIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#define DVSIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H

#include "kernel_operator.h"

#endif
