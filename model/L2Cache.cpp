// model/L2Cache.cpp
#include "L2Cache.h"

#include <algorithm>

namespace dv {

L2Cache::Params L2Cache::Params::from(const dv_config_t &cfg)
{
    return Params{cfg.l2_size_bytes,         cfg.l2_line_bytes,      cfg.l2_ways, cfg.l2_write_through,
                  cfg.l2_bytes_per_cycle, cfg.sim_bandwidth_window_cycles};
}

L2Cache::L2Cache(sc_core::sc_module_name name, const Params &p)
    : sc_module(name), line_(p.line_bytes), ways_(p.ways), write_through_(p.write_through),
      sets_(p.size_bytes ? p.size_bytes / (p.line_bytes * p.ways) : 0)
{
    tag_.assign(sets_ * ways_, 0);
    mru_.assign(sets_, 0);
    dirty_.assign(sets_, 0);
    all_ways_ = ways_ >= 64 ? ~0ull : (1ull << ways_) - 1;
    cal_.configure(p.bytes_per_cycle, p.window_cycles);
}

uint64_t L2Cache::set_of(uint64_t line_addr) const
{
    // Consecutive lines fill consecutive sets, as line mod sets would, but each run of `sets` lines
    // (size / ways bytes) starts at a set given by a hash of the run's number (a 64-bit finaliser,
    // as splitmix64's): a strided stream - a column slice of a row-major matrix touches a few lines
    // every row pitch - then spreads over all sets, as over the hardware's hashed L2 sets and
    // slices, instead of repeating one pattern of a fraction of them.
    uint64_t h = line_addr / sets_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (line_addr % sets_ + h % sets_) % sets_;
}

bool L2Cache::touch(uint64_t line_addr, uint64_t set, bool write, uint64_t &fill_bytes, uint64_t &wb_bytes)
{
    const uint64_t tag = line_addr + 1;
    const uint64_t *tags = &tag_[set * ways_];
    uint64_t &mru = mru_[set], &dirty = dirty_[set];
    uint64_t w = 0;
    while (w < ways_ && tags[w] != tag)
        w++;
    const bool hit = w < ways_;
    if (hit) {
        hits++;
    } else {
        w = static_cast<uint64_t>(__builtin_ctzll(~mru & all_ways_)); // a clear bit always exists
        misses++;
        if (tags[w] != 0 && (dirty >> w & 1)) {
            writebacks++;
            wb_bytes += line_;
        }
        tag_[set * ways_ + w] = tag;
        dirty &= ~(1ull << w);
        if (!write)
            fill_bytes += line_; // write-allocate without a fill: DMA writes whole bursts
    }
    if (write && !write_through_)
        dirty |= 1ull << w;
    mru |= 1ull << w;
    if ((mru & all_ways_) == all_ways_)
        mru = 1ull << w;
    return hit;
}

GmResult L2Cache::transfer(cycles_t t, const GmRuns &runs, bool write, unsigned requester)
{
    GmResult r;
    uint64_t fill = 0, wb = 0, total = 0;
    if (sets_ == 0) {
        total = runs.count * runs.bytes;
        r.done = hbm->transfer(t, total, write, requester);
        r.miss = !write;
        r.hbm = true;
        return r;
    }
    for (uint64_t i = 0; i < runs.count; i++) {
        const uint64_t a = runs.offset(runs.ctx, i);
        const uint64_t first = a / line_, last = (a + runs.bytes - 1) / line_;
        for (uint64_t l = first; l <= last; l++)
            if (!touch(l, set_of(l), write, fill, wb))
                r.miss = r.miss || !write;
        total += runs.bytes;
    }
    const cycles_t l2_done = cal_.reserve(t, total, requester);
    cycles_t hbm_done = 0;
    if (fill > 0)
        hbm_done = hbm->transfer(t, fill, false, requester);
    if (write && write_through_)
        wb += total; // the written bytes themselves go on to HBM now
    if (wb > 0)
        hbm_done = std::max(hbm_done, hbm->transfer(t, wb, true, requester));
    r.done = std::max(l2_done, hbm_done);
    r.hbm = hbm_done > l2_done;
    return r;
}

} // namespace dv
