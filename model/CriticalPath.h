// model/CriticalPath.h - the kernel's critical path, built incrementally with bounded memory.
//
// Every event a later event may wait for (an instruction's issue, start, the pipe being free
// again, its completion, a flag, a block's end) is a node: its cycle and a link to the node it
// waited for (its critical predecessor), the link charged with the cycles between the two to one
// key (core, opcode, pipe).  Following the links back from the last block's end therefore walks
// the longest chain of waits through the kernel, and the links' cycles add up to the time from
// the chain's start (a core's first block, at chip.kernel_start_cycles) to its end.
//
// Memory: whoever may still wait for a node holds a reference to it (AiCore's frontier: the
// scalar unit, each pipe's last start and latest completion, queued instructions, set flags,
// cross-core flags in flight); a node nobody references is freed with the links only it kept
// alive.  A chain never grows beyond kFold links: the node that would be deeper folds the links
// above it into a summary (cycles and steps per key) and drops its link, so memory is bounded by
// the frontier, not by the kernel's length.  A summary keeps one entry per key its chain met.
// Freed nodes wait on a free list (linked through their parent field) for the next extend.
#pragma once
#include <cstdint>
#include <vector>

#include "Cycles.h"

namespace dv {

class CriticalPath {
public:
    using Ref = uint32_t;             // a node; 0 is no node
    static constexpr Ref kNone = 0;
    struct Step {
        uint32_t key;
        uint64_t cycles, count;
    };

    CriticalPath() { reset(); }
    // Forget every node (a new kernel).
    void reset();
    // A chain's first node, at cycle t.  The caller holds the one reference.
    Ref root(cycles_t t);
    // A node at cycle t (>= parent's) whose wait for `parent` is charged to `key`.  The caller
    // holds the one reference; the node holds one on parent (extend_from: the caller's, which it
    // hands over).  Inline: the core makes about one node per instruction it starts.
    Ref extend(Ref parent, cycles_t t, uint32_t key) { return link(parent, t, key, 1); }
    Ref extend_from(Ref parent, cycles_t t, uint32_t key) { return link(parent, t, key, 0); }
    // Node 0 (no node) starts with kNoneRefs references, more than a run can release: retain
    // and release need no test for it.
    void retain(Ref r) { nodes_[r].refs++; }
    void release(Ref r)
    {
        if (--nodes_[r].refs == 0)
            free_chain(r);
    }
    // slot = r, keeping the references right.
    void assign(Ref &slot, Ref r)
    {
        retain(r);
        release(slot);
        slot = r;
    }
    // slot = r, whose reference the caller hands over.
    void move(Ref &slot, Ref r)
    {
        release(slot);
        slot = r;
    }
    cycles_t time(Ref r) const { return nodes_[r].time; }
    // The steps of the chain ending at r, one per key (unordered), and its start cycle.
    std::vector<Step> steps(Ref r, cycles_t &start) const;
    size_t live() const; // nodes alive now (walks the free list: for tests)
    // The most nodes alive at once since reset: nodes_ grows only when no node is free.
    size_t peak() const { return nodes_.size() - 1; }

    static constexpr unsigned kFold = 64; // links kept before a chain folds into a summary

private:
    struct Node {
        cycles_t time;
        uint64_t refs;  // node 0: kNoneRefs, never reaching 0
        Ref parent;     // a free node: the next free node
        uint32_t key;
        uint32_t depth; // links to the nearest summary or root
        uint32_t sum;   // summary index + 1 (0: none)
    };
    static constexpr uint64_t kNoneRefs = uint64_t{1} << 62;
    struct Summary {
        cycles_t start = 0;
        std::vector<Step> steps;
    };
    // extend (taking a reference on parent: add_ref 1) and extend_from (add_ref 0).  A free node's
    // sum is 0 already (drop_summary, grow).
    Ref link(Ref parent, cycles_t t, uint32_t key, unsigned add_ref)
    {
        const Ref r = free_ ? free_ : grow(); // first: growing may move nodes_
        Node *nodes = nodes_.data();
        Node &n = nodes[r];
        Node &p = nodes[parent];
        free_ = n.parent;
        p.refs += add_ref;
        n.time = t;
        n.refs = 1;
        n.parent = parent;
        n.key = key;
        n.depth = p.depth + 1;
        if (n.depth > kFold)
            fold(r);
        return r;
    }
    Ref grow(); // a new node at the end of nodes_ (parent 0: the free list stays empty)
    void free_chain(Ref r); // r's last reference is gone: free it, and its parent if that was its last
    void drop_summary(Ref r); // free_chain's way with a node that holds a summary
    void collect(Ref r, std::vector<Step> &v, cycles_t &start) const;
    void fold(Ref n); // n's chain above it into a summary held by n

    std::vector<Node> nodes_;
    Ref free_ = kNone; // the free nodes, linked by parent (last freed first)
    std::vector<Summary> sums_;
    std::vector<uint32_t> free_sums_;
};

} // namespace dv
