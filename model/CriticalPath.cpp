// model/CriticalPath.cpp
#include "CriticalPath.h"

namespace dv {

void CriticalPath::reset()
{
    nodes_.assign(1, Node{}); // node 0 is "no node"
    free_.clear();
    sums_.clear();
    free_sums_.clear();
    live_ = peak_ = 0;
}

CriticalPath::Ref CriticalPath::alloc()
{
    Ref r;
    if (!free_.empty()) {
        r = free_.back();
        free_.pop_back();
    } else {
        if (nodes_.empty())
            nodes_.emplace_back();
        r = static_cast<Ref>(nodes_.size());
        nodes_.emplace_back();
    }
    if (++live_ > peak_)
        peak_ = live_;
    return r;
}

CriticalPath::Ref CriticalPath::root(cycles_t t)
{
    const Ref r = alloc();
    Node &n = nodes_[r];
    n = Node{};
    n.time = t;
    n.refs = 1;
    return r;
}

CriticalPath::Ref CriticalPath::extend_from(Ref parent, cycles_t t, uint32_t key)
{
    const Ref r = alloc(); // first: it may move nodes_
    Node &p = nodes_[parent];
    Node &n = nodes_[r];
    n.time = t;
    n.parent = parent;
    n.refs = 1;
    n.key = key;
    n.depth = p.depth + 1;
    n.sum = 0;
    if (n.depth > kFold)
        fold(r);
    return r;
}

void CriticalPath::free_chain(Ref r)
{
    do {
        Node &n = nodes_[r];
        const Ref parent = n.parent;
        if (n.sum) {
            sums_[n.sum - 1].steps.clear();
            free_sums_.push_back(n.sum - 1);
        }
        n.parent = kNone;
        n.sum = 0;
        free_.push_back(r);
        live_--;
        r = parent;
    } while (r && --nodes_[r].refs == 0);
}

std::vector<CriticalPath::Step> CriticalPath::steps(Ref r, cycles_t &start) const
{
    std::vector<Step> v;
    collect(r, v, start);
    return v;
}

void CriticalPath::collect(Ref r, std::vector<Step> &v, cycles_t &start) const
{
    v.clear();
    start = 0;
    // Steps by key: a small hash of the keys met so far (slot: index + 1 into v), a linear search
    // only for a key whose slot another key holds.
    uint32_t slot[64] = {};
    auto at = [&](uint32_t key) -> Step & {
        const unsigned h = (key * 2654435761u) >> 26;
        if (slot[h] && v[slot[h] - 1].key == key)
            return v[slot[h] - 1];
        if (slot[h])
            for (Step &s : v)
                if (s.key == key)
                    return s;
        v.push_back(Step{key, 0, 0});
        if (!slot[h])
            slot[h] = static_cast<uint32_t>(v.size());
        return v.back();
    };
    while (r) {
        const Node &n = nodes_[r];
        if (n.parent) {
            Step &s = at(n.key);
            s.cycles += n.time - nodes_[n.parent].time;
            s.count++;
            r = n.parent;
            continue;
        }
        if (n.sum) {
            const Summary &sum = sums_[n.sum - 1];
            for (const Step &st : sum.steps) {
                Step &s = at(st.key);
                s.cycles += st.cycles;
                s.count += st.count;
            }
            start = sum.start;
        } else {
            start = n.time;
        }
        break;
    }
}

void CriticalPath::fold(Ref r)
{
    uint32_t idx;
    if (!free_sums_.empty()) {
        idx = free_sums_.back();
        free_sums_.pop_back();
    } else {
        idx = static_cast<uint32_t>(sums_.size());
        sums_.emplace_back();
    }
    Summary &s = sums_[idx]; // a reused summary keeps its storage
    collect(r, s.steps, s.start);
    Node &n = nodes_[r];
    const Ref parent = n.parent;
    n.parent = kNone;
    n.depth = 0;
    n.sum = idx + 1;
    release(parent);
}

} // namespace dv
