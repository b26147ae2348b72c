/* lib/matmul_intf.h - the Matmul high-level API of CANN's Ascend C on dvsim's cube API (dvac/cube.h).
 *
 *   Matmul<MatmulType<GM, ND, half>, MatmulType<GM, ND, half>, MatmulType<GM, ND, float>> mm;
 *   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);   // Init(&tiling, &pipe)
 *   mm.SetTensorA(a); mm.SetTensorB(b);
 *   mm.IterateAll(c);                 // or: while (mm.Iterate()) mm.GetTensorC(c);
 *   mm.End();
 *
 * The data path, per baseM x baseN tile of the core's singleCoreM x singleCoreN part of C, in the
 * tiling's iterate order, walking K in baseK slices:
 *   GM --DataCopy Nd2NzParams--> A1 / B1 (stepKa / stepKb slices per load; depthA1 / (stepM * stepKa)
 *      buffers, 2 = double buffering; a load whose tile and K range the next tile shares stays)
 *      --LoadData 2D-----------> A2 (ZZ) / B2 (ZN) (one or two ping-pong slots: dbL0A and dbL0B both 2)
 *      --Mmad------------------> CO1 (cmatrixInitVal on the first slice; dbL0C buffers); with SetBias
 *                                 the first slice starts from the tile's bias, GM --DataCopy--> B1 (after
 *                                 B's first K group) --copy_l1_to_bt--> C2 (BiasTable) --Mmad with it
 *      --Fixpipe---------------> C in GM (ND, ND_ALIGN or NZ; quantPre F322F16 / F322BF16 for half /
 *                                 bfloat16_t C; enAtomic: SetAtomicAdd / Max / Min before, SetAtomicNone after)
 * L1 and CO1 through TQue queues of the TPipe given to Init (MTE2 -> MTE1, M -> FIX events and back); the L0
 * slots through one M -> MTE1 and one MTE1 -> M event per slot (l0_open / l0_drain), so that several Matmul
 * objects fit the event ids.  docs/ASCENDC.md, "Cube and Matmul API"; the configuration, constant tiling,
 * policies and BatchMatmul: lib/matmul/ and "Host tiling".
 *
 * Supported: A and B in GM as ND (A [M, K] or, transposed, [K, M]; B [K, N] or [N, K]); half and
 * bfloat16_t inputs with any transposition, float and int8_t with A as given and B transposed (the
 * cube's 32-bit and 8-bit operands cannot be transposed by LoadData 2D); C in GM, ND or NZ: float
 * (int32_t for int8_t), or half / bfloat16_t, or C in UB (VECIN / VECOUT) for a mix kernel's AIVs.  A
 * kernel that defines ASCENDC_CUBE_ONLY runs the Matmul on its AIC; a mix kernel drives it from its
 * AIVs, the AIC serving their requests (lib/matmul/kfc.h).  A bias of the accumulator's type (float;
 * int32_t for int8_t) is supported, a half bias is not; the CopyA1 / CopyB1 callbacks and
 * isPartialOutput are; partial sums, HF32 and the DataCopyOut callback fail or do not compile, naming
 * the feature. */
#ifndef DVSIM_LIB_MATMUL_INTF_H
#define DVSIM_LIB_MATMUL_INTF_H

#include "../kernel_operator.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "matmul/matmul_config.h"
#include "../dvac/mm_extra.h"
#include "matmul/ibshare.h"
#include "matmul/kfc.h"

/* CANN's qualifier of the system-workspace kernel parameter (the launch needs nothing from it here). */
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

namespace dvac {
namespace mm {

constexpr uint32_t up16(uint32_t x) { return (x + 15u) / 16u * 16u; }
constexpr uint32_t cdiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* A tile of C: first row and column within the core's part, and its extent. */
struct Tile {
    uint32_t m0, mt, n0, nt;
};

/* Whether the macro named `name` is defined, from the text it expands to ("" or its value) or does
 * not (its own name): lets REGIST_MATMUL_OBJ see ASCENDC_CUBE_ONLY where it is used. */
constexpr bool macro_defined(const char *name, const char *expansion)
{
    for (; *name && *name == *expansion; name++, expansion++) {
    }
    return *name != *expansion;
}

/* The user's copy callbacks of a MatmulCallBackFunc (nullptr when not given). */
template <class CB> struct Callbacks;
template <auto OUT, auto A1, auto B1> struct Callbacks<AscendC::MatmulCallBackFunc<OUT, A1, B1>> {
    static constexpr auto out = OUT;
    static constexpr auto a1 = A1;
    static constexpr auto b1 = B1;
    static constexpr bool has_out = !std::is_null_pointer<decltype(OUT)>::value;
    static constexpr bool has_a1 = !std::is_null_pointer<decltype(A1)>::value;
    static constexpr bool has_b1 = !std::is_null_pointer<decltype(B1)>::value;
};

} // namespace mm
} // namespace dvac

namespace AscendC {

/* The accumulator's type of a Matmul of inputs T (dav-2201; asc-devkit impl/adv_api/detail/matmul/utils/matmul_utils.h). */
template <typename T> struct GetMmDstType {
    using Type = float;
};
template <> struct GetMmDstType<int8_t> {
    using Type = int32_t;
};
namespace Impl {
constexpr int32_t QUEUE_DEPTH = 1; /* depth of the Matmul's queues (matmul_config_utils.h) */
} // namespace Impl

/* The Matmul object (CANN's MatmulImpl of a cube-only kernel). */
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto &MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto & = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class Matmul {
public:
    /* The MatmulConfig (MM_CFG itself, or a constant tiling's: lib/matmul/constant_tiling.h). */
    static constexpr const MatmulConfig &CFG = dvac::mm::config_of(MM_CFG);
    static constexpr bool STATIC_TILING = dvac::mm::is_static(MM_CFG);
    /* The policy (lib/matmul/matmul_policy.h): the triangle ones compute only tiles on one side of the diagonal. */
    static constexpr Impl::Detail::PolicyType POLICY =
        MATMUL_POLICY<MM_CFG, Matmul, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>::POLICY_TYPE;
    using AType = A_TYPE;
    using BType = B_TYPE;
    using CType = C_TYPE;
    using BiasType = BIAS_TYPE;

private:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using L0cT = typename std::conditional<std::is_same<SrcAT, int8_t>::value, int32_t, float>::type;
    static constexpr bool A16 = sizeof(SrcAT) == 2;
    static constexpr uint32_t K0 = 32 / sizeof(SrcAT); /* elements of a fractal's row of K */
    static constexpr bool BIAS_OK = std::is_same<BiasT, L0cT>::value; /* a bias the BiasTable takes */

    static_assert(std::is_same<SrcAT, SrcBT>::value &&
                      (std::is_same<SrcAT, half>::value || std::is_same<SrcAT, bfloat16_t>::value ||
                       std::is_same<SrcAT, float>::value || std::is_same<SrcAT, int8_t>::value),
                  "dvsim Matmul: A and B are both half, bfloat16_t, float or int8_t");
    static_assert(std::is_same<SrcAT, int8_t>::value ? std::is_same<DstT, int32_t>::value
                                                      : (std::is_same<DstT, float>::value ||
                                                         std::is_same<DstT, half>::value ||
                                                         std::is_same<DstT, bfloat16_t>::value),
                  "dvsim Matmul: C is float, half or bfloat16_t (int32_t for int8_t inputs)");
    /* C in CO1: Iterate(enPartialSum, co1Local) leaves each tile in the user's L0C tensor, NZ, for the user's
     * Fixpipe (asc-devkit docs "Iterate": localCmatrix) */
    static constexpr bool C_CO1 = C_TYPE::pos == TPosition::CO1;
    static_assert(!C_CO1 || (C_TYPE::format == CubeFormat::NZ && std::is_same<DstT, L0cT>::value),
                  "dvsim Matmul: C in CO1 is NZ of the accumulator's type (GetMmDstType<A's type>::Type)");
    static constexpr bool C_UB = C_TYPE::pos == TPosition::VECIN || C_TYPE::pos == TPosition::VECOUT ||
                                 C_TYPE::pos == TPosition::VECCALC;
    static_assert(A_TYPE::pos == TPosition::GM && B_TYPE::pos == TPosition::GM &&
                      (C_TYPE::pos == TPosition::GM || C_UB || C_CO1),
                  "dvsim Matmul: A and B in GM (TPosition::GM), C in GM, UB (VECIN / VECOUT / VECCALC) or CO1 are "
                  "supported; L1 positions (TSCM/A1/B1) are not yet");
    static_assert((A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::VECTOR) &&
                      B_TYPE::format == CubeFormat::ND,
                  "dvsim Matmul: A in ND or VECTOR (GEMV) format and B in ND format are supported");
    static_assert(C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::NZ ||
                      C_TYPE::format == CubeFormat::ND_ALIGN,
                  "dvsim Matmul: C in ND, ND_ALIGN or NZ format is supported");
    /* ND_ALIGN: C's rows padded to 32 bytes; the padding columns are written too (L0C holds zeros there). */
    static constexpr uint32_t C_ALIGN = C_TYPE::format == CubeFormat::ND_ALIGN ? 32 / sizeof(DstT) : 1;
    static_assert(A_TYPE::layout == LayoutMode::NONE || A_TYPE::layout == LayoutMode::NORMAL ||
                      A_TYPE::layout == LayoutMode::BSNGD,
                  "dvsim Matmul: batch layouts NORMAL and BSNGD are supported (SBNGD, BNGS1S2 are not yet)");
    static_assert(B_TYPE::layout == A_TYPE::layout && (C_TYPE::layout == A_TYPE::layout ||
                                                      C_TYPE::layout == LayoutMode::NONE),
                  "dvsim Matmul: A, B (and C) of a BatchMatmul have the same layout");
    using CB = dvac::mm::Callbacks<MM_CB>;
    static_assert(!CB::has_out, "dvsim Matmul: the DataCopyOut callback (MatmulCallBackFunc) is not supported yet; "
                  "CopyA1 and CopyB1 are");
    /* Configuration that changes what is computed or where it lands must not be ignored (a wrong
     * answer); what only changes the schedule (A2B2 or CO1 sharing, K reorder, bank-conflict and
     * cache options) is accepted and does not change dvsim's schedule. */
    static_assert(!CFG.isEnableChannelSplit, "dvsim Matmul: MatmulConfig::isEnableChannelSplit is not supported yet");
    static_assert(!CFG.intraBlockPartSum, "dvsim Matmul: MatmulConfig::intraBlockPartSum is not supported yet");
    static_assert(!CFG.enableStaticPadZeros, "dvsim Matmul: MatmulConfig::enableStaticPadZeros is not supported yet");
    static_assert(CFG.decompMode == DecompressionMode::DECOMP_NONE,
                  "dvsim Matmul: MatmulConfig::decompMode (sparse / compressed B) is not supported yet");

public:
    Matmul() = default;

    /* Take the tiling and allocate A1, B1, A2, B2 and CO1 from the TPipe (the current one when NULL). */
    void Init(const TCubeTiling *cubeTiling, TPipe *tpipe = nullptr, const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "Matmul::Init";
        if (!cubeTiling && !STATIC_TILING)
            dvac::fail_at(loc, api, "the tiling is NULL");
        t_ = cubeTiling ? *cubeTiling : dvac::mm::tiling_of(MM_CFG);
        pipe_ = tpipe ? tpipe : GetTPipePtr();
        dv_k_t *c = dvac::at(loc);
        cube_ = dvac::cube_here(c);
        check_tiling(c, loc, api);
        orgM_ = t_.M;
        orgN_ = t_.N;
        orgKa_ = t_.Ka;
        orgKb_ = t_.Kb;
        orgKc_ = 0;
        sm_ = t_.singleCoreM;
        sn_ = t_.singleCoreN;
        sk_ = t_.singleCoreK;
        inited_ = true;
        if (!cube_)
            return;
        if (!pipe_)
            dvac::fail_at(loc, api, "no TPipe: pass one to REGIST_MATMUL_OBJ / Init or construct one first");
        pipe_->InitBuffer(qa1_, na1_, a1_bytes(), loc);
        pipe_->InitBuffer(qb1_, nb1_, b1_bytes() + (biasL1_ ? bt_bytes() : 0), loc); /* bias row after B */
        slots_ = t_.dbL0A == 2 && t_.dbL0B == 2 ? 2 : 1;
        pipe_->InitBuffer(a2buf_, slots_ * a2_bytes(), loc);
        pipe_->InitBuffer(b2buf_, slots_ * b2_bytes(), loc);
        if (!C_CO1) /* C in CO1: the user's L0C tensor */
            pipe_->InitBuffer(qc_, t_.dbL0C, up(t_.baseM) * up(t_.baseN) * sizeof(L0cT), loc);
        if (t_.isBias) {
            pipe_->InitBuffer(btbuf_, bt_bytes(), loc);
        }
    }

    /* The whole matrices' shape (elements): M, N and K (= Ka = Kb), or Ka, Kb and C's row pitch Kc. */
    void SetOrgShape(int orgM, int orgN, int orgK, const dvac::Loc &loc = dvac::Loc::here())
    {
        SetOrgShape(orgM, orgN, orgK, orgK, 0, loc);
    }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0 || orgKc < 0)
            dvac::fail_at(loc, "Matmul::SetOrgShape", "shape %d x %d x %d (Kb %d, Kc %d) is not positive", orgM, orgN,
                          orgKa, orgKb, orgKc);
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
        orgKc_ = orgKc;
    }
    /* This core's part: singleM x singleN of C over singleK. */
    void SetSingleShape(int singleM, int singleN, int singleK, const dvac::Loc &loc = dvac::Loc::here())
    {
        SetTail(singleM, singleN, singleK, loc);
    }
    /* A smaller part at the edge of C (-1 keeps a dimension). */
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (tailM == 0 || tailN == 0 || tailK == 0 || tailM < -1 || tailN < -1 || tailK < -1)
            dvac::fail_at(loc, "Matmul::SetTail", "tail %d x %d x %d: each is -1 (unchanged) or positive", tailM, tailN,
                          tailK);
        if (tailM > 0)
            sm_ = (uint32_t)tailM;
        if (tailN > 0)
            sn_ = (uint32_t)tailN;
        if (tailK > 0)
            sk_ = (uint32_t)tailK;
    }

    /* A: [M, K] in GM (transposed: [K, M]), starting at this core's first row (column). */
    void SetTensorA(const GlobalTensor<SrcAT> &gm, bool isTransposeA = false, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (isTransposeA && !A16)
            dvac::fail_at(loc, "Matmul::SetTensorA", "a transposed A of %zu-byte elements needs a transposing load "
                          "of 32-bit / 8-bit fractals, which dvsim does not support yet", sizeof(SrcAT));
        a_ = gm;
        ta_ = isTransposeA;
        hasA_ = true;
    }
    /* B: [K, N] in GM (transposed: [N, K]), starting at this core's first column (row). */
    void SetTensorB(const GlobalTensor<SrcBT> &gm, bool isTransposeB = false, const dvac::Loc &loc = dvac::Loc::here())
    {
        if (!isTransposeB && !A16)
            dvac::fail_at(loc, "Matmul::SetTensorB", "B of %zu-byte elements must be given transposed ([N, K], "
                          "isTransposeB): the cube's %zu-byte right operand cannot be transposed by LoadData 2D",
                          sizeof(SrcBT), sizeof(SrcBT));
        b_ = gm;
        tb_ = isTransposeB;
        hasB_ = true;
    }
    /* The bias row (N values of C's accumulator type in GM, from this core's first column): each tile's
     * part goes GM -> C1 -> C2 (BiasTable) and starts the tile's first Mmad.  The tiling must have been
     * made with EnableBias(true). */
    void SetBias(const GlobalTensor<BiasT> &biasGlobal, const dvac::Loc &loc = dvac::Loc::here())
    {
        if constexpr (!BIAS_OK) /* a located error, not a static_assert: kernels call SetBias under `if (isBias)` */
            dvac::fail_at(loc, "Matmul::SetBias", "the bias is of the accumulator's type (float, int32_t for int8_t "
                          "inputs); a %zu-byte bias needs the conversion on the BiasTable load, not modelled yet",
                          sizeof(BiasT));
        if (!inited_ || !t_.isBias)
            dvac::fail_at(loc, "Matmul::SetBias", "the tiling has no bias (isBias 0: EnableBias(true) on the host)");
        if (cube_ && !biasL1_)
            dvac::fail_at(loc, "Matmul::SetBias", "the tiling's A1 and B1 loads (depthA1 %d, depthB1 %d) leave no room "
                          "in L1 for the bias rows (%u x %u bytes)", t_.depthA1, t_.depthB1, nb1_, bt_bytes());
        bias_ = biasGlobal;
        hasBias_ = true;
    }
    void DisableBias() { hasBias_ = false; }
    /* The values the copy callbacks get as tilingPtr and dataPtr (MatmulCallBackFunc). */
    void SetUserDefInfo(const uint64_t tilingPtr) { userInfo_ = tilingPtr; }
    template <class T> void SetSelfDefineData(T dataPtr) { selfData_ = (uint64_t)dataPtr; }
    void ClearBias() { hasBias_ = false; }
    /* HF32 changes float products' rounding, which the model does not do: only false is accepted. */
    void SetHF32(bool enableHF32 = false, int32_t transMode = 0, const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)transMode;
        if (enableHF32)
            dvac::fail_at(loc, "Matmul::SetHF32", "HF32 mode is not supported by dvsim yet");
    }
    void SetSubBlockIdx(uint8_t subBlockIdx) { sub_ = subBlockIdx; }
    uint8_t GetSubBlockIdx() { return sub_; }
    /* UB scratch of 310P-class chips; dav-2201 does not use it. */
    void SetLocalWorkspace(const LocalTensor<uint8_t> &tmpBuffer) { (void)tmpBuffer; }

    /* Compute the next baseM x baseN tile of C into CO1; false when the part is done (the next call
     * starts over). */
    template <bool sync = true> bool Iterate(bool enPartialSum = false, const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "Matmul::Iterate";
        ready(loc, api);
        if (C_CO1 && !useUserCo_)
            dvac::fail_at(loc, api, "C is in CO1: Iterate(enPartialSum, co1Local) gives each tile to the user's L0C");
        if (enPartialSum)
            dvac::fail_at(loc, api, "enPartialSum (accumulating onto CO1) is not supported by dvsim yet");
        if (pending_)
            dvac::fail_at(loc, api, "the previous tile was not taken out with GetTensorC");
        if (next_ == 0) {
            mIter_ = dvac::mm::cdiv(sm_, t_.baseM);
            nIter_ = dvac::mm::cdiv(sn_, t_.baseN);
            order_ = CFG.iterateOrder != IterateOrder::UNDEF ? (uint32_t)CFG.iterateOrder
                                                                : (uint32_t)t_.iterateOrder;
        }
        if (!sync && client_) { /* every tile into the workspace (SetWorkspace); GetTensorC<false> takes them */
            if (!hasWs_)
                dvac::fail_at(loc, api, "Iterate<false> writes the tiles to the workspace: SetWorkspace first");
            dvac::mm::Request r = request(dvac::mm::OP_ITERATE_WS, ws_);
            asyncSeq_ = dvac::mm::post(dvac::k(), aiv_, r);
            asyncPending_ = true;
            asyncNext_ = 0;
            return true;
        }
        /* isPartialOutput: each tile is given once per baseK slice, the slice's product alone; the
         * triangle policies skip the tiles on the other side of the diagonal */
        const uint32_t kIter = CFG.isPartialOutput ? dvac::mm::cdiv(sk_, t_.baseK) : 1;
        uint32_t mi = 0, ni = 0, kSlice = 0;
        for (;;) {
            if (next_ == mIter_ * nIter_ * kIter) {
                release(loc);
                next_ = 0;
                return false;
            }
            const uint32_t i = next_ / kIter;
            kSlice = next_ % kIter;
            next_++;
            mi = order_ == 0 ? i % mIter_ : i / nIter_;
            ni = order_ == 0 ? i / mIter_ : i % nIter_;
            if (!(POLICY == Impl::Detail::PolicyType::MATMUL_UPPER_TRIANGULAR && mi > ni) &&
                !(POLICY == Impl::Detail::PolicyType::MATMUL_LOWER_TRIANGULAR && mi < ni))
                break;
        }
        cur_.m0 = mi * t_.baseM;
        cur_.n0 = ni * t_.baseN;
        cur_.mt = sm_ - cur_.m0 < (uint32_t)t_.baseM ? sm_ - cur_.m0 : t_.baseM;
        cur_.nt = sn_ - cur_.n0 < (uint32_t)t_.baseN ? sn_ - cur_.n0 : t_.baseN;
        if (cube_)
            compute(mi, ni, loc, CFG.isPartialOutput ? kSlice : 0, CFG.isPartialOutput ? kSlice + 1 : ~0u);
        pending_ = true;
        return true;
    }

    /* C in CO1: compute the next tile into co1Local (NZ: up16(baseM) rows per 16-column block); false when the
     * part is done.  The tile is the user's: it reaches GM through the user's Fixpipe (after the user's CO1
     * queue's EnQue / DeQue, the M -> FIX wait), not through GetTensorC. */
    template <bool sync = true>
    bool Iterate(bool enPartialSum, const LocalTensor<DstT> &co1Local, const dvac::Loc &loc = dvac::Loc::here())
    {
        static_assert(C_CO1, "dvsim Matmul: Iterate into a LocalTensor needs C in CO1 (MatmulType<TPosition::CO1, "
                      "CubeFormat::NZ, ...>)");
        if (client_)
            dvac::fail_at(loc, "Matmul::Iterate", "C in CO1 is computed by a cube-only kernel's AIC");
        userCo_ = co1Local;
        useUserCo_ = true;
        const bool more = Iterate<sync>(enPartialSum, loc);
        useUserCo_ = false;
        pending_ = false;
        return more;
    }

    /* Write the tile of the last Iterate to C: at its place in the core's part (gm = its first
     * element), or with enSequentialWrite as a baseM x baseN block at gm. */
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "Matmul::GetTensorC";
        ready(loc, api);
        if (enAtomic > 3)
            dvac::fail_at(loc, api, "enAtomic %u is not 0 (store), 1 (add), 2 (max) or 3 (min)", enAtomic);
        if (!pending_)
            dvac::fail_at(loc, api, "no tile: call Iterate first");
        pending_ = false;
        if (client_) {
            dvac::mm::Request r = request(dvac::mm::OP_TILE, gm);
            r.tile = next_ - 1;
            r.atomic = enAtomic;
            r.sequential = enSequentialWrite;
            const uint64_t seq = dvac::mm::post(dvac::k(), aiv_, r);
            if (sync)
                dvac::mm::wait_done(dvac::k(), aiv_, seq);
            return;
        }
        if (!cube_)
            return;
        if (enAtomic == 1)
            SetAtomicAdd<DstT>(loc);
        else if (enAtomic == 2)
            SetAtomicMax<DstT>(loc);
        else if (enAtomic == 3)
            SetAtomicMin<DstT>(loc);
        write_out(gm, enSequentialWrite, loc);
        if (enAtomic)
            SetAtomicNone(loc);
    }

    /* Every tile of the core's part into C (gm = the part's first element). */
    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false, const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)waitIterateAll;
        (void)fakeMsg;
        if (enSequentialWrite)
            dvac::fail_at(loc, "Matmul::IterateAll", "enSequentialWrite would write every tile to the same place");
        if (client_) {
            ready(loc, "Matmul::IterateAll");
            dvac::mm::Request r = request(dvac::mm::OP_ITERATE_ALL, gm);
            r.atomic = enAtomic;
            const uint64_t seq = dvac::mm::post(dvac::k(), aiv_, r);
            if (sync) {
                dvac::mm::wait_done(dvac::k(), aiv_, seq);
            } else {
                asyncSeq_ = seq;
                asyncPending_ = true;
            }
            return;
        }
        while (Iterate<true>(false, loc))
            GetTensorC<true>(gm, enAtomic, false, loc);
    }

    /* Wait for the IterateAll<false> sent last (a mix kernel's AIV). */
    void WaitIterateAll(const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)loc;
        if (client_ && asyncPending_) {
            dvac::mm::wait_done(dvac::k(), aiv_, asyncSeq_);
            asyncPending_ = false;
        }
    }

    /* The workspace of Iterate<false>: tile i (baseM x baseN, rows of baseN) at element i * baseM * baseN. */
    template <class WsT> void SetWorkspace(const GlobalTensor<WsT> &addr, const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)loc;
        ws_.SetGlobalBuffer(reinterpret_cast<__gm__ DstT *>(addr.GetPhyAddr()), addr.GetSize() * sizeof(WsT) /
                                                                                   sizeof(DstT));
        hasWs_ = true;
    }
    template <class WsT> void SetWorkspace(__gm__ const WsT *addr, int size, const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)loc;
        ws_.SetGlobalBuffer(reinterpret_cast<__gm__ DstT *>(const_cast<WsT *>(addr)),
                            (uint64_t)size * sizeof(WsT) / sizeof(DstT));
        hasWs_ = true;
    }

    /* C into UB (VECIN / VECOUT / VECCALC C; a mix kernel's AIV): the last Iterate's tile (Iterate<true>), or
     * with Iterate<false> the next tile from the workspace, as baseM rows of baseN elements.  On dav-2201
     * L0C cannot reach UB: the AIC writes the tile to GM (the system workspace) and the AIV copies it in. */
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT> &ub, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "Matmul::GetTensorC";
        (void)enSequentialWrite;
        if (!client_)
            dvac::fail_at(loc, api, "C into UB is given by the AIC to an AIV of a mix kernel (ASCENDC_CUBE_ONLY is "
                          "defined, or REGIST_MATMUL_OBJ was not used)");
        if (enAtomic)
            dvac::fail_at(loc, api, "enAtomic into UB is not supported by dvsim yet");
        dv_k_t *c = dvac::at(loc);
        const uint32_t tileElems = (uint32_t)t_.baseM * (uint32_t)t_.baseN;
        if (asyncPending_ && !sync) {
            dvac::mm::wait_done(c, aiv_, asyncSeq_);
            DataCopy(ub, ws_[(uint64_t)asyncNext_++ * tileElems], tileElems, loc);
            return;
        }
        ready(loc, api);
        if (!pending_)
            dvac::fail_at(loc, api, "no tile: call Iterate first");
        pending_ = false;
        GM_ADDR sys = GetSysWorkSpacePtr();
        const uint64_t per = (uint64_t)tileElems * sizeof(DstT);
        const uint64_t off = ((uint64_t)dvk_block_idx(c) * dvk_config(c)->chip_aiv_per_core + aiv_) * per;
        if (!sys || off + per > ::dvac::SYS_WORKSPACE_BYTES)
            dvac::fail_at(loc, api, "the system workspace (GetSysWorkSpacePtr) cannot hold this AIV's tile");
        GlobalTensor<DstT> stage;
        stage.SetGlobalBuffer(reinterpret_cast<__gm__ DstT *>(sys + off), tileElems);
        dvac::mm::Request r = request(dvac::mm::OP_TILE, stage);
        r.tile = next_ - 1;
        r.sequential = true;
        dvac::mm::wait_done(c, aiv_, dvac::mm::post(c, aiv_, r));
        DataCopy(ub, stage, cur_.mt * (uint32_t)t_.baseN, loc);
    }

    /* BatchMatmul: max(batchA, batchB) products of the batch layout (A_TYPE::layout, the tiling's
     * *LayoutInfo* fields) from the tensors of SetTensorA / SetTensorB, into C at gm; batch i takes A's
     * matrix i * batchA / batch and B's i * batchB / batch (broadcast), and, with MatmulConfig::isBiasBatch,
     * the bias row of batch i.  NORMAL: matrices one after the other (matrixStrideA / B: their distance in
     * elements, 0: their size); BSNGD ([b, s, n, g, d]): matrices d apart, rows n * g * d apart. */
    void IterateBatch(const GlobalTensor<DstT> &gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "Matmul::IterateBatch";
        static_assert(A_TYPE::layout != LayoutMode::NONE, "dvsim Matmul: IterateBatch needs A, B and C types with a "
                      "batch layout (MatmulType's LAYOUT: NORMAL or BSNGD)");
        static_assert(C_TYPE::format == CubeFormat::ND, "dvsim Matmul: IterateBatch writes C in ND");
        ready(loc, api);
        if (enSequentialWrite || enPartialSum)
            dvac::fail_at(loc, api, "enSequentialWrite and enPartialSum are not supported by dvsim yet");
        const uint32_t batch = batchA > batchB ? batchA : batchB;
        if (!batchA || !batchB || batch % batchA || batch % batchB)
            dvac::fail_at(loc, api, "batchA %u and batchB %u: positive, the larger a multiple of the other", batchA,
                          batchB);
        const dvac::mm::BatchGeometry g = dvac::mm::batch_geometry(t_, A_TYPE::layout == LayoutMode::BSNGD, ta_, tb_,
                                                                    sm_, sn_, sk_, matrixStrideA, matrixStrideB,
                                                                    matrixStrideC);
        const GlobalTensor<SrcAT> a0 = a_;
        const GlobalTensor<SrcBT> b0 = b_;
        const GlobalTensor<BiasT> bias0 = bias_;
        const int32_t keep[5] = {orgM_, orgN_, orgKa_, orgKb_, orgKc_};
        (ta_ ? orgM_ : orgKa_) = (int32_t)g.pitchA;
        (tb_ ? orgKb_ : orgN_) = (int32_t)g.pitchB;
        orgKc_ = (int32_t)g.pitchC;
        for (uint32_t i = 0; i < batch; i++) {
            a_ = a0[(uint64_t)(i * batchA / batch) * g.strideA];
            b_ = b0[(uint64_t)(i * batchB / batch) * g.strideB];
            if (CFG.isBiasBatch)
                bias_ = bias0[(uint64_t)i * g.strideBias];
            IterateAll(gm[(uint64_t)i * g.strideC], enAtomic, false, false, false, loc);
        }
        a_ = a0;
        b_ = b0;
        bias_ = bias0;
        orgM_ = keep[0], orgN_ = keep[1], orgKa_ = keep[2], orgKb_ = keep[3], orgKc_ = keep[4];
    }

    /* batchLoop IterateBatch calls of batchA x batchB products each, into the workspace of SetWorkspace (needs
     * MatmulConfig::isNBatch): call i starts A, B and C at CANN's CalcNBatchoffset of i (NORMAL: i * batch
     * matrices on; BSNGD: batch (n, g) matrices on, wrapping into the next b) and the bias batchC rows on (asc-devkit
     * impl/adv_api/detail/matmul/kfc/matmul_server_impl_c220.h StartIterateNBatch, utils/batch_matmul_utils.h).
     * The asynchronous form (sync false) completes before it returns: its results are in the workspace then. */
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                       const uint32_t matrixStrideC = 0, const dvac::Loc &loc = dvac::Loc::here())
    {
        const char *api = "Matmul::IterateNBatch";
        static_assert(CFG.isNBatch, "dvsim Matmul: IterateNBatch needs MatmulConfig::isNBatch (GetMMConfig with "
                      "MatmulBatchParams{true, ...})");
        if (!hasWs_)
            dvac::fail_at(loc, api, "IterateNBatch writes C to the workspace: SetWorkspace first");
        const uint32_t batch = batchA > batchB ? batchA : batchB;
        uint32_t batchC = batch;
        if (t_.CLayoutInfoG == 1 && (t_.BLayoutInfoG != 1 || t_.ALayoutInfoG != 1)) {
            const uint32_t g = (uint32_t)(t_.BLayoutInfoG > t_.ALayoutInfoG ? t_.BLayoutInfoG : t_.ALayoutInfoG);
            batchC /= g;
        }
        const GlobalTensor<SrcAT> a0 = a_;
        const GlobalTensor<SrcBT> b0 = b_;
        const GlobalTensor<BiasT> bias0 = bias_;
        for (uint32_t i = 0; i < batchLoop; i++) {
            a_ = a0[nbatch_offset(batchA, i, t_.ALayoutInfoN, t_.ALayoutInfoG, t_.ALayoutInfoD, t_.ALayoutInfoS)];
            b_ = b0[nbatch_offset(batchB, i, t_.BLayoutInfoN, t_.BLayoutInfoG, t_.BLayoutInfoD, t_.BLayoutInfoS)];
            bias_ = bias0[(uint64_t)t_.CLayoutInfoS2 * batchC * i];
            const uint64_t offC = nbatch_offset(batchC, i, t_.CLayoutInfoN, t_.CLayoutInfoG, t_.CLayoutInfoS2,
                                                t_.CLayoutInfoS1);
            IterateBatch(ws_[offC], batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
                         false, 0, loc);
        }
        a_ = a0;
        b_ = b0;
        bias_ = bias0;
    }
    /* Nothing to wait for: IterateNBatch has completed when it returns. */
    void WaitIterateBatch(const dvac::Loc &loc = dvac::Loc::here()) { (void)loc; }

    /* Where the last Iterate's tile is in the core's part of C. */
    template <bool isTurnOnDebug = true> MatrixOffset GetOffsetC()
    {
        MatrixOffset o;
        o.offset = (int32_t)(cur_.m0 * pitch_c() + cur_.n0);
        o.row = (int32_t)cur_.m0;
        o.col = (int32_t)cur_.n0;
        o.height = (int32_t)cur_.mt;
        o.width = (int32_t)cur_.nt;
        return o;
    }

    /* Finish: L1 contents held for the next tile are given back. */
    void End(const dvac::Loc &loc = dvac::Loc::here())
    {
        if (pending_ && !client_)
            dvac::fail_at(loc, "Matmul::End", "the last tile was not taken out with GetTensorC");
        pending_ = false;
        if (cube_)
            release(loc);
        next_ = 0;
        asyncPending_ = false;
    }

    /* ---- a mix kernel (lib/matmul/kfc.h) ---- */
    /* On an AIV: this object's requests go to the block's AIC as object `idx`. */
    void kfc_client(uint32_t idx, uint32_t aiv)
    {
        client_ = true;
        objIdx_ = idx;
        aiv_ = aiv;
    }
    void kfc_pipe(TPipe *p) { pipe_ = p; }
    /* On the AIC: run one request of an AIV (its Matmul's settings come with it). */
    static void kfc_serve(void *self, const dvac::mm::Request &r, uint32_t aiv, const dvac::Loc &loc)
    {
        (void)aiv;
        Matmul &m = *static_cast<Matmul *>(self);
        const Matmul &s = *static_cast<const Matmul *>(r.state.get());
        if (!m.inited_)
            m.Init(&s.t_, m.pipe_, loc);
        m.take(s);
        GlobalTensor<DstT> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ DstT *>((uintptr_t)r.gm), r.gm_bytes / sizeof(DstT));
        m.pending_ = false;
        if (r.op == dvac::mm::OP_ITERATE_ALL) {
            m.next_ = 0;
            while (m.Iterate<true>(false, loc))
                m.GetTensorC<true>(g, r.atomic, false, loc);
        } else if (r.op == dvac::mm::OP_TILE) {
            m.next_ = r.tile;
            if (m.Iterate<true>(false, loc))
                m.GetTensorC<true>(g, r.atomic, r.sequential, loc);
            m.release(loc);
        } else if (r.op == dvac::mm::OP_ITERATE_WS) {
            m.next_ = 0;
            for (uint32_t i = 0; m.Iterate<true>(false, loc); i++)
                m.GetTensorC<true>(g[(uint64_t)i * t_tile(m)], 0, true, loc);
        }
        m.next_ = 0;
        m.pending_ = false;
    }

private:
    /* CANN's CalcNBatchoffset in elements: where batch loop i's matrices start. */
    static uint64_t nbatch_offset(uint32_t batch, uint32_t i, int32_t n, int32_t g, int32_t d, int32_t s)
    {
        if constexpr (A_TYPE::layout == LayoutMode::BSNGD) {
            const uint64_t ng = (uint64_t)n * (uint64_t)g, first = (uint64_t)i * batch;
            return (first / ng) * (uint64_t)d * (uint64_t)s * ng + (first % ng) * (uint64_t)d;
        } else {
            return (uint64_t)d * (uint64_t)s * batch * i;
        }
    }
    static uint64_t t_tile(const Matmul &m) { return (uint64_t)m.t_.baseM * (uint64_t)m.t_.baseN; }
    /* A request carrying this object's settings, writing C at `gm`. */
    dvac::mm::Request request(uint32_t op, const GlobalTensor<DstT> &gm) const
    {
        dvac::mm::Request r;
        r.obj = objIdx_;
        r.op = op;
        r.state = std::make_shared<Matmul>(*this);
        r.gm = (uint64_t)(uintptr_t)gm.GetPhyAddr();
        r.gm_bytes = gm.GetSize() * sizeof(DstT);
        return r;
    }
    /* The settings an AIV's request brings. */
    void take(const Matmul &s)
    {
        orgM_ = s.orgM_;
        orgN_ = s.orgN_;
        orgKa_ = s.orgKa_;
        orgKb_ = s.orgKb_;
        orgKc_ = s.orgKc_;
        sm_ = s.sm_;
        sn_ = s.sn_;
        sk_ = s.sk_;
        a_ = s.a_;
        b_ = s.b_;
        ta_ = s.ta_;
        tb_ = s.tb_;
        hasA_ = s.hasA_;
        hasB_ = s.hasB_;
        bias_ = s.bias_;
        hasBias_ = s.hasBias_;
        userInfo_ = s.userInfo_;
        selfData_ = s.selfData_;
    }

    /* ---- tiling ---- */
    static constexpr uint32_t up(int32_t x) { return dvac::mm::up16((uint32_t)x); }
    /* baseK as the L0 buffers hold it: whole fractal rows of K. */
    uint32_t bk_al() const { return (uint32_t)t_.baseK; }
    uint32_t a1_bytes() const { return up(t_.baseM) * up(t_.stepKa * t_.baseK) * sizeof(SrcAT); }
    uint32_t a2_bytes() const { return up(t_.baseM) * bk_al() * sizeof(SrcAT); }
    uint32_t b2_bytes() const { return bk_al() * up(t_.baseN) * sizeof(SrcBT); }
    uint32_t b1_bytes() const { return up(t_.baseN) * up(t_.stepKb * t_.baseK) * sizeof(SrcBT); }
    uint32_t pitch_c() const
    {
        return orgKc_ ? (uint32_t)orgKc_ : ((uint32_t)orgN_ + C_ALIGN - 1) / C_ALIGN * C_ALIGN;
    }
    /* A tile's bias row in L1 and in the BiasTable: whole 64-byte units of the BiasTable load. */
    uint32_t bt_bytes() const { return ((uint32_t)t_.baseN * 4u + 63u) / 64u * 64u; }

    /* The fields this implementation reads, against the rules of TCubeTiling and the profile's
     * buffers (a failure names the field). */
    void check_tiling(dv_k_t *c, const dvac::Loc &loc, const char *api)
    {
        const TCubeTiling &t = t_;
        if (t.M <= 0 || t.N <= 0 || t.Ka <= 0 || t.Kb <= 0 || t.singleCoreM <= 0 || t.singleCoreN <= 0 ||
            t.singleCoreK <= 0)
            dvac::fail_at(loc, api, "TCubeTiling M %d, N %d, Ka %d, Kb %d, singleCoreM %d, singleCoreN %d, singleCoreK "
                          "%d must be positive (was the tiling filled by GetTiling?)", t.M, t.N, t.Ka, t.Kb,
                          t.singleCoreM, t.singleCoreN, t.singleCoreK);
        if (t.baseM <= 0 || t.baseN <= 0 || t.baseM % 16 || t.baseN % 16)
            dvac::fail_at(loc, api, "TCubeTiling baseM %d and baseN %d must be positive multiples of 16", t.baseM,
                          t.baseN);
        if (t.baseK <= 0 || t.baseK % 16 || (uint32_t)t.baseK % K0)
            dvac::fail_at(loc, api, "TCubeTiling baseK %d must be a positive multiple of %u", t.baseK,
                          K0 > 16 ? K0 : 16);
        if (t.stepKa <= 0 || t.stepKb <= 0 || t.stepM <= 0 || t.stepN <= 0)
            dvac::fail_at(loc, api, "TCubeTiling stepM %d, stepN %d, stepKa %d, stepKb %d must be positive", t.stepM,
                          t.stepN, t.stepKa, t.stepKb);
        if (t.depthA1 < t.stepM * t.stepKa || t.depthB1 < t.stepN * t.stepKb)
            dvac::fail_at(loc, api, "TCubeTiling depthA1 %d must be at least stepM x stepKa (%d) and depthB1 %d at "
                          "least stepN x stepKb (%d)", t.depthA1, t.stepM * t.stepKa, t.depthB1, t.stepN * t.stepKb);
        if ((t.dbL0A != 1 && t.dbL0A != 2) || (t.dbL0B != 1 && t.dbL0B != 2) || (t.dbL0C != 1 && t.dbL0C != 2))
            dvac::fail_at(loc, api, "TCubeTiling dbL0A %d, dbL0B %d, dbL0C %d must be 1 or 2", t.dbL0A, t.dbL0B,
                          t.dbL0C);
        if (t.iterateOrder != 0 && t.iterateOrder != 1)
            dvac::fail_at(loc, api, "TCubeTiling iterateOrder %d must be 0 (M first) or 1 (N first)", t.iterateOrder);
        na1_ = t.depthA1 >= 2 * t.stepM * t.stepKa ? 2 : 1;
        nb1_ = t.depthB1 >= 2 * t.stepN * t.stepKb ? 2 : 1;
        const uint64_t loads = (uint64_t)na1_ * a1_bytes() + (uint64_t)nb1_ * b1_bytes();
        struct {
            const char *what;
            dv_space_t s;
            uint64_t bytes;
        } need[] = {
            {"dbL0A x baseM x baseK", DV_SPACE_L0A, (uint64_t)t.dbL0A * up(t.baseM) * bk_al() * sizeof(SrcAT)},
            {"dbL0B x baseK x baseN", DV_SPACE_L0B, (uint64_t)t.dbL0B * bk_al() * up(t.baseN) * sizeof(SrcBT)},
            {"dbL0C x baseM x baseN", DV_SPACE_L0C, (uint64_t)t.dbL0C * up(t.baseM) * up(t.baseN) * sizeof(L0cT)},
            {"the A1 and B1 loads (depthA1, depthB1, stepKa, stepKb)", DV_SPACE_L1, loads},
            {"baseN x 4-byte bias values (isBias)", DV_SPACE_BT, t.isBias ? (uint64_t)bt_bytes() : 0},
        };
        for (const auto &n : need)
            if (n.bytes > dvk_space_bytes(c, n.s))
                dvac::fail_at(loc, api, "TCubeTiling %s is %llu bytes, more than %s holds (%s %llu)", n.what,
                              (unsigned long long)n.bytes, dvk_space_name(n.s), dvk_space_key(n.s),
                              (unsigned long long)dvk_space_bytes(c, n.s));
        /* The bias rows (one after each B1 buffer) take L1 only if they fit beside the loads; a kernel that
         * never calls SetBias runs without them (as on the hardware, where the unused rows are never
         * touched), and SetBias then fails, naming L1 (biasL1_). */
        biasL1_ = t.isBias && loads + (uint64_t)nb1_ * bt_bytes() <= dvk_space_bytes(c, DV_SPACE_L1);
    }

    void ready(const dvac::Loc &loc, const char *api)
    {
        if (!inited_)
            dvac::fail_at(loc, api, "the Matmul has no tiling (REGIST_MATMUL_OBJ with a tiling, or Init)");
        if (!hasA_ || !hasB_)
            dvac::fail_at(loc, api, "SetTensorA and SetTensorB first");
        if (A_TYPE::format == CubeFormat::VECTOR && sm_ != 1) /* GEMV: A is one row of K, run as a 1-row ND A */
            dvac::fail_at(loc, api, "A in VECTOR format is one row: singleCoreM is %u", sm_);
        if (sk_ > (uint32_t)orgKa_ || sk_ > (uint32_t)orgKb_)
            dvac::fail_at(loc, api, "singleCoreK %u is more than Ka %d or Kb %d", sk_, orgKa_, orgKb_);
    }

    /* ---- L1 loads ---- */
    /* The A load of group ga of tile row mi into A1 (reused while the next tile needs the same one). */
    void load_a(uint32_t mi, uint32_t ga, const dvac::Loc &loc)
    {
        const uint64_t key = (uint64_t)mi << 32 | ga;
        if (aHeld_ && aKey_ == key)
            return;
        if (aHeld_)
            qa1_.FreeTensor(a1_, loc);
        const uint32_t m0 = mi * t_.baseM, mt = cur_.mt, k0 = ga * t_.stepKa * t_.baseK;
        const uint32_t kn = sk_ - k0 < (uint32_t)(t_.stepKa * t_.baseK) ? sk_ - k0 : t_.stepKa * t_.baseK;
        LocalTensor<SrcAT> a1 = qa1_.template AllocTensor<SrcAT>(loc);
        if constexpr (CB::has_a1) /* the user's copy: block (mi, ga) of useM x useK elements */
            CB::a1(a1.template ReinterpretCast<int8_t>(), reinterpret_cast<const __gm__ void *>(a_.GetPhyAddr()),
                   (int)mi, (int)ga, (int)mt, (int)kn, userInfo_, selfData_);
        else if (!ta_)
            DataCopy(a1, a_[(uint64_t)m0 * orgKa_ + k0], nd2nz(mt, kn, orgKa_, "Ka", loc), loc);
        else
            DataCopy(a1, a_[(uint64_t)k0 * orgM_ + m0], nd2nz(kn, mt, orgM_, "M", loc), loc);
        qa1_.EnQue(a1, loc);
        a1_ = qa1_.template DeQue<SrcAT>(loc);
        aKl1_ = dvac::mm::cdiv(kn, 16);
        aHeld_ = true;
        aKey_ = key;
    }
    void load_b(uint32_t ni, uint32_t gb, const dvac::Loc &loc)
    {
        const uint64_t key = (uint64_t)ni << 32 | gb;
        if (bHeld_ && bKey_ == key)
            return;
        if (bHeld_)
            qb1_.FreeTensor(b1_, loc);
        const uint32_t n0 = ni * t_.baseN, nt = cur_.nt, k0 = gb * t_.stepKb * t_.baseK;
        const uint32_t kn = sk_ - k0 < (uint32_t)(t_.stepKb * t_.baseK) ? sk_ - k0 : t_.stepKb * t_.baseK;
        LocalTensor<SrcBT> b1 = qb1_.template AllocTensor<SrcBT>(loc);
        if constexpr (CB::has_b1) /* the user's copy: block (gb, ni) of useK x useN elements */
            CB::b1(b1.template ReinterpretCast<int8_t>(), reinterpret_cast<const __gm__ void *>(b_.GetPhyAddr()),
                   (int)gb, (int)ni, (int)kn, (int)nt, userInfo_, selfData_);
        else if (!tb_)
            DataCopy(b1, b_[(uint64_t)k0 * orgN_ + n0], nd2nz(kn, nt, orgN_, "N", loc), loc);
        else
            DataCopy(b1, b_[(uint64_t)n0 * orgKb_ + k0], nd2nz(nt, kn, orgKb_, "Kb", loc), loc);
        if constexpr (BIAS_OK) {
            /* the tile's bias row rides with the first K group of B (one ND row as NZ: contiguous, zero-padded
             * to 32 bytes), so that it needs no queue (and no MTE2 -> MTE1 event ids) of its own */
            if (gb == 0 && hasBias_)
                DataCopy(bias_l1(b1), bias_[n0], Nd2NzParams(1, 1, (uint16_t)nt, 0, (uint16_t)nt, 1, 1, 0), loc);
        }
        qb1_.EnQue(b1, loc);
        b1_ = qb1_.template DeQue<SrcBT>(loc);
        bKl1_ = dvac::mm::cdiv(kn, 16);
        bHeld_ = true;
        bKey_ = key;
    }
    /* rows x cols of a GM matrix with `pitch` elements per row into NZ with whole 16-row blocks. */
    Nd2NzParams nd2nz(uint32_t rows, uint32_t cols, int32_t pitch, const char *what, const dvac::Loc &loc) const
    {
        if (pitch > 65535)
            dvac::fail_at(loc, "Matmul", "%s %d: a GM row pitch beyond 65535 elements needs CANN's intrinsicsCheck "
                          "row-by-row loads, which dvsim does not support yet", what, pitch);
        return Nd2NzParams(1, (uint16_t)rows, (uint16_t)cols, 0, (uint16_t)pitch, (uint16_t)dvac::mm::up16(rows), 1,
                           0);
    }
    /* After slice s's Mmad, free the L1 loads the next slice (s + 1, or the next tile's first) does not use,
     * as CANN's norm scheduler clears its loads after each compute step (ClearLoadData): both frees then
     * precede the next slice's waits on MTE1, so its A and B loads run back to back on MTE2.  Freed only
     * in load_a / load_b, B's free would queue on MTE1 behind the wait for the next A load. */
    void free_spent(uint32_t s, uint32_t kAll, const dvac::Loc &loc)
    {
        const uint32_t next = s + 1 < kAll ? s + 1 : 0;
        if (aHeld_ && next / t_.stepKa != s / t_.stepKa) {
            qa1_.FreeTensor(a1_, loc);
            aHeld_ = false;
        }
        if (bHeld_ && next / t_.stepKb != s / t_.stepKb) {
            qb1_.FreeTensor(b1_, loc);
            bHeld_ = false;
        }
    }
    void release(const dvac::Loc &loc)
    {
        l0_drain(loc);
        if (aHeld_)
            qa1_.FreeTensor(a1_, loc);
        if (bHeld_)
            qb1_.FreeTensor(b1_, loc);
        aHeld_ = bHeld_ = false;
    }

    /* ---- L1 -> L0 ---- */
    /* One 2D load of `rep` fractals; counts in fractals, tensors indexed in elements. */
    template <typename T>
    static void load2d(const LocalTensor<T> &dst, uint32_t dst_frac, const LocalTensor<T> &src, uint32_t start,
                       uint32_t rep, uint32_t stride, uint32_t gap, bool trans, const dvac::Loc &loc)
    {
        constexpr uint32_t F = 512 / sizeof(T);
        for (uint32_t i = 0; i < rep; i += 255) {
            const uint32_t n = rep - i < 255 ? rep - i : 255;
            LoadData(dst[(dst_frac + i * (gap + 1)) * F], src,
                     LoadData2DParams((uint16_t)(start + i * stride), (uint8_t)n, (uint16_t)stride, 0, (uint16_t)gap,
                                      trans, 0),
                     loc);
        }
    }
    /* Slice q0.. (K blocks of the A1 load) of the tile into A2 as ZZ fractals (p, q) at p * K1 + q. */
    void load_a2(const LocalTensor<SrcAT> &a2, uint32_t q0, uint32_t kb, const dvac::Loc &loc)
    {
        const uint32_t M1 = dvac::mm::cdiv(cur_.mt, 16), K1 = dvac::mm::cdiv(kb, K0);
        if (!ta_) { /* A1 is NZ: fractal (p, q) at q * M1 + p */
            if (K1 <= M1)
                for (uint32_t q = 0; q < K1; q++)
                    load2d(a2, q, a1_, (q0 + q) * M1, M1, 1, K1 - 1, false, loc);
            else
                for (uint32_t p = 0; p < M1; p++)
                    load2d(a2, p * K1, a1_, q0 * M1 + p, K1, M1, 0, false, loc);
        } else { /* A1 holds A^T as NZ: fractal (k block, m block) at m * KL1 + k, each transposed */
            if (K1 <= M1)
                for (uint32_t q = 0; q < K1; q++)
                    load2d(a2, q, a1_, q0 + q, M1, aKl1_, K1 - 1, true, loc);
            else
                for (uint32_t p = 0; p < M1; p++)
                    load2d(a2, p * K1, a1_, p * aKl1_ + q0, K1, 1, 0, true, loc);
        }
    }
    /* Slice q0.. of the B1 load into B2 as ZN fractals (k, n) at k * N1 + n. */
    void load_b2(const LocalTensor<SrcBT> &b2, uint32_t q0, uint32_t kb, const dvac::Loc &loc)
    {
        const uint32_t N1 = dvac::mm::cdiv(cur_.nt, 16), K1 = dvac::mm::cdiv(kb, K0);
        if (tb_) /* B1 holds B^T as NZ: fractal (n, k) at k * N1 + n is already ZN's (k, n) */
            load2d(b2, 0, b1_, q0 * N1, K1 * N1, 1, 0, false, loc);
        else if (K1 <= N1) /* B1 is NZ of [K, N]: fractal (k, n) at n * KL1 + k, each transposed */
            for (uint32_t q = 0; q < K1; q++)
                load2d(b2, q * N1, b1_, q0 + q, N1, bKl1_, 0, true, loc);
        else
            for (uint32_t n = 0; n < N1; n++)
                load2d(b2, n, b1_, n * bKl1_ + q0, K1, 1, N1 - 1, true, loc);
    }

    /* Where a B1 load keeps the tile's bias row: after the B part. */
    LocalTensor<BiasT> bias_l1(const LocalTensor<SrcBT> &b1) const
    {
        return b1[b1_bytes() / sizeof(SrcBT)].template ReinterpretCast<BiasT>();
    }
    /* The tile's bias values (loaded into B1 with B, load_b) L1 -> C2, on MTE1 before the slot's ready event.
     * The BiasTable has one buffer, last read by the previous tile's first Mmad: the slot's free event covers
     * it (compute uses one slot when a tile has fewer K slices than there are slots). */
    LocalTensor<BiasT> load_bias(const dvac::Loc &loc)
    {
        LocalTensor<BiasT> bt = btbuf_.template Get<BiasT>(loc);
        dvac::copy_l1_to_bt(bt, bias_l1(b1_), DataCopyParams(1, (uint16_t)((cur_.nt * 4 + 63) / 64), 0, 0), loc);
        return bt;
    }

    /* ---- L0 slots ----
     * L0A, L0B (and the BiasTable) are used in slots_ ping-pong slots; slot i's A2 and B2 parts share one
     * M -> MTE1 "free" event and one MTE1 -> M "ready" event (as CANN's Matmul shares its L0 events rather
     * than taking one per buffer), so several Matmul objects fit the 8 ids of each pipe pair. The ids are
     * taken when a walk starts and given back, waited, when it ends (release). */
    void l0_open(const dvac::Loc &loc)
    {
        if (l0Open_)
            return;
        for (uint32_t j = 0; j < slots_; j++) {
            evFree_[j] = pipe_->template AllocEventID<HardEvent::M_MTE1>(loc);
            evReady_[j] = pipe_->template AllocEventID<HardEvent::MTE1_M>(loc);
            SetFlag<HardEvent::M_MTE1>(evFree_[j], loc);
        }
        slot_ = 0;
        l0Open_ = true;
    }
    void l0_drain(const dvac::Loc &loc)
    {
        if (!l0Open_)
            return;
        /* MTE1 takes the last free flags, then tells M so: the M pipe's next set of these ids (a new walk's
         * l0_open, or another user of the ids) comes after MTE1 has consumed them */
        for (uint32_t j = 0; j < slots_; j++) {
            WaitFlag<HardEvent::M_MTE1>(evFree_[j], loc);
            SetFlag<HardEvent::MTE1_M>(evReady_[j], loc);
            WaitFlag<HardEvent::MTE1_M>(evReady_[j], loc);
            pipe_->template ReleaseEventID<HardEvent::M_MTE1>(evFree_[j], loc);
            pipe_->template ReleaseEventID<HardEvent::MTE1_M>(evReady_[j], loc);
        }
        l0Open_ = false;
    }

    /* ---- one tile ---- */
    /* The tile's product over the baseK slices [s0, s1) (all of K by default). */
    void compute(uint32_t mi, uint32_t ni, const dvac::Loc &loc, uint32_t s0 = 0, uint32_t s1 = ~0u)
    {
        const uint32_t kAll = dvac::mm::cdiv(sk_, t_.baseK), ks = s1 < kAll ? s1 : kAll;
        LocalTensor<L0cT> co = useUserCo_ ? userCo_ : qc_.template AllocTensor<L0cT>(loc);
        for (uint32_t s = s0; s < ks; s++) {
            const uint32_t k0 = s * t_.baseK, kb = sk_ - k0 < (uint32_t)t_.baseK ? sk_ - k0 : t_.baseK;
            load_a(mi, s / t_.stepKa, loc);
            load_b(ni, s / t_.stepKb, loc);
            l0_open(loc);
            const uint32_t nsl = hasBias_ && ks < slots_ ? 1 : slots_;
            const uint32_t slot = slot_ % nsl;
            slot_ = (slot + 1) % nsl;
            WaitFlag<HardEvent::M_MTE1>(evFree_[slot], loc);
            LocalTensor<SrcAT> a2 = a2buf_.template Get<SrcAT>(loc)[slot * a2_bytes() / sizeof(SrcAT)];
            LocalTensor<SrcBT> b2 = b2buf_.template Get<SrcBT>(loc)[slot * b2_bytes() / sizeof(SrcBT)];
            load_a2(a2, (s % t_.stepKa) * t_.baseK / (ta_ ? 16 : K0), kb, loc);
            load_b2(b2, (s % t_.stepKb) * t_.baseK / (tb_ ? K0 : 16), kb, loc);
            LocalTensor<BiasT> bt;
            if constexpr (BIAS_OK) {
                if (s == 0 && hasBias_)
                    bt = load_bias(loc);
            }
            SetFlag<HardEvent::MTE1_M>(evReady_[slot], loc);
            WaitFlag<HardEvent::MTE1_M>(evReady_[slot], loc);
            /* a one-row tile runs as two rows (the second is never written out): m = 1 would be GEMV */
            const uint16_t mm = cur_.mt == 1 ? 2 : (uint16_t)cur_.mt;
            /* ND_ALIGN writes the padding columns too: the Mmad computes them (B is zero there) */
            const uint16_t nn = (uint16_t)((cur_.nt + C_ALIGN - 1) / C_ALIGN * C_ALIGN);
            const MmadParams mp(mm, nn, (uint16_t)kb, 0, false, s == s0);
            if constexpr (BIAS_OK) {
                if (s == 0 && hasBias_) {
                    Mmad(co, a2, b2, bt, mp, loc);
                } else {
                    Mmad(co, a2, b2, mp, loc);
                }
            } else {
                Mmad(co, a2, b2, mp, loc);
            }
            SetFlag<HardEvent::M_MTE1>(evFree_[slot], loc);
            free_spent(s, kAll, loc);
        }
        if (!useUserCo_)
            qc_.EnQue(co, loc);
    }

    void write_out(const GlobalTensor<DstT> &gm, bool sequential, const dvac::Loc &loc)
    {
        LocalTensor<L0cT> co = qc_.template DeQue<L0cT>(loc);
        constexpr QuantMode_t q = std::is_same<DstT, half>::value ? F322F16 : std::is_same<DstT, bfloat16_t>::value
                                                                                 ? F322BF16 : NoQuant;
        const uint16_t mt = (uint16_t)cur_.mt, nt = (uint16_t)cur_.nt, src_stride = (uint16_t)dvac::mm::up16(mt);
        if constexpr (C_TYPE::format != CubeFormat::NZ) {
            const uint32_t pitch = sequential ? (uint32_t)t_.baseN : pitch_c();
            const uint16_t ntw = (uint16_t)((nt + C_ALIGN - 1) / C_ALIGN * C_ALIGN);
            const uint64_t off = sequential ? 0 : (uint64_t)cur_.m0 * pitch + cur_.n0;
            Fixpipe<DstT, L0cT, CFG_ROW_MAJOR>(gm[off], co, FixpipeParamsV220(ntw, mt, src_stride, pitch,
                                                                               CFG.enableRelu, q, 0, 1, 0, 0, 0),
                                               loc);
        } else { /* NZ: 16-column blocks of up16(rows) rows */
            const uint32_t rows = sequential ? dvac::mm::up16(t_.baseM) : dvac::mm::up16(orgM_);
            const uint64_t off = sequential ? 0 : ((uint64_t)(cur_.n0 / 16) * rows + cur_.m0) * 16;
            Fixpipe<DstT, L0cT, CFG_NZ>(gm[off], co, FixpipeParamsV220(nt, mt, src_stride,
                                                                       rows * 16 * (uint32_t)sizeof(DstT) / 32,
                                                                       CFG.enableRelu, q, 0, 1, 0, 0, 0),
                                        loc);
        }
        qc_.FreeTensor(co, loc);
    }

    TCubeTiling t_{};
    TPipe *pipe_ = nullptr;
    bool inited_ = false, cube_ = false, hasA_ = false, hasB_ = false, ta_ = false, tb_ = false, pending_ = false;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
    uint32_t sm_ = 0, sn_ = 0, sk_ = 0;
    uint32_t na1_ = 1, nb1_ = 1;
    uint8_t sub_ = 0;
    GlobalTensor<SrcAT> a_;
    GlobalTensor<SrcBT> b_;
    TQue<TPosition::A1, 1> qa1_;
    TQue<TPosition::B1, 1> qb1_;
    TBuf<TPosition::A2> a2buf_;
    TBuf<TPosition::B2> b2buf_;
    TBuf<TPosition::C2> btbuf_;
    uint32_t slots_ = 1, slot_ = 0;
    int32_t evFree_[2] = {-1, -1}, evReady_[2] = {-1, -1};
    bool l0Open_ = false;
    TQue<TPosition::CO1, 1> qc_;
    LocalTensor<L0cT> userCo_; /* C in CO1: the tensor of Iterate(enPartialSum, co1Local) */
    bool useUserCo_ = false;
    GlobalTensor<BiasT> bias_;
    bool hasBias_ = false;
    bool biasL1_ = false; /* the bias rows have their room in L1 (check) */
    LocalTensor<SrcAT> a1_;
    LocalTensor<SrcBT> b1_;
    bool aHeld_ = false, bHeld_ = false;
    uint64_t aKey_ = 0, bKey_ = 0;
    uint32_t aKl1_ = 0, bKl1_ = 0; /* 16-row blocks of K in the held A1 / B1 load (transposed A, plain B) */
    uint32_t mIter_ = 0, nIter_ = 0, next_ = 0, order_ = 0;
    dvac::mm::Tile cur_{};
    /* a mix kernel's AIV (client) */
    bool client_ = false, hasWs_ = false, asyncPending_ = false;
    uint32_t objIdx_ = 0, aiv_ = 0, asyncNext_ = 0;
    uint64_t asyncSeq_ = 0;
    uint64_t userInfo_ = 0, selfData_ = 0; /* the callbacks' tilingPtr and dataPtr */
    GlobalTensor<DstT> ws_;
};

} // namespace AscendC

/* CANN's kfc code calls the namespace of the Matmul API `matmul`. */
namespace matmul = AscendC;

namespace dvac {
namespace mm {

/* REGIST_MATMUL_OBJ's objects: (obj) takes the pipe only, (obj, tiling, obj, tiling, ...) runs Init.
 * In a mix kernel each object also becomes the AIC's server object `idx` or the AIV's client of it. */
enum class Role { LOCAL, SERVER, CLIENT };
template <class M> inline void regist_one(Role role, AscendC::TPipe *pipe, uint32_t idx, uint32_t aiv, M &obj)
{
    obj.kfc_pipe(pipe);
    if (role == Role::CLIENT) {
        obj.kfc_client(idx, aiv);
    } else if (role == Role::SERVER) {
        Channel &ch = channel(k());
        if (idx >= MAX_OBJ)
            fail_at(Loc::here(), "REGIST_MATMUL_OBJ", "more than %u Matmul objects", MAX_OBJ);
        ch.obj[idx] = &obj;
        ch.serve[idx] = &M::kfc_serve;
        ch.nobj = idx + 1 > ch.nobj ? idx + 1 : ch.nobj;
    }
}
template <class M>
inline void regist(Role role, AscendC::TPipe *pipe, const Loc &loc, uint32_t idx, uint32_t aiv, M &obj)
{
    regist_one(role, pipe, idx, aiv, obj);
    if constexpr (M::STATIC_TILING) /* a constant tiling (MM_CFG): Init without one */
        obj.Init(nullptr, pipe, loc);
    (void)loc;
}
template <class M, class... R>
inline void regist(Role role, AscendC::TPipe *pipe, const Loc &loc, uint32_t idx, uint32_t aiv, M &obj,
                   const TCubeTiling *tiling, R &&...rest)
{
    regist_one(role, pipe, idx, aiv, obj);
    if (tiling || M::STATIC_TILING) /* a constant tiling (MM_CFG) stands for a NULL one */
        obj.Init(tiling, pipe, loc);
    if constexpr (sizeof...(R) > 0)
        regist(role, pipe, loc, idx + 1, aiv, rest...);
}
/* Returns true on the AIC of a mix kernel once it has served its AIVs: the kernel returns then. */
template <class... A>
inline bool regist_all(Client &client, bool cube_only, AscendC::TPipe *pipe, GM_ADDR workspace, const Loc &loc,
                       A &&...objs)
{
    (void)workspace;
    if (!pipe)
        fail_at(loc, "REGIST_MATMUL_OBJ", "the TPipe is NULL");
    dv_k_t *c = at(loc);
    if (cube_only || dvk_kind(c) != DV_KIND_MIX) {
        regist(Role::LOCAL, pipe, loc, 0, 0, objs...);
        return false;
    }
    if (dvk_is_aic(c)) {
        regist(Role::SERVER, pipe, loc, 0, 0, objs...);
        if (dvk_probing(c)) /* the probe runs no AIV, so no request: show it the server's cube side */
            dvk_load_cbuf_to_ca(c, DV_ADDR(DV_SPACE_L0A, 0), DV_ADDR(DV_SPACE_L1, 0), DV_DT_F16, 0, 1, 1, 0, 0);
        else
            serve_all(c, loc);
        return true;
    }
    regist(Role::CLIENT, pipe, loc, 0, dvk_sub(c) - DV_SUB_AIV0, objs...);
    if (dvk_probing(c)) /* CANN compiles a kernel with an AIV-driven Matmul as MIX: show the probe a vector side */
        dvk_vdup(c, DV_ADDR(DV_SPACE_UB, 0), DV_DT_F16, 0.0, 1, 1, 8);
    else
        client.start(c);
    return false;
}

} // namespace mm
} // namespace dvac

#define DVAC_MM_STR(x) #x
#define DVAC_MM_XSTR(x) DVAC_MM_STR(x)
/* Register Matmul objects with the pipe (and Init those given a tiling pointer), as CANN's macro.  In a
 * mix kernel (ASCENDC_CUBE_ONLY not defined) the AIC serves the AIVs' requests and returns from the
 * kernel, as CANN's KfcServer does; the AIVs go on with the kernel (lib/matmul/kfc.h). */
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                                     \
    ::dvac::mm::Client dvac_mm_client_;                                                                              \
    if (::dvac::mm::regist_all(dvac_mm_client_,                                                                     \
                               ::dvac::mm::macro_defined("ASCENDC_CUBE_ONLY", DVAC_MM_XSTR(ASCENDC_CUBE_ONLY)),      \
                               (tpipe), (GM_ADDR)(workspace), ::dvac::Loc::here(), __VA_ARGS__))                    \
    return
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ

#endif
