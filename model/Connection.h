// model/Connection.h - a named connection from a component to a neighbour.  The component lists
// its connections in the public part of its header; its owner binds each one exactly once, all in
// one visible place of the owner's constructor (VCML's ports, without the TLM machinery).
#pragma once
#include <cassert>

namespace dv {

template <class T>
class Connection {
public:
    void bind(T &target)
    {
        assert(!target_ && "a connection is bound once");
        target_ = &target;
    }
    bool bound() const { return target_ != nullptr; }
    T *operator->() const
    {
        assert(target_ && "connection used before it was bound");
        return target_;
    }
    T &operator*() const { return *operator->(); }

private:
    T *target_ = nullptr;
};

} // namespace dv
