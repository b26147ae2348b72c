// model/Zeros.cpp - the mappings behind Zeros arrays, kept for reuse (model/Zeros.h).
#include "Zeros.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#include <vector>

#include "dv/hostmem.h"

namespace dv {

namespace {
// Kept mappings: at most kKeep of them and kKeepBytes in all (their address space; their memory is
// the pages a run wrote, cleared when one is taken again).  A process's models all draw on them.
constexpr size_t kKeep = 256;
constexpr size_t kKeepBytes = size_t{1} << 30;

struct Kept {
    void *p;
    size_t bytes; // the mapping's length: whole pages
    Pages pages;
};

struct Pool {
    std::mutex mu;
    std::vector<Kept> kept;
    size_t bytes = 0;
};

Pool &pool()
{
    static Pool *p = new Pool; // (never destroyed: Zeros in static objects may give theirs back at exit)
    return *p;
}

// Mappings are kept only on a host without swap: there a written page of a private anonymous
// mapping stays in memory, so mincore tells every page that needs clearing; a page swapped out
// would read back its data, yet be reported as not in memory.
bool keeping()
{
    static const bool keep = [] {
        struct sysinfo si;
        return sysinfo(&si) == 0 && si.totalswap == 0;
    }();
    return keep;
}

size_t page_size()
{
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

size_t whole_pages(size_t bytes)
{
    const size_t page = page_size();
    return (bytes + page - 1) / page * page;
}

constexpr size_t kHuge = DV_HUGE_PAGE_BYTES;

// A mapping's length for an array of `bytes` (zeros_take's bound): whole pages, and for a Dense
// one of half a huge page or more, whole huge pages (the L2's set headers, 1.5 MB: 384 faults
// otherwise).
size_t mapping_len(size_t bytes, Pages pages)
{
    if (pages == Pages::Dense && bytes >= kHuge / 2)
        return (bytes + kHuge - 1) / kHuge * kHuge;
    return whole_pages(bytes);
}

// Zero the pages of [p, p + bytes) that are in memory (mincore: those written since the mapping was
// made, or since they were last cleared here), each run of them with one memset; the others read as
// zero already.  Where mincore fails, every page.
void clear_written(void *p, size_t bytes)
{
    const size_t page = page_size(), pages = bytes / page;
    std::vector<unsigned char> in(pages);
    if (mincore(p, bytes, in.data()) != 0) {
        std::memset(p, 0, bytes);
        return;
    }
    unsigned char *const base = static_cast<unsigned char *>(p);
    for (size_t i = 0; i < pages;) {
        if (!(in[i] & 1)) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < pages && (in[j] & 1))
            j++;
        std::memset(base + i * page, 0, (j - i) * page);
        i = j;
    }
}

// A new mapping of len bytes (mapping_len); Dense, at least one huge page long: on a huge page's
// boundary (mapped with a huge page's room to spare, which is unmapped again) and advised for huge
// pages (dv_advise_huge).
void *map_zeros(size_t len, Pages pages)
{
    if (pages == Pages::Dense && len >= kHuge) {
        void *m = mmap(nullptr, len + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return nullptr;
        char *const base = static_cast<char *>(m);
        char *const p = base + (kHuge - reinterpret_cast<uintptr_t>(base) % kHuge) % kHuge; // the boundary
        if (p > base)
            munmap(base, static_cast<size_t>(p - base));
        munmap(p + len, static_cast<size_t>(base + kHuge - p)); // the rest of the room (p < base + kHuge)
        dv_advise_huge(p, p + len);
        return p;
    }
    void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}
} // namespace

void *zeros_take(size_t bytes, Pages pages)
{
    if (bytes > SIZE_MAX - 2 * kHuge) // (its mapping, and the room to place it, would not fit in a size_t)
        return nullptr;
    const size_t len = mapping_len(bytes, pages);
    Pool &pl = pool();
    void *p = nullptr;
    {
        std::lock_guard<std::mutex> lock(pl.mu);
        for (size_t i = pl.kept.size(); i-- > 0;)
            if (pl.kept[i].bytes == len && pl.kept[i].pages == pages) {
                p = pl.kept[i].p;
                pl.kept.erase(pl.kept.begin() + static_cast<std::ptrdiff_t>(i));
                pl.bytes -= len;
                break;
            }
    }
    if (p) {
        clear_written(p, len);
        return p;
    }
    return map_zeros(len, pages);
}

void zeros_give(void *p, size_t bytes, Pages pages)
{
    const size_t len = mapping_len(bytes, pages);
    Pool &pl = pool();
    {
        std::lock_guard<std::mutex> lock(pl.mu);
        if (keeping() && pl.kept.size() < kKeep && pl.bytes + len <= kKeepBytes) {
            pl.kept.push_back(Kept{p, len, pages});
            pl.bytes += len;
            return;
        }
    }
    munmap(p, len);
}

size_t zeros_kept()
{
    Pool &pl = pool();
    std::lock_guard<std::mutex> lock(pl.mu);
    return pl.kept.size();
}

} // namespace dv
