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
    // The links first, by key.  There are at most kFold + 1 of them (no node is deeper than
    // kFold, and fold collects a node one deeper), so an open-addressed table of at least twice as
    // many slots (index + 1 into `links`) finds a key in a probe or two, with no search through v.
    // Consecutive links often share a key (a pipe's run of like instructions): a run's cycles
    // telescope to the difference of its end times, so the table is met once per run.
    constexpr unsigned kSlots = 256;
    static_assert(kSlots >= 2 * (kFold + 1) && kFold + 1 <= 255, "link indexes fit in a byte");
    uint8_t slot[kSlots] = {};
    Step links[kFold + 1];
    unsigned nlinks = 0;
    auto at = [&](uint32_t key) -> Step & {
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
    const Node *n = &nodes[r];
    if (n->parent) {
        uint32_t key = n->key;
        cycles_t top = n->time; // the run's last node's time
        uint64_t count = 0;
        do {
            if (n->key != key) {
                Step &s = at(key);
                s.cycles += top - n->time;
                s.count += count;
                key = n->key;
                top = n->time;
                count = 0;
            }
            count++;
            n = &nodes[n->parent];
        } while (n->parent);
        Step &s = at(key);
        s.cycles += top - n->time;
        s.count += count;
    }
    // Then the summary the chain starts with, if any: its keys are distinct, each meets a link's
    // key at most once.
    v.clear();
    if (n->sum) {
        const Summary &sum = sums_[n->sum - 1];
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
    Node &n = nodes_[r];
    const Ref parent = n.parent;
    n.parent = kNone;
    n.depth = 0;
    n.sum = idx + 1;
    release(parent);
}

} // namespace dv
