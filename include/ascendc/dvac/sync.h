/* dvac/sync.h - synchronisation: SetFlag / WaitFlag, PipeBarrier, the TPipe's event ids, SyncAll and
 * the cross-core flags of dav-2201 (docs/ASCENDC.md has the mapping to the instructions). */
#ifndef DVAC_SYNC_H
#define DVAC_SYNC_H

#include "tensor.h"

namespace dvac {

inline dv_pipe_t pipe_of(AscendC::pipe_t p, const Loc &loc, const char *api)
{
    using namespace AscendC;
    switch (p) {
    case PIPE_S: return DV_PIPE_S;
    case PIPE_V: return DV_PIPE_V;
    case PIPE_M: return DV_PIPE_M;
    case PIPE_MTE1: return DV_PIPE_MTE1;
    case PIPE_MTE2: return DV_PIPE_MTE2;
    case PIPE_MTE3: return DV_PIPE_MTE3;
    case PIPE_FIX: return DV_PIPE_FIX;
    case PIPE_ALL: return DV_PIPE_ALL;
    default: fail_at(loc, api, "pipe %d does not exist on dav-2201", (int)p);
    }
}

/* Source and destination pipes of a HardEvent. */
struct EventPipes {
    dv_pipe_t src, dst;
};
constexpr EventPipes event_pipes(AscendC::HardEvent e)
{
    using H = AscendC::HardEvent;
    switch (e) {
    case H::MTE2_MTE1: return {DV_PIPE_MTE2, DV_PIPE_MTE1};
    case H::MTE1_MTE2: return {DV_PIPE_MTE1, DV_PIPE_MTE2};
    case H::MTE1_M: return {DV_PIPE_MTE1, DV_PIPE_M};
    case H::M_MTE1: return {DV_PIPE_M, DV_PIPE_MTE1};
    case H::MTE2_V: return {DV_PIPE_MTE2, DV_PIPE_V};
    case H::V_MTE2: return {DV_PIPE_V, DV_PIPE_MTE2};
    case H::MTE3_V: return {DV_PIPE_MTE3, DV_PIPE_V};
    case H::V_MTE3: return {DV_PIPE_V, DV_PIPE_MTE3};
    case H::M_V: return {DV_PIPE_M, DV_PIPE_V};
    case H::V_M: return {DV_PIPE_V, DV_PIPE_M};
    case H::V_V: return {DV_PIPE_V, DV_PIPE_V};
    case H::MTE3_MTE1: return {DV_PIPE_MTE3, DV_PIPE_MTE1};
    case H::MTE1_MTE3: return {DV_PIPE_MTE1, DV_PIPE_MTE3};
    case H::MTE1_V: return {DV_PIPE_MTE1, DV_PIPE_V};
    case H::MTE2_M: return {DV_PIPE_MTE2, DV_PIPE_M};
    case H::M_MTE2: return {DV_PIPE_M, DV_PIPE_MTE2};
    case H::V_MTE1: return {DV_PIPE_V, DV_PIPE_MTE1};
    case H::M_FIX: return {DV_PIPE_M, DV_PIPE_FIX};
    case H::FIX_M: return {DV_PIPE_FIX, DV_PIPE_M};
    case H::MTE3_MTE2: return {DV_PIPE_MTE3, DV_PIPE_MTE2};
    case H::MTE2_MTE3: return {DV_PIPE_MTE2, DV_PIPE_MTE3};
    case H::S_V: return {DV_PIPE_S, DV_PIPE_V};
    case H::V_S: return {DV_PIPE_V, DV_PIPE_S};
    case H::S_MTE2: return {DV_PIPE_S, DV_PIPE_MTE2};
    case H::MTE2_S: return {DV_PIPE_MTE2, DV_PIPE_S};
    case H::S_MTE3: return {DV_PIPE_S, DV_PIPE_MTE3};
    case H::MTE3_S: return {DV_PIPE_MTE3, DV_PIPE_S};
    case H::MTE2_FIX: return {DV_PIPE_MTE2, DV_PIPE_FIX};
    case H::FIX_MTE2: return {DV_PIPE_FIX, DV_PIPE_MTE2};
    case H::FIX_S: return {DV_PIPE_FIX, DV_PIPE_S};
    case H::M_S: return {DV_PIPE_M, DV_PIPE_S};
    case H::FIX_MTE3: return {DV_PIPE_FIX, DV_PIPE_MTE3};
    case H::MTE1_FIX: return {DV_PIPE_MTE1, DV_PIPE_FIX};
    case H::FIX_MTE1: return {DV_PIPE_FIX, DV_PIPE_MTE1};
    case H::FIX_FIX: return {DV_PIPE_FIX, DV_PIPE_FIX};
    default: return {DV_PIPE_S, DV_PIPE_S};
    }
}

/* Whether the stream's core has both pipes of an event (a mix kernel's AIC skips vector events). */
inline bool event_here(dv_k_t *c, EventPipes p)
{
    return dvk_has_pipe(c, p.src) && dvk_has_pipe(c, p.dst);
}

/* dav-2201 cross-core flag ids: a kernel's 0-10; SyncAll's, as CANN's implementation reserves them. */
constexpr uint16_t CROSS_FLAG_USER_MAX = 10;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;

} // namespace dvac

namespace AscendC {

template <HardEvent evt> inline void SetFlag(int32_t eventID, const dvac::Loc &loc = dvac::Loc::here())
{
    constexpr dvac::EventPipes p = dvac::event_pipes(evt);
    static_assert(p.src != p.dst || p.src != DV_PIPE_S, "dvsim Ascend C: this HardEvent is not supported");
    dv_k_t *c = dvac::at(loc);
    if (dvac::event_here(c, p))
        dvk_set_flag(c, p.src, p.dst, eventID);
}
template <HardEvent evt> inline void WaitFlag(int32_t eventID, const dvac::Loc &loc = dvac::Loc::here())
{
    constexpr dvac::EventPipes p = dvac::event_pipes(evt);
    dv_k_t *c = dvac::at(loc);
    if (dvac::event_here(c, p))
        dvk_wait_flag(c, p.src, p.dst, eventID);
}
template <pipe_t pipe> inline void PipeBarrier(const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(pipe != PIPE_S, "PipeBarrier<PIPE_S> is not allowed (CANN: the scalar pipe has no barrier)");
    dv_k_t *c = dvac::at(loc);
    dv_pipe_t p = dvac::pipe_of(pipe, loc, "PipeBarrier");
    if (p == DV_PIPE_ALL || dvk_has_pipe(c, p))
        dvk_pipe_barrier(c, p);
}

template <HardEvent evt> inline int32_t TPipe::AllocEventID(const dvac::Loc &loc)
{
    constexpr dvac::EventPipes p = dvac::event_pipes(evt);
    dv_k_t *c = dvac::at(loc);
    dvk_bookkeeping(c);
    return dvk_event_alloc(c, p.src, p.dst);
}
template <HardEvent evt> inline void TPipe::ReleaseEventID(int32_t id, const dvac::Loc &loc)
{
    constexpr dvac::EventPipes p = dvac::event_pipes(evt);
    dv_k_t *c = dvac::at(loc);
    dvk_bookkeeping(c);
    dvk_event_free(c, p.src, p.dst, id);
}
/* An id for a one-off SetFlag / WaitFlag pair: allocated and given back at once, so the next
 * allocation of the pair may return the same id (as CANN's FetchEventID). */
template <HardEvent evt> inline TEventID TPipe::FetchEventID(const dvac::Loc &loc)
{
    constexpr dvac::EventPipes p = dvac::event_pipes(evt);
    dv_k_t *c = dvac::at(loc);
    dvk_bookkeeping(c);
    int id = dvk_event_alloc(c, p.src, p.dst);
    dvk_event_free(c, p.src, p.dst, id);
    return (TEventID)id;
}
inline TEventID TPipe::FetchEventID(HardEvent evt, const dvac::Loc &loc)
{
    dvac::EventPipes p = dvac::event_pipes(evt);
    dv_k_t *c = dvac::at(loc);
    dvk_bookkeeping(c);
    int id = dvk_event_alloc(c, p.src, p.dst);
    dvk_event_free(c, p.src, p.dst, id);
    return (TEventID)id;
}

/* GM writes of the DMA and FixPipe that follow combine with GM (set_atomic): added, max, min, or
 * (None) stored as they are. */
template <typename T> inline void SetAtomicAdd(const dvac::Loc &loc = dvac::Loc::here())
{
    dvk_set_atomic(dvac::at(loc), DV_ATOMIC_ADD, dvac::dtype_of<T>());
}
template <typename T> inline void SetAtomicMax(const dvac::Loc &loc = dvac::Loc::here())
{
    dvk_set_atomic(dvac::at(loc), DV_ATOMIC_MAX, dvac::dtype_of<T>());
}
template <typename T> inline void SetAtomicMin(const dvac::Loc &loc = dvac::Loc::here())
{
    dvk_set_atomic(dvac::at(loc), DV_ATOMIC_MIN, dvac::dtype_of<T>());
}
inline void SetAtomicNone(const dvac::Loc &loc = dvac::Loc::here())
{
    dvk_set_atomic(dvac::at(loc), DV_ATOMIC_NONE, DV_DT_F32);
}
inline void DisableDmaAtomic(const dvac::Loc &loc = dvac::Loc::here()) { SetAtomicNone(loc); }

/* The control state CANN sets at a kernel's start and on TPipe::Reset: no atomic, and on a vector
 * core normal mask mode with every mask bit. */
inline void InitSocState(const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::at(loc);
    dvk_set_atomic(c, DV_ATOMIC_NONE, DV_DT_F32);
    if (!dvk_has_pipe(c, DV_PIPE_V))
        return;
    dvk_set_mask_norm(c);
    dvk_set_vector_mask(c, ~0ull, ~0ull);
}

inline TPipe::TPipe(const dvac::Loc &loc) : loc_(loc)
{
    dvac::g_pipe = this;
    std::memset(dvac::g_free_pending, 0, sizeof dvac::g_free_pending);
    InitSocState(loc);
    dv_k_t *c = dvac::k(loc);
    if (dvk_has_pipe(c, DV_PIPE_M) && dvk_has_pipe(c, DV_PIPE_MTE1))
        for (int &e : mm_events_) {
            e = AllocEventID<HardEvent::M_MTE1>(loc);
            SetFlag<HardEvent::M_MTE1>(e, loc);
        }
}

inline TPipe::~TPipe()
{
    Destroy(loc_);
    if (dvac::g_pipe == this)
        dvac::g_pipe = nullptr;
}

namespace detail {
inline void wait_freed(dv_k_t *c)
{
    for (int s = 0; s < DV_PIPE_COUNT; s++)
        for (int d = 0; d < DV_PIPE_COUNT; d++)
            for (int id = 0; id < DV_FLAG_IDS; id++)
                if (dvac::g_free_pending[s][d] & (1u << id))
                    dvk_wait_flag(c, (dv_pipe_t)s, (dv_pipe_t)d, id);
    std::memset(dvac::g_free_pending, 0, sizeof dvac::g_free_pending);
}
} // namespace detail

inline void TPipe::Destroy(const dvac::Loc &loc)
{
    if (destroyed_)
        return;
    destroyed_ = true;
    dv_k_t *c = dvac::at(loc);
    detail::wait_freed(c);
    for (int &e : mm_events_)
        if (e >= 0) {
            WaitFlag<HardEvent::M_MTE1>(e, loc);
            ReleaseEventID<HardEvent::M_MTE1>(e, loc);
            e = -1;
        }
    dvk_pipe_barrier(c, DV_PIPE_ALL);
}

inline void TPipe::Reset(const dvac::Loc &loc)
{
    detail::wait_freed(dvac::at(loc));
    InitSocState(loc);
    region_ = dvac::Region();
}

/* Every AIV of the launch (or every core, isAIVOnly = false) waits here for all the others:
 * dav-2201's hard barrier, a mode-0 cross-core flag. */
template <bool isAIVOnly = true> inline void SyncAll(const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::at(loc);
    if (dvk_config(c)->chip_layout != DV_LAYOUT_SPLIT)
        dvac::fail_at(loc, "SyncAll", "the hard all-core barrier needs the cross-core flags of a split chip (910B)");
    if (!isAIVOnly && dvk_kind(c) == DV_KIND_MIX)
        dvac::fail_at(loc, "SyncAll", "SyncAll<false> across the AIC and AIVs of a mix kernel is not supported by dvsim yet");
    dv_pipe_t p = dvk_is_aiv(c) ? DV_PIPE_MTE3 : DV_PIPE_FIX;
    dvk_set_cross_flag(c, p, 0, dvac::SYNC_AIV_ONLY_ALL);
    dvk_wait_cross_flag(c, DV_PIPE_S, dvac::SYNC_AIV_ONLY_ALL);
}

/* Cross-core flags (dav-2201): mode 0 all cores of the setter's type, 1 the AIVs of one AI core,
 * 2 the AIC and the AIVs of one AI core. */
template <uint8_t modeId, pipe_t pipe> inline void CrossCoreSetFlag(uint16_t flagId,
                                                                    const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(modeId <= 2, "CrossCoreSetFlag: mode 0, 1 or 2");
    dv_k_t *c = dvac::at(loc);
    if (flagId > dvac::CROSS_FLAG_USER_MAX)
        dvac::fail_at(loc, "CrossCoreSetFlag", "flag id %u is not in [0, %d] (CANN reserves the others)", flagId,
                      dvac::CROSS_FLAG_USER_MAX);
    dvk_set_cross_flag(c, dvac::pipe_of(pipe, loc, "CrossCoreSetFlag"), modeId, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S> inline void CrossCoreWaitFlag(uint16_t flagId,
                                                                                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(modeId <= 2, "CrossCoreWaitFlag: mode 0, 1 or 2");
    dv_k_t *c = dvac::at(loc);
    if (flagId > dvac::CROSS_FLAG_USER_MAX)
        dvac::fail_at(loc, "CrossCoreWaitFlag", "flag id %u is not in [0, %d] (CANN reserves the others)", flagId,
                      dvac::CROSS_FLAG_USER_MAX);
    dvk_wait_cross_flag(c, dvac::pipe_of(pipe, loc, "CrossCoreWaitFlag"), flagId);
}

} // namespace AscendC

#endif
