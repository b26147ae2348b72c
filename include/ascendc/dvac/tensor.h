/* dvac/tensor.h - tensors and memory management: GlobalTensor, LocalTensor, TPipe, TQue, TQueBind,
 * TBuf, TBufPool.
 *
 * A LocalTensor is a dv address (space + byte offset) and an element count.  TPipe hands out each
 * local space from offset 0 upwards (aligned to the space's *_align_bytes) and charges
 * scalar.bookkeeping_cycles per buffer; a queue's buffers carry one event id per direction between
 * the pipe that writes the source position and the pipe that reads the destination position:
 * EnQue sets the flag and DeQue waits for it (RAW), FreeTensor sets the reverse flag and the next
 * AllocTensor of that buffer waits for it (WAR), as CANN's TQue does.  A GlobalTensor is a device
 * pointer; its address in the kernel's GM arguments is found when an instruction uses it. */
#ifndef DVAC_TENSOR_H
#define DVAC_TENSOR_H

#include "core.h"
#include "dvsim/acl_launch.h"

namespace dvac {

/* The GM arguments of the running launch: each device pointer the kernel received, with the bytes
 * from there to its allocation's end (set by the launch, per kernel thread). */
struct GmTable {
    uint32_t n;
    uint64_t dev[32];
    uint64_t bytes[32];
};
inline thread_local const GmTable *g_gm = nullptr;
/* GM arguments a launch may have (the AscendCL shim's limit). */
constexpr uint32_t MAX_GM_ARGS = 16;

/* The dv address of device address `dev` with `bytes` from there: the argument that holds it (the
 * one starting closest below, when pointers of one allocation overlap). */
inline uint64_t gm_addr(uint64_t dev, uint64_t bytes, const Loc &loc, const char *api)
{
    const GmTable *t = g_gm;
    int best = -1;
    for (uint32_t i = 0; t && i < t->n; i++)
        if (t->dev[i] <= dev && dev - t->dev[i] < t->bytes[i] && (best < 0 || t->dev[i] > t->dev[best]))
            best = (int)i;
    if (best < 0)
        fail_at(loc, api, "GM address 0x%llx is not inside any GM argument of the kernel", (unsigned long long)dev);
    uint64_t off = dev - t->dev[best];
    if (bytes > t->bytes[best] - off)
        fail_at(loc, api, "%llu bytes at GM address 0x%llx pass the end of the argument's allocation (%llu bytes left)",
             (unsigned long long)bytes, (unsigned long long)dev, (unsigned long long)(t->bytes[best] - off));
    return DV_GM_ADDR(best, off);
}

/* Queue buffers freed by their reader whose flag to the writer nobody has waited for yet, by
 * (reader, writer) pipe pair, a bit per event id: TPipe::Destroy / Reset wait for them. */
inline thread_local uint16_t g_free_pending[DV_PIPE_COUNT][DV_PIPE_COUNT];

/* CANN's compiler synchronises a scalar read of UB with the pipes that may have written it (its
 * automatic synchronisation, on event id 7, which CANN reserves for it): before the read, the
 * scalar unit waits for MTE2 and V if they have had work since it last waited for them. */
inline void auto_sync_to_scalar(dv_k_t *c)
{
    const uint32_t writers = dvk_unsynced_pipes(c) & ((1u << DV_PIPE_MTE2) | (1u << DV_PIPE_V));
    for (dv_pipe_t p : {DV_PIPE_MTE2, DV_PIPE_V})
        if (writers & (1u << p)) {
            dvk_set_flag(c, p, DV_PIPE_S, 7);
            dvk_wait_flag(c, p, DV_PIPE_S, 7);
        }
    dvk_synced_pipes(c, writers);
}

/* Local space of a position on the profile's chip. */
inline dv_space_t space_of(AscendC::TPosition p)
{
    using AscendC::TPosition;
    switch (p) {
    case TPosition::VECIN: case TPosition::VECOUT: case TPosition::VECCALC: return DV_SPACE_UB;
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return DV_SPACE_L1;
    case TPosition::A2: return DV_SPACE_L0A;
    case TPosition::B2: return DV_SPACE_L0B;
    case TPosition::CO1: return DV_SPACE_L0C;
    case TPosition::C2: return DV_SPACE_BT;
    case TPosition::C2PIPE2GM: return DV_SPACE_FB;
    case TPosition::CO2: return cfg().chip_layout == DV_LAYOUT_SPLIT ? DV_SPACE_GM : DV_SPACE_UB;
    default: return DV_SPACE_GM;
    }
}
/* The pipe that fills a position and the pipe that reads it (queue synchronisation). */
inline dv_pipe_t writer_of(AscendC::TPosition p)
{
    using AscendC::TPosition;
    switch (p) {
    case TPosition::VECIN: case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM:
        return DV_PIPE_MTE2;
    case TPosition::A2: case TPosition::B2: case TPosition::C2: return DV_PIPE_MTE1;
    case TPosition::CO1: return DV_PIPE_M;
    case TPosition::CO2: return cfg().chip_layout == DV_LAYOUT_SPLIT ? DV_PIPE_FIX : DV_PIPE_V;
    default: return DV_PIPE_V;
    }
}
inline dv_pipe_t reader_of(AscendC::TPosition p)
{
    using AscendC::TPosition;
    switch (p) {
    case TPosition::VECOUT: case TPosition::CO2: return DV_PIPE_MTE3;
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return DV_PIPE_MTE1;
    case TPosition::A2: case TPosition::B2: case TPosition::C2: return DV_PIPE_M;
    case TPosition::CO1: return cfg().chip_layout == DV_LAYOUT_SPLIT ? DV_PIPE_FIX : DV_PIPE_V;
    case TPosition::C2PIPE2GM: return DV_PIPE_FIX;
    default: return DV_PIPE_V;
    }
}

/* One local region handed out from the bottom: TPipe's whole space, or a TBufPool's part. */
struct Region {
    uint64_t base[DV_SPACE_COUNT] = {};
    uint64_t end[DV_SPACE_COUNT] = {};  /* 0: the whole space (resolved on first use) */
    uint64_t used[DV_SPACE_COUNT] = {};

    uint64_t take(dv_space_t s, uint64_t bytes, const Loc &loc, const char *api)
    {
        if (s == DV_SPACE_GM || s >= DV_SPACE_COUNT)
            fail_at(loc, api, "this position has no local buffer on this chip");
        dv_k_t *c = k(loc);
        const uint64_t size = dvk_space_bytes(c, s), align = dvk_space_align(c, s);
        const uint64_t lim = end[s] ? end[s] : size;
        const uint64_t need = (bytes + align - 1) / align * align;
        if (bytes == 0) /* CANN asserts len > 0 in its CPU debug build only: on the NPU the buffer is empty */
            return DV_ADDR(s, base[s] + used[s]);
        if (base[s] + used[s] + need > lim)
            fail_at(loc, api, "%llu bytes of %s do not fit: %llu of %llu bytes are already in use (%s)",
                 (unsigned long long)bytes, dvk_space_name(s), (unsigned long long)(base[s] + used[s]),
                 (unsigned long long)lim, dvk_space_key(s));
        uint64_t off = base[s] + used[s];
        used[s] += need;
        dvk_bookkeeping(c);
        return DV_ADDR(s, off);
    }
};

} // namespace dvac

namespace AscendC {

template <typename T> class LocalTensor;

/* ---- GM ---- */
/* CANN's values (include/tensor_api/utils/utils.h). */
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2,
                                 CACHE_MODE_PERSISTENT = 4 };

template <typename T> class GlobalTensor {
public:
    using PrimType = T;
    void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize)
    {
        addr_ = buffer;
        size_ = bufferSize;
    }
    void SetGlobalBuffer(__gm__ T *buffer) { SetGlobalBuffer(buffer, 0); }
    __gm__ T *GetPhyAddr() const { return addr_; }
    __gm__ T *GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
    uint64_t GetSize() const { return size_; }
    GlobalTensor operator[](uint64_t offset) const
    {
        GlobalTensor t;
        t.addr_ = addr_ + offset;
        t.size_ = size_ > offset ? size_ - offset : 0;
        t.cache_ = cache_;
        return t;
    }
    /* Scalar read and write of GM (ld_gm / st_gm on the scalar unit, when it issues them: a read sees
     * what the kernel synchronised before it). */
    T GetValue(uint64_t offset, const dvac::Loc &loc = dvac::Loc::here()) const
    {
        dv_k_t *c = dvac::at(loc);
        uint64_t bits = dvk_load_gm(c, gm(offset, sizeof(T), loc, "GlobalTensor::GetValue"), dvac::dtype_of<T>());
        T v;
        std::memcpy(static_cast<void *>(&v), &bits, sizeof(T));
        /* while the launch is probed nothing runs: what the host wrote (tiling) is what it reads */
        if (dvk_probing(c) && dvsimDeviceAccess((uint64_t)(uintptr_t)(addr_ + offset), &v, sizeof(T), 0) != 0)
            dvac::fail_at(loc, "GlobalTensor::GetValue", "GM address 0x%llx cannot be read",
                          (unsigned long long)(uintptr_t)(addr_ + offset));
        return v;
    }
    void SetValue(uint64_t offset, T value, const dvac::Loc &loc = dvac::Loc::here())
    {
        dv_k_t *c = dvac::at(loc);
        uint64_t bits = 0;
        std::memcpy(&bits, static_cast<const void *>(&value), sizeof(T));
        dvk_st_gm(c, gm(offset, sizeof(T), loc, "GlobalTensor::SetValue"), dvac::dtype_of<T>(), bits);
    }
    /* L2 cache mode of the tensor's accesses from now on: CACHE_MODE_NORMAL, or CACHE_MODE_DISABLE (its lines
     * are not allocated in L2: the tensor's instructions use the launch's alias argument of its memory,
     * dvac/launch.h).  The 910B has no persistent mode (CANN: planned for later chips); CACHE_MODE_LAST is
     * not a mode.  CANN's rwMode template parameter is reserved there and left out here. */
    void SetL2CacheHint(CacheMode mode, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (mode != CacheMode::CACHE_MODE_NORMAL && mode != CacheMode::CACHE_MODE_DISABLE)
            dvac::fail_at(loc, "GlobalTensor::SetL2CacheHint", "cache mode %d is not available on this chip "
                          "(CACHE_MODE_NORMAL or CACHE_MODE_DISABLE)", (int)mode);
        cache_ = mode;
    }
    /* dv address of element `elem` for an access of `bytes` (in the alias argument in mode disable). */
    uint64_t gm(uint64_t elem, uint64_t bytes, const dvac::Loc &loc, const char *api) const
    {
        if (!addr_)
            dvac::fail_at(loc, api, "the GlobalTensor has no buffer (SetGlobalBuffer was not called)");
        const uint64_t dev = (uint64_t)(uintptr_t)(addr_ + elem);
        if (cache_ != CacheMode::CACHE_MODE_DISABLE)
            return dvac::gm_addr(dev, bytes, loc, api);
        const dvac::GmTable *t = dvac::g_gm;
        bool alias = false;
        for (uint32_t i = 0; t && i < t->n && !alias; i++)
            alias = t->dev[i] >> DV_GM_L2_DISABLE_BIT & 1;
        if (!alias)
            dvac::fail_at(loc, api, "the GlobalTensor is in CACHE_MODE_DISABLE but the launch has no room for the "
                          "alias arguments of that mode (at most %u GM arguments)", (unsigned)dvac::MAX_GM_ARGS);
        return dvac::gm_addr(dev | 1ull << DV_GM_L2_DISABLE_BIT, bytes, loc, api);
    }

private:
    __gm__ T *addr_ = nullptr;
    uint64_t size_ = 0;
    CacheMode cache_ = CacheMode::CACHE_MODE_NORMAL;
};

/* ---- local ---- */
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
/* CANN's data format (include/basic_api/kernel_struct_data_copy.h; the same guard). */
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif

/* The shape a LocalTensor may carry (CANN's include/basic_api/kernel_tensor.h): up to 8 dimensions, and the
 * original shape before padding. */
constexpr int32_t K_MAX_SHAPE_DIM = 8;
struct ShapeInfo {
    ShapeInfo() {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(clamp(inputShapeDim)), originalShapeDim(clamp(inputOriginalShapeDim)), dataFormat(inputFormat)
    {
        for (int i = 0; i < shapeDim; ++i)
            shape[i] = inputShape[i];
        for (int i = 0; i < originalShapeDim; ++i)
            originalShape[i] = inputOriginalShape[i];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat)
    {
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND)
    {
    }
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    static uint8_t clamp(uint8_t d) { return d > K_MAX_SHAPE_DIM ? (uint8_t)K_MAX_SHAPE_DIM : d; }
};
inline uint64_t GetShapeSize(const ShapeInfo &shapeInfo)
{
    uint64_t n = 1;
    for (int i = 0; i < shapeInfo.shapeDim; ++i)
        n *= shapeInfo.shape[i];
    return n;
}

template <typename T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(uint64_t addr, uint32_t count, TPosition pos) : addr_(addr), size_(count), pos_(pos) {}
    /* A tensor of `count` elements at byte `offset` of the position's buffer (CANN's static
     * allocation: the caller owns the layout). */
    LocalTensor(TPosition pos, uint32_t offset, uint32_t count)
        : addr_(DV_ADDR(dvac::space_of(pos), offset)), size_(count), pos_(pos)
    {
    }
    uint64_t addr() const { return addr_; }
    dv_space_t space() const { return DV_ADDR_SPACE(addr_); }
    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * (uint32_t)sizeof(T); }
    void SetSize(uint32_t count) { size_ = count; }
    TPosition GetPosition() const { return pos_; }
    /* The buffer offset, as a pointer of the tensor's local space (never dereferenced here). */
    T *GetPhyAddr() const { return reinterpret_cast<T *>((uintptr_t)DV_ADDR_OFF(addr_)); }
    T *GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + offset; }
    LocalTensor operator[](uint32_t offset) const
    {
        return LocalTensor(addr_ + (uint64_t)offset * sizeof(T), size_ > offset ? size_ - offset : 0, pos_);
    }
    template <typename U> LocalTensor<U> ReinterpretCast() const
    {
        return LocalTensor<U>(addr_, (uint32_t)((uint64_t)size_ * sizeof(T) / sizeof(U)), pos_);
    }
    /* The shape the kernel gave (nothing is emitted; sub-tensors and casts start without one). */
    void SetShapeInfo(const ShapeInfo &shapeInfo) { shape_ = shapeInfo; }
    ShapeInfo GetShapeInfo() const { return shape_; }
    /* Scalar access to UB (ld_ub / st_ub on the scalar unit): a read returns the element as the model's
     * scalar unit finds it when it issues the load, so what the kernel synchronised before is there
     * (a V -> S or MTE2 -> S flag, as on hardware). */
    T GetValue(uint32_t index, const dvac::Loc &loc = dvac::Loc::here()) const
    {
        dv_k_t *c = scalar_access(index, loc, "LocalTensor::GetValue");
        dvac::auto_sync_to_scalar(c);
        uint64_t bits = dvk_load_ub(c, addr_ + (uint64_t)index * sizeof(T), dvac::dtype_of<T>());
        T v;
        std::memcpy(static_cast<void *>(&v), &bits, sizeof(T));
        return v;
    }
    void SetValue(uint32_t index, T value, const dvac::Loc &loc = dvac::Loc::here()) const
    {
        dv_k_t *c = scalar_access(index, loc, "LocalTensor::SetValue");
        dvac::auto_sync_to_scalar(c); /* the store after the pipes' writes to UB (WAW), as CANN's auto-sync */
        uint64_t bits = 0;
        std::memcpy(&bits, static_cast<const void *>(&value), sizeof(T));
        dvk_st_ub(c, addr_ + (uint64_t)index * sizeof(T), dvac::dtype_of<T>(), bits);
    }
    /* Element count check of an API: `count` elements from this tensor stay inside it. */
    void need(uint64_t count, const dvac::Loc &loc, const char *api) const
    {
        if (!addr_ && !size_)
            dvac::fail_at(loc, api, "the LocalTensor has no buffer");
        if (count > size_)
            dvac::fail_at(loc, api, "%llu elements pass the end of a tensor of %u", (unsigned long long)count, size_);
    }

private:
    dv_k_t *scalar_access(uint32_t index, const dvac::Loc &loc, const char *api) const
    {
        dv_k_t *c = dvac::at(loc);
        if (space() != DV_SPACE_UB)
            dvac::fail_at(loc, api, "scalar access to %s is not supported (only UB)", dvk_space_name(space()));
        if (index >= size_)
            dvac::fail_at(loc, api, "element %u is past the end of a tensor of %u", index, size_);
        return c;
    }
    uint64_t addr_ = 0;
    uint32_t size_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    ShapeInfo shape_;
};

/* ---- queues ---- */
class TPipe;
template <TPosition pos> class TBuf;
template <TPosition pos, uint32_t bufIDSize> class TBufPool;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
public:
    static constexpr uint32_t MAX_BUFS = 8;

    template <typename T> LocalTensor<T> AllocTensor(const dvac::Loc &loc = dvac::Loc::here())
    {
        dv_k_t *c = dvac::at(loc);
        check_init(loc, "AllocTensor");
        for (uint32_t n = 0; n < num_; n++) {
            uint32_t i = (next_ + n) % num_;
            if (state_[i] != FREE)
                continue;
            next_ = (i + 1) % num_;
            dvk_bookkeeping(c);
            if (freed_[i] && sync_) { /* WAR: the reader of the previous contents is done */
                if (dvac::g_free_pending[cons_][prod_] & (1u << ev_free_[i]))
                    dvk_wait_flag(c, cons_, prod_, ev_free_[i]);
                dvac::g_free_pending[cons_][prod_] &= (uint16_t)~(1u << ev_free_[i]);
                freed_[i] = false;
            }
            state_[i] = ALLOCED;
            return LocalTensor<T>(buf_[i], (uint32_t)(len_ / sizeof(T)), src);
        }
        dvac::fail_at(loc, "AllocTensor", "all %u buffers of the queue are in use (free one first)", num_);
    }
    template <typename T> void AllocTensor(LocalTensor<T> &t, const dvac::Loc &loc = dvac::Loc::here())
    {
        t = AllocTensor<T>(loc);
    }
    template <typename T> bool EnQue(const LocalTensor<T> &t, const dvac::Loc &loc = dvac::Loc::here())
    {
        dv_k_t *c = dvac::at(loc);
        uint32_t i = slot(t.addr(), loc, "EnQue");
        /* CANN accepts an allocated or a dequeued buffer (kernel_tquebind_impl.h: OCCUPIED / DEQUE) */
        if (state_[i] != ALLOCED && state_[i] != DEQUEUED)
            dvac::fail_at(loc, "EnQue", "the tensor was not allocated from this queue, or is already enqueued");
        dvk_bookkeeping(c);
        if (sync_)
            dvk_set_flag(c, prod_, cons_, ev_full_[i]);
        state_[i] = QUEUED;
        fifo_[(head_ + count_++) % MAX_BUFS] = i;
        return true;
    }
    template <typename T> LocalTensor<T> DeQue(const dvac::Loc &loc = dvac::Loc::here())
    {
        dv_k_t *c = dvac::at(loc);
        check_init(loc, "DeQue");
        if (!count_)
            dvac::fail_at(loc, "DeQue", "the queue is empty (on hardware this waits forever)");
        uint32_t i = fifo_[head_];
        head_ = (head_ + 1) % MAX_BUFS;
        count_--;
        dvk_bookkeeping(c);
        if (sync_)
            dvk_wait_flag(c, prod_, cons_, ev_full_[i]);
        state_[i] = DEQUEUED;
        return LocalTensor<T>(buf_[i], (uint32_t)(len_ / sizeof(T)), dst);
    }
    template <typename T> void DeQue(LocalTensor<T> &t, const dvac::Loc &loc = dvac::Loc::here()) { t = DeQue<T>(loc); }
    template <typename T> void FreeTensor(const LocalTensor<T> &t, const dvac::Loc &loc = dvac::Loc::here())
    {
        dv_k_t *c = dvac::at(loc);
        uint32_t i = slot(t.addr(), loc, "FreeTensor");
        if (state_[i] == FREE)
            dvac::fail_at(loc, "FreeTensor", "the tensor is already free");
        if (state_[i] == QUEUED)
            dvac::fail_at(loc, "FreeTensor", "the tensor is still in the queue (DeQue it first)");
        dvk_bookkeeping(c);
        if (state_[i] == DEQUEUED && sync_) {
            dvk_set_flag(c, cons_, prod_, ev_free_[i]);
            dvac::g_free_pending[cons_][prod_] |= (uint16_t)(1u << ev_free_[i]);
            freed_[i] = true;
        }
        state_[i] = FREE;
    }
    /* Take the free events still pending (each freed buffer's reader done), as the next AllocTensor of each buffer
     * would: after it the queue's events have no flag in flight (CANN's TQueBind::FreeAllEvent). */
    void FreeAllEvent(const dvac::Loc &loc = dvac::Loc::here())
    {
        dv_k_t *c = dvac::at(loc);
        for (uint32_t i = 0; i < num_; i++) {
            if (!freed_[i] || !sync_)
                continue;
            dvk_bookkeeping(c);
            if (dvac::g_free_pending[cons_][prod_] & (1u << ev_free_[i]))
                dvk_wait_flag(c, cons_, prod_, ev_free_[i]);
            dvac::g_free_pending[cons_][prod_] &= (uint16_t)~(1u << ev_free_[i]);
            freed_[i] = false;
        }
    }
    bool HasTensorInQue() const { return count_ > 0; }
    int32_t GetTensorCountInQue() const { return (int32_t)count_; }
    bool VacantInQue() const { return count_ < num_; }
    bool HasIdleBuffer() const
    {
        for (uint32_t i = 0; i < num_; i++)
            if (state_[i] == FREE)
                return true;
        return false;
    }

    /* TPipe::InitBuffer / TBufPool::InitBuffer. */
    void init(dvac::Region &r, uint32_t num, uint32_t len, const dvac::Loc &loc)
    {
        dv_k_t *c = dvac::at(loc);
        if (num_)
            dvac::fail_at(loc, "InitBuffer", "the queue already has its buffers");
        if (num < 1 || num > MAX_BUFS)
            dvac::fail_at(loc, "InitBuffer", "%u buffers: a queue takes 1 to %u", num, MAX_BUFS);
        space_ = dvac::space_of(src);
        if (dvac::space_of(dst) != space_)
            dvac::fail_at(loc, "InitBuffer", "the queue's positions are in different buffers");
        prod_ = dvac::writer_of(src);
        cons_ = dvac::reader_of(dst);
        sync_ = prod_ != cons_;
        for (uint32_t i = 0; i < num; i++) {
            buf_[i] = r.take(space_, len, loc, "InitBuffer");
            if (sync_) {
                ev_full_[i] = dvk_event_alloc(c, prod_, cons_);
                ev_free_[i] = dvk_event_alloc(c, cons_, prod_);
            }
        }
        num_ = num;
        len_ = len;
    }

private:
    enum State : uint8_t { FREE, ALLOCED, QUEUED, DEQUEUED };
    void check_init(const dvac::Loc &loc, const char *api) const
    {
        if (!num_)
            dvac::fail_at(loc, api, "the queue has no buffers (TPipe::InitBuffer was not called)");
    }
    uint32_t slot(uint64_t addr, const dvac::Loc &loc, const char *api) const
    {
        check_init(loc, api);
        for (uint32_t i = 0; i < num_; i++)
            if (buf_[i] == addr)
                return i;
        dvac::fail_at(loc, api, "the tensor is not a buffer of this queue");
    }
    uint32_t num_ = 0, len_ = 0, next_ = 0, head_ = 0, count_ = 0;
    dv_space_t space_ = DV_SPACE_UB;
    dv_pipe_t prod_ = DV_PIPE_MTE2, cons_ = DV_PIPE_V;
    bool sync_ = false;
    uint64_t buf_[MAX_BUFS] = {};
    int ev_full_[MAX_BUFS] = {}, ev_free_[MAX_BUFS] = {};
    bool freed_[MAX_BUFS] = {};
    State state_[MAX_BUFS] = {};
    uint32_t fifo_[MAX_BUFS] = {};
};

template <TPosition pos, int32_t depth = 1, auto mask = 0> class TQue : public TQueBind<pos, pos, depth, mask> {};

/* A fixed local buffer without queue synchronisation (temporary and calculation space). */
template <TPosition pos = TPosition::VECCALC> class TBuf {
public:
    template <typename T> LocalTensor<T> Get(const dvac::Loc &loc = dvac::Loc::here()) const
    {
        if (!inited_)
            dvac::fail_at(loc, "TBuf::Get", "the buffer has no space (TPipe::InitBuffer was not called)");
        return LocalTensor<T>(addr_, len_ / (uint32_t)sizeof(T), pos);
    }
    template <typename T> LocalTensor<T> Get(uint32_t count, const dvac::Loc &loc = dvac::Loc::here()) const
    {
        if ((uint64_t)count * sizeof(T) > len_)
            dvac::fail_at(loc, "TBuf::Get", "%u elements of %zu bytes exceed the buffer's %u bytes", count, sizeof(T), len_);
        return LocalTensor<T>(addr_, count, pos);
    }
    template <typename T> LocalTensor<T> GetWithOffset(uint32_t count, uint32_t bufOffset,
                                                       const dvac::Loc &loc = dvac::Loc::here()) const
    {
        if ((uint64_t)bufOffset + (uint64_t)count * sizeof(T) > len_)
            dvac::fail_at(loc, "TBuf::GetWithOffset", "%u elements at byte %u exceed the buffer's %u bytes", count,
                       bufOffset, len_);
        return LocalTensor<T>(addr_ + bufOffset, count, pos);
    }
    /* CANN's TBuf is a queue of depth 0: AllocTensor hands out the whole buffer, FreeTensor does nothing. */
    template <typename T> LocalTensor<T> AllocTensor(const dvac::Loc &loc = dvac::Loc::here()) const
    {
        return Get<T>(loc);
    }
    template <typename T> void FreeTensor(LocalTensor<T> &, const dvac::Loc & = dvac::Loc::here()) const {}
    void init(dvac::Region &r, uint32_t len, const dvac::Loc &loc)
    {
        addr_ = r.take(dvac::space_of(pos), len, loc, "InitBuffer");
        len_ = len;
        inited_ = true;
    }

private:
    uint64_t addr_ = 0;
    uint32_t len_ = 0;
    bool inited_ = false; /* a buffer of 0 bytes is initialised and empty */
};

/* A part of a local space that queues and buffers can be carved from and reset together. */
template <TPosition pos, uint32_t bufIDSize = 4> class TBufPool {
public:
    template <class Q> bool InitBuffer(Q &que, uint8_t num, uint32_t len, const dvac::Loc &loc = dvac::Loc::here())
    {
        que.init(region_, num, len, loc);
        return true;
    }
    template <TPosition bp> bool InitBuffer(TBuf<bp> &buf, uint32_t len, const dvac::Loc &loc = dvac::Loc::here())
    {
        buf.init(region_, len, loc);
        return true;
    }
    template <class P> bool InitBufPool(P &pool, uint32_t len, const dvac::Loc &loc = dvac::Loc::here())
    {
        pool.carve(region_, len, loc);
        return true;
    }
    void Reset()
    {
        for (auto &u : region_.used)
            u = 0;
    }
    void carve(dvac::Region &from, uint32_t len, const dvac::Loc &loc)
    {
        const dv_space_t s = dvac::space_of(pos);
        uint64_t a = from.take(s, len, loc, "InitBufPool");
        region_.base[s] = DV_ADDR_OFF(a);
        region_.end[s] = DV_ADDR_OFF(a) + len;
        region_.used[s] = 0;
    }

private:
    dvac::Region region_;
};

/* The kernel's local memory: every space handed out from its start. */
class TPipe {
public:
    /* What construction and destruction emit carries the line of the TPipe's declaration. */
    TPipe(const dvac::Loc &loc = dvac::Loc::here());
    ~TPipe();
    template <class Q> bool InitBuffer(Q &que, uint8_t num, uint32_t len, const dvac::Loc &loc = dvac::Loc::here())
    {
        que.init(region_, num, len, loc);
        return true;
    }
    template <TPosition bp> bool InitBuffer(TBuf<bp> &buf, uint32_t len, const dvac::Loc &loc = dvac::Loc::here())
    {
        buf.init(region_, len, loc);
        return true;
    }
    template <class P> bool InitBufPool(P &pool, uint32_t len, const dvac::Loc &loc = dvac::Loc::here())
    {
        pool.carve(region_, len, loc);
        return true;
    }
    template <class P, class Q>
    bool InitBufPool(P &pool, uint32_t len, Q &shareWith, const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)shareWith;
        pool.carve(region_, len, loc);
        return true;
    }
    /* Wait for the buffers freed and not yet reused, restore the control state, give every buffer
     * back (the queues made before must not be used again). */
    void Reset(const dvac::Loc &loc = dvac::Loc::here());
    /* As CANN's: wait for the freed buffers (and, on an AIC, the matmul M -> MTE1 events), then a
     * barrier on every pipe.  The destructor calls it. */
    void Destroy(const dvac::Loc &loc = dvac::Loc::here());
    void Init() {}
    /* Event ids outside the queues (CANN's pool of each HardEvent). */
    template <HardEvent evt> int32_t AllocEventID(const dvac::Loc &loc = dvac::Loc::here());
    template <HardEvent evt> void ReleaseEventID(int32_t id, const dvac::Loc &loc = dvac::Loc::here());
    /* CANN returns TEventID, so `TEventID id = pipe.FetchEventID(...)` compiles. */
    template <HardEvent evt> TEventID FetchEventID(const dvac::Loc &loc = dvac::Loc::here());
    TEventID FetchEventID(HardEvent evt, const dvac::Loc &loc = dvac::Loc::here());
    /* The byte offset in pos's buffer where this TPipe's queues and buffers end (CANN's
     * GetQueueEndAddress<pos>()): the start of PopStackBuffer's stack, the high-level APIs' scratch. */
    template <TPosition pos> uint64_t GetQueueEndAddress() const
    {
        const dv_space_t s = dvac::space_of(pos);
        return region_.base[s] + region_.used[s];
    }

private:
    dvac::Region region_;
    dvac::Loc loc_;
    bool destroyed_ = false;
    int mm_events_[3] = {-1, -1, -1}; /* AIC: the matmul M -> MTE1 events set at construction */
};

/* Static allocation of a local buffer from its start (CANN's LocalMemAllocator). */
template <Hardware hard = Hardware::UB> class LocalMemAllocator {
public:
    uint32_t GetCurAddr() const { return (uint32_t)region_.used[space()]; }
    template <class T, uint32_t tileSize> LocalTensor<T> Alloc(const dvac::Loc &loc = dvac::Loc::here())
    {
        return Alloc<T>(tileSize, loc);
    }
    template <TPosition pos, class T, uint32_t tileSize> LocalTensor<T> Alloc(const dvac::Loc &loc = dvac::Loc::here())
    {
        return Alloc<T>(tileSize, loc);
    }
    template <TPosition pos, class T> LocalTensor<T> Alloc(uint32_t tileSize, const dvac::Loc &loc = dvac::Loc::here())
    {
        return Alloc<T>(tileSize, loc);
    }
    template <class T> LocalTensor<T> Alloc(uint32_t tileSize, const dvac::Loc &loc = dvac::Loc::here())
    {
        uint64_t a = region_.take(space(), (uint64_t)tileSize * sizeof(T), loc, "LocalMemAllocator::Alloc");
        return LocalTensor<T>(a, tileSize, position());
    }
    /* The rest of the buffer. */
    template <class T> LocalTensor<T> Alloc(const dvac::Loc &loc = dvac::Loc::here())
    {
        const uint64_t left = dvk_space_bytes(dvac::k(loc), space()) - region_.used[space()];
        return Alloc<T>((uint32_t)(left / sizeof(T)), loc);
    }

private:
    static constexpr dv_space_t space()
    {
        return hard == Hardware::UB    ? DV_SPACE_UB
               : hard == Hardware::L1  ? DV_SPACE_L1
               : hard == Hardware::L0A ? DV_SPACE_L0A
               : hard == Hardware::L0B ? DV_SPACE_L0B
               : hard == Hardware::L0C ? DV_SPACE_L0C
               : hard == Hardware::BIAS ? DV_SPACE_BT
               : hard == Hardware::FIXBUF ? DV_SPACE_FB
                                         : DV_SPACE_GM;
    }
    static constexpr TPosition position()
    {
        return hard == Hardware::UB    ? TPosition::VECCALC
               : hard == Hardware::L1  ? TPosition::A1
               : hard == Hardware::L0A ? TPosition::A2
               : hard == Hardware::L0B ? TPosition::B2
               : hard == Hardware::L0C ? TPosition::CO1
               : hard == Hardware::BIAS ? TPosition::C2
                                         : TPosition::C2PIPE2GM;
    }
    dvac::Region region_;
};

} // namespace AscendC

namespace dvac {
inline thread_local AscendC::TPipe *g_pipe = nullptr;
}

namespace AscendC {
inline TPipe *GetTPipePtr() { return dvac::g_pipe; }
} // namespace AscendC
using AscendC::GetTPipePtr;

#endif
