/* dvac/vec_sort.h - Sort32 (vbitsort: groups of 32 (score, index) pairs sorted into 8-byte records)
 * and MrgSort (vmrgsort4: up to four sorted lists of records merged), as CANN's dav-2201
 * implementation emits them; the forms that return the merge's counts (VMS4_SR) are declared and do
 * not compile or fail located (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_SORT_H
#define DVAC_VEC_SORT_H

#include "vec_core.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

/* MrgSort's parameters: list lengths in records of 8 bytes, stop when a list runs out, the valid
 * lists (3, 7 or 15: the first 2, 3 or 4), repeats (CANN's field order). */
struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                 const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes((uint8_t)repeatTimesIn)
    {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i)
            elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

/* The four lists of a MrgSort. */
template <typename T> struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In, const LocalTensor<T> &src3In,
                   const LocalTensor<T> &src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0])
    {
    }
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

} // namespace AscendC

#define DVAC_SORT_TYPES(Api)                                                                                         \
    static_assert(dvac::one_of<T, half, float>(), Api ": dtype not supported on dav-2201 (half, float)")

namespace AscendC {

/* repeatTime groups of 32: scores src0[32r..], indices src1[32r..] -> 32 records at dst + 256r bytes. */
template <typename T>
inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
                   const int32_t repeatTime, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SORT_TYPES("Sort32");
    const char *api = "Sort32";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    if (repeatTime < 0 || repeatTime > 255)
        dvac::fail_at(loc, api, "repeatTime %d is not in [0, 255]", repeatTime);
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src0, "src0", 32, loc, api);
    dvac::ub_operand(src1, "src1", 32, loc, api);
    dvac::count_in(src0, 32 * (int64_t)repeatTime, "src0", loc, api);
    dvac::count_in(src1, 32 * (int64_t)repeatTime, "src1", loc, api);
    dvac::count_in(dst, 256 * (int64_t)repeatTime / (int64_t)sizeof(T), "dst", loc, api);
    dvk_vbitsort(c, dst.addr(), src0.addr(), src1.addr(), dvac::dtype_of<T>(), repeatTime);
}

/* Merge of the valid lists of src into dst by score, descending. */
template <typename T>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SORT_TYPES("MrgSort");
    const char *api = "MrgSort";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const uint16_t v = params.validBit;
    const int lists = v == 3 ? 2 : v == 7 ? 3 : v == 15 ? 4 : 0;
    if (!lists)
        dvac::fail_at(loc, api, "validBit %u: it must be 3, 7 or 15 (the first 2, 3 or 4 lists)", (unsigned)v);
    const LocalTensor<T> *s[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    const uint16_t *len = params.elementLengths;
    uint64_t total = 0;
    dvac::ub_operand(dst, "dst", 32, loc, api);
    for (int i = 0; i < lists; i++) {
        if (len[i] > 4095)
            dvac::fail_at(loc, api, "elementLengths[%d] = %u is more than 4095", i, (unsigned)len[i]);
        static const char *const names[4] = {"src.src1", "src.src2", "src.src3", "src.src4"};
        dvac::ub_operand(*s[i], names[i], 8, loc, api);
        total += len[i];
    }
    const uint32_t R = params.repeatTimes;
    if (R > 1) { /* CANN: repeats take effect only for four contiguous lists of one length, never stopping */
        bool ok = lists == 4 && !params.ifExhaustedSuspension;
        for (int i = 1; ok && i < 4; i++)
            ok = len[i] == len[0] && s[i]->addr() == s[i - 1]->addr() + (uint64_t)len[0] * 8;
        if (!ok)
            dvac::fail_at(loc, api, "repeatTimes %u needs validBit 15, four lists of one length stored one after the "
                          "other and ifExhaustedSuspension false", R);
    }
    for (int i = 0; R && i < lists; i++)
        if (len[i])
            s[i]->need((((uint64_t)R - 1) * total * 8 + (uint64_t)len[i] * 8) / sizeof(T), loc, api);
    dst.need((uint64_t)R * total * 8 / sizeof(T), loc, api);
    uint64_t a[4];
    for (int i = 0; i < 4; i++)
        a[i] = i < lists ? s[i]->addr() : s[0]->addr();
    dvk_vmrgsort4(c, dst.addr(), a[0], a[1], a[2], a[3], dvac::dtype_of<T>(), len[0], len[1], len[2], len[3], lists,
                  params.ifExhaustedSuspension ? 1 : 0, R);
}

/* The merge that returns how many records of each list it took (the VMS4_SR register): not modelled. */
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T> &, const MrgSortSrcList<T> &, const uint16_t[4], uint32_t[4], uint16_t,
                    const int32_t, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "MrgSort: the form with sortedNum (the VMS4_SR register) is not modelled by "
                                    "dvsim");
}
inline void GetMrgSortResult(uint16_t &, uint16_t &, uint16_t &, uint16_t &,
                             const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        dvac::fail_at(loc, "GetMrgSortResult", "the VMS4_SR register is not modelled by dvsim");
}

} // namespace AscendC

#undef DVAC_SORT_TYPES

#endif
