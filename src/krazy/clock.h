/* krazy/clock.h -- a monotonic clock for search time limits and C-side timings.
 *
 * POSIX: clock_gettime(CLOCK_MONOTONIC) (Linux, macOS 10.12 on, the BSDs); Windows:
 * QueryPerformanceCounter.  Seconds as a double, or whole nanoseconds.
 */
#ifndef KRAZY_CLOCK_H
#define KRAZY_CLOCK_H
#include <stdint.h>

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

static inline int64_t kz_monotonic_ns(void) {
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (int64_t)(c.QuadPart / f.QuadPart) * 1000000000
        + (int64_t)((c.QuadPart % f.QuadPart) * 1000000000 / f.QuadPart);
}
static inline double kz_monotonic_s(void) { return 1e-9 * (double)kz_monotonic_ns(); }

#else
#include <time.h>

static inline int64_t kz_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}
static inline double kz_monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

#endif
