// model/CriticalPath.cpp
#include "CriticalPath.h"

#include <algorithm>
#include <iterator>
#include <new>

namespace dv {

void CriticalPath::reset()
{
    nodes_.assign(1, Node{0, kNoneRefs, kNone, 0, 0, 0}); // node 0 is "no node"
    dead_ = kNone;
    sums_.clear();
    free_sums_.clear();
}

CriticalPath::Ref CriticalPath::grow()
{
    if (nodes_.size() >= kMaxNodes) // 4 GiB of nodes alive at once: as if memory ran out
        throw std::bad_alloc();
    nodes_.push_back(Node{0, 0, kNone, 0, 0, 0});
    return static_cast<Ref>((nodes_.size() - 1) * sizeof(Node));
}

size_t CriticalPath::live() const
{
    // Besides the dead list, dead are the nodes whose last references dead nodes still hold: give
    // those up on a copy of the counts, as the nodes taken from the list will.
    std::vector<uint64_t> refs(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); i++)
        refs[i] = nodes_[i].refs;
    std::vector<Ref> dead;
    for (Ref r = dead_; r; r = static_cast<Ref>(at(nodes_.data(), r).refs))
        dead.push_back(r);
    for (size_t i = 0; i < dead.size(); i++) {
        const Ref p = at(nodes_.data(), dead[i]).parent;
        if (p && --refs[p / sizeof(Node)] == 0)
            dead.push_back(p);
    }
    return nodes_.size() - 1 - dead.size();
}

CriticalPath::Ref CriticalPath::root(cycles_t t)
{
    const Ref r = take();
    at(nodes_.data(), r) = Node{t, 1, kNone, 0, 0, 0};
    return r;
}

void CriticalPath::drop_summary(uint32_t idx)
{
    sums_[idx].steps.clear(); // it keeps its storage for the next fold
    free_sums_.push_back(idx);
}

std::vector<CriticalPath::Step> CriticalPath::steps(Ref r, cycles_t &start) const
{
    std::vector<Step> v;
    collect(r, v, start);
    return v;
}

void CriticalPath::collect(Ref r, std::vector<Step> &v, cycles_t &start) const
{
    // The links first, by key, a run of consecutive links with one key at once (a node: Node::run),
    // into the open-addressed table (kSlots, at least twice the kFold + 1 nodes a chain can have:
    // no node is deeper than kFold, and fold collects a node one deeper, so a key is found in a
    // probe or two).  Its slots in use are those stamped with this collect's stamp: nothing to clear.
    Table &tab = table_;
    if (++tab.now == 0) { // the stamps wrapped: forget them
        std::fill(std::begin(tab.stamp), std::end(tab.stamp), 0);
        tab.now = 1;
    }
    const uint32_t now = tab.now;
    uint8_t order[kFold + 1]; // the slots in the order their keys were met
    unsigned nlinks = 0;
    const Node *nodes = nodes_.data();
    const Node *n = &at(nodes, r);
    while (n->parent) {
        const Node *below = &at(nodes, n->parent);
        const uint32_t key = n->key;
        unsigned h = (key * 2654435761u) >> 24;
        while (tab.stamp[h] == now && tab.key[h] != key)
            h = (h + 1) & (kSlots - 1);
        if (tab.stamp[h] != now) {
            tab.stamp[h] = now;
            tab.key[h] = key;
            tab.cycles[h] = 0;
            tab.count[h] = 0;
            order[nlinks++] = static_cast<uint8_t>(h);
        }
        tab.cycles[h] += n->time - below->time;
        tab.count[h] += n->run;
        n = below;
    }
    // Then the summary the chain starts with, if any: its keys are distinct, each meets a link's
    // key at most once.
    v.clear();
    if (n->run) {
        const Summary &sum = sums_[n->run - 1];
        for (const Step &st : sum.steps) {
            Step out = st;
            for (unsigned h = (st.key * 2654435761u) >> 24; tab.stamp[h] == now; h = (h + 1) & (kSlots - 1))
                if (tab.key[h] == st.key) {
                    out.cycles += tab.cycles[h];
                    out.count += tab.count[h];
                    tab.count[h] = 0; // taken
                    break;
                }
            v.push_back(out);
        }
        start = sum.start;
    } else {
        start = n->time;
    }
    for (unsigned i = 0; i < nlinks; i++) {
        const unsigned h = order[i];
        if (tab.count[h])
            v.push_back(Step{tab.key[h], tab.cycles[h], tab.count[h]});
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
    Node &n = at(nodes_.data(), r);
    const Ref parent = n.parent;
    n.parent = kNone;
    n.depth = 0;
    n.run = idx + 1;
    release(parent);
}

} // namespace dv
