// model/Zeros.h - an array of n zero-valued elements that takes memory only where it is written
// (calloc: the pages of a large array stay unmapped until first touched).  For element types whose
// all-zero bytes are their initial state (integers, and the model's plain structs of them).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <new>

namespace dv {

template <typename T> class Zeros {
public:
    Zeros() = default;
    Zeros(const Zeros &) = delete;
    Zeros &operator=(const Zeros &) = delete;
    ~Zeros() { std::free(p_); }
    void reset(uint64_t n)
    {
        std::free(p_);
        p_ = static_cast<T *>(std::calloc(n ? n : 1, sizeof(T)));
        if (!p_)
            throw std::bad_alloc();
    }
    T &operator[](uint64_t i) { return p_[i]; }
    const T &operator[](uint64_t i) const { return p_[i]; }

private:
    T *p_ = nullptr;
};

} // namespace dv
