/* tiling/shape.h - ge::Shape and ge::DataType, the shape class and the element types CANN's host tiling
 * functions take (AscendC::TensorShape and AscendC::TensorDataType are the same): a Shape is an ordered
 * list of int64 dimensions.  Header-only; the advanced APIs' host functions
 * (adv/<area>_tiling.h) read shapes through it. */
#ifndef DVSIM_TILING_SHAPE_H
#define DVSIM_TILING_SHAPE_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ge {

/* GE's element types, with GE's values (the ones the host tiling functions take as TensorDataType). */
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29,
    DT_MAX = 40,
};

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t> &dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    /* The dimension at idx; 0 past the end, as CANN's does. */
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    /* Set the dimension at idx; refused (returns 1) past the end. */
    uint32_t SetDim(size_t idx, int64_t value)
    {
        if (idx >= dims_.size())
            return 1;
        dims_[idx] = value;
        return 0;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    /* The product of the dimensions: 0 for a shape without dimensions, as CANN's does. */
    int64_t GetShapeSize() const
    {
        if (dims_.empty())
            return 0;
        int64_t n = 1;
        for (int64_t d : dims_)
            n *= d;
        return n;
    }
    bool operator==(const Shape &o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape &o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

} // namespace ge

namespace AscendC {
using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;
}

#endif
