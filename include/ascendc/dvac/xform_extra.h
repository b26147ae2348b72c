/* dvac/xform_extra.h - the layout descriptions CANN's TransData takes (asc-devkit
 * impl/basic_api/kernel_operator_layout.h: Shape, Stride, Layout, MakeShape, MakeStride, MakeLayout) and the
 * DataFormat enum (docs: GetTransDataMaxMinTmpSize / ShapeInfo).  A Shape and a Stride are tuples of their
 * extents; a Layout holds one of each, and a flat one maps a Coord to an offset (Matmul kernels place their
 * blocks so).  Included by adv/transform.h and lib/matmul/std_layout.h. */
#ifndef DVAC_XFORM_EXTRA_H
#define DVAC_XFORM_EXTRA_H

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {

/* The data formats TransData converts between: DataFormat (dvac/tensor.h). */

template <typename... Shapes> using Shape = std::tuple<Shapes...>;
template <typename... Strides> using Stride = std::tuple<Strides...>;

template <typename... Ts> using Coord = std::tuple<Ts...>;

template <typename... Ts> constexpr Coord<Ts...> MakeCoord(const Ts &...t) { return Coord<Ts...>(t...); }
template <typename... Ts> constexpr Shape<Ts...> MakeShape(const Ts &...t) { return Shape<Ts...>(t...); }
template <typename... Ts> constexpr Stride<Ts...> MakeStride(const Ts &...t) { return Stride<Ts...>(t...); }

/* A shape and a stride (an empty stride: the shape is dense, as TransData reads it). */
template <typename T, typename U> struct Layout {
    constexpr Layout(const T &shape = {}, const U &stride = {}) : shape_(shape), stride_(stride) {}
    constexpr const T &GetShape() const { return shape_; }
    constexpr const U &GetStride() const { return stride_; }
    template <size_t I> constexpr auto GetShape() const { return std::get<I>(shape_); }
    template <size_t I> constexpr auto GetStride() const { return std::get<I>(stride_); }
    /* A flat layout's offset of a coordinate: the sum of its components times the strides. */
    template <typename C> constexpr auto operator()(const C &coord) const
    {
        static_assert(std::tuple_size<C>::value == std::tuple_size<U>::value,
                      "Layout: the coordinate has as many components as the layout's strides");
        return dot(coord, std::make_index_sequence<std::tuple_size<U>::value>{});
    }

private:
    template <typename C, size_t... I> constexpr auto dot(const C &c, std::index_sequence<I...>) const
    {
        return ((std::get<I>(c) * std::get<I>(stride_)) + ...);
    }
    T shape_;
    U stride_;
};

template <typename T, typename U> constexpr auto MakeLayout(const T &shape, const U &stride)
{
    return Layout<T, U>(shape, stride);
}

template <typename T> struct is_layout : std::false_type {};
template <typename T, typename U> struct is_layout<Layout<T, U>> : std::true_type {};
template <typename T> constexpr bool is_layout_v = is_layout<T>::value;

} // namespace AscendC

#endif
