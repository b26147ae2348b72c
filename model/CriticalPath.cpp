// model/CriticalPath.cpp
#include "CriticalPath.h"

namespace dv {

void CriticalPath::reset()
{
    nodes_.assign(1, Node{0, kNoneRefs, kNone, 0, 0, 0}); // node 0 is "no node"
    free_ = kNone;
    sums_.clear();
    free_sums_.clear();
}

CriticalPath::Ref CriticalPath::grow()
{
    nodes_.push_back(Node{0, 0, kNone, 0, 0, 0});
    return static_cast<Ref>(nodes_.size() - 1);
}

size_t CriticalPath::live() const
{
    size_t n = nodes_.size() - 1;
    for (Ref r = free_; r; r = nodes_[r].parent)
        n--;
    return n;
}

CriticalPath::Ref CriticalPath::root(cycles_t t)
{
    const Ref r = free_ ? free_ : grow();
    Node &n = nodes_[r];
    free_ = n.parent;
    n = Node{t, 1, kNone, 0, 0, 0};
    return r;
}

void CriticalPath::free_chain(Ref r)
{
    // A leaf loop (free_ kept in a register): a node holding a summary, one in kFold, leaves it
    // for drop_summary, which comes back here.
    Node *const nodes = nodes_.data();
    Ref f = free_;
    do {
        Node &n = nodes[r];
        if (n.sum) {
            free_ = f;
            return drop_summary(r);
        }
        const Ref parent = n.parent;
        n.parent = f;
        f = r;
        r = parent;
    } while (--nodes[r].refs == 0); // node 0's never does
    free_ = f;
}

void CriticalPath::drop_summary(Ref r)
{
    Node &n = nodes_[r];
    sums_[n.sum - 1].steps.clear(); // it keeps its storage for the next fold
    free_sums_.push_back(n.sum - 1);
    n.sum = 0;
    free_chain(r);
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
