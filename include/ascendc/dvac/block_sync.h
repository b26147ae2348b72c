/* dvac/block_sync.h - synchronisation between blocks through GM flags, as CANN's IBSet / IBWait do
 * it: a 32-byte flag per (block, event) in a GM workspace, copied to UB and read by the scalar unit
 * until it holds the value waited for.  The waiting block polls in simulated time (each round a
 * GM -> UB copy and a scalar read), so it needs the setting block to run on another core. */
#ifndef DVAC_BLOCK_SYNC_H
#define DVAC_BLOCK_SYNC_H

#include "copy.h"
#include "sync.h"

namespace dvac {

/* Poll the flag of (blockIdx, eventID) until it is `want`, then store `next` in it. */
inline void gm_flag_swap(const AscendC::GlobalTensor<int32_t> &gmWorkspace, const AscendC::LocalTensor<int32_t> &ub,
                         int32_t blockIdx, int32_t eventID, bool aivOnly, int32_t want, int32_t next, const Loc &loc,
                         const char *api)
{
    using namespace AscendC;
    dv_k_t *c = at(loc);
    if (!dvk_has_pipe(c, DV_PIPE_V))
        return; /* the AIC of a mix kernel does not take part */
    TPipe *pipe = GetTPipePtr();
    if (!pipe)
        fail_at(loc, api, "needs a TPipe (its event ids)");
    const int64_t blocks = aivOnly ? GetBlockNum() : GetBlockNum() * GetTaskRation();
    GlobalTensor<int32_t> flag = gmWorkspace[(uint64_t)(blocks * 8 * eventID + blockIdx * 8)];
    PipeBarrier<PIPE_ALL>(loc);
    for (;;) {
        DataCopy(ub, flag, ONE_BLK_SIZE / sizeof(int32_t), loc);
        int32_t e = pipe->FetchEventID(HardEvent::MTE2_S, loc);
        SetFlag<HardEvent::MTE2_S>(e, loc);
        WaitFlag<HardEvent::MTE2_S>(e, loc);
        if (ub.GetValue(0, loc) == want) {
            ub.SetValue(0, next, loc);
            e = pipe->FetchEventID(HardEvent::S_MTE3, loc);
            SetFlag<HardEvent::S_MTE3>(e, loc);
            WaitFlag<HardEvent::S_MTE3>(e, loc);
            DataCopy(flag, ub, ONE_BLK_SIZE / sizeof(int32_t), loc);
            break;
        }
    }
    PipeBarrier<PIPE_ALL>(loc);
}

} // namespace dvac

namespace AscendC {

/* Block blockIdx signals eventID (its flag goes from 0 to 1). */
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx,
                  int32_t eventID, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::gm_flag_swap(gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly, 0, 1, loc, "IBSet");
}

/* Wait until block blockIdx has signalled eventID (and take the signal back). */
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace, int32_t blockIdx,
                   int32_t eventID, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::gm_flag_swap(gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly, 1, 0, loc, "IBWait");
}

} // namespace AscendC

#endif
