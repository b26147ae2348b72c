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

namespace AscendC {
namespace Std {
using std::forward;
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
} // namespace Std

template <typename... Ts> using Coord = Std::tuple<Ts...>;
template <typename... Ts> using Shape = Std::tuple<Ts...>;
template <typename... Ts> using Stride = Std::tuple<Ts...>;

template <typename... Ts> constexpr Coord<Ts...> MakeCoord(const Ts &...t) { return Coord<Ts...>(t...); }
template <typename... Ts> constexpr Shape<Ts...> MakeShape(const Ts &...t) { return Shape<Ts...>(t...); }
template <typename... Ts> constexpr Stride<Ts...> MakeStride(const Ts &...t) { return Stride<Ts...>(t...); }

/* A flat layout: the offset of a coordinate is the sum of its components times the strides. */
template <typename ShapeT, typename StrideT> class Layout {
public:
    constexpr Layout(const ShapeT &shape, const StrideT &stride) : shape_(shape), stride_(stride) {}
    constexpr const ShapeT &GetShape() const { return shape_; }
    constexpr const StrideT &GetStride() const { return stride_; }
    template <typename CoordT> constexpr auto operator()(const CoordT &coord) const
    {
        static_assert(std::tuple_size<CoordT>::value == std::tuple_size<StrideT>::value,
                      "Layout: the coordinate has as many components as the layout's strides");
        return dot(coord, std::make_index_sequence<std::tuple_size<StrideT>::value>{});
    }

private:
    template <typename CoordT, size_t... I> constexpr auto dot(const CoordT &c, std::index_sequence<I...>) const
    {
        return ((std::get<I>(c) * std::get<I>(stride_)) + ...);
    }
    ShapeT shape_;
    StrideT stride_;
};

template <typename T, typename U> constexpr auto MakeLayout(const T &shape, const U &stride)
{
    return Layout<T, U>(shape, stride);
}

/* Whole b-sized parts covering a. */
template <typename T> constexpr T Ceil(T num1, T num2) { return (num1 + num2 - 1) / num2; }

} // namespace AscendC

#endif
