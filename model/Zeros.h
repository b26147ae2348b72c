// model/Zeros.h - an array of n zero-valued elements that takes memory only where it is written
// (anonymous pages stay unmapped until first touched; calloc would clear small arrays at once).
// For element types whose all-zero bytes are their initial state (integers, and the model's plain
// structs of them).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace dv {

template <typename T> class Zeros {
public:
    Zeros() = default;
    Zeros(const Zeros &) = delete;
    Zeros &operator=(const Zeros &) = delete;
    ~Zeros() { release(); }
    void reset(uint64_t n)
    {
        release();
        if (n > UINT64_MAX / sizeof(T))
            throw std::bad_alloc();
        bytes_ = (n ? n : 1) * sizeof(T);
        void *p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            p_ = nullptr;
            throw std::bad_alloc();
        }
        p_ = static_cast<T *>(p);
    }
    T &operator[](uint64_t i) { return p_[i]; }
    const T &operator[](uint64_t i) const { return p_[i]; }

private:
    void release()
    {
        if (p_)
            munmap(p_, bytes_);
        p_ = nullptr;
    }
    T *p_ = nullptr;
    uint64_t bytes_ = 0;
};

} // namespace dv
