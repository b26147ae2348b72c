// model/Buffer.cpp
#include "Buffer.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace dv {

Buffer::Buffer(sc_core::sc_module_name name, dv_space_t space, uint64_t size_bytes, uint64_t align_bytes)
    : sc_module(name), space_(space), size_(size_bytes), align_(align_bytes)
{
}

Buffer::~Buffer()
{
    if (bytes_)
        munmap(bytes_, size_);
}

void Buffer::begin_kernel(cycles_t origin, bool data, bool series)
{
    occ_.reset(origin, series);
    if (data && bytes_) {
        // the previous kernel's bytes go back to the host: the next touch of a page reads zeros
        if (madvise(bytes_, size_, MADV_DONTNEED) != 0)
            std::memset(bytes_, 0, size_);
    } else if (data) {
        void *p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        bytes_ = static_cast<uint8_t *>(p);
    } else if (bytes_) {
        munmap(bytes_, size_);
        bytes_ = nullptr;
    }
}

void Buffer::end_kernel(cycles_t total, dv_buf_counters_t &out)
{
    occ_.finish();
    out.capacity = size_;
    out.peak_bytes = occ_.peak_bytes();
    out.byte_cycles = occ_.byte_cycles();
    occ_.series(total, out.series, DV_OCC_SLICES);
}

const char *Buffer::why_not(uint64_t lo, uint64_t hi, char *why, size_t cap, uint64_t align) const
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
