// model/Buffer.cpp
#include "Buffer.h"

#include <cstdio>

namespace dv {

uint64_t Buffer::profile_size(const dv_config_t &cfg, dv_space_t space)
{
    switch (space) {
    case DV_SPACE_UB: return cfg.ub_size_bytes;
    case DV_SPACE_L1: return cfg.l1_size_bytes;
    case DV_SPACE_L0A: return cfg.l0a_size_bytes;
    case DV_SPACE_L0B: return cfg.l0b_size_bytes;
    case DV_SPACE_L0C: return cfg.l0c_size_bytes;
    case DV_SPACE_BT: return cfg.bt_size_bytes;
    case DV_SPACE_FB: return cfg.fb_size_bytes;
    default: return 0;
    }
}

uint64_t Buffer::profile_align(const dv_config_t &cfg, dv_space_t space)
{
    switch (space) {
    case DV_SPACE_UB: return cfg.ub_align_bytes;
    case DV_SPACE_L1: return cfg.l1_align_bytes;
    case DV_SPACE_L0A: return cfg.l0a_align_bytes;
    case DV_SPACE_L0B: return cfg.l0b_align_bytes;
    case DV_SPACE_L0C: return cfg.l0c_align_bytes;
    case DV_SPACE_BT: return cfg.bt_align_bytes;
    case DV_SPACE_FB: return cfg.fb_align_bytes;
    default: return 1;
    }
}

Buffer::Buffer(sc_core::sc_module_name name, dv_space_t space, const dv_config_t &cfg)
    : sc_module(name), space_(space), size_(profile_size(cfg, space)), align_(profile_align(cfg, space))
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

void Buffer::end_kernel(dv_buf_counters_t &out)
{
    occ_.finish();
    out.capacity = size_;
    out.peak_bytes = occ_.peak_bytes();
    out.byte_cycles = occ_.byte_cycles();
}

const char *Buffer::check(uint64_t lo, uint64_t hi, char *why, size_t cap) const
{
    if (hi > size_)
        std::snprintf(why, cap, "access past the end of %s: bytes [%llu, %llu) of %llu", dv_space_name(space_),
                      static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi),
                      static_cast<unsigned long long>(size_));
    else if (lo % align_ != 0)
        std::snprintf(why, cap, "%s address 0x%llx is not aligned to %llu bytes", dv_space_name(space_),
                      static_cast<unsigned long long>(lo), static_cast<unsigned long long>(align_));
    else
        return nullptr;
    return why;
}

} // namespace dv
