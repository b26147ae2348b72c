// model/Zeros.h - an array of n zero-valued elements that takes memory only where it is written
// (anonymous pages stay unmapped until first touched; calloc would clear small arrays at once).
// For element types whose all-zero bytes are their initial state (integers, and the model's plain
// structs of them).
//
// The pages come from zeros_take and go back to zeros_give (model/Zeros.cpp), which keep released
// mappings for the next array of the same size instead of unmapping them: a sweep or a fusion study
// builds a model per kernel, and on a virtual machine's host unmapping touched pages (a TLB
// shootdown) and faulting them in again cost far more than clearing the pages that were written.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>

namespace dv {

// How an array's pages will be written: Sparse, a few here and there (4 KB pages); Dense, most of
// them by a run of any size (huge pages where the host gives them: dv/hostmem.h).
enum class Pages : uint8_t { Sparse, Dense };
// A zero-filled mapping of `bytes` (a kept one, its written pages cleared, or a new one); nullptr
// when none can be had.  zeros_give takes it back (whatever was written in it).
void *zeros_take(size_t bytes, Pages pages = Pages::Sparse);
void zeros_give(void *p, size_t bytes, Pages pages = Pages::Sparse);
// Tests: how many mappings are kept now.
size_t zeros_kept();

template <typename T> class Zeros {
public:
    Zeros() = default;
    Zeros(const Zeros &) = delete;
    Zeros &operator=(const Zeros &) = delete;
    ~Zeros() { release(); }
    void reset(uint64_t n, Pages pages = Pages::Sparse)
    {
        release();
        if (n > UINT64_MAX / sizeof(T))
            throw std::bad_alloc();
        bytes_ = (n ? n : 1) * sizeof(T);
        pages_ = pages;
        p_ = static_cast<T *>(zeros_take(bytes_, pages));
        if (!p_)
            throw std::bad_alloc();
    }
    T &operator[](uint64_t i) { return p_[i]; }
    const T &operator[](uint64_t i) const { return p_[i]; }
    const T *data() const { return p_; }

private:
    void release()
    {
        if (p_)
            zeros_give(p_, bytes_, pages_);
        p_ = nullptr;
    }
    T *p_ = nullptr;
    uint64_t bytes_ = 0;
    Pages pages_ = Pages::Sparse;
};

} // namespace dv
