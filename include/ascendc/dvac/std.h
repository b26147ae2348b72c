/* dvac/std.h - AscendC::Std, Ascend C's kernel-side subset of the C++ standard library: type traits,
 * tuple, utility and a few numeric helpers (asc-devkit include/utils/std/).  On the kernel side of a
 * g++ build the standard library is there, so most names are the std ones; the differences are CANN's:
 * is_floating_point counts half, is_integral counts an integral_constant, and the numeric helpers
 * (ceil_division, ceil_align, divide, min, max) take two types. */
#ifndef DVAC_STD_H
#define DVAC_STD_H

#include <cmath>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core.h"

namespace AscendC {
namespace Std {

/* ---- type traits ---- */
using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_function;
using std::is_function_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::true_type;

/* C++20's remove_cvref (the kernel side builds as C++17). */
template <typename T> struct remove_cvref {
    using type = std::remove_cv_t<std::remove_reference_t<T>>;
};
template <typename T> using remove_cvref_t = typename remove_cvref<T>::type;

/* float, double, long double and half (not bfloat16_t), whatever their cv-qualifiers. */
template <typename T> struct is_floating_point {
    static constexpr bool value = std::is_floating_point_v<T> || std::is_same_v<std::remove_cv_t<T>, half>;
};
template <typename T> constexpr bool is_floating_point_v = is_floating_point<T>::value;

/* The standard integral types, and an integral_constant of one. */
template <typename T> struct is_integral {
    static constexpr bool value = std::is_integral_v<T>;
};
template <typename T, T v> struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T> constexpr bool is_integral_v = is_integral<T>::value;

/* ---- tuple and utility ---- */
using std::declval;
using std::forward;
using std::get;
using std::ignore;
using std::index_sequence;
using std::index_sequence_for;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::make_tuple;
using std::move;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
using std::tuple_size_v;

/* ---- numbers ---- */
template <typename T, typename U> constexpr auto min(const T &a, const U &b) { return a < b ? a : b; }
template <typename T, typename U> constexpr auto max(const T &a, const U &b) { return a > b ? a : b; }
template <typename T, typename U> constexpr auto ceil_division(const T &a, const U &b) { return (a + b - 1) / b; }
template <typename T, typename U> constexpr auto ceil_align(const T &a, const U &b) { return ceil_division(a, b) * b; }
template <typename T, typename U> constexpr auto divide(const T &a, const U &b) { return a / b; }
template <typename T> inline T abs(const T v) { return v < T(0) ? T(-v) : v; }
template <typename T> inline T sqrt(const T v) { return T(std::sqrt((double)v)); }

} // namespace Std
} // namespace AscendC

#endif
