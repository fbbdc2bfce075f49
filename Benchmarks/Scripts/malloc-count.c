// A malloc counter for the chat demo's benchmark: preloaded, it counts every allocation
// (malloc, calloc, realloc, aligned forms) so the benchmark can report how many happen during
// a warm switch. Build and use it with Scripts/count-allocations.sh.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdatomic.h>

static atomic_ulong count;

unsigned long livery_malloc_count(void) { return atomic_load(&count); }

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

void *malloc(size_t size) { atomic_fetch_add(&count, 1); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { atomic_fetch_add(&count, 1); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { atomic_fetch_add(&count, 1); return __libc_realloc(p, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    atomic_fetch_add(&count, 1);
    void *p = __libc_memalign(alignment, size);
    if (!p) return 12;
    *out = p;
    return 0;
}
void *aligned_alloc(size_t alignment, size_t size) { atomic_fetch_add(&count, 1); return __libc_memalign(alignment, size); }
void *memalign(size_t alignment, size_t size) { atomic_fetch_add(&count, 1); return __libc_memalign(alignment, size); }
