/* lib/matmul/kfc.h - a Matmul driven from the AIVs of a mix kernel (CANN's KFC client / server).
 *
 * In CANN (dav-2201) a kernel that does not define ASCENDC_CUBE_ONLY runs REGIST_MATMUL_OBJ on every
 * core of its block: the AIC becomes a server (impl/adv_api/detail/kfc/kfc_register_obj.h, KfcServer)
 * that takes each AIV's requests (impl/adv_api/detail/matmul/kfc/matmul_client_impl_aicore.h,
 * matmul_server*.h), runs the cube work for it and signals back, and then returns from the kernel;
 * the AIVs run the rest of the kernel, their Matmul calls being messages.
 *
 * dvsim generates each core's instructions from the same kernel function on its own thread, in a
 * strict hand-off with the model.  A block's AIC and AIVs share one Channel (host memory, found by
 * the launch's kernel object and the block):
 *   - an AIV's request (IterateAll, a tile of Iterate / GetTensorC, ...) carries a copy of the AIV's
 *     Matmul (its tensors and shapes); the AIV posts it, then reads the system counter (get_sys_cnt):
 *     the request is visible to the AIC from that simulated time on;
 *   - the AIC polls the channel in simulated time (get_sys_cnt, then POLL_CYCLES of scalar time when
 *     nothing is there), serves the earliest request, waits for its pipes (pipe_barrier ALL: the cube
 *     results are in GM) and posts the request's completion time;
 *   - an AIV that waits for a result (a synchronous call, WaitIterateAll, GetTensorC into UB) polls
 *     the same way and then waits (scalar time) until the completion time.
 * So the AIV's consumer waits for the AIC's results in simulated time.  CANN passes the messages
 * through GM and the answers through cross-core flags with one flag id per AIV (id + 16 for the
 * second); dvsim's cross-core flags of mode 2 reach both AIVs (and an AIC wait needs both AIVs' sets),
 * so the hand-over is timed from the system counter instead: its 50 MHz tick (37 cycles of the
 * 1850 MHz core) is the resolution of each hand-over, POLL_CYCLES that of a wait begun before the
 * other side posted. */
#ifndef DVSIM_LIB_MATMUL_KFC_H
#define DVSIM_LIB_MATMUL_KFC_H

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace dvac {
namespace mm {

constexpr uint32_t MAX_AIV = 4;
constexpr uint32_t MAX_OBJ = 8;
constexpr int64_t POLL_CYCLES = 64;
/* A server that hears nothing from its AIVs for this long fails (an AIV that never registered). */
constexpr int64_t IDLE_LIMIT_CYCLES = 50000000;

enum Op : uint32_t { OP_ITERATE_ALL, OP_TILE, OP_ITERATE_WS, OP_QUIT };

/* One AIV request.  `state` is a copy of the AIV's Matmul object (its settings). */
struct Request {
    uint32_t obj = 0, op = 0;
    std::shared_ptr<void> state;
    uint64_t gm = 0;           /* C (device address of the GlobalTensor's start) */
    uint64_t gm_bytes = 0;
    uint32_t tile = 0;         /* OP_TILE: the tile index */
    uint8_t atomic = 0;
    bool sequential = false;
    uint64_t seq = 0;
    int64_t t_issue = -1;      /* system counter when the AIV issued it (-1: not yet) */
};

struct Channel {
    std::deque<Request> req[MAX_AIV];
    std::vector<int64_t> done[MAX_AIV]; /* per request seq: completion (system counter), -1 unknown */
    bool quit[MAX_AIV] = {};
    void *obj[MAX_OBJ] = {};
    void (*serve[MAX_OBJ])(void *obj, const Request &r, uint32_t aiv, const Loc &loc) = {};
    uint32_t nobj = 0;
};

inline std::mutex &chan_mu()
{
    static std::mutex m;
    return m;
}
inline std::map<std::pair<const void *, uint32_t>, Channel> &chans()
{
    static std::map<std::pair<const void *, uint32_t>, Channel> m;
    return m;
}
/* The channel of the calling stream's block (made on first use). */
inline Channel &channel(dv_k_t *c)
{
    std::lock_guard<std::mutex> g(chan_mu());
    return chans()[std::make_pair(static_cast<const void *>(dvk_config(c)), dvk_block_idx(c))];
}
inline void channel_drop(dv_k_t *c)
{
    std::lock_guard<std::mutex> g(chan_mu());
    chans().erase(std::make_pair(static_cast<const void *>(dvk_config(c)), dvk_block_idx(c)));
}

/* The system counter (an await: the stream's thread resumes when the scalar unit reads it). */
inline int64_t now(dv_k_t *c) { return (int64_t)dvk_read_sys_cnt(c); }
inline int64_t ticks_to_cycles(dv_k_t *c, int64_t t)
{
    const dv_config_t *cfg = dvk_config(c);
    return t * (int64_t)cfg->chip_freq_mhz / (int64_t)cfg->chip_sys_counter_mhz;
}
/* Scalar time until the system counter reaches `t` (from `cur`). */
inline void sleep_until(dv_k_t *c, int64_t cur, int64_t t)
{
    if (t > cur)
        dvk_scalar(c, ticks_to_cycles(c, t - cur) + 1);
}

/* The AIV's side: post a request (returns its seq) and wait for one. */
inline uint64_t post(dv_k_t *c, uint32_t aiv, Request r)
{
    if (dvk_probing(c))
        return 0;
    Channel &ch = channel(c);
    r.seq = ch.done[aiv].size();
    ch.done[aiv].push_back(-1);
    ch.req[aiv].push_back(r);
    const uint64_t seq = r.seq;
    const int64_t t = now(c);
    for (Request &q : ch.req[aiv])
        if (q.seq == seq)
            q.t_issue = t;
    return seq;
}
inline void wait_done(dv_k_t *c, uint32_t aiv, uint64_t seq)
{
    if (dvk_probing(c))
        return;
    Channel &ch = channel(c);
    for (int64_t last = -1;;) {
        const int64_t t = now(c);
        const int64_t d = ch.done[aiv][seq];
        if (d >= 0) {
            sleep_until(c, t, d);
            return;
        }
        if (t <= last) /* time stands still: the stream was closed (the run failed elsewhere) */
            return;
        last = t;
        dvk_scalar(c, POLL_CYCLES);
    }
}

/* The AIC's side: serve the block's AIVs until each has quit. */
inline void serve_all(dv_k_t *c, const Loc &loc)
{
    Channel &ch = channel(c);
    const uint32_t naiv = (uint32_t)dvk_config(c)->chip_aiv_per_core;
    int64_t idle = 0, last = -1;
    for (;;) {
        bool all_quit = true;
        for (uint32_t j = 0; j < naiv; j++)
            all_quit = all_quit && ch.quit[j];
        if (all_quit)
            break;
        const int64_t t = now(c);
        if (t <= last) /* time stands still: the stream was closed (the run failed elsewhere) */
            break;
        last = t;
        int best = -1;
        for (uint32_t j = 0; j < naiv; j++)
            if (!ch.req[j].empty() && ch.req[j].front().t_issue >= 0 &&
                (best < 0 || ch.req[j].front().t_issue < ch.req[best].front().t_issue))
                best = (int)j;
        if (best < 0) {
            dvk_scalar(c, POLL_CYCLES);
            idle += POLL_CYCLES;
            if (idle > IDLE_LIMIT_CYCLES)
                fail_at(loc, "REGIST_MATMUL_OBJ", "the AIC served its AIVs' Matmul requests and heard nothing for %lld "
                        "cycles: an AIV of block %u did not register (REGIST_MATMUL_OBJ) or never ended",
                        (long long)IDLE_LIMIT_CYCLES, dvk_block_idx(c));
            continue;
        }
        idle = 0;
        Request r = ch.req[best].front();
        ch.req[best].pop_front();
        sleep_until(c, t, r.t_issue);
        if (r.op == OP_QUIT) {
            ch.quit[best] = true;
            ch.done[best][r.seq] = r.t_issue;
            last = -1;
            continue;
        }
        if (r.obj >= ch.nobj || !ch.serve[r.obj])
            fail_at(loc, "REGIST_MATMUL_OBJ", "a request for Matmul object %u, which the AIC did not register", r.obj);
        ch.serve[r.obj](ch.obj[r.obj], r, (uint32_t)best, loc);
        dvk_pipe_barrier(c, DV_PIPE_ALL);
        ch.done[best][r.seq] = now(c);
    }
    channel_drop(c);
}

/* The AIV's registration: its QUIT goes when the kernel function leaves the scope of
 * REGIST_MATMUL_OBJ (the end of the kernel, or an early return). */
struct Client {
    bool on = false;
    uint32_t aiv = 0;
    void start(dv_k_t *c)
    {
        on = true;
        aiv = dvk_sub(c) - DV_SUB_AIV0;
    }
    ~Client()
    {
        if (!on)
            return;
        dv_k_t *c = dvk_current();
        Request r;
        r.op = OP_QUIT;
        post(c, aiv, r);
    }
};

} // namespace mm
} // namespace dvac

#endif
