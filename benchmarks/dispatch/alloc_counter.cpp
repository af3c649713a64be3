// SPDX-License-Identifier: BSL-1.0
// Counting replacements of the global operator new and delete (all forms that allocate, the
// aligned ones included), and of operator delete, which counts the non-null pointers it frees
// (main.cpp's self-test checks that each case frees everything it allocates).

#include "alloc_counter.hpp"

#include <cstdlib>
#include <new>

namespace {

std::size_t calls = 0;
std::size_t bytes = 0;
std::size_t frees = 0;

void release(void* p) noexcept {
    if (p != nullptr) ++frees;
    std::free(p);
}

void* allocate(std::size_t size) {
    ++calls;
    bytes += size;
    if (size == 0) size = 1;
    return std::malloc(size);
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) {
    ++calls;
    bytes += size;
    std::size_t a = static_cast<std::size_t>(alignment);
    if (a < sizeof(void*)) a = sizeof(void*);
    const std::size_t rounded = (size + a - 1) / a * a;
    return std::aligned_alloc(a, rounded == 0 ? a : rounded);
}

} // namespace

namespace bench {
allocation_counts allocations() noexcept { return {calls, bytes, frees}; }
} // namespace bench

void* operator new(std::size_t size) {
    if (void* p = allocate(size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    if (void* p = allocate(size)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new(std::size_t size, std::align_val_t a) {
    if (void* p = allocate_aligned(size, a)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t a) {
    if (void* p = allocate_aligned(size, a)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate_aligned(size, a);
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate_aligned(size, a);
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
