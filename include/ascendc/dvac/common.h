/* dvac/common.h - Ascend C's common kernel APIs that are built from the others: InitOutput, the
 * deterministic block order (InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock), the
 * group barrier (GroupBarrier) and the SuperKernel task order (WaitPreTaskEnd /
 * SetNextTaskStart).  Each emits what CANN's dav-2201 implementation emits (docs/ASCENDC.md, "Core
 * API", names the asc-devkit files); the waits poll GM in simulated time, as IBWait does, so the
 * block waited for must run on another core. */
#ifndef DVAC_COMMON_H
#define DVAC_COMMON_H

#include "block_sync.h"
#include "norm_extra.h"
#include "vec.h"

namespace AscendC {

/* Fill size elements of GM with value: Duplicate into the stack buffer, then DataCopyPad out in bursts
 * of at most 255 datablocks (CANN marks it deprecated in favour of Fill). */
template <typename T>
inline void InitOutput(GlobalTensor<T> gm, uint32_t size, T value = 0, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::is_aiv() || size == 0)
        return;
    LocalTensor<T> buf;
    if (!PopStackBuffer<T, TPosition::LCM>(buf, loc))
        dvac::fail_at(loc, "InitOutput", "no UB left in the TPipe for its buffer");
    const uint32_t most = MAX_REPEAT_TIMES * ONE_BLK_SIZE / sizeof(T);
    const uint32_t chunk = buf.GetSize() < most ? buf.GetSize() / (ONE_BLK_SIZE / sizeof(T)) * (ONE_BLK_SIZE / sizeof(T))
                                                : most;
    if (chunk == 0)
        dvac::fail_at(loc, "InitOutput", "no UB left in the TPipe for its buffer");
    const uint32_t fill = size < chunk ? (size + ONE_BLK_SIZE / sizeof(T) - 1) / (ONE_BLK_SIZE / sizeof(T)) *
                                             (ONE_BLK_SIZE / sizeof(T))
                                       : chunk;
    Duplicate(buf, value, (int32_t)fill, loc);
    const int32_t e = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3, loc);
    SetFlag<HardEvent::V_MTE3>(e, loc);
    WaitFlag<HardEvent::V_MTE3>(e, loc);
    for (uint32_t off = 0; off < size; off += chunk) {
        const uint32_t n = size - off < chunk ? size - off : chunk;
        DataCopyPad(gm[off], buf, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0), loc);
    }
}

/* ---- deterministic order of the blocks: block i runs its section after block i - 1 ----
 * The GM workspace holds one datablock per block; block i may enter when the first i hold the round
 * number and the rest 0.  The round number is kept in UB after the blocks' datablocks. */
namespace dvac_det {
constexpr int32_t kPerBlock = ONE_BLK_SIZE / sizeof(int32_t);
}

inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace,
                                          const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::is_aiv())
        return;
    using dvac_det::kPerBlock;
    PipeBarrier<PIPE_ALL>(loc);
    const int64_t n = GetBlockNum();
    if (GetBlockIdx() == 0) {
        Duplicate(ubWorkspace, 0, (int32_t)(kPerBlock * n), loc);
        const int32_t e = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3, loc);
        SetFlag<HardEvent::V_MTE3>(e, loc);
        WaitFlag<HardEvent::V_MTE3>(e, loc);
        DataCopy(gmWorkspace, ubWorkspace, (uint32_t)(kPerBlock * n), loc);
    }
    ubWorkspace.SetValue((uint32_t)(n * kPerBlock), 1, loc);
    PipeBarrier<PIPE_ALL>(loc);
}

inline void WaitPreBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace,
                         const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::is_aiv())
        return;
    using dvac_det::kPerBlock;
    PipeBarrier<PIPE_ALL>(loc);
    const int64_t n = GetBlockNum(), me = GetBlockIdx();
    for (;;) {
        DataCopy(ubWorkspace, gmWorkspace, (uint32_t)(n * kPerBlock), loc);
        int32_t e = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S, loc);
        SetFlag<HardEvent::MTE2_S>(e, loc);
        WaitFlag<HardEvent::MTE2_S>(e, loc);
        const int32_t round = ubWorkspace.GetValue((uint32_t)(n * kPerBlock), loc);
        bool ready = true;
        for (int64_t b = 0; b < n && ready; b++)
            ready = ubWorkspace.GetValue((uint32_t)(b * kPerBlock), loc) == (b < me ? round : 0);
        e = GetTPipePtr()->FetchEventID(HardEvent::S_MTE2, loc);
        SetFlag<HardEvent::S_MTE2>(e, loc);
        WaitFlag<HardEvent::S_MTE2>(e, loc);
        if (ready)
            break;
    }
    PipeBarrier<PIPE_ALL>(loc);
}

inline void NotifyNextBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace,
                            const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::is_aiv())
        return;
    using dvac_det::kPerBlock;
    PipeBarrier<PIPE_ALL>(loc);
    const int64_t n = GetBlockNum(), me = GetBlockIdx();
    const int32_t round = ubWorkspace.GetValue((uint32_t)(n * kPerBlock), loc);
    if (me + 1 == n) { /* the last block starts the next round: every datablock back to 0 */
        Duplicate(ubWorkspace, 0, (int32_t)(n * kPerBlock), loc);
        const int32_t e = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3, loc);
        SetFlag<HardEvent::V_MTE3>(e, loc);
        WaitFlag<HardEvent::V_MTE3>(e, loc);
        DataCopy(gmWorkspace, ubWorkspace, (uint32_t)(n * kPerBlock), loc);
    } else {
        const uint32_t off = (uint32_t)(me * kPerBlock);
        int32_t e = GetTPipePtr()->FetchEventID(HardEvent::S_V, loc);
        SetFlag<HardEvent::S_V>(e, loc);
        WaitFlag<HardEvent::S_V>(e, loc);
        Duplicate(ubWorkspace[off], round, kPerBlock, loc);
        e = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3, loc);
        SetFlag<HardEvent::V_MTE3>(e, loc);
        WaitFlag<HardEvent::V_MTE3>(e, loc);
        DataCopy(gmWorkspace[off], ubWorkspace[off], (uint32_t)kPerBlock, loc);
    }
    ubWorkspace.SetValue((uint32_t)(n * kPerBlock), round + 1, loc);
    PipeBarrier<PIPE_ALL>(loc);
}

/* ---- GroupBarrier: arriveSize AIVs arrive, waitSize AIVs wait for all of them, round after round ----
 * The workspace holds a 512-byte cache line per index: its first word counts the arrivals (at 0) and
 * its word at 64 the waits.  Arrive / Wait add 1 to the counter of every index with an atomic
 * UB -> GM copy of datablocks whose first word is 1 (the top 1600 bytes of UB, as CANN reserves them);
 * they poll a counter with scalar GM reads. */
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode> class GroupBarrier {
    static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier: dav-2201 supports PipeMode::MTE3_MODE only");
    static constexpr uint32_t kLine = 512, kWaitAt = 64, kMaxAiv = 50;

public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn,
                 const dvac::Loc &loc = dvac::Loc::here())
        : arrive_(arriveSizeIn), wait_(waitSizeIn)
    {
        if (!dvac::is_aiv())
            return;
        if (arriveSizeIn == 0 || waitSizeIn == 0 || arriveSizeIn > GetBlockNum() || waitSizeIn > GetBlockNum())
            dvac::fail_at(loc, "GroupBarrier", "arriveSize %u and waitSize %u must be in [1, block number %lld]",
                          arriveSizeIn, waitSizeIn, (long long)GetBlockNum());
        ws_.SetGlobalBuffer((__gm__ uint32_t *)groupWorkspace);
        ones_ = ones(loc);
        for (uint32_t i = 0; i < kMaxAiv; i++)
            ones_.SetValue(i * (ONE_BLK_SIZE / sizeof(int32_t)), 1, loc);
    }
    void Arrive(uint32_t arriveIndex, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (!dvac::is_aiv())
            return;
        if (counter_ > 1) /* the waits of the last round must have finished */
            while (ws_.GetValue((arriveIndex * kLine + kWaitAt) / sizeof(uint32_t), loc) != (counter_ - 1) * wait_) {
            }
        add_one(0, loc);
        counter_++;
        arrived_ = true;
    }
    void Wait(uint32_t waitIndex, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (!dvac::is_aiv())
            return;
        const uint32_t round = arrived_ ? counter_ - 1 : counter_;
        while (ws_.GetValue(waitIndex * kLine / sizeof(uint32_t), loc) < round * arrive_) {
        }
        add_one(kWaitAt, loc);
        if (!arrived_)
            counter_++;
        arrived_ = false;
    }
    uint64_t GetWorkspaceLen() const { return (uint64_t)(arrive_ > wait_ ? arrive_ : wait_) * kLine; }

private:
    static LocalTensor<int32_t> ones(const dvac::Loc &loc)
    {
        dv_k_t *c = dvac::k(loc);
        const uint64_t bytes = kMaxAiv * ONE_BLK_SIZE, size = dvk_space_bytes(c, DV_SPACE_UB);
        return LocalTensor<int32_t>(DV_ADDR(DV_SPACE_UB, size - bytes), (uint32_t)(bytes / sizeof(int32_t)),
                                    TPosition::VECIN);
    }
    /* +1 on the counter at byte `at` of every index's line. */
    void add_one(uint32_t at, const dvac::Loc &loc)
    {
        const uint32_t num = arrive_ > wait_ ? arrive_ : wait_;
        const int32_t e = GetTPipePtr()->FetchEventID(HardEvent::S_MTE3, loc);
        SetFlag<HardEvent::S_MTE3>(e, loc);
        WaitFlag<HardEvent::S_MTE3>(e, loc);
        SetAtomicAdd<int32_t>(loc);
        GlobalTensor<int32_t> dst;
        dst.SetGlobalBuffer((__gm__ int32_t *)ws_.GetPhyAddr() + at / sizeof(int32_t));
        DataCopy(dst, ones_, DataCopyParams((uint16_t)num, 1, 0, (uint16_t)(kLine / ONE_BLK_SIZE - 1)), loc);
        SetAtomicNone(loc);
    }
    GlobalTensor<uint32_t> ws_;
    LocalTensor<int32_t> ones_;
    uint32_t arrive_, wait_;
    uint32_t counter_ = 1;
    bool arrived_ = false;
};

/* SuperKernel task order.  Outside a SuperKernel CANN emits nothing for them (unless FORCE): a kernel
 * launched on a stream starts after the one before it has ended, and dvsim runs each launch so. */
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
inline void SetNextTaskStart()
{
    static_assert(!FORCE, "SetNextTaskStart<..., FORCE = true>: SuperKernel task flags are not modelled by dvsim");
}
template <bool FORCE = false> inline void WaitPreTaskEnd()
{
    static_assert(!FORCE, "WaitPreTaskEnd<FORCE = true>: SuperKernel task flags are not modelled by dvsim");
}

} // namespace AscendC

#endif
