/* lib/matmul/std_layout.h - the small part of CANN's AscendC::Std and of its coordinate / layout helpers
 * that Matmul kernels use to place their blocks (asc-devkit include/utils/std/tuple.h,
 * impl/basic_api/kernel_operator_coord.h, kernel_operator_layout.h, impl/adv_api/detail/matmul/utils/
 * matmul_utils.h for Ceil):
 *
 *   AscendC::Std::tuple / get / make_tuple / forward / tuple_element / tuple_size   (the C++ standard's)
 *   AscendC::Coord<...>, Shape<...>, Stride<...>   (Std::tuple), MakeCoord, MakeShape, MakeStride
 *   AscendC::MakeLayout(shape, stride)(coord)      flat layouts only: sum of coord[i] * stride[i]
 *   AscendC::Ceil(a, b)                            (a + b - 1) / b
 *
 * Std's names are using-declarations of std's, so another header that declares them the same way does
 * not conflict.  Nested (hierarchical) shapes and the static Std::Int strides are not supported. */
#ifndef DVSIM_LIB_MATMUL_STD_LAYOUT_H
#define DVSIM_LIB_MATMUL_STD_LAYOUT_H

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../../dvac/xform_extra.h"

namespace AscendC {
namespace Std {
using std::forward;
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
} // namespace Std

/* Coord, Shape, Stride, MakeCoord / MakeShape / MakeStride, Layout and MakeLayout: dvac/xform_extra.h. */

/* Whole b-sized parts covering a. */
template <typename T> constexpr T Ceil(T num1, T num2) { return (num1 + num2 - 1) / num2; }

} // namespace AscendC

#endif
