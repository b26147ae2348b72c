// model/BandwidthCalendar.h - a shared bandwidth resource as a calendar of time bins.
//
// Each bin of `window` cycles carries at most bytes_per_cycle * window bytes.  A transfer reserves
// its bytes bin by bin from its start time.  Sharing is fair: in every bin a requester takes at
// most capacity / max(1, A x U), where A is the number of requesters active in the bins around its
// start or in the last bins before the global time (which every core has reserved in: a core that
// has not yet taken its turn in this quantum still counts) and U the fraction of the bins around
// its start in use (processor sharing among the requesters that actually contend).  Until the
// global time reaches a kernel's first reservation, each takes at most capacity / (the kernel's
// cores): all start together.  So the outcome barely depends on the order in which cores - which
// run ahead of each other by up to the quantum - happen to make their reservations, and cores
// that run the same program stay in step.  consume() takes capacity for no requester (capacity
// the resource loses).  Bins before the global time are retired, so memory stays bounded.
#pragma once
#include <cstdint>
#include <vector>

#include "Cycles.h"

namespace dv {

class BandwidthCalendar {
public:
    void configure(uint64_t bytes_per_cycle, uint64_t window);
    // Reserve `bytes` for `requester` (a core index) starting at cycle t; returns the cycle the
    // last byte is through.
    cycles_t reserve(cycles_t t, uint64_t bytes, unsigned requester);
    // Take `bytes` of capacity from cycle t on for no requester in particular (capacity the
    // resource loses, which every requester then waits for): no share limit, no requester marked.
    void consume(cycles_t t, uint64_t bytes);
    // Forget bins that end before cycle t (no reservation will start earlier).
    void retire(cycles_t t);
    void reset();
    // A kernel starts with `contenders` cores.  Until the global time reaches the bin of its first
    // reservation, the calendar has no history of the kernel's demand, and the cores that take
    // their turn later in a quantum have not reserved yet: each reservation then takes at most
    // capacity / contenders per bin, as all the kernel's cores start together (no limit for one).
    void start(unsigned contenders);
    // Tests: take the paths every CPU and every capacity can take (no popcnt, products in 128
    // bits, the bins before the global time by scan and worked out at every reservation, the share
    // always worked out from the requesters) from now on; the results are the same.
    void general_paths() { popcnt_ = small_ = unrolled_ = past_now_ = bound_ = false; }

private:
    // reserve's body; Popcnt: compiled for (and run on) a CPU with the popcnt instruction, which
    // counts share_near's requesters in two instructions instead of a bit-parallel sum.
    template <bool Popcnt>
    cycles_t reserve_as(cycles_t t, uint64_t bytes, unsigned requester);
    cycles_t reserve_popcnt(cycles_t t, uint64_t bytes, unsigned requester);
    cycles_t reserve_plain(cycles_t t, uint64_t bytes, unsigned requester);
    // 32 bytes, requesters on a 16-byte boundary: scan() reads a bin with one add and one or.
    struct alignas(16) Bin {
        uint64_t used = 0; // bytes reserved, at most cap_
        // A full bin (used == cap_): when nonzero, this bin and the full_run - 1 after it are all
        // full.  A bin fills only until it is retired, so this stays true while the bin is live;
        // reserve() follows it past the bins that have nothing left to give.
        uint64_t full_run = 0;
        uint64_t who[2] = {0, 0}; // requesters seen in this bin (index mod 128)
    };
    Bin &bin_at(uint64_t bin);
    void grow(uint64_t bin);
    void scan(uint64_t lo, uint64_t hi, uint64_t w[2], uint64_t *used) const;
    template <unsigned N, bool Used, bool Who = true>
    static void scan_fixed(const Bin *b, uint64_t w[2], uint64_t *used);
    // The share of a reservation of `bytes` starting in bin, time_room bytes before its first bin
    // ends (at least 1: a bin holds cap_ >= 1 bytes); or 0 when the first bin takes them all with
    // the share (it has room, and the share is proven to be at least bytes without counting the
    // requesters).
    template <bool Popcnt>
    uint64_t share_near(uint64_t bin, unsigned requester, uint64_t bytes, uint64_t time_room);
    static constexpr uint64_t near_ = 16; // bins either side that count as "active around"
    static_assert(near_ % 2 == 0, "scan_fixed takes two bins a step");
    uint64_t bpc_ = 1, window_ = 64, cap_ = 64;
    // cap_ <= kSmallCap: share_near's products (at most 128 requesters x 2 near_ bins x cap_, and
    // cap_ x 2 near_ x cap_) fit in 64 bits
    static constexpr uint64_t kSmallCap = 1ull << 25;
    bool small_ = true;
    bool popcnt_ = false; // the CPU has popcnt: reserve runs reserve_popcnt
    bool unrolled_ = true; // share_near may read the near_ bins before the global time by scan_fixed
    // Bins base_ .. base_ + count_ - 1 live in a power-of-two ring, bin b at ring_[b & mask_].
    Bin &slot(uint64_t bin) { return ring_[bin & mask_]; }
    uint64_t base_ = 0, count_ = 0, mask_ = 0, size_ = 0; // size_: ring_.size() (mask_ + 1)
    uint64_t now_ = 0; // the global time's bin (retire): bins before it are complete
    // share_near: the requesters seen in the live bins [past_lo_, past_hi_) before the global time
    uint64_t past_lo_ = 0, past_hi_ = 0, past_w_[2] = {0, 0};
    // [past_lo_, past_hi_) end at the global time and stay the kept bins for every bin asked about
    // from now_ on, until retire() or reset() (never on the general paths)
    bool past_now_ = false;
    // Every requester that has reserved since reset() (index mod 128) and how many they are: no
    // more are active around any bin, which bounds the share from below without reading who.
    uint64_t seen_[2] = {0, 0}, seen_count_ = 0;
    // share_near may take that bound (small_, not general_paths()); cap_squared_ = cap_ x cap_
    bool bound_ = true;
    uint64_t cap_squared_ = 64 * 64;
    uint64_t start_bin_ = 0, contenders_ = 1;
    // kStarting: start() with more than one core, the next reservation sets start_bin_; kThrottled:
    // a kernel of contenders_ cores started at start_bin_ and the global time has not passed it (once
    // it has, it never returns there: the state falls back to kFree)
    enum Throttle : uint8_t { kFree, kStarting, kThrottled };
    Throttle throttle_ = kFree;
    std::vector<Bin> ring_;
};

} // namespace dv
