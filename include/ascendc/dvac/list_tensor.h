/* dvac/list_tensor.h - ListTensorDesc and TensorDesc: a kernel argument that describes a list of GM
 * tensors (operators with a dynamic number of inputs).  The descriptor is in GM, 8-byte words:
 *   word 0                 the byte offset from the descriptor to its data-pointer array
 *   then per tensor        a word (dim in the low 32 bits, index in the high 32) and dim shape words
 *                          (dim 0: one word 0xffffffff and no shape)
 *   at the offset          one data pointer per tensor
 * (asc-devkit docs "ListTensorDesc" and impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h).
 * Every word is read by the scalar unit (ld_gm), as the hardware reads it. */
#ifndef DVAC_LIST_TENSOR_H
#define DVAC_LIST_TENSOR_H

#include <vector>

#include "tensor.h"

namespace dvac {
/* One 8-byte word of the descriptor, read by the scalar unit. */
inline uint64_t list_word(__gm__ uint64_t *head, uint64_t idx, const Loc &loc)
{
    AscendC::GlobalTensor<uint32_t> w;
    w.SetGlobalBuffer((__gm__ uint32_t *)(head + idx));
    const uint64_t lo = w.GetValue(0, loc), hi = w.GetValue(1, loc);
    return lo | hi << 32;
}
} // namespace dvac

namespace AscendC {

class ListTensorDesc;

template <class T> class TensorDesc {
public:
    TensorDesc() {}
    void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (offset >= dim_)
            dvac::fail_at(loc, "TensorDesc::GetShape", "dimension %u of a %u-dimensional tensor", offset, dim_);
        if (!shape_)
            dvac::fail_at(loc, "TensorDesc::GetShape", "SetShapeAddr was not called");
        return shape_[offset];
    }
    __gm__ T *GetDataPtr() { return ptr_; }
    GlobalTensor<T> GetDataObj(const dvac::Loc &loc = dvac::Loc::here())
    {
        uint64_t n = 1;
        for (uint32_t i = 0; i < dim_; i++)
            n *= GetShape(i, loc);
        GlobalTensor<T> g;
        g.SetGlobalBuffer(ptr_, n);
        return g;
    }
    friend class ListTensorDesc;

private:
    uint32_t dim_ = 0, index_ = 0;
    uint64_t *shape_ = nullptr;
    __gm__ T *ptr_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() {}
    ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                   const dvac::Loc &loc = dvac::Loc::here())
    {
        Init(data, length, shapeSize, loc);
    }
    void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
              const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "ListTensorDesc";
        if (!data)
            dvac::fail_at(loc, api, "the descriptor is NULL");
        head_ = (__gm__ uint64_t *)data;
        const uint64_t off = dvac::list_word(head_, 0, loc);
        const uint64_t first = dvac::list_word(head_, 1, loc);
        dim_ = (uint32_t)first;
        words_ = dim_ == 0 ? 2 : 1 + dim_;
        if (off % 8 || off < 8 + 8 * words_)
            dvac::fail_at(loc, api, "the data pointers' offset %llu is not a multiple of 8 past one description",
                          (unsigned long long)off);
        ptrs_ = off / 8;
        const uint32_t idx = (uint32_t)(first >> 32);
        /* the count: the first index when set, else one more than the last description's index */
        count_ = idx ? idx : (uint32_t)(dvac::list_word(head_, ptrs_ - words_, loc) >> 32) + 1;
        if (dim_ != 0 ? count_ != (off - 8) / (8 * words_) : off != 24)
            dvac::fail_at(loc, api, "%u tensors of %u dimensions do not fill the %llu bytes before the data pointers",
                          count_, dim_, (unsigned long long)off);
        if (length != 0xffffffff && shapeSize != 0xffffffff && (count_ != shapeSize || length != off + 8 * count_))
            dvac::fail_at(loc, api, "length %u and shapeSize %u disagree with the descriptor (%u tensors, %llu bytes)",
                          length, shapeSize, count_, (unsigned long long)(off + 8 * count_));
    }
    template <class T> void GetDesc(TensorDesc<T> &desc, uint32_t index, const dvac::Loc &loc = dvac::Loc::here())
    {
        check(index, loc, "ListTensorDesc::GetDesc");
        const uint64_t at = 1 + (uint64_t)index * words_;
        const uint64_t w = dvac::list_word(head_, at, loc);
        desc.dim_ = (uint32_t)w;
        desc.index_ = (uint32_t)(w >> 32);
        if (desc.shape_)
            for (uint32_t i = 0; i < desc.dim_; i++)
                desc.shape_[i] = dvac::list_word(head_, at + 1 + i, loc);
        desc.ptr_ = GetDataPtr<T>(index, loc);
    }
    template <class T> __gm__ T *GetDataPtr(uint32_t index, const dvac::Loc &loc = dvac::Loc::here())
    {
        check(index, loc, "ListTensorDesc::GetDataPtr");
        return (__gm__ T *)(uintptr_t)dvac::list_word(head_, ptrs_ + index, loc);
    }
    uint32_t GetSize() { return count_; }

private:
    void check(uint32_t index, const dvac::Loc &loc, const char *api) const
    {
        if (!head_)
            dvac::fail_at(loc, api, "Init was not called");
        if (index >= count_)
            dvac::fail_at(loc, api, "tensor %u of %u", index, count_);
    }
    __gm__ uint64_t *head_ = nullptr;
    uint64_t ptrs_ = 0;
    uint32_t dim_ = 0, words_ = 0, count_ = 0;
};

} // namespace AscendC

#endif
