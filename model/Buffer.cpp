// model/Buffer.cpp
#include "Buffer.h"

#include <cstdio>

namespace dv {

Buffer::Buffer(sc_core::sc_module_name name, dv_space_t space, uint64_t size_bytes, uint64_t align_bytes)
    : sc_module(name), space_(space), size_(size_bytes), align_(align_bytes)
{
}

void Buffer::begin_kernel(cycles_t origin, bool data)
{
    occ_.reset(origin);
    if (data)
        bytes_.assign(size_, 0);
    else
        std::vector<uint8_t>().swap(bytes_);
}

void Buffer::end_kernel(cycles_t total, dv_buf_counters_t &out)
{
    occ_.finish();
    out.capacity = size_;
    out.peak_bytes = occ_.peak_bytes();
    out.byte_cycles = occ_.byte_cycles();
    occ_.series(total, out.series, DV_OCC_SLICES);
}

const char *Buffer::check(uint64_t lo, uint64_t hi, char *why, size_t cap, uint64_t align) const
{
    if (!align)
        align = align_;
    if (hi > size_)
        std::snprintf(why, cap, "access past the end of %s: bytes [%llu, %llu) of %llu", dv_space_name(space_),
                      static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi),
                      static_cast<unsigned long long>(size_));
    else if (lo % align != 0)
        std::snprintf(why, cap, "%s address 0x%llx is not aligned to %llu bytes", dv_space_name(space_),
                      static_cast<unsigned long long>(lo), static_cast<unsigned long long>(align));
    else
        return nullptr;
    return why;
}

} // namespace dv
