// model/CriticalPath.h - the kernel's critical path, built incrementally with bounded memory.
//
// Every event a later event may wait for (an instruction's issue, start, the pipe being free
// again, its completion, a flag, a block's end) is a node: its cycle and a link to the node it
// waited for (its critical predecessor), the link charged with the cycles between the two to one
// key (core, opcode, pipe).  Following the links back from the last block's end therefore walks
// the longest chain of waits through the kernel, and the links' cycles add up to the time from
// the chain's start (a core's first block, at chip.kernel_start_cycles) to its end.
//
// Memory: whoever may still wait for a node holds a reference to it (AiCore's frontier: the scalar
// unit, each pipe's last start and latest completion, queued instructions, set flags, cross-core
// flags in flight); a node nobody references is dead, and so, in turn, are the links only it kept
// alive.  A run of consecutive links with one key is one node (link), and a chain never grows
// beyond kFold nodes: the node that would be deeper folds the links above it into a summary (cycles
// and steps per key) and drops its link, so memory is bounded by the frontier, not by the kernel's
// length.  A summary keeps one entry per key its chain met.  A dead node waits on the dead list
// (linked through its reference count) still holding its reference on its parent, or its summary;
// the next node made takes it over and only then gives that up, which may put the parent on the
// list.  Each new node thus frees one node of a dead chain, and nothing walks a chain to free it.
// The list is empty only when every dead chain has been given up entirely, so nodes_ grows (peak)
// exactly when every node is alive.
#pragma once
#include <cstdint>
#include <vector>

#include "Cycles.h"

namespace dv {

class CriticalPath {
public:
    // A node: its byte offset in the node array (so reaching it needs no multiplication); 0 is
    // no node.
    using Ref = uint32_t;
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
    void retain(Ref r) { at(nodes_.data(), r).refs++; }
    void release(Ref r) { release(nodes_.data(), r); }
    // slot = r, keeping the references right.
    void assign(Ref &slot, Ref r)
    {
        Node *nodes = nodes_.data();
        at(nodes, r).refs++;
        release(nodes, slot);
        slot = r;
    }
    // slot = r, whose reference the caller hands over.
    void move(Ref &slot, Ref r)
    {
        release(slot);
        slot = r;
    }
    cycles_t time(Ref r) const { return at(nodes_.data(), r).time; }
    // The steps of the chain ending at r, one per key (unordered), and its start cycle.
    std::vector<Step> steps(Ref r, cycles_t &start) const;
    size_t live() const; // nodes alive now (follows the dead list: for tests)
    // The most nodes alive at once since reset: nodes_ grows only when every node is alive.
    size_t peak() const { return nodes_.size() - 1; }

    static constexpr unsigned kFold = 64; // nodes kept before a chain folds into a summary

private:
    struct Node {
        cycles_t time;
        uint64_t refs;  // node 0: kNoneRefs, never reaching 0; a dead node: the next dead node
        Ref parent;     // 0: the node starts its chain (a root, a fold, or extended from no node)
        uint32_t key;
        uint32_t depth; // nodes to the nearest summary or root
        // A link (parent != 0): how many consecutive links with its key it stands for, down to
        // parent (their cycles telescope to the difference of the two times).  A chain's start: its
        // summary's index + 1 (0: none).
        uint32_t run;
    };
    static constexpr uint64_t kNoneRefs = uint64_t{1} << 62;
    // The most nodes a Ref reaches (a byte offset in 32 bits).
    static constexpr size_t kMaxNodes = (size_t{1} << 32) / sizeof(Node);
    struct Summary {
        cycles_t start = 0;
        std::vector<Step> steps;
    };
    static Node &at(Node *nodes, Ref r) { return *reinterpret_cast<Node *>(reinterpret_cast<char *>(nodes) + r); }
    static const Node &at(const Node *nodes, Ref r)
    {
        return *reinterpret_cast<const Node *>(reinterpret_cast<const char *>(nodes) + r);
    }
    void release(Node *nodes, Ref r)
    {
        Node &n = at(nodes, r);
        if (--n.refs == 0) { // dead: onto the dead list
            n.refs = dead_;
            dead_ = r;
        }
    }
    // A node for link or root to fill in: the last dead node, which gives up its reference on its
    // parent (or its summary) now, or a new one when none is dead (grow makes it look like a dead
    // node that holds nothing).  Growing may move nodes_: take first, then look at nodes_.
    Ref take()
    {
        const Ref r = dead_ ? dead_ : grow();
        Node *nodes = nodes_.data();
        const Node &n = at(nodes, r);
        dead_ = static_cast<Ref>(n.refs);
        if (n.parent)
            release(nodes, n.parent);
        else if (n.run)
            drop_summary(n.run - 1);
        return r;
    }
    // extend (taking a reference on parent: add_ref 1) and extend_from (add_ref 0).  A link with
    // the key of the link it extends continues that link's run: it stands for the run and itself
    // and links to where the run starts, which it takes a reference on (extend_from gives up the
    // caller's on parent).  The run's cycles and links are the same either way, but its chain has
    // one node less to keep alive, to fold and to collect.
    Ref link(Ref parent, cycles_t t, uint32_t key, unsigned add_ref)
    {
        const Ref r = take();
        Node *nodes = nodes_.data();
        Node &n = at(nodes, r);
        const Node &p = at(nodes, parent);
        const bool run = (p.key == key) & (p.parent != 0);
        const Ref to = run ? p.parent : parent;
        n.time = t;
        n.refs = 1;
        n.parent = to;
        n.key = key;
        n.depth = run ? p.depth : p.depth + 1;
        n.run = run ? p.run + 1 : parent != kNone; // (extended from no node: a chain's start, no summary)
        if (add_ref) {
            at(nodes, to).refs++;
        } else if (run) {
            at(nodes, to).refs++;
            release(nodes, parent);
        }
        if (n.depth > kFold)
            fold(r);
        return r;
    }
    Ref grow(); // a new node at the end of nodes_, holding nothing (refs 0: the end of the dead list)
    void drop_summary(uint32_t idx); // summary idx is no longer held
    void collect(Ref r, std::vector<Step> &v, cycles_t &start) const;
    void fold(Ref n); // n's chain above it into a summary held by n

    // collect's table of the keys of a chain's links (slot: the key's hash, then the next free).
    static constexpr unsigned kSlots = 256;
    static_assert(kSlots >= 2 * (kFold + 1) && kSlots <= 256, "slots fit in a byte");
    struct Table {
        uint32_t now = 0;             // the stamp of the collect under way
        uint32_t stamp[kSlots] = {};  // a slot is in use when it carries now
        uint32_t key[kSlots];
        uint64_t cycles[kSlots], count[kSlots];
    };
    mutable Table table_;

    std::vector<Node> nodes_;
    Ref dead_ = kNone; // the dead nodes, linked by refs (last dead first)
    std::vector<Summary> sums_;
    std::vector<uint32_t> free_sums_;
};

} // namespace dv
