/* register/tilingdata_base.h - CANN's host-side tiling data classes:
 *
 *   BEGIN_TILING_DATA_DEF(MyTiling)
 *   TILING_DATA_FIELD_DEF(uint32_t, totalLength);
 *   TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, tileNum);
 *   TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
 *   END_TILING_DATA_DEF;
 *   REGISTER_TILING_DATA_CLASS(MyOp, MyTiling)
 *
 * makes a class with set_<field> / get_<field>, GetDataSize() and SaveToBuffer(buf, cap).  Its bytes are
 * the fields in declaration order at their natural alignment, as a plain struct of the same fields
 * lays them out: what a kernel reads back (GET_TILING_DATA, or its own struct and a copy). */
#ifndef DVSIM_REGISTER_TILINGDATA_BASE_H
#define DVSIM_REGISTER_TILINGDATA_BASE_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../securec.h" /* CANN's tilingdata_base.h brings securec (memcpy_s), which its samples call */

#define BEGIN_TILING_DATA_DEF(class_name)                                                                           \
    class class_name {                                                                                               \
    public:                                                                                                          \
        size_t GetDataSize() const { return sizeof(*this); }                                                         \
        void SaveToBuffer(void *buf, size_t cap) const                                                               \
        {                                                                                                            \
            std::memcpy(buf, static_cast<const void *>(this), cap < sizeof(*this) ? cap : sizeof(*this));            \
        }

#define TILING_DATA_FIELD_DEF(type, field)                                                                          \
    type field = type();                                                                                             \
    void set_##field(type v) { field = v; }                                                                          \
    type get_##field() const { return field; }

#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                                               \
    type field[count] = {};                                                                                          \
    void set_##field(const type *v) { std::memcpy(field, v, sizeof field); }                                        \
    const type *get_##field() const { return field; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field) struct_type field;

#define END_TILING_DATA_DEF }

/* CANN registers the class with the operator's name for its op compiler; here nothing needs it. */
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)

#endif
