/* krazy/pool.h -- the worker-thread pool of krazy_core.vector.VectorEnv (kzv_pool_*). */
#ifndef KRAZY_POOL_H
#define KRAZY_POOL_H

/* A pool of persistent worker threads for VectorEnv: one call runs
 * fn(ctx, k, kind) for every chunk k in 0..n (chunk 0 on the calling thread, chunk k >= 1
 * on worker k), then returns; no Python object is touched, so the caller releases the
 * GIL around it.  Between calls a worker spins for up to KZV_SPIN_NS on the call counter,
 * then sleeps on a condition variable; the caller spins as long for the workers to end.
 * Waking a sleeping thread on another core costs tens of microseconds on a VM, as much as
 * stepping a thousand envs, so a training loop that calls step() again within the spin
 * never pays it (a worker spins at most KZV_SPIN_NS of CPU per call). */
#if !defined(_WIN32)
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
#if defined(__GNUC__) || defined(__clang__)
#  define KZV_LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#  define KZV_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#  define KZV_ADD(x, v) __atomic_add_fetch(&(x), (v), __ATOMIC_ACQ_REL)
#  if defined(__x86_64__) || defined(__i386__)
#    define KZV_RELAX() __builtin_ia32_pause()
#  elif defined(__aarch64__)
#    define KZV_RELAX() __asm__ __volatile__("yield")
#  else
#    define KZV_RELAX() ((void)0)
#  endif
#  define KZV_SPIN_NS 1000000L  /* 1 ms */
#else                           /* no atomics known: the mutex alone, no spinning */
#  define KZV_LOAD(x) (x)
#  define KZV_STORE(x, v) ((x) = (v))
#  define KZV_ADD(x, v) ((x) += (v))
#  define KZV_RELAX() ((void)0)
#  define KZV_SPIN_NS 0L
#endif
typedef void (*kzv_fn)(void *ctx, int k, int kind);
typedef struct kzv_pool kzv_pool;
typedef struct { kzv_pool *p; int k; } kzv_arg;
struct kzv_pool {
    int n;                  /* worker threads: chunks 1..n */
    pthread_t *th;
    kzv_arg *args;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    long gen;               /* calls made: a worker runs once per new value */
    int pending;            /* workers still running this call */
    int stop;
    int kind;
    kzv_fn fn;
    void *ctx;
    long spin_ns;           /* how long a thread spins before it sleeps (0: never spins) */
};
static long kzv_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}
/* Spin until *x != v (returns 1) or KZV_SPIN_NS pass (returns 0). */
/* Spin until *x != v (until_zero = 0) or *x == 0 (until_zero = 1): returns 1, or 0 when
 * p->spin_ns passed.  After the first few hundred pauses each turn yields the core, so a
 * thread that has work (more threads than cores, a loaded machine) runs in its place. */
static int kzv_spin(const kzv_pool *p, long *xl, int *xi, long v) {
    long t0 = 0;
    int k = 0;
    if (p->spin_ns <= 0) return 0;
    for (;;) {
        if (xl != NULL ? KZV_LOAD(*xl) != v : KZV_LOAD(*xi) == 0) return 1;
        if (k < 256) KZV_RELAX(); else sched_yield();
        if ((++k & 63) == 0) {
            long t = kzv_now_ns();
            if (t0 == 0) t0 = t;
            else if (t - t0 > p->spin_ns) return 0;
        }
    }
}
static void *kzv_main(void *arg) {
    kzv_arg *a = (kzv_arg *)arg;
    kzv_pool *p = a->p;
    long seen = 0;
    for (;;) {
        /* spin on the call counter (stop() also moves it), then sleep */
        if (!kzv_spin(p, &p->gen, NULL, seen)) {
            pthread_mutex_lock(&p->mu);
            while (KZV_LOAD(p->gen) == seen && !p->stop) pthread_cond_wait(&p->go, &p->mu);
            pthread_mutex_unlock(&p->mu);
        }
        if (KZV_LOAD(p->stop)) return NULL;
        seen = KZV_LOAD(p->gen);
        p->fn(p->ctx, a->k, KZV_LOAD(p->kind));
        if (KZV_ADD(p->pending, -1) == 0) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}
/* n workers; returns 0, or -1 when a thread could not start (none left running). */
static int kzv_pool_start(kzv_pool *p, int n, kzv_fn fn, void *ctx) {
    int k;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->n = 0; p->gen = 0; p->pending = 0; p->stop = 0; p->kind = 0; p->fn = fn; p->ctx = ctx;
    /* more threads than cores: a spinning thread would hold a core another one needs */
    p->spin_ns = (cpus > 0 && n + 1 <= cpus) ? KZV_SPIN_NS : 0;
    p->th = (pthread_t *)calloc((size_t)n + 1, sizeof(pthread_t));
    p->args = (kzv_arg *)calloc((size_t)n + 1, sizeof(kzv_arg));
    if (p->th == NULL || p->args == NULL) { free(p->th); free(p->args); p->th = NULL; p->args = NULL; return -1; }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (k = 1; k <= n; ++k) {
        p->args[k].p = p;
        p->args[k].k = k;
        if (pthread_create(&p->th[k], NULL, kzv_main, &p->args[k]) != 0) break;
        p->n = k;
    }
    if (p->n != n) return -1;
    return 0;
}
static void kzv_pool_run(kzv_pool *p, int kind) {
    KZV_STORE(p->kind, kind);
    KZV_STORE(p->pending, p->n);
    KZV_ADD(p->gen, 1);             /* a spinning worker starts here */
    pthread_mutex_lock(&p->mu);     /* a sleeping one here */
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    p->fn(p->ctx, 0, kind);
    if (!kzv_spin(p, NULL, &p->pending, 0)) {
        pthread_mutex_lock(&p->mu);
        while (KZV_LOAD(p->pending) > 0) pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}
static void kzv_pool_stop(kzv_pool *p) {
    int k;
    if (p->th == NULL) return;
    pthread_mutex_lock(&p->mu);
    KZV_STORE(p->stop, 1);
    KZV_ADD(p->gen, 1);             /* a spinning worker sees the counter move */
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (k = 1; k <= p->n; ++k) pthread_join(p->th[k], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->th);
    free(p->args);
    p->th = NULL;
    p->args = NULL;
    p->n = 0;
}
#else   /* Windows: no pthreads; one call runs every chunk in turn on the calling thread
         * (the same results, as they never depend on the thread count; no speed-up) */
typedef void (*kzv_fn)(void *ctx, int k, int kind);
typedef struct kzv_pool { int n; kzv_fn fn; void *ctx; } kzv_pool;
static int kzv_pool_start(kzv_pool *p, int n, kzv_fn fn, void *ctx) {
    p->n = n; p->fn = fn; p->ctx = ctx;
    return 0;
}
static void kzv_pool_run(kzv_pool *p, int kind) {
    int k;
    for (k = 0; k <= p->n; ++k) p->fn(p->ctx, k, kind);
}
static void kzv_pool_stop(kzv_pool *p) { p->n = 0; }
#endif

#endif /* KRAZY_POOL_H */
