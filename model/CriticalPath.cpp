// model/CriticalPath.cpp
#include "CriticalPath.h"

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
    // The links first, by key, a run of consecutive links with one key at once (Node::run).  There
    // are at most kFold + 1 links (no node is deeper than kFold, and fold collects a node one
    // deeper), so an open-addressed table of at least twice as many slots (index + 1 into `links`)
    // finds a key in a probe or two, with no search through v.
    constexpr unsigned kSlots = 256;
    static_assert(kSlots >= 2 * (kFold + 1) && kFold + 1 <= 255, "link indexes fit in a byte");
    uint8_t slot[kSlots] = {};
    Step links[kFold + 1];
    unsigned nlinks = 0;
    auto step = [&](uint32_t key) -> Step & {
        unsigned h = (key * 2654435761u) >> 24;
        while (slot[h] && links[slot[h] - 1].key != key)
            h = (h + 1) & (kSlots - 1);
        if (!slot[h]) {
            links[nlinks++] = Step{key, 0, 0};
            slot[h] = static_cast<uint8_t>(nlinks);
        }
        return links[slot[h] - 1];
    };
    const Node *nodes = nodes_.data();
    const Node *n = &at(nodes, r);
    while (n->parent) {
        const Node *below = &at(nodes, n->run);
        Step &s = step(n->key);
        s.cycles += n->time - below->time;
        s.count += n->depth - below->depth;
        n = below;
    }
    // Then the summary the chain starts with, if any: its keys are distinct, each meets a link's
    // key at most once.
    v.clear();
    if (n->run) {
        const Summary &sum = sums_[n->run - 1];
        for (const Step &st : sum.steps) {
            Step out = st;
            for (unsigned h = (st.key * 2654435761u) >> 24; slot[h]; h = (h + 1) & (kSlots - 1)) {
                Step &l = links[slot[h] - 1];
                if (l.key == st.key) {
                    out.cycles += l.cycles;
                    out.count += l.count;
                    l.count = 0; // taken
                    break;
                }
            }
            v.push_back(out);
        }
        start = sum.start;
    } else {
        start = n->time;
    }
    for (unsigned i = 0; i < nlinks; i++)
        if (links[i].count)
            v.push_back(links[i]);
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
