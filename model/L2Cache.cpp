// model/L2Cache.cpp
#include "L2Cache.h"

#include <algorithm>

namespace dv {

L2Cache::L2Cache(sc_core::sc_module_name name, const dv_config_t &cfg, Hbm &hbm)
    : sc_module(name), hbm_(hbm), line_(cfg.l2_line_bytes), ways_(cfg.l2_ways),
      sets_(cfg.l2_size_bytes ? cfg.l2_size_bytes / (cfg.l2_line_bytes * cfg.l2_ways) : 0)
{
    tag_.assign(sets_ * ways_, 0);
    stamp_.assign(sets_ * ways_, 0);
    dirty_.assign(sets_ * ways_, 0);
    cal_.configure(cfg.l2_bytes_per_cycle, cfg.sim_bandwidth_window_cycles);
}

bool L2Cache::touch(uint64_t line_addr, bool write, uint64_t &fill_bytes, uint64_t &wb_bytes)
{
    const uint64_t set = line_addr % sets_;
    uint64_t *tags = &tag_[set * ways_];
    uint32_t *st = &stamp_[set * ways_];
    uint8_t *dt = &dirty_[set * ways_];
    clock_++;
    uint64_t victim = 0;
    for (uint64_t w = 0; w < ways_; w++) {
        if (tags[w] == line_addr + 1) {
            st[w] = clock_;
            dt[w] |= write;
            hits++;
            return true;
        }
        if (tags[w] == 0 || (tags[victim] != 0 && st[w] < st[victim]))
            victim = w;
    }
    misses++;
    if (tags[victim] != 0 && dt[victim]) {
        writebacks++;
        wb_bytes += line_;
    }
    tags[victim] = line_addr + 1;
    st[victim] = clock_;
    dt[victim] = write;
    if (!write)
        fill_bytes += line_; // write-allocate without a fill: DMA writes whole bursts
    return false;
}

GmResult L2Cache::transfer(cycles_t t, const GmRuns &runs, bool write)
{
    GmResult r;
    uint64_t fill = 0, wb = 0, total = 0;
    if (sets_ == 0) {
        total = runs.count * runs.bytes;
        r.done = hbm_.transfer(t, total, write);
        r.miss = !write;
        return r;
    }
    for (uint64_t i = 0; i < runs.count; i++) {
        const uint64_t a = runs.offset(runs.ctx, i);
        const uint64_t first = a / line_, last = (a + runs.bytes - 1) / line_;
        for (uint64_t l = first; l <= last; l++)
            if (!touch(l, write, fill, wb))
                r.miss = r.miss || !write;
        total += runs.bytes;
    }
    cycles_t done = cal_.reserve(t, total);
    if (fill > 0)
        done = std::max(done, hbm_.transfer(t, fill, false));
    if (wb > 0)
        done = std::max(done, hbm_.transfer(t, wb, true));
    r.done = done;
    return r;
}

} // namespace dv
