// model/Occupancy.h - occupancy of one local buffer: bytes holding data that is still to be read.
//
// A byte is occupied from the start of the instruction that writes it until the completion of the
// last instruction that reads it before it is written again; data that is never read does not
// count.  Each such interval [write start, last read end) is known once the bytes are written
// again (or the run ends); the intervals' endpoints are kept in time order and swept to give the
// exact peak and the exact time integral.
//
// Memory stays bounded: endpoints before the oldest write whose data may still be read are final
// and are folded into the running level.  Should more than kMaxEvents endpoints wait behind data
// that stays unread for very long, the oldest half is folded anyway, counting that data as
// occupied up to the fold (an upper bound); `folded_early` says whether that happened.
#pragma once
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "Cycles.h"

namespace dv {

class Occupancy {
public:
    static constexpr size_t kMaxEvents = 1 << 16;

    void reset(cycles_t origin);
    void write(uint64_t lo, uint64_t hi, cycles_t t);
    void read(uint64_t lo, uint64_t hi, cycles_t t);
    // Close every open range at the end of the run and compute the figures.
    void finish();
    uint64_t peak_bytes() const { return peak_; }
    double byte_cycles() const { return byte_cycles_; }
    bool folded_early() const { return folded_early_; }

private:
    struct Seg {
        uint64_t hi;
        cycles_t w, r;
        bool read;
    };
    void split(uint64_t at);
    void close(uint64_t lo, const Seg &s);
    void fold(cycles_t upto);
    void compact();

    std::map<uint64_t, Seg> segs_;         // open ranges by start address
    // Endpoints of closed intervals (+bytes at the start, -bytes at the end), appended unsorted and
    // sorted when folded; every endpoint is at or after the last fold.
    std::vector<std::pair<cycles_t, int64_t>> events_;
    int64_t level_ = 0;                    // occupancy at the last fold
    uint64_t writes_ = 0;                  // compaction runs every 256 writes
    uint64_t peak_ = 0;
    double byte_cycles_ = 0;
    bool folded_early_ = false;
};

} // namespace dv
