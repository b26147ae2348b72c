// model/VectorUnit.cpp
#include "VectorUnit.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <vector>

#include "dv/intmath.h"

namespace dv {

VectorUnit::Params VectorUnit::Params::from(const dv_config_t &cfg)
{
    Params p{};
    p.repeat_bytes = cfg.vector_repeat_bytes;
    p.pipeline_cycles = cfg.vector_pipeline_cycles;
    int i = 0;
#define DV_VCOST(id, nm, d) \
    p.rate[i++] = Rate{{cfg.vc_##id##_b16_bpc, cfg.vc_##id##_b32_bpc}, {cfg.vc_##id##_b16_lat, cfg.vc_##id##_b32_lat}};
#include "isa.def"
    (void)i;
    p.ub_banks = cfg.ub_banks;
    p.ub_bank_groups = cfg.ub_bank_groups;
    return p;
}

VectorUnit::VectorUnit(sc_core::sc_module_name name, const Params &p)
    : sc_module(name), repeat_bytes_(p.repeat_bytes), pipeline_(p.pipeline_cycles), banks_(p.ub_banks),
      groups_(p.ub_bank_groups)
{
    std::copy(std::begin(p.rate), std::end(p.rate), std::begin(rate_));
}

// The index of each opcode's dtype field (-1: it has none), looked up by name once for all cores.
const int *VectorUnit::dtype_fields()
{
    static const std::array<int, DV_OP_COUNT> fields = [] {
        std::array<int, DV_OP_COUNT> f{};
        for (int op = 0; op < DV_OP_COUNT; op++)
            f[op] = dv_field_index(static_cast<dv_op_t>(op), "dtype");
        return f;
    }();
    return fields.data();
}

unsigned VectorUnit::op_width(const dv_insn_t &in) const
{
    const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
    switch (os->form) {
    case DV_FORM_VCONV:
        return std::max(dv_dtype_size(static_cast<dv_dtype_t>(in.f[DV_FLD(VCONV, dst_type)].i)),
                        dv_dtype_size(static_cast<dv_dtype_t>(in.f[DV_FLD(VCONV, src_type)].i)));
    case DV_FORM_FIXPIPE:
        return 4; // L0C holds 32-bit accumulators
    default:
        return dtype_field_[in.op] < 0 ? 2 : dv_dtype_size(static_cast<dv_dtype_t>(in.f[dtype_field_[in.op]].i));
    }
}

Cost VectorUnit::cost(const dv_insn_t &in, const dv_vgeom_t &g)
{
    const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
    const Rate &r = rate_[os->cost - DV_COST_V_ADD];
    const int w = op_width(in) == 4 ? 1 : 0;
    Cost c;
    c.conflict = conflicts(g);
    c.occupy = dv_ceil_div(static_cast<uint64_t>(g.repeats) * repeat_bytes_, r.bpc[w]) + c.conflict;
    c.latency = r.lat[w] + pipeline_;
    return c;
}

cycles_t VectorUnit::conflicts(const dv_vgeom_t &g)
{
    if (g.nops == 0 || g.repeats == 0)
        return 0;
    for (const Seen &m : seen_)
        if (m.valid && same_layout(m.g, g))
            return m.value;
    Seen &m = seen_[seen_next_++ & 1];
    m.g = g;
    m.value = conflicts_keyed(g);
    m.valid = true;
    return m.value;
}

// The memos' way: the layout's offsets modulo the bank pattern's span, then the exact key.
cycles_t VectorUnit::conflicts_keyed(const dv_vgeom_t &g)
{
    const uint64_t span = banks_ * 32; // bank pattern repeats every span bytes
    uint64_t key[kKey] = {};
    for (int k = 0; k < g.nops; k++) {
        key[3 * k] = (g.ops[k].base % span) | (uint64_t)g.ops[k].write << 63;
        key[3 * k + 1] = g.ops[k].blk_stride % span | g.ops[k].blk_bytes << 32;
        key[3 * k + 2] = g.ops[k].rep_stride % span;
    }
    key[12] = g.repeats;
    key[13] = static_cast<uint64_t>(g.nops);
    for (auto &m : memo_)
        if (m.valid && std::memcmp(m.key, key, sizeof key) == 0)
            return m.value;
    // The core's memo missed: the count may have been made already, by any core of any chip of this
    // thread (cores run the same layouts), in the shared memo under the exact key.
    Exact x;
    exact_key(g, key, x.key);
    for (const Exact &e : shared_)
        if (e.valid && std::memcmp(e.key, x.key, sizeof x.key) == 0)
            return remember(key, e.value);
    x.value = count(g);
    x.valid = true;
    shared_[shared_next_++ % kShared] = x;
    return remember(key, x.value);
}

// The key under which conflicts() is exact: the core's memo key (offsets modulo the bank span),
// whether each operand's datablocks are a row or more apart (which the offsets modulo the span
// do not tell), and the bank geometry.
void VectorUnit::exact_key(const dv_vgeom_t &g, const uint64_t (&key)[kKey], uint64_t (&out)[kExactKey]) const
{
    std::memcpy(out, key, sizeof key);
    uint64_t distinct = 0;
    for (int k = 0; k < g.nops; k++)
        distinct |= static_cast<uint64_t>(g.ops[k].blk_stride >= 32) << k;
    out[kKey] = distinct;
    out[kKey + 1] = banks_;
    out[kKey + 2] = groups_;
}

// The core's memo keeps `value` under `key`, replacing its oldest entry.
cycles_t VectorUnit::remember(const uint64_t (&key)[kKey], cycles_t value)
{
    Memo &m = memo_[memo_next_++ % 8];
    std::memcpy(m.key, key, sizeof key);
    m.value = value;
    m.valid = true;
    return value;
}

thread_local VectorUnit::Exact VectorUnit::shared_[VectorUnit::kShared];
thread_local unsigned VectorUnit::shared_next_ = 0;

cycles_t VectorUnit::count(const dv_vgeom_t &g)
{
    // The layout of repeat r repeats with period `banks` repeats (strides are whole rows).
    const uint64_t period = std::min<uint64_t>(g.repeats, banks_);
    rd_.resize(groups_);
    wr_.resize(groups_);
    rbank_.resize(banks_);
    cycles_t per_period = 0, partial = 0;
    const uint64_t rem = g.repeats % banks_;
    for (uint64_t r = 0; r < period; r++) {
        std::fill(rd_.begin(), rd_.end(), 0);
        std::fill(wr_.begin(), wr_.end(), 0);
        std::fill(rbank_.begin(), rbank_.end(), 0);
        uint32_t rmax = 0, wmax = 0;
        bool rw = false;
        for (int pass = 0; pass < 2; pass++) // reads first, so writes can see the banks read
            for (int k = 0; k < g.nops; k++) {
                const dv_vop_t &op = g.ops[k];
                if (op.write != (pass == 1) || (op.blk_stride == 0 && op.blk_bytes < 32))
                    continue; // a mask chunk or reduction result: one partial row, not a datablock stream
                // Datablocks a row or more apart are in distinct rows; narrower strides may share one.
                const bool distinct = op.blk_stride >= 32;
                uint64_t rows[8];
                for (uint64_t b = 0; b < 8; b++) {
                    const uint64_t row = (op.base + r * op.rep_stride + b * op.blk_stride) / 32;
                    rows[b] = row;
                    bool seen = false; // narrow datablocks share a row: one access serves both
                    if (!distinct)
                        for (uint64_t j = 0; j < b && !seen; j++)
                            seen = rows[j] == row;
                    if (seen)
                        continue;
                    const uint64_t bank = row % banks_, grp = bank % groups_;
                    if (op.write) {
                        wmax = std::max(wmax, ++wr_[grp]);
                        rw = rw || rbank_[bank];
                    } else {
                        rmax = std::max(rmax, ++rd_[grp]);
                        rbank_[bank] = 1;
                    }
                }
            }
        const cycles_t need = std::max<cycles_t>({rmax, wmax, 1}) + (rw ? 1 : 0);
        per_period += need - 1;
        if (r < rem)
            partial += need - 1;
    }
    return g.repeats <= banks_ ? per_period : (g.repeats / banks_) * per_period + partial;
}

} // namespace dv
